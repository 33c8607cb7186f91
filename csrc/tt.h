/*
 * tt.h -- transposition table of trick-boundary positions (internal).
 *
 * Entries hold a lower and an upper bound on the thirds the soloist still
 * wins from a position at a trick boundary.  Positions are NORMALISED
 * (key.c): per suit, the remaining cards in rank order reduced to their
 * owner relative to the soloist -- the actual ranks of the cards already
 * gone do not matter -- and the seat on lead relative to the soloist; with
 * canonical suits the four suits are sorted, so positions that differ by a
 * permutation of the suits share an entry.
 *
 * Quasi-symmetry.  The table is indexed by that rank STRUCTURE alone; the
 * point classes of the cards (per suit a "shape", see key.h) and the
 * last-trick bonus are stored in the entry.  Two positions with the same
 * structure have isomorphic game trees (same legal moves, same trick
 * winners); only the thirds differ.  If card i is worth d_i thirds more in
 * position P than in the stored position E (bonus likewise), then for
 * every pair of strategies the soloist's thirds differ by
 * sum(d_i over the cards they capture), which lies in [D-, D+] with
 * D- = sum of the negative d_i, D+ = sum of the positive ones.  Hence
 *     lb(P) >= lb(E) + D-   and   ub(P) <= ub(E) + D+,
 * and an entry answers for every position of its structure, exactly
 * when the classes agree (D- = D+ = 0) and with widened bounds otherwise.
 * (Idea from Kupferschmid & Helmert's Skat solver.)
 *
 * Nothing is hashed away: the whole structure is compared, and the shapes
 * and bonus are stored, so no collision can give a wrong answer.
 *
 * Entry (16 bytes):
 *   k0              structure bits 0..63
 *   k1 bits  0..5   structure bits 64..69
 *           6..33   the four suit shapes (7 bits each, canonical order)
 *          34..37   last_bonus
 *          38..43   lower bound (0..63)
 *          44..49   upper bound (0..63)
 *          50..57   generation of the last store
 *          58..61   depth: tricks left (0..15)
 *          62       unused
 *          63       valid flag
 *
 * The table is an array of any number of 64-byte clusters of 4 entries
 * (cluster index = high 64 bits of hash(structure) * nclusters, so no
 * power of two is needed, and all point variants of a structure meet in
 * one cluster).  Replacement: the entry of the same position, else an
 * empty one, else the one with the lowest depth - 2 * age (depth = tricks
 * left, age = generations since its last store).  The generation counter
 * is bumped once per API call (and per candidate in cs_best_of): starting
 * a new solve costs nothing, and entries of earlier solves stay valid (they
 * describe exact positions) -- the age only steers replacement.
 */
#ifndef CS_TT_H
#define CS_TT_H

#include <stddef.h>
#include <stdint.h>

/* Internal: not exported from the shared object (direct calls and
 * data access, no PLT/GOT). */
#pragma GCC visibility push(hidden)

typedef enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3 } tt_bound;

/* A normalised position: the structure (70 bits) plus its point classes. */
typedef struct {
    uint64_t s0;     /* structure bits 0..63 */
    uint32_t s1;     /* structure bits 64..69 */
    uint32_t shapes; /* 4 x 7-bit shapes */
    uint32_t bonus;  /* last_bonus, 0..15 */
} tt_key;

typedef struct {
    uint64_t k0, k1;
} tt_entry;

#define TT_CLUSTER 4
typedef struct {
    tt_entry e[TT_CLUSTER];
} tt_cluster; /* 64 bytes: one cache line */

typedef struct {
    tt_cluster *table;
    size_t nclusters;
    uint8_t generation;
#ifdef CS_STATS
    uint64_t probes, hits, stores, replaced;
#endif
} tt_t;

/* Allocates `mb` MiB (at least one cluster).  Returns 0 or -1 (no memory). */
int tt_init(tt_t *tt, size_t mb);
void tt_free(tt_t *tt);
void tt_clear(tt_t *tt);
static inline void tt_new_generation(tt_t *tt) { tt->generation++; }

/* Fills the shape-difference table (idempotent). */
void tt_tables_init(void);

/* Split probe: tt_prefetch starts loading the key's cluster and returns it;
 * tt_probe_at looks the key up there (do other work in between).  On a
 * hit (an entry of the same structure) sets *lb / *ub to the best bounds
 * the cluster's entries give for this position and returns 1. */
const tt_entry *tt_prefetch(const tt_t *tt, const tt_key *key);
int tt_probe_at(tt_t *tt, const tt_entry *cluster, const tt_key *key, int *lb, int *ub);
int tt_probe(tt_t *tt, const tt_key *key, int *lb, int *ub);

/* Records `value` as a bound of kind `bound` (TT_LOWER: value <= true value;
 * TT_UPPER: true value <= value; TT_EXACT: both), merging with what the
 * entry of the same position already knows. */
void tt_store(tt_t *tt, const tt_key *key, int depth, int value, tt_bound bound);

size_t tt_count_used(const tt_t *tt);

#pragma GCC visibility pop

#endif /* CS_TT_H */
