/* exchange.c -- the candidate drivers: the `top` best of a batch of
 * positions for the side choosing (cs_best_of), and a batch of null-window
 * tests with an early stop (cs_reaches_batch).
 *
 * Every candidate carries a proven interval [lo, hi] of its value, first
 * the cheap bounds, then narrowed by every null-window test it gets: the
 * search is fail-soft, so a failed test proves more than the target asked
 * (value <= v, v below the target) and later passes with lower thresholds
 * skip the candidate without searching.  One search state serves the whole
 * batch: the table is shared and the killer leads carry over from one
 * candidate to the next (their refutations are alike). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <string.h>
#include <time.h>

#include "calasolve.h"
#include "search.h"
#include "solver_int.h"

const int cs_best_of_depths[CS_BEST_OF_PASSES] = {4, 10, 36};

typedef struct {
    search_t *S;
    const cs_position *cands;
    int n;
    int maximise;
    int top;
    int loaded; /* index of the candidate in S->pos, -1 none */
    int8_t *lo, *hi;
    int32_t *kept; /* best first: better value, then lower index */
    int nk;
    int best_v;
    int floor;       /* only candidates strictly better than this are kept */
    int *shared;     /* values found by the searches of other parts, or NULL */
    double deadline; /* CLOCK_MONOTONIC seconds; <= 0: none */
    int cut;         /* the deadline (or the stop) cut the search */
} driver_t;

static inline int better(const driver_t *D, int a, int b) { return D->maximise ? a > b : a < b; }

/* Puts candidate i in the search state.  The killer leads are kept (the
 * refutations of neighbouring candidates are alike); a new table
 * generation per candidate, as per API call. */
static void load(driver_t *D, int i) {
    if (D->loaded == i) return;
    pos_load(&D->S->pos, &D->cands[i]);
    if (D->S->tt) tt_new_generation(D->S->tt);
    D->loaded = i;
}

/* Is candidate i strictly better than `theta` for the side choosing?
 * Answers from the interval when it can, else one null-window test,
 * whose fail-soft result narrows the interval. */
static int beats(driver_t *D, int i, int theta) {
    int t = D->maximise ? theta + 1 : theta; /* the test: value >= t ? */
    if (D->lo[i] >= t) return D->maximise;
    if (D->hi[i] < t) return !D->maximise;
    load(D, i);
    int v = search_bound(D->S, t);
    if (D->S->stopped) {
        D->cut = 1;
        return 0; /* not known: nothing narrowed, nothing kept */
    }
    if (v >= t) {
        if (v > D->lo[i]) D->lo[i] = (int8_t)(v < D->hi[i] ? v : D->hi[i]);
        return D->maximise;
    }
    if (v < D->hi[i]) D->hi[i] = (int8_t)(v > D->lo[i] ? v : D->lo[i]);
    return !D->maximise;
}

/* Exact value of candidate i (bisection inside its interval, first
 * probing whether it beats the best so far); -1 when the clock stopped
 * it, its interval narrowed by the probes that ended. */
static int exact(driver_t *D, int i) {
    if (D->lo[i] != D->hi[i]) {
        load(D, i);
        int guess = D->nk ? (D->maximise ? D->best_v + 1 : D->best_v) : -1;
        int lo = D->lo[i], hi = D->hi[i];
        int v = search_exact_within(D->S, &lo, &hi, guess);
        D->lo[i] = (int8_t)lo;
        D->hi[i] = (int8_t)hi;
        if (v < 0) {
            D->cut = 1;
            return -1;
        }
    }
    return D->lo[i];
}

static int in_kept(const driver_t *D, int i) {
    for (int k = 0; k < D->nk; k++)
        if (D->kept[k] == i) return 1;
    return 0;
}

/* Inserts i (value known) into the list, keeping the `top` best. */
static void keep(driver_t *D, int i) {
    int v = D->lo[i];
    int k = D->nk < D->top ? D->nk : D->top - 1;
    /* the list is full: i goes in only if better than the last */
    if (D->nk == D->top && !better(D, v, D->lo[D->kept[k]]) && !(v == D->lo[D->kept[k]] && i < D->kept[k])) return;
    while (k > 0) {
        int j = D->kept[k - 1];
        int vj = D->lo[j];
        if (better(D, v, vj) || (v == vj && i < j)) {
            D->kept[k] = j;
            k--;
        } else {
            break;
        }
    }
    D->kept[k] = i;
    if (D->nk < D->top) D->nk++;
    D->best_v = D->lo[D->kept[0]];
    /* each candidate enters the list once (one evicted never beats the list again) */
    if (D->shared) __atomic_fetch_add(&D->shared[v], 1, __ATOMIC_RELAXED);
}

/* Values candidate i if it beats `theta`, and keeps it if it makes the list. */
static void consider(driver_t *D, int i, int theta) {
    if (!beats(D, i, theta)) return;
    if (exact(D, i) < 0) return;
    keep(D, i);
}

static int last_value(const driver_t *D) { return D->lo[D->kept[D->nk - 1]]; }

/* The threshold is never below the floor: nothing at or under it is kept. */
static int floored(const driver_t *D, int theta) { return better(D, theta, D->floor) ? theta : D->floor; }

static int threshold(const driver_t *D, int depth) {
    int step = D->maximise ? 1 : -1;
    if (!D->nk) return D->floor;
    int theta = D->best_v - step * (depth + 1);
    if (D->nk >= D->top && !better(D, theta, last_value(D))) theta = last_value(D);
    return floored(D, theta);
}

