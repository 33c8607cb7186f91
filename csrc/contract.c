/* contract.c -- a seat's decision by the contract-minded PIMC rule: layouts
 * of the unseen cards dealt uniformly among those that fit what the seat
 * knows (cs_deal_layouts), and the card that meets the goal (soloist) or
 * stops it (defenders) on the most of them (cs_contract_choose).
 *
 * The rule is calasolve.play.target.ContractPimcPlayer's with the `levels`
 * rest, step for step: the tally below is its _tally (best first, the
 * cards that can no longer win dropped, one test of the position where a
 * card fails to help), so for the same layouts it plays the same card.
 * Only the layouts' random stream is the core's own (splitmix64). */
#include <stdlib.h>
#include <string.h>

#include "calasolve.h"
#include "contract.h"
#include "position.h"

/* ---- the random stream ------------------------------------------------- */

static inline uint64_t mix64(uint64_t z) {
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

#define GOLDEN UINT64_C(0x9E3779B97F4A7C15)

typedef struct {
    uint64_t state;
} rng_t;

static void rng_seed(rng_t *r, uint64_t seed, uint64_t stream) {
    r->state = mix64(seed ^ mix64(stream + GOLDEN));
}

static inline uint64_t rng_next(rng_t *r) { return mix64(r->state += GOLDEN); }

/* Uniform in [0, n), n >= 1: rejection below the largest multiple of n. */
static uint64_t rng_below(rng_t *r, uint64_t n) {
    uint64_t floor = (0 - n) % n; /* 2^64 mod n */
    for (;;) {
        uint64_t x = rng_next(r);
        if (x >= floor) return x % n;
    }
}

/* ---- uniform layouts ---------------------------------------------------- */

#define PLACES 4 /* seats 0..2, the monte */
#define MONTE 3

/* Binomials up to 40 choose k (all below 2^38). */
static uint64_t binom[CS_NUM_CARDS + 1][CS_NUM_CARDS + 1];

void contract_tables_init(void) {
    for (int n = 0; n <= CS_NUM_CARDS; n++) {
        binom[n][0] = 1;
        for (int k = 1; k <= n; k++) binom[n][k] = binom[n - 1][k - 1] + (k < n ? binom[n - 1][k] : 0);
    }
}

/* The counting of one view: the three places other than the seat's, the
 * unseen cards grouped by the places each may be, and after each group the
 * ways to fill every count of the places (a flat array, `dims` counts a
 * group: index (a * (need[1] + 1) + b) * (need[2] + 1) + c). */
typedef struct {
    int place[3];      /* the places dealt to */
    int need[3];       /* unseen cards each still needs */
    int ngroups;
    uint64_t cards[7]; /* a group's cards (by bits over the three places, 1..7) */
    int allowed[7];    /* the group's places, a bit per place index 0..2 */
    int size[7];
    int dims;
    uint64_t *ways; /* (ngroups + 1) * dims */
} count_t;

static inline int cell(const count_t *C, int a, int b, int c) {
    return (a * (C->need[1] + 1) + b) * (C->need[2] + 1) + c;
}

/* The ways to split n cards into counts k[0..2] over the allowed places. */
static inline uint64_t multinomial(int n, int allowed, const int k[3]) {
    uint64_t m = 1;
    for (int i = 0; i < 3; i++) {
        if (k[i] && !(allowed >> i & 1)) return 0;
        m *= binom[n][k[i]];
        n -= k[i];
    }
    return n == 0 ? m : 0;
}

/* Fills C for `v` (seat `seat`): CS_OK, CS_ENOMEM, or 1 when no layout fits. */
static int count_layouts(const cs_seat_view *v, count_t *C) {
    C->ways = NULL;
    uint64_t placed = v->placed[0] | v->placed[1] | v->placed[2] | v->placed[3];
    uint64_t unseen = 0;
    int j = 0, total_need = 0;
    for (int p = 0; p < PLACES; p++) {
        if (p == v->seat) continue;
        C->place[j] = p;
        C->need[j] = v->sizes[p] - cs_popcount(v->placed[p]);
        if (C->need[j] < 0) return 1;
        total_need += C->need[j];
        unseen |= v->may[p] & ~placed & CS_DECK;
        j++;
    }
    if (cs_popcount(unseen) != total_need) return 1;
    uint64_t by_bits[8] = {0};
    for (uint64_t u = unseen; u; u &= u - 1) {
        int card = cs_lsb(u), bits = 0;
        for (int i = 0; i < 3; i++)
            if (v->may[C->place[i]] >> card & 1) bits |= 1 << i;
        by_bits[bits] |= UINT64_C(1) << card;
    }
    C->ngroups = 0;
    for (int bits = 1; bits < 8; bits++) {
        if (!by_bits[bits]) continue;
        C->cards[C->ngroups] = by_bits[bits];
        C->allowed[C->ngroups] = bits;
        C->size[C->ngroups] = cs_popcount(by_bits[bits]);
        C->ngroups++;
    }
    C->dims = (C->need[0] + 1) * (C->need[1] + 1) * (C->need[2] + 1);
    C->ways = calloc((size_t)(C->ngroups + 1) * (size_t)C->dims, sizeof *C->ways);
    if (!C->ways) return CS_ENOMEM;
    C->ways[0] = 1;
    for (int g = 0; g < C->ngroups; g++) {
        const uint64_t *before = C->ways + (size_t)g * C->dims;
        uint64_t *after = C->ways + (size_t)(g + 1) * C->dims;
        int n = C->size[g], k[3];
        for (k[0] = 0; k[0] <= n && k[0] <= C->need[0]; k[0]++)
            for (k[1] = 0; k[0] + k[1] <= n && k[1] <= C->need[1]; k[1]++) {
                k[2] = n - k[0] - k[1];
                if (k[2] > C->need[2]) continue;
                uint64_t m = multinomial(n, C->allowed[g], k);
                if (!m) continue;
                for (int a = 0; a + k[0] <= C->need[0]; a++)
                    for (int b = 0; b + k[1] <= C->need[1]; b++)
                        for (int c = 0; c + k[2] <= C->need[2]; c++) {
                            uint64_t w = before[cell(C, a, b, c)];
                            if (w) after[cell(C, a + k[0], b + k[1], c + k[2])] += w * m;
                        }
            }
    }
    return C->ways[(size_t)C->ngroups * C->dims + cell(C, C->need[0], C->need[1], C->need[2])] ? CS_OK : 1;
}

/* One layout: the groups from the last, each split among the places in
 * proportion to its ways, its cards shuffled into that split. */
static int deal_one(const cs_seat_view *v, const count_t *C, rng_t *r, uint64_t out[PLACES]) {
    for (int p = 0; p < PLACES; p++) out[p] = v->placed[p];
    int at[3] = {C->need[0], C->need[1], C->need[2]};
    for (int g = C->ngroups - 1; g >= 0; g--) {
        const uint64_t *before = C->ways + (size_t)g * C->dims;
        uint64_t pick = rng_below(r, C->ways[(size_t)(g + 1) * C->dims + cell(C, at[0], at[1], at[2])]);
        int n = C->size[g], k[3] = {n, 0, 0}, found = 0;
        for (int a = 0; !found && a <= n && a <= at[0]; a++)
            for (int b = 0; a + b <= n && b <= at[1]; b++) {
                int split[3] = {a, b, n - a - b};
                if (split[2] > at[2]) continue;
                uint64_t w = multinomial(n, C->allowed[g], split) * before[cell(C, at[0] - a, at[1] - b, at[2] - split[2])];
                if (pick < w) {
                    memcpy(k, split, sizeof k);
                    found = 1;
                    break;
                }
                pick -= w;
            }
        if (!found) return CS_EINVAL; /* the counts are exact: never */
        uint8_t order[CS_NUM_CARDS];
        int m = 0;
        for (uint64_t u = C->cards[g]; u; u &= u - 1) order[m++] = (uint8_t)cs_lsb(u);
        for (int i = m - 1; i > 0; i--) { /* Fisher-Yates */
            int x = (int)rng_below(r, (uint64_t)i + 1);
            uint8_t t = order[i];
            order[i] = order[x];
            order[x] = t;
        }
        int start = 0;
        for (int i = 0; i < 3; i++) {
            for (int c = start; c < start + k[i]; c++) out[C->place[i]] |= UINT64_C(1) << order[c];
            start += k[i];
            at[i] -= k[i];
        }
    }
    return CS_OK;
}

static int valid_view(const cs_seat_view *v) {
    if (!v || v->seat > 2) return 0;
    for (int p = 0; p < PLACES; p++)
        if (v->sizes[p] > CS_NUM_CARDS || (v->placed[p] | v->may[p]) & ~CS_DECK) return 0;
    return 1;
}

int cs_deal_layouts(const cs_seat_view *v, uint64_t seed, uint64_t stream, int n, uint64_t *out) {
    if (!valid_view(v) || n < 0 || n > CS_MAX_LAYOUTS || (n > 0 && !out)) return CS_EINVAL;
    count_t C;
    int rc = count_layouts(v, &C);
    if (rc == CS_ENOMEM) return rc;
    if (rc != CS_OK) {
        free(C.ways);
        return CS_ENOLAYOUT;
    }
    rng_t r;
    rng_seed(&r, seed, stream);
    for (int i = 0; i < n && rc == CS_OK; i++) rc = deal_one(v, &C, &r, out + (size_t)PLACES * i);
    free(C.ways);
    return rc == CS_OK ? n : rc;
}

/* ---- the tally ---------------------------------------------------------- */

/* One distinct layout: the hands, the last trick's bonus and the monte's thirds. */
typedef struct {
    uint64_t hands[3];
    int bonus;       /* the last trick's thirds with the monte's */
    int monte_cards; /* the monte's thirds (a card-thirds goal counts them, not the last's own) */
    int weight;      /* times drawn */
} layout_t;

typedef struct {
    cs_solver *s;
    const cs_decision *d;
    const layout_t *lay;
    int nlay;
    int maximise;
    int mover;
    int calls;
    int error;
} tally_t;

/* What the last trick adds toward goal `g` on layout L: the monte's thirds, and the last's own unless
 * the goal counts card thirds only. */
static inline int last_bonus_of(const layout_t *L, cs_target g) { return g.cards ? L->monte_cards : L->bonus; }

static inline int same_target(cs_target a, cs_target b) {
    return a.target == b.target && (a.target < 0 || a.cards == b.cards);
}

/* Does the soloist, holding `have` already, reach goal `g` from the
 * position with these hands and trick?  (The goal's target is above `have`.) */
static int search(tally_t *T, const layout_t *L, const uint64_t hands[3], const uint8_t *trick, int ntrick,
                  int leader, int have, cs_target g) {
    int bonus = last_bonus_of(L, g);
    uint64_t left = hands[0] | hands[1] | hands[2];
    for (int i = 0; i < ntrick; i++) left |= UINT64_C(1) << trick[i];
    if (g.target - have > cs_mask_points(left) + bonus) return 0; /* more than is left */
    cs_position pos;
    memcpy(pos.hands, hands, sizeof pos.hands);
    for (int i = 0; i < ntrick; i++) pos.trick[i] = trick[i];
    pos.ntrick = (uint8_t)ntrick;
    pos.leader = (uint8_t)leader;
    pos.soloist = T->d->soloist;
    pos.last_bonus = (uint8_t)bonus;
    T->calls++;
    int r = cs_reaches(T->s, &pos, g.target - have);
    if (r < 0) T->error = r;
    return r == 1;
}

static inline int have_of(const cs_decision *d, cs_target g) { return g.cards ? d->card_thirds : d->captured; }

/* The goal from the decision's position on layout j (the mover to play). */
static int meets(tally_t *T, int j, cs_target g) {
    const cs_decision *d = T->d;
    int have = have_of(d, g);
    if (have >= g.target) return 1;
    return search(T, &T->lay[j], T->lay[j].hands, d->trick, d->ntrick, d->leader, have, g);
}

/* The goal once the mover has played `card` on layout j. */
static int meets_after(tally_t *T, int j, int card, cs_target g) {
    const cs_decision *d = T->d;
    const layout_t *L = &T->lay[j];
    uint64_t hands[3] = {L->hands[0], L->hands[1], L->hands[2]};
    hands[T->mover] &= ~(UINT64_C(1) << card);
    int have = have_of(d, g);
    if (d->ntrick < 2) {
        if (have >= g.target) return 1;
        uint8_t trick[2] = {d->trick[0], d->trick[1]};
        trick[d->ntrick] = (uint8_t)card;
        return search(T, L, hands, trick, d->ntrick + 1, d->leader, have, g);
    }
    /* the card ends the trick: the winner takes it (and the last, if it was) */
    int cards[3] = {d->trick[0], d->trick[1], card}, best = 0;
    for (int i = 1; i < 3; i++)
        if (cards[i] / 10 == cards[0] / 10 && cards[i] > cards[best]) best = i;
    int winner = cs_seat_mod3[d->leader + best];
    if (winner == d->soloist) have += cs_card_points[cards[0]] + cs_card_points[cards[1]] + cs_card_points[card];
    int over = !(hands[0] | hands[1] | hands[2]);
    if (over && winner == d->soloist) have += last_bonus_of(L, g);
    if (over || have >= g.target) return have >= g.target;
    return search(T, L, hands, NULL, 0, winner, have, g);
}

/* A phase's goal for card k on layout j: the first goal, or a rung's
 * (up where the card made the first goal there, down where it did not). */
typedef struct {
    cs_target first;
    const cs_target *rung; /* NULL: the first goal; else {up, down} */
    const int8_t *made;    /* the first phase's results, [rep][layout] */
} goal_of_t;

static inline cs_target goal_of(const goal_of_t *G, int rep, int j, int nlay) {
    if (!G->rung) return G->first;
    return G->made[(size_t)rep * nlay + j] ? G->rung[0] : G->rung[1];
}

/* _tally: results[rep][j] (-1 untested), and the cards best for the mover
 * (the most layouts by weight where the goal is met, soloist, or missed,
 * defenders) kept in `cands` order: returns how many, in `best`. */
static int tally(tally_t *T, const goal_of_t *G, const int *cands, int ncands, int8_t *results, int *best,
                 uint8_t *tested, int *good, int *upper) {
    int n = T->nlay, total = 0, live[CS_NUM_CARDS], nlive = ncands;
    for (int j = 0; j < n; j++) total += T->lay[j].weight;
    memset(tested, 0, (size_t)n);
    for (int i = 0; i < ncands; i++) {
        live[i] = cands[i];
        good[cands[i]] = 0;
        upper[cands[i]] = total;
        memset(results + (size_t)cands[i] * n, -1, (size_t)n);
    }
    for (;;) {
        int floor = 0, m = 0;
        for (int i = 0; i < nlive; i++)
            if (good[live[i]] > floor) floor = good[live[i]];
        for (int i = 0; i < nlive; i++)
            if (upper[live[i]] >= floor) live[m++] = live[i];
        nlive = m;
        int r = -1;
        for (int i = 0; i < nlive; i++) {
            int c = live[i];
            if (upper[c] > good[c] && (r < 0 || upper[c] > upper[r])) r = c;
        }
        if (r < 0) break;
        int8_t *row = results + (size_t)r * n;
        int j = 0;
        while (row[j] >= 0) j++;
        cs_target g = goal_of(G, r, j, n);
        int met = g.target >= 0 && meets_after(T, j, T->d->reps[r], g);
        if (T->error) return T->error;
#define SCORE(c, v)                                                                                                \
    do {                                                                                                           \
        results[(size_t)(c) * n + j] = (int8_t)(v);                                                                \
        if ((v) == T->maximise)                                                                                    \
            good[c] += T->lay[j].weight;                                                                           \
        else                                                                                                       \
            upper[c] -= T->lay[j].weight;                                                                          \
    } while (0)
        SCORE(r, met);
        if (met == T->maximise || tested[j]) continue;
        /* this card does not help here: when no card does, one test of the position settles the others */
        int others = 0, alike = 1;
        for (int i = 0; i < nlive; i++) {
            int c = live[i];
            if (results[(size_t)c * n + j] >= 0) continue;
            others++;
            if (!same_target(goal_of(G, c, j, n), g)) alike = 0;
        }
        if (!others || !alike) continue;
        tested[j] = 1;
        int stops = g.target < 0 || meets(T, j, g) != T->maximise;
        if (T->error) return T->error;
        if (stops)
            for (int i = 0; i < nlive; i++)
                if (results[(size_t)live[i] * n + j] < 0) SCORE(live[i], met);
#undef SCORE
    }
    int top = 0, nb = 0;
    for (int i = 0; i < nlive; i++)
        if (good[live[i]] > top) top = good[live[i]];
    for (int i = 0; i < nlive; i++)
        if (good[live[i]] == top) best[nb++] = live[i];
    return nb;
}

static int valid_target(cs_target g) { return g.target <= CS_MAX_VALUE + 1 && g.cards <= 1; }

int cs_contract_choose(cs_solver *s, const cs_decision *d, uint64_t seed, uint64_t stream, int samples,
                       const cs_target *rungs, int nrungs, cs_decision_stats *st) {
    if (!s || !d || !valid_view(&d->view) || samples < 1 || samples > CS_MAX_LAYOUTS || d->nreps < 1 ||
        d->nreps > CS_NUM_CARDS || d->ntrick > 2 || d->leader > 2 || d->soloist > 2 ||
        d->captured > CS_MAX_VALUE || d->card_thirds > CS_MAX_VALUE || d->last_thirds > CS_MAX_BONUS ||
        !valid_target(d->first) || nrungs < 0 || nrungs > CS_MAX_RUNGS || (nrungs && !rungs))
        return CS_EINVAL;
    for (int i = 0; i < d->ntrick; i++)
        if (d->trick[i] >= CS_NUM_CARDS) return CS_EINVAL;
    for (int i = 0; i < d->nreps; i++)
        if (d->reps[i] >= CS_NUM_CARDS) return CS_EINVAL;
    for (int i = 0; i < 2 * nrungs; i++)
        if (!valid_target(rungs[i])) return CS_EINVAL;
    int mover = cs_seat_mod3[d->leader + d->ntrick];
    if (mover != d->view.seat) return CS_EINVAL;

    count_t C;
    int rc = count_layouts(&d->view, &C);
    if (rc == CS_ENOMEM) return rc;
    if (rc != CS_OK) {
        free(C.ways);
        return CS_ENOLAYOUT;
    }
    /* one block: the layouts, then results [2][reps][layouts], then the tested flags */
    size_t n = (size_t)samples;
    char *block = malloc(n * sizeof(layout_t) + 2 * CS_NUM_CARDS * n + n);
    if (!block) {
        free(C.ways);
        return CS_ENOMEM;
    }
    layout_t *lay = (layout_t *)block;
    int8_t *made = (int8_t *)(block + n * sizeof(layout_t));
    int8_t *results = made + CS_NUM_CARDS * n;
    uint8_t *tested = (uint8_t *)(results + CS_NUM_CARDS * n);

    rng_t r;
    rng_seed(&r, seed, stream);
    int nlay = 0;
    for (int i = 0; i < samples; i++) { /* a layout drawn again is tested once, counted twice */
        uint64_t out[PLACES];
        if (deal_one(&d->view, &C, &r, out) != CS_OK) {
            free(C.ways);
            free(block);
            return CS_EINVAL;
        }
        int k = 0;
        while (k < nlay && !(lay[k].hands[0] == out[0] && lay[k].hands[1] == out[1] && lay[k].hands[2] == out[2]))
            k++;
        if (k == nlay) {
            memcpy(lay[k].hands, out, sizeof lay[k].hands);
            lay[k].monte_cards = cs_mask_points(out[MONTE]);
            lay[k].bonus = d->last_thirds + lay[k].monte_cards;
            lay[k].weight = 0;
            nlay++;
        }
        lay[k].weight++;
    }
    free(C.ways);

    tally_t T = {s, d, lay, nlay, d->soloist == mover, mover, 0, 0};
    int cands[CS_NUM_CARDS], best[CS_NUM_CARDS], good[CS_NUM_CARDS], upper[CS_NUM_CARDS];
    for (int i = 0; i < d->nreps; i++) cands[i] = i;
    goal_of_t G = {d->first, NULL, NULL};
    int nbest = tally(&T, &G, cands, d->nreps, made, best, tested, good, upper);
    int settled = 0;
    if (nbest == d->nreps && nbest > 0) { /* every card makes it on every layout, or none on any */
        settled = 1;
        for (int i = 0; i < d->nreps && settled; i++)
            for (int j = 0; j < nlay; j++)
                if (made[(size_t)i * nlay + j] != made[0]) settled = 0;
    }
    for (int k = 0; k < nrungs && nbest >= 2; k++) {
        goal_of_t R = {d->first, rungs + 2 * k, made};
        memcpy(cands, best, sizeof(int) * (size_t)nbest);
        nbest = tally(&T, &R, cands, nbest, results, best, tested, good, upper);
    }
    int card = nbest > 0 ? d->reps[best[0]] : CS_EINVAL;
    if (T.error) card = T.error;
    if (st) {
        st->layouts = nlay;
        st->calls = T.calls;
        st->settled = settled;
    }
    free(block);
    return card;
}
