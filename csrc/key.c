/* key.c -- normalising a trick-boundary position into a table key. */
#include "key.h"

/* Tables: offset3[n] = (3^n - 1) / 2; shape_of[u] is the shape of the
 * 10-bit suit mask u. */
static uint32_t offset3[11];
static uint8_t shape_of[1 << 10];
/* owners5[u][a][b]: the owner digits (1 for the bits of a, 2 for those of
 * b, 0 else) of the bits selected by the 5-bit mask u, packed as a base-3
 * number (lowest selected bit first; < 243).  A suit's signature is read
 * there from its two 5-rank halves (two loads, no per-bit loop). */
static uint8_t owners5[32][32][32];
static const uint16_t pow3[6] = {1, 3, 9, 27, 81, 243};

void key_tables_init(void) {
    for (unsigned u = 0; u < 32; u++)
        for (unsigned a = 0; a < 32; a++)
            for (unsigned b = 0; b < 32; b++) {
                unsigned v = 0, p3 = 1;
                for (unsigned i = 0; i < 5; i++)
                    if (u >> i & 1) {
                        v += p3 * ((a >> i & 1) + 2 * (b >> i & 1));
                        p3 *= 3;
                    }
                owners5[u][a][b] = (uint8_t)v; /* < 243 when a, b are disjoint (always in use) */
            }
    unsigned pw = 1;
    for (unsigned n = 0; n <= 10; n++, pw *= 3) offset3[n] = (pw - 1) / 2;
    for (unsigned b = 0; b < (1u << 10); b++) {
        unsigned n0 = cs_popcount10[b & CS_RANKS_ZERO], n1 = cs_popcount10[b & 0x070u];
        unsigned a = (b >> 7) & 1u, n2 = cs_popcount10[b & 0x300u];
        shape_of[b] = (uint8_t)(((n0 * 4 + n1) * 2 + a) * 3 + n2);
    }
}

static inline uint32_t suit_structure(uint32_t u, uint32_t h1, uint32_t h2) {
    uint32_t lo = u & 31u, hi = u >> 5;
    return offset3[cs_popcount10[u]] + owners5[lo][h1 & 31u][h2 & 31u] +
           (uint32_t)pow3[cs_popcount10[lo]] * owners5[hi][h1 >> 5][h2 >> 5];
}

uint32_t key_suit_structure(uint32_t u, uint32_t h1, uint32_t h2) { return suit_structure(u, h1, h2); }

uint32_t key_suit_shape(uint32_t u) { return shape_of[u]; }

int key_shape_count(uint32_t shape) {
    uint32_t n2 = shape % 3, a = shape / 3 % 2, n1 = shape / 6 % 4, n0 = shape / 24;
    return (int)(n0 + n1 + a + n2);
}

int key_shape_points(uint32_t shape, int i) {
    int n2 = (int)(shape % 3), a = (int)(shape / 3 % 2), n1 = (int)(shape / 6 % 4), n0 = (int)(shape / 24);
    (void)n2;
    if (i < n0) return 0;
    if (i < n0 + n1) return 1;
    if (i < n0 + n1 + a) return 3;
    return 1;
}

/* Compare-exchange of sorting-network positions i < j. */
#define CSWAP(i, j)               \
    do {                          \
        if (sig[i] > sig[j]) {    \
            uint32_t t_ = sig[i]; \
            sig[i] = sig[j];      \
            sig[j] = t_;          \
        }                         \
    } while (0)

void key_of(const pos_t *p, int canonical, tt_key *out) {
    int sol = p->soloist;
    uint64_t all = pos_all(p);
    uint64_t r1 = p->hand[cs_seat_mod3[sol + 1]];
    uint64_t r2 = p->hand[cs_seat_mod3[sol + 2]];
    uint32_t sig[4]; /* structure << 7 | shape: sorting it keeps each shape with its suit */
    for (int s = 0; s < 4; s++) {
        uint32_t u = cs_suit_of_mask(all, s);
        sig[s] = suit_structure(u, cs_suit_of_mask(r1, s), cs_suit_of_mask(r2, s)) << 7 | shape_of[u];
    }
    if (canonical) {
        /* Optimal 4-element sorting network. */
        CSWAP(0, 1);
        CSWAP(2, 3);
        CSWAP(0, 2);
        CSWAP(1, 3);
        CSWAP(1, 2);
    }
    uint64_t lead_rel = cs_seat_mod3[p->leader + 3 - sol];
    uint64_t st[4];
    for (int i = 0; i < 4; i++) st[i] = sig[i] >> 7;
    out->s0 = st[0] | st[1] << 17 | st[2] << 34 | (st[3] & 0x1FFFu) << 51;
    out->s1 = (uint32_t)(st[3] >> 13 | lead_rel << 4);
    out->shapes = (sig[0] & 0x7Fu) | (sig[1] & 0x7Fu) << 7 | (sig[2] & 0x7Fu) << 14 | (sig[3] & 0x7Fu) << 21;
    out->bonus = p->bonus & 0xFu;
}