/* Takes up the floor the searches of the other parts have raised: once
 * `top` candidates at least as good as f are known, nothing no better than
 * f is needed. */
static void take_floor(driver_t *D) {
    if (!D->shared) return;
    int count = 0;
    for (int k = 0; k <= CS_MAX_VALUE; k++) {
        int f = D->maximise ? CS_MAX_VALUE - k : k;
        count += __atomic_load_n(&D->shared[f], __ATOMIC_RELAXED);
        if (count >= D->top) {
            if (better(D, f, D->floor)) D->floor = f;
            return;
        }
    }
}

/* Checked between candidates; a test running at the deadline stops in the search. */
static int out_of_time(driver_t *D) {
    take_floor(D);
    if (D->deadline <= 0 || D->cut) return D->cut;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    if ((double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec >= D->deadline) D->cut = 1;
    return D->cut;
}

int cs_best_of(cs_solver *s, const cs_position *cands, int n, int maximise, int top, int8_t *lo, int8_t *hi,
               int32_t *kept, uint64_t *searches) {
    cs_best_of_limits lim = {maximise ? -1 : CS_MAX_VALUE + 1, 0.0, NULL, 0.0};
    return cs_best_of_limited(s, cands, n, maximise, top, &lim, lo, hi, kept, searches, NULL);
}

int cs_best_of_limited(cs_solver *s, const cs_position *cands, int n, int maximise, int top,
                       const cs_best_of_limits *lim, int8_t *lo, int8_t *hi, int32_t *kept, uint64_t *searches,
                       int *complete) {
    if (!s || !lim || n < 0 || top < 1 || (n > 0 && (!cands || !lo || !hi || !kept))) return CS_EINVAL;
    for (int i = 0; i < n; i++)
        if (!solver_valid_position(&cands[i])) return CS_EINVAL;
    if (searches) *searches = 0;
    if (complete) *complete = 1;
    if (n == 0) return 0;
    search_t S;
    solver_begin(s, &S, &cands[0]);
    int floor = lim->floor < -1 ? -1 : (lim->floor > CS_MAX_VALUE + 1 ? CS_MAX_VALUE + 1 : lim->floor);
    driver_t D = {&S, cands, n, maximise != 0, top, 0, lo, hi, kept, 0, 0, floor, lim->shared, lim->deadline, 0};
    for (int i = 0; i < n; i++) {
        int a, b;
        pos_load(&S.pos, &cands[i]);
        search_bracket(&S, &a, &b);
        lo[i] = (int8_t)a;
        hi[i] = (int8_t)b;
    }
    D.loaded = -1;
    take_floor(&D);

    /* The first candidate is always looked at, so a cut search still has an answer;
     * a test gives up at the stop once there is one (or a floor from elsewhere). */
    int open_floor = maximise ? D.floor < 0 : D.floor > CS_MAX_VALUE;
    if (!open_floor) S.stop_at = lim->stop;
    consider(&D, 0, D.floor);
    S.stop_at = lim->stop;
    /* A good best first: the most promising candidates, tested against the best only. */
    int prefix = n / CS_BEST_OF_PREFIX > CS_BEST_OF_PREFIX ? n / CS_BEST_OF_PREFIX : CS_BEST_OF_PREFIX;
    /* Against the clock the best comes first: the runners-up once every candidate has met it. */
    if (D.deadline > 0) prefix = n;
    for (int i = 1; i < prefix && i < n; i++) {
        if (out_of_time(&D)) break;
        consider(&D, i, D.nk ? D.best_v : D.floor);
    }
    /* The runners-up, looking deeper below the best until the list is full. */
    for (int d = 0; d < CS_BEST_OF_PASSES; d++) {
        for (int i = 0; i < n; i++) {
            if (in_kept(&D, i)) continue;
            if (out_of_time(&D)) break;
            consider(&D, i, threshold(&D, cs_best_of_depths[d]));
        }
        if (D.nk >= top) break;
    }
    /* Every candidate left out must be no better than the list's last (or the floor). */
    for (int i = 0; i < n; i++) {
        if (in_kept(&D, i)) continue;
        if (out_of_time(&D)) break;
        consider(&D, i, D.nk >= top ? floored(&D, last_value(&D)) : D.floor);
    }
    solver_end(s, &S);
    if (searches) *searches = S.searches;
    if (complete) *complete = !D.cut;
    return D.nk;
}

int cs_reaches_batch(cs_solver *s, const cs_position *cands, int n, int target, int max_fails, int8_t *out,
                     uint64_t *searches) {
    if (!s || n < 0 || (n > 0 && (!cands || !out))) return CS_EINVAL;
    for (int i = 0; i < n; i++)
        if (!solver_valid_position(&cands[i])) return CS_EINVAL;
    if (searches) *searches = 0;
    for (int i = 0; i < n; i++) out[i] = -1;
    if (n == 0) return 0;
    search_t S;
    solver_begin(s, &S, &cands[0]);
    int tested = 0, fails = 0;
    for (int i = 0; i < n; i++) {
        if (i) {
            pos_load(&S.pos, &cands[i]);
            if (S.tt) tt_new_generation(S.tt);
        }
        out[i] = (int8_t)search_reaches(&S, target);
        tested++;
        if (!out[i] && ++fails == max_fails) break;
    }
    solver_end(s, &S);
    if (searches) *searches = S.searches;
    return tested;
}
