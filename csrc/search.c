/* search.c -- null-window alpha-beta over the soloist's remaining thirds. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "search.h"

#include <time.h>

#include "bounds.h"
#include "key.h"

/* Value of the last trick when every hand holds exactly one card. */
static inline int last_trick_value(const pos_t *p, int rem) {
    int L = p->leader;
    int c0 = cs_lsb(p->hand[L]);
    int c1 = cs_lsb(p->hand[cs_next_seat[L]]);
    int c2 = cs_lsb(p->hand[cs_next_seat[L + 1]]);
    int best = c0, w = 0;
    if (c1 / 10 == c0 / 10 && c1 > best) {
        best = c1;
        w = 1;
    }
    if (c2 / 10 == c0 / 10 && c2 > best) w = 2;
    return cs_seat_mod3[L + w] == p->soloist ? rem : 0;
}

static int ab(search_t *S, int target);

/* Past the stop time?  The clock is read once every SEARCH_CLOCK_NODES nodes. */
static int out_of_time(search_t *S) {
    if (S->stopped) return 1;
    if (S->stop_at <= 0 || S->nodes < S->next_look) return 0;
    S->next_look = S->nodes + SEARCH_CLOCK_NODES;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec >= S->stop_at) S->stopped = 1;
    return S->stopped;
}

/* The search is fail-soft: ab(target) returns v with
 *   v >= target  meaning  value >= v   (the soloist reaches the target), or
 *   v <  target  meaning  value <= v   (they don't).
 * The bounds it returns are what the table stores, and let the drivers
 * jump past several targets at once.
 *
 * Move ordering at trick boundaries: the killer (the last lead that cut
 * off at the same depth for the same side) first, then the static order
 * of movegen.c.  The soloist's leads also try the killer before last
 * second: it pays where the soloist must find the winning lead of many
 * similar positions (the defenders' exchange).  Measurements:
 * docs/experiments.md. */

/* Node at a trick boundary (no card of the current trick played yet). */
static int ab_boundary(search_t *S, int target) {
    pos_t *p = &S->pos;
    int rem = p->hand_pts + p->bonus;
    if (target <= 0 || target > rem) {
        /* Decided already; still return the cheap bounds (not just 0 or
         * rem): the wider a stored bound's margin, the more positions of
         * the same structure it answers for (tt.h). */
        if (!pos_all(p)) return target <= 0 ? 0 : rem;
        int qlb, qub;
        bd_quick(p, rem, &qlb, &qub);
        return target <= 0 ? qlb : qub;
    }
    if (out_of_time(S)) return 0;
    uint64_t hl = p->hand[p->leader];
    if (!hl) return 0; /* inconsistent position: nothing to lead */
    if (!(hl & (hl - 1))) {
        uint64_t h1 = p->hand[cs_next_seat[p->leader]];
        uint64_t h2 = p->hand[cs_next_seat[p->leader + 1]];
        if (h1 && !(h1 & (h1 - 1)) && h2 && !(h2 & (h2 - 1))) return last_trick_value(p, rem);
    }

    tt_key key;
    const tt_entry *slot = NULL;
    int use_tt = S->tt != NULL;
    if (use_tt) {
        key_of(p, S->canonical, &key);
        slot = tt_prefetch(S->tt, &key);
    }
    /* The cheap bounds while the table line is on its way. */
    int lb, ub;
    bd_quick(p, rem, &lb, &ub);
    if (lb >= target || ub < target) {
        CS_STAT_INC(S, bound_cutoffs);
        return lb >= target ? lb : ub;
    }
    if (use_tt) {
        int tlb, tub;
        if (tt_probe_at(S->tt, slot, &key, &tlb, &tub)) {
            if (tlb > lb) lb = tlb;
            if (tub < ub) ub = tub;
            if (lb >= target || ub < target) {
                CS_STAT_INC(S, tt_cutoffs);
                return lb >= target ? lb : ub;
            }
        }
    }
    cs_move mv[CS_MAX_MOVES];
    int n = mg_generate(p, S->mg_flags | MG_LAZY, mv);

    int maximize = p->leader == p->soloist;
    int depth = cs_popcount(hl); /* tricks left */
    int8_t *killer = S->killer[maximize][depth];
    int lazy = (S->mg_flags & MG_ORDER) != 0; /* else: generation order */
    if (lazy && maximize && killer[1] >= 0) mg_boost(mv, n, killer[1], INT16_MAX - 1);
    if (lazy && killer[0] >= 0) mg_boost(mv, n, killer[0], INT16_MAX);
    int best = maximize ? -1 : 1000;
    for (int i = 0; i < n; i++) {
        undo_t u;
        if (lazy) mg_pick(mv, n, i);
        pos_make(p, mv[i].card, &u);
        int v = ab(S, target);
        pos_unmake(p, &u);
        if (S->stopped) return 0; /* unwinding: neither stored nor a killer */
        if (maximize ? v > best : v < best) best = v;
        if ((v >= target) == maximize) {
            if (killer[0] != (int8_t)mv[i].card) {
                killer[1] = killer[0];
                killer[0] = (int8_t)mv[i].card;
            }
            break;
        }
    }
    /* Combine with what was known before searching. */
    if (best >= target) {
        if (best < lb) best = lb;
    } else {
        if (best > ub) best = ub;
    }
    if (use_tt) tt_store(S->tt, &key, depth, best, best >= target ? TT_LOWER : TT_UPPER);
    return best;
}

