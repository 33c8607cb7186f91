/* movegen.c -- legal moves, equivalence classes, move ordering. */
#include "movegen.h"

/* Ordering scores.  The search is correct whatever the order; these only
 * decide which card is tried first.  Principles (as in bridge solvers):
 *  - on lead, cash sure winners first; a defender leads low to a partner
 *    holding the top card, otherwise low and cheap; the soloist's other
 *    leads prefer point cards and short suits;
 *  - in 2nd/3rd seat, win as cheaply as possible when you can win, play low
 *    (few thirds, low rank) when you can't, and pile points on a trick your
 *    side is sure to win. */
typedef struct {
    const pos_t *p;
    int me, sol;
    uint64_t others;
    /* following (ntrick > 0) */
    int led, wcard, partner_winning, last, w_safe, next_is_partner;
    uint32_t nsuit; /* the next player's cards of the suit led (2nd seat) */
} score_ctx;

static void score_init(score_ctx *c, const pos_t *p, int me, uint64_t others) {
    *c = (score_ctx){0};
    c->p = p;
    c->me = me;
    c->sol = p->soloist;
    c->others = others;
    if (p->ntrick == 0) return;
    c->led = p->trick[0] / 10;
    int wi = pos_trick_winner_index(p, p->ntrick);
    c->wcard = p->trick[wi];
    int wseat = cs_seat_mod3[p->leader + wi];
    c->partner_winning = (wseat != c->sol) && (me != c->sol);
    c->last = p->ntrick == 2;
    int next = cs_next_seat[me];
    c->nsuit = cs_suit_of_mask(p->hand[next], c->led);
    /* Can the player after me (2nd seat only) still beat the current winner? */
    c->w_safe = c->last || c->nsuit == 0 || cs_msb32(c->nsuit) + c->led * 10 < c->wcard;
    c->next_is_partner = (me != c->sol) && (next != c->sol);
}

static int score_move(const score_ctx *c, int card) {
    const pos_t *p = c->p;
    int s = card / 10, r = card % 10, pts = cs_card_points[card];
    int me = c->me, sol = c->sol;
    uint32_t o = cs_suit_of_mask(c->others, s);

    if (p->ntrick == 0) {
        /* Leading. */
        if ((o >> (r + 1)) == 0) {
            /* A sure winner of this trick: nobody else holds a higher card. */
            int followers = cs_popcount10[o];
            return 200 + 8 * pts + 2 * followers + r;
        }
        if (me != sol) {
            int partner = 3 - me - sol;
            uint32_t pm = cs_suit_of_mask(p->hand[partner], s);
            uint32_t sm = cs_suit_of_mask(p->hand[sol], s);
            if (pm && (sm == 0 || cs_msb32(pm) > cs_msb32(sm))) {
                /* Partner wins the suit: lead low to them. */
                return 150 - 10 * pts - r;
            }
            return 100 - 12 * pts - r;
        }
        /* The soloist's non-winning leads that work are most often point
         * cards (getting them out of the way) and leads from short suits. */
        return 100 + 20 * pts - r - 5 * cs_popcount10[cs_suit_of_mask(p->hand[me], s)];
    }

    if (s == c->led) {
        int beats = card > c->wcard;
        if (c->last) {
            if (c->partner_winning) return 150 + 10 * pts;
            if (beats) return 200 + 3 * pts - r;
            return 100 - 12 * pts - r;
        }
        /* 2nd seat. */
        if (c->partner_winning && c->w_safe) return 150 + 10 * pts;
        if (beats) {
            int sure = c->nsuit == 0 || cs_msb32(c->nsuit) < r;
            if (sure) return 200 + 3 * pts - r;
            if (c->next_is_partner) return 100 - 12 * pts - r;
            return 120 - 6 * pts - r;
        }
        return 100 - 12 * pts - r;
    }
    /* Discarding: pile points on a trick the partner surely wins (but keep
     * the suit's top card), else throw the cheapest card. */
    int top = (o >> (r + 1)) == 0;
    if (c->partner_winning && c->w_safe) return 150 + 10 * pts - r - 30 * top;
    return 100 - 12 * pts - r - 30 * top;
}

int mg_generate(const pos_t *p, unsigned flags, cs_move *out) {
    int me = pos_to_move(p);
    uint64_t hand = p->hand[me];
    if (!hand) return 0;
    uint64_t legal = pos_legal(p);
    uint64_t live = pos_all(p);
    for (int i = 0; i < p->ntrick; i++) live |= UINT64_C(1) << p->trick[i];
    uint64_t others = live & ~hand;
    int n = 0;

    for (int s = 0; s < 4; s++) {
        uint32_t m = cs_suit_of_mask(legal, s);
        if (!m) continue;
        uint32_t o = cs_suit_of_mask(others, s);
        while (m) {
            int hi = cs_msb32(m);
            uint32_t cls = 1u << hi;
            m ^= cls;
            int low = hi;
            if (flags & MG_EQUIV) {
                int pts = cs_card_points[hi];
                while (m) {
                    int nx = cs_msb32(m);
                    uint32_t between = ((1u << low) - 1) & ~((2u << nx) - 1);
                    if ((o & between) || cs_card_points[nx] != pts) break;
                    cls |= 1u << nx;
                    m ^= 1u << nx;
                    low = nx;
                }
            }
            cs_move *mv = &out[n++];
            mv->card = (uint8_t)(s * 10 + low);
            mv->members = (uint64_t)cls << (10 * s);
            mv->score = 0;
        }
    }

    if ((flags & MG_ORDER) && n > 1) {
        score_ctx ctx;
        score_init(&ctx, p, me, others);
        for (int i = 0; i < n; i++) out[i].score = (int16_t)score_move(&ctx, out[i].card);
        if (flags & MG_LAZY) return n;
        /* Insertion sort, descending, stable. */
        for (int i = 1; i < n; i++) {
            cs_move t = out[i];
            int j = i - 1;
            while (j >= 0 && out[j].score < t.score) {
                out[j + 1] = out[j];
                j--;
            }
            out[j + 1] = t;
        }
    }
    return n;
}
