/* key.c -- normalising a trick-boundary position into an exact table key. */
#include "key.h"

/* Tables for the owner code: pext5[u][x] packs the bits of x selected by
 * the 5-bit mask u to the bottom (a software PEXT, no BMI2 needed), and
 * base3[b] reads the bits of b as base-3 digits 0/1. */
static uint8_t pext5[32][32];
static uint16_t base3[1 << 10];
static uint16_t shape_of[1 << 10];

void key_tables_init(void) {
    for (unsigned u = 0; u < 32; u++)
        for (unsigned x = 0; x < 32; x++) {
            unsigned out = 0, k = 0;
            for (unsigned i = 0; i < 5; i++)
                if (u >> i & 1) out |= (x >> i & 1u) << k++;
            pext5[u][x] = (uint8_t)out;
        }
    for (unsigned b = 0; b < (1u << 10); b++) {
        unsigned v = 0, pw = 1;
        for (unsigned i = 0; i < 10; i++, pw *= 3)
            if (b >> i & 1) v += pw;
        base3[b] = (uint16_t)v;
        unsigned n0 = cs_popcount10[b & CS_RANKS_ZERO], n1 = cs_popcount10[b & 0x070u];
        unsigned a = (b >> 7) & 1u, n2 = cs_popcount10[b & 0x300u];
        shape_of[b] = (uint16_t)(((n0 * 4 + n1) * 2 + a) * 3 + n2);
    }
}

static inline uint32_t pext10(uint32_t x, uint32_t u) {
    uint32_t lo = u & 31u, hi = u >> 5;
    return pext5[lo][x & 31u] | (uint32_t)pext5[hi][(x >> 5) & 31u] << cs_popcount10[lo];
}

uint32_t key_suit_signature(uint32_t u, uint32_t h1, uint32_t h2) {
    uint32_t code = base3[pext10(h1, u)] + 2u * base3[pext10(h2, u)];
    return (uint32_t)shape_of[u] << 16 | code;
}

/* Compare-exchange of sorting-network positions i < j, moving the
 * permutation along. */
#define CSWAP(i, j)                       \
    do {                                  \
        if (sig[i] > sig[j]) {            \
            uint32_t t_ = sig[i];         \
            sig[i] = sig[j];              \
            sig[j] = t_;                  \
            uint8_t u_ = perm[i];         \
            perm[i] = perm[j];            \
            perm[j] = u_;                 \
        }                                 \
    } while (0)

void key_of(const pos_t *p, int canonical, tt_key *out, uint8_t perm[4]) {
    int sol = p->soloist;
    uint64_t all = pos_all(p);
    uint64_t r1 = p->hand[cs_seat_mod3[sol + 1]];
    uint64_t r2 = p->hand[cs_seat_mod3[sol + 2]];
    uint32_t sig[4];
    for (int s = 0; s < 4; s++) perm[s] = (uint8_t)s;
    for (int s = 0; s < 4; s++)
        sig[s] = key_suit_signature(cs_suit_of_mask(all, s), cs_suit_of_mask(r1, s),
                                    cs_suit_of_mask(r2, s));
    if (canonical) {
        /* Optimal 4-element sorting network. */
        CSWAP(0, 1);
        CSWAP(2, 3);
        CSWAP(0, 2);
        CSWAP(1, 3);
        CSWAP(1, 2);
    }
    uint64_t lead_rel = cs_seat_mod3[p->leader + 3 - sol];
    out->k0 = (uint64_t)sig[0] | (uint64_t)sig[1] << 23 | (uint64_t)(sig[2] & 0x3FFFFu) << 46;
    out->k1 = (uint64_t)(sig[2] >> 18) | (uint64_t)sig[3] << 5 | lead_rel << 28 |
              (uint64_t)(p->bonus & 0xFu) << 30;
}