static int ab(search_t *S, int target) {
    pos_t *p = &S->pos;
    S->nodes++;
    if (p->ntrick == 0) return ab_boundary(S, target);
    if (target <= 0) return 0;
    int rem = bd_remaining(p);
    if (target > rem) return rem;

    cs_move mv[CS_MAX_MOVES];
    int n = mg_generate(p, S->mg_flags | MG_LAZY, mv);
    if (n == 0) return 0; /* inconsistent position: the mover has no card */
    int maximize = pos_to_move(p) == p->soloist;
    int lazy = (S->mg_flags & MG_ORDER) != 0;
    int best = maximize ? -1 : 1000;
    for (int i = 0; i < n; i++) {
        undo_t u;
        if (lazy) mg_pick(mv, n, i);
        int g = pos_make(p, mv[i].card, &u);
        int v = g + ab(S, target - g);
        pos_unmake(p, &u);
        if (S->stopped) return 0;
        if (maximize ? v > best : v < best) best = v;
        if ((v >= target) == maximize) return v;
    }
    if (best > rem) best = rem;
    return best;
}

int search_reaches(search_t *s, int target) {
    s->searches++;
    return ab(s, target) >= target;
}

int search_bound(search_t *s, int target) {
    s->searches++;
    return ab(s, target);
}

int search_exact_within(search_t *s, int *lo, int *hi, int guess) {
    /* Null-window probes, fail-soft: a success at t gives value >= v, a
     * failure value <= v.  The first probe is at `guess` (if inside the
     * interval); then bisection, which measured better than MTD(f) steps
     * here: probes near the value are the expensive ones, and the
     * fail-soft bounds make the bisection skip most of them. */
    int t = (guess > *lo && guess <= *hi) ? guess : *lo + (*hi - *lo + 1) / 2;
    while (*lo < *hi) {
        int v = search_bound(s, t);
        if (s->stopped) return -1;
        if (v >= t)
            *lo = v < *hi ? v : *hi;
        else
            *hi = v > *lo ? v : *lo;
        t = *lo + (*hi - *lo + 1) / 2;
    }
    return *lo;
}

int search_exact(search_t *s, int lo, int hi, int guess) { return search_exact_within(s, &lo, &hi, guess); }

void search_bracket(const search_t *s, int *lo, int *hi) {
    const pos_t *p = &s->pos;
    int rem = bd_remaining(p);
    *lo = 0;
    *hi = rem;
    if (p->ntrick == 0 && pos_all(p)) bd_quick(p, rem, lo, hi);
}

int search_value(search_t *s, int guess) {
    int lo, hi;
    search_bracket(s, &lo, &hi);
    return search_exact(s, lo, hi, guess);
}
