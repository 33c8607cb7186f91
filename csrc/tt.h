/*
 * tt.h -- transposition table of trick-boundary positions (internal).
 *
 * Entries hold a lower and an upper bound on the thirds the soloist still
 * wins from a position at a trick boundary.  Positions are keyed on a
 * NORMALISED description that is exact (no hash collision can give a wrong
 * answer: the whole key is stored and compared):
 *
 *   per suit, the remaining cards in rank order, each reduced to
 *   (owner relative to the soloist, point class) -- the actual ranks of the
 *   cards already gone do not matter, a card's value does;
 *   the seat on lead relative to the soloist; last_bonus;
 *   and, with canonical suits, the 4 suit signatures sorted, so positions
 *   that differ by a permutation of the suits share an entry.
 *
 * Suit signature (23 bits):
 *   bits  0..15  owner code: sum over the suit's remaining cards, lowest
 *                first, of owner * 3^i (owner = (seat - soloist) mod 3);
 *                at most 10 cards, 3^10 = 59049 < 2^16
 *   bits 16..22  point-class shape: ((n0 * 4 + n1) * 2 + a) * 3 + n2, where
 *                n0 = cards left among 4 5 6 7, n1 among F C R, a = the Ace
 *                left, n2 among 2 3 (0..119).  Since the point class of a
 *                rank is fixed, this gives the class of every card in order.
 *
 * Key (98 bits, in two words):
 *   k0 bits  0..22 sig[0], 23..45 sig[1], 46..63 sig[2] bits 0..17
 *   k1 bits  0..4  sig[2] bits 18..22, 5..27 sig[3],
 *            28..29 leader relative to the soloist, 30..33 last_bonus
 *
 * The table is an array of any number of 64-byte clusters of 4 entries
 * (cluster index = high 64 bits of hash * nclusters, so no power of two
 * is needed).  Replacement: the key's own
 * entry, else an empty one, else the one with the lowest
 * depth - 2 * age (depth = tricks left, age = generations since its last
 * store, mod 64).  The generation counter is bumped once per API call: starting a
 * new solve costs nothing, and entries of earlier solves stay valid (the
 * keys are exact) -- the age only steers replacement.
 */
#ifndef CS_TT_H
#define CS_TT_H

#include <stddef.h>
#include <stdint.h>

typedef enum { TT_LOWER = 1, TT_UPPER = 2, TT_EXACT = 3 } tt_bound;

typedef struct {
    uint64_t k0, k1; /* k1 uses bits 0..33 */
} tt_key;

/* Entry (16 bytes):
 *   k0          key bits 0..63
 *   k1 bits  0..33  key bits 64..97
 *           34..39  lower bound (0..63)
 *           40..45  upper bound (0..63)
 *           46..51  generation of the last store (mod 64)
 *           52..55  depth: tricks left (0..15)
 *           56..61  best move, normalised (see key.h); 63 = none
 *           62      unused
 *           63      valid flag */
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
    uint8_t generation; /* used mod 64 */
#ifdef CS_STATS
    uint64_t probes, hits, stores, replaced;
#endif
} tt_t;

#define TT_KEY_BITS_HI UINT64_C(0x3FFFFFFFF) /* 34 bits */

/* Allocates `mb` MiB (at least one cluster).  Returns 0 or -1 (no memory). */
int tt_init(tt_t *tt, size_t mb);
void tt_free(tt_t *tt);
void tt_clear(tt_t *tt);
static inline void tt_new_generation(tt_t *tt) { tt->generation++; }

#define TT_NO_MOVE 63

/* Looks the key up; on a hit sets *lb / *ub / *move and returns 1. */
int tt_probe(tt_t *tt, const tt_key *key, int *lb, int *ub, int *move);

/* Split probe: tt_prefetch starts loading the key's cluster and returns it;
 * tt_probe_at does the look-up there (do other work in between). */
const tt_entry *tt_prefetch(const tt_t *tt, const tt_key *key);
int tt_probe_at(tt_t *tt, const tt_entry *cluster, const tt_key *key, int *lb, int *ub, int *move);

/* Records `value` as a bound of kind `bound` (TT_LOWER: value <= true value;
 * TT_UPPER: true value <= value; TT_EXACT: both), merging with what the
 * entry already knows; `move` (normalised, or TT_NO_MOVE to keep the old
 * one) is tried first next time. */
void tt_store(tt_t *tt, const tt_key *key, int depth, int value, tt_bound bound, int move);

size_t tt_count_used(const tt_t *tt);

#endif /* CS_TT_H */
