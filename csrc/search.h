/*
 * search.h -- null-window alpha-beta ("can the soloist still win >= target
 * thirds?") and the drivers finding exact values (internal).
 */
#ifndef CS_SEARCH_H
#define CS_SEARCH_H

#include <stdint.h>

#include "movegen.h"
#include "position.h"
#include "stats.h"
#include "tt.h"

/* Internal: not exported from the shared object (direct calls and
 * data access, no PLT/GOT). */
#pragma GCC visibility push(hidden)

typedef struct {
    pos_t pos;         /* the position searched; restored after each search */
    tt_t *tt;          /* NULL = no table */
    unsigned mg_flags; /* MG_EQUIV / MG_ORDER */
    int canonical;     /* canonical suit order in table keys */
    uint64_t nodes;    /* always counted */
    uint64_t searches; /* null-window searches started */
    int8_t killer[2][CS_NUM_CARDS + 1][2]; /* the last two cutting leads (latest first) by [soloist leads][tricks left]; -1 none */
    double stop_at;     /* CLOCK_MONOTONIC seconds at which a search gives up; <= 0: never */
    uint64_t next_look; /* node count at which the clock is next read */
    int stopped;        /* the clock stopped the last search: its result means nothing */
    CS_STAT_FIELDS     /* detailed counters (CS_STATS builds only) */
} search_t;

/* With s->stop_at > 0 a search reads the clock every SEARCH_CLOCK_NODES
 * nodes and, past stop_at, unwinds at once: s->stopped is set, the result
 * is meaningless, and nothing of the unfinished nodes is stored in the
 * table (the entries stored before stay true).  s->pos is restored. */
#define SEARCH_CLOCK_NODES 4096

/* 1 if the value of s->pos (any state, mid-trick included) is >= target. */
int search_reaches(search_t *s, int target);

/* Fail-soft null-window search: returns v >= target meaning value >= v, or
 * v < target meaning value <= v. */
int search_bound(search_t *s, int target);

/* Exact value of s->pos, known to lie in [lo, hi]; the first probe is at
 * `guess` when it lies in (lo, hi] (pass -1 for none).  When the clock
 * stops a probe, returns -1 with *lo / *hi narrowed by the probes done
 * (search_exact_within); search_exact is for searches without a stop. */
int search_exact(search_t *s, int lo, int hi, int guess);
int search_exact_within(search_t *s, int *lo, int *hi, int guess);

/* Cheap bounds [lo, hi] on the value of s->pos. */
void search_bracket(const search_t *s, int *lo, int *hi);

/* Exact value of s->pos (guess as in search_exact). */
int search_value(search_t *s, int guess);

#pragma GCC visibility pop

#endif /* CS_SEARCH_H */
