/* solver.c -- the public API: solver objects, argument checks, and the root
 * drivers (value, boolean target, per-card values, optimal line). */
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "calasolve.h"
#include "search.h"
#include "solver_int.h"
#include "tables.h"

#define CS_DEFAULT_TT_MB 32

struct cs_solver {
    cs_config cfg;
    tt_t tt;
    int has_tt;
    uint64_t nodes;       /* last call */
    uint64_t total_nodes; /* since creation */
    uint64_t searches;    /* last call */
#ifdef CS_STATS
    uint64_t tt_probes, tt_hits, tt_stores, tt_replaced; /* table totals at the start of the last call */
    uint64_t d_probes, d_hits, d_stores, d_replaced, d_cutoffs, d_bound_cutoffs; /* last call */
#endif
};

void cs_config_default(cs_config *cfg) {
    cfg->tt_mb = CS_DEFAULT_TT_MB;
    cfg->use_tt = 1;
    cfg->use_equivalence = 1;
    cfg->use_canonical_suits = 1;
    cfg->use_ordering = 1;
}

int cs_solver_new(const cs_config *cfg, cs_solver **out) {
    if (!out) return CS_EINVAL;
    *out = NULL;
    if (!cfg) return CS_EINVAL;
    cs_tables_init();
    cs_solver *s = calloc(1, sizeof *s);
    if (!s) return CS_ENOMEM;
    s->cfg = *cfg;
    if (s->cfg.tt_mb == 0) s->cfg.tt_mb = CS_DEFAULT_TT_MB;
    if (s->cfg.use_tt) {
        if (tt_init(&s->tt, s->cfg.tt_mb) != 0) {
            free(s);
            return CS_ENOMEM;
        }
        s->has_tt = 1;
    }
    *out = s;
    return CS_OK;
}

void cs_solver_free(cs_solver *s) {
    if (!s) return;
    if (s->has_tt) tt_free(&s->tt);
    free(s);
}

void cs_solver_clear(cs_solver *s) {
    if (s && s->has_tt) tt_clear(&s->tt);
}

void cs_solver_config(const cs_solver *s, cs_config *cfg) {
    if (s && cfg) *cfg = s->cfg;
}

/* Range checks that keep every table index in bounds. */
static int valid_position(const cs_position *pos) {
    if (!pos) return 0;
    if (pos->ntrick > 2 || pos->leader > 2 || pos->soloist > 2 || pos->last_bonus > CS_MAX_BONUS) return 0;
    for (int i = 0; i < 3; i++)
        if (pos->hands[i] & ~CS_DECK) return 0;
    for (int i = 0; i < pos->ntrick; i++)
        if (pos->trick[i] >= CS_NUM_CARDS) return 0;
    return 1;
}

static void begin(cs_solver *s, search_t *S, const cs_position *pos) {
    memset(S, 0, sizeof *S);
    memset(S->killer, -1, sizeof S->killer);
    pos_load(&S->pos, pos);
    S->tt = s->has_tt ? &s->tt : NULL;
    S->mg_flags = (s->cfg.use_equivalence ? MG_EQUIV : 0u) | (s->cfg.use_ordering ? MG_ORDER : 0u);
    S->canonical = s->cfg.use_canonical_suits != 0;
    if (s->has_tt) {
        tt_new_generation(&s->tt);
#ifdef CS_STATS
        s->tt_probes = s->tt.probes;
        s->tt_hits = s->tt.hits;
        s->tt_stores = s->tt.stores;
        s->tt_replaced = s->tt.replaced;
#endif
    }
}

static void end(cs_solver *s, const search_t *S) {
    s->nodes = S->nodes;
    s->total_nodes += S->nodes;
    s->searches = S->searches;
#ifdef CS_STATS
    s->d_cutoffs = S->st_tt_cutoffs;
    s->d_bound_cutoffs = S->st_bound_cutoffs;
    if (s->has_tt) {
        s->d_probes = s->tt.probes - s->tt_probes;
        s->d_hits = s->tt.hits - s->tt_hits;
        s->d_stores = s->tt.stores - s->tt_stores;
        s->d_replaced = s->tt.replaced - s->tt_replaced;
    }
#endif
}

int cs_value(cs_solver *s, const cs_position *pos) {
    if (!s || !valid_position(pos)) return CS_EINVAL;
    search_t S;
    begin(s, &S, pos);
    int v = search_value(&S, -1);
    end(s, &S);
    return v;
}

int cs_reaches(cs_solver *s, const cs_position *pos, int target) {
    if (!s || !valid_position(pos)) return CS_EINVAL;
    search_t S;
    begin(s, &S, pos);
    int r = search_reaches(&S, target);
    end(s, &S);
    return r;
}

/* Exact value of S->pos when it is probably near `guess` (the best value
 * of the siblings so far): up to four probes stepping from the guess
 * (MTD(f)-like: each next probe sits at the fail-soft bound just
 * returned, usually the value itself), then bisection. */
static int exact_near(search_t *S, int guess) {
    int lo, hi;
    search_bracket(S, &lo, &hi);
    int t = guess;
    for (int k = 0; k < 4 && lo < hi; k++) {
        if (t <= lo) t = lo + 1;
        if (t > hi) t = hi;
        int v = search_bound(S, t);
        if (v >= t) {
            lo = v < hi ? v : hi;
            t = lo + 1;
        } else {
            hi = v > lo ? v : lo;
            t = hi;
        }
    }
    return search_exact(S, lo, hi, -1);
}

