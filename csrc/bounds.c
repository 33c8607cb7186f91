/* bounds.c -- cheap bounds: thirds in play, sure winners. */
#include "bounds.h"

/* Smallest total thirds of t cards out of the 10-bit suit mask x (all of
 * them when t >= |x|): the zero cards go first, then the ones, the Ace last. */
static inline int min_points(uint32_t x, int t) {
    int z = cs_popcount10[x & CS_RANKS_ZERO];
    if (t <= z) return 0;
    t -= z;
    int o = cs_popcount10[x & CS_RANKS_ONE];
    if (t <= o) return t;
    return o + ((x & CS_RANKS_ACE) ? 3 : 0);
}

/* Smallest total thirds of t cards out of a whole hand. */
static inline int cheapest(uint64_t h, int t) {
    uint64_t z = h & ((uint64_t)CS_RANKS_ZERO * UINT64_C(0x40100401));
    uint64_t o = h & ((uint64_t)CS_RANKS_ONE * UINT64_C(0x40100401));
    int nz = cs_popcount(z), no = cs_popcount(o);
    if (t <= nz) return 0;
    t -= nz;
    if (t <= no) return t;
    return no + 3 * (t - no);
}

int bd_cash(const pos_t *p, int *tricks_out) {
    int L = p->leader;
    int A = cs_next_seat[L], B = cs_next_seat[A];
    int pts = 0, tricks = 0, fa = 0, fb = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t l = cs_suit_of_mask(p->hand[L], s);
        if (!l) continue;
        uint32_t a = cs_suit_of_mask(p->hand[A], s);
        uint32_t b = cs_suit_of_mask(p->hand[B], s);
        /* Round by round: the leader plays his highest card, which wins
         * if it is above every card the others still hold in the suit;
         * they follow with their lowest cards (keeping the high ones is
         * what stops the leader soonest), so short holdings fall. */
        int t = 0;
        uint32_t played = 0, ra = a, rb = b;
        while (l) {
            int top = cs_msb32(l);
            uint32_t rest = ra | rb;
            if (rest && cs_msb32(rest) > top) break;
            t++;
            played |= 1u << top;
            l ^= 1u << top;
            ra &= ra - 1;
            rb &= rb - 1;
        }
        if (!t) continue;
        tricks += t;
        /* The leader's cards, and at least the cheapest cards the others
         * must follow with (their discards counted below). */
        pts += cs_suit_points[played];
        fa += min_points(a, t);
        fb += min_points(b, t);
    }
    /* Each of the others gives one card to each of these tricks: at least
     * the cheapest cards they must follow with, and at least their
     * `tricks` cheapest cards whatever the suits. */
    if (tricks) {
        int ga = cheapest(p->hand[A], tricks), gb = cheapest(p->hand[B], tricks);
        pts += (fa > ga ? fa : ga) + (fb > gb ? fb : gb);
    }
    *tricks_out = tricks;
    return pts;
}

void bd_quick(const pos_t *p, int rem, int *lb, int *ub) {
    int tricks;
    int cash = bd_cash(p, &tricks);
    int left = cs_popcount(p->hand[p->leader]);
    if (tricks >= left) cash = rem; /* the side on lead takes everything */
    if (p->leader == p->soloist) {
        *lb = cash;
        *ub = rem;
    } else {
        *lb = 0;
        *ub = rem - cash;
    }
}