/* Values of the root moves (by equivalence class).  Returns the root value
 * and, in *best_card, the first card (in move order) achieving it. */
static int root_card_values(search_t *S, int8_t values[CS_NUM_CARDS], int *best_card) {
    pos_t *p = &S->pos;
    memset(values, -1, CS_NUM_CARDS);
    cs_move mv[CS_MAX_MOVES];
    int n = mg_generate(p, S->mg_flags, mv);
    *best_card = -1;
    if (n == 0) return 0;
    int maximize = pos_to_move(p) == p->soloist;
    int best = 0;
    for (int i = 0; i < n; i++) {
        undo_t u;
        int g = pos_make(p, mv[i].card, &u);
        int v = g + (i == 0 ? search_value(S, -1) : exact_near(S, best - g));
        pos_unmake(p, &u);
        if (i == 0 || (maximize ? v > best : v < best)) {
            best = v;
            *best_card = mv[i].card;
        }
        for (uint64_t m = mv[i].members; m; m &= m - 1) values[cs_lsb(m)] = (int8_t)v;
    }
    return best;
}

/* Extends the line from S->pos (whose value is v), appending to line[*n]. */
static void extend_line(search_t *S, int v, uint8_t line[CS_MAX_LINE], int *n) {
    pos_t *p = &S->pos;
    while (*n < CS_MAX_LINE) {
        cs_move mv[CS_MAX_MOVES];
        int nm = mg_generate(p, S->mg_flags, mv);
        if (nm == 0) break;
        int maximize = pos_to_move(p) == p->soloist;
        int chosen = -1, gained = 0;
        for (int i = 0; i < nm; i++) {
            undo_t u;
            int g = pos_make(p, mv[i].card, &u);
            int ok = (i == nm - 1) ? 1 /* one card must keep the value */
                     : maximize    ? search_reaches(S, v - g)
                                   : !search_reaches(S, v - g + 1);
            if (ok) {
                chosen = mv[i].card;
                gained = g;
                break; /* keep the card played */
            }
            pos_unmake(p, &u);
        }
        if (chosen < 0) break; /* unreachable */
        line[(*n)++] = (uint8_t)chosen;
        v -= gained;
    }
}

int cs_card_values(cs_solver *s, const cs_position *pos, int8_t values[CS_NUM_CARDS]) {
    if (!s || !values || !valid_position(pos)) return CS_EINVAL;
    search_t S;
    begin(s, &S, pos);
    int best_card;
    int v = root_card_values(&S, values, &best_card);
    end(s, &S);
    return v;
}

int cs_line(cs_solver *s, const cs_position *pos, uint8_t line[CS_MAX_LINE]) {
    if (!s || !line || !valid_position(pos)) return CS_EINVAL;
    search_t S;
    begin(s, &S, pos);
    int v = search_value(&S, -1);
    int n = 0;
    extend_line(&S, v, line, &n);
    end(s, &S);
    return n;
}

int cs_analyse(cs_solver *s, const cs_position *pos, cs_analysis *out) {
    if (!s || !out || !valid_position(pos)) return CS_EINVAL;
    search_t S;
    begin(s, &S, pos);
    int best_card;
    int v = root_card_values(&S, out->card_value, &best_card);
    out->value = v;
    out->nline = 0;
    if (best_card >= 0) {
        undo_t u;
        int g = pos_make(&S.pos, best_card, &u);
        out->line[out->nline++] = (uint8_t)best_card;
        extend_line(&S, v - g, out->line, &out->nline);
    }
    end(s, &S);
    return v;
}

uint64_t cs_last_nodes(const cs_solver *s) { return s ? s->nodes : 0; }

uint64_t cs_total_nodes(const cs_solver *s) { return s ? s->total_nodes : 0; }

void cs_get_stats(const cs_solver *s, cs_stats *out) {
    if (!out) return;
    memset(out, 0, sizeof *out);
    if (!s) return;
    out->nodes = s->nodes;
    out->total_nodes = s->total_nodes;
    out->searches = s->searches;
    out->stats_enabled = CS_STATS_ENABLED;
    if (s->has_tt) {
        out->tt_entries = (uint64_t)s->tt.nclusters * TT_CLUSTER;
        out->tt_used = tt_count_used(&s->tt);
        out->generation = s->tt.generation;
    }
#ifdef CS_STATS
    out->tt_probes = s->d_probes;
    out->tt_hits = s->d_hits;
    out->tt_cutoffs = s->d_cutoffs;
    out->tt_stores = s->d_stores;
    out->tt_replaced = s->d_replaced;
    out->bound_cutoffs = s->d_bound_cutoffs;
#endif
}

/* ---- for the other drivers (solver_int.h) ---- */

void solver_begin(cs_solver *s, search_t *S, const cs_position *pos) { begin(s, S, pos); }
void solver_end(cs_solver *s, const search_t *S) { end(s, S); }
int solver_valid_position(const cs_position *pos) { return valid_position(pos); }
