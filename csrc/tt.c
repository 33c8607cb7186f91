/* tt.c -- transposition table: allocation, probe, store, replacement. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#define F_LB_SHIFT 34
#define F_UB_SHIFT 40
#define F_GEN_SHIFT 46
#define F_DEPTH_SHIFT 52
#define F_MOVE_SHIFT 56
#define F_VALID (UINT64_C(1) << 63)
#define F6 UINT64_C(0x3F)

/* The raw allocation lives just before the aligned table pointer. */
static tt_cluster *alloc_clusters(size_t n) {
    size_t bytes = n * sizeof(tt_cluster) + 64 + sizeof(void *);
    /* calloc: large blocks come from fresh zero pages that only cost
     * resident memory once written. */
    unsigned char *raw = calloc(1, bytes);
    if (!raw) return NULL;
    uintptr_t a = ((uintptr_t)raw + sizeof(void *) + 63) & ~(uintptr_t)63;
    ((void **)a)[-1] = raw;
    return (tt_cluster *)a;
}

static void free_clusters(tt_cluster *t) {
    if (t) free(((void **)t)[-1]);
}

int tt_init(tt_t *tt, size_t mb) {
    memset(tt, 0, sizeof *tt);
    size_t n = mb * (size_t)1024 * 1024 / sizeof(tt_cluster);
    if (mb > ((size_t)-1 >> 21)) return -1; /* would overflow */
    if (n == 0) n = 1;
    tt->table = alloc_clusters(n);
    if (!tt->table) return -1;
    tt->nclusters = n;
    return 0;
}

void tt_free(tt_t *tt) {
    free_clusters(tt->table);
    tt->table = NULL;
    tt->nclusters = 0;
}

void tt_clear(tt_t *tt) {
    /* A fresh zeroed block gives back the resident pages of the old one;
     * fall back to memset if it can't be had. */
    tt_cluster *fresh = alloc_clusters(tt->nclusters);
    if (fresh) {
        free_clusters(tt->table);
        tt->table = fresh;
    } else {
        memset(tt->table, 0, tt->nclusters * sizeof(tt_cluster));
    }
    tt->generation = 0;
}

static inline uint64_t tt_hash(const tt_key *k) {
    uint64_t h = k->k0 * UINT64_C(0x9E3779B97F4A7C15);
    h ^= (k->k1 + UINT64_C(0x632BE59BD9B4E019)) * UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 32;
    return h;
}

static inline tt_cluster *tt_cluster_of(const tt_t *tt, const tt_key *k) {
    uint64_t h = tt_hash(k);
    return &tt->table[(size_t)(((unsigned __int128)h * tt->nclusters) >> 64)];
}

static inline int same_key(const tt_entry *e, const tt_key *k) {
    return e->k0 == k->k0 && (e->k1 & (TT_KEY_BITS_HI | F_VALID)) == (k->k1 | F_VALID);
}

const tt_entry *tt_prefetch(const tt_t *tt, const tt_key *key) {
    const tt_cluster *c = tt_cluster_of(tt, key);
    __builtin_prefetch(c);
    return c->e;
}

int tt_probe(tt_t *tt, const tt_key *key, int *lb, int *ub, int *move) {
    return tt_probe_at(tt, tt_cluster_of(tt, key)->e, key, lb, ub, move);
}

int tt_probe_at(tt_t *tt, const tt_entry *cluster, const tt_key *key, int *lb, int *ub, int *move) {
    const tt_cluster *c = (const tt_cluster *)cluster;
    (void)tt;
#ifdef CS_STATS
    tt->probes++;
#endif
    for (int i = 0; i < TT_CLUSTER; i++) {
        const tt_entry *e = &c->e[i];
        if (same_key(e, key)) {
            *lb = (int)(e->k1 >> F_LB_SHIFT & F6);
            *ub = (int)(e->k1 >> F_UB_SHIFT & F6);
            *move = (int)(e->k1 >> F_MOVE_SHIFT & F6);
#ifdef CS_STATS
            tt->hits++;
#endif
            return 1;
        }
    }
    return 0;
}

void tt_store(tt_t *tt, const tt_key *key, int depth, int value, tt_bound bound, int move) {
    tt_cluster *c = tt_cluster_of(tt, key);
    tt_entry *victim = NULL;
    int lb = 0, ub = (int)F6, old_move = TT_NO_MOVE;
    if (value < 0) value = 0;
    if (value > (int)F6) value = (int)F6;
    if (depth > 15) depth = 15;
    if (depth < 0) depth = 0;
#ifdef CS_STATS
    tt->stores++;
#endif
    for (int i = 0; i < TT_CLUSTER; i++) {
        tt_entry *e = &c->e[i];
        if (same_key(e, key)) {
            victim = e;
            lb = (int)(e->k1 >> F_LB_SHIFT & F6);
            ub = (int)(e->k1 >> F_UB_SHIFT & F6);
            old_move = (int)(e->k1 >> F_MOVE_SHIFT & F6);
            break;
        }
    }
    if (!victim) {
        int best = 1 << 30;
        for (int i = 0; i < TT_CLUSTER; i++) {
            tt_entry *e = &c->e[i];
            if (!(e->k1 & F_VALID)) {
                victim = e;
                break;
            }
            int age = (tt->generation - (int)(e->k1 >> F_GEN_SHIFT)) & 63;
            int d = (int)(e->k1 >> F_DEPTH_SHIFT & 0xF);
            int worth = d - 2 * age;
            if (worth < best) {
                best = worth;
                victim = e;
            }
        }
#ifdef CS_STATS
        if (victim->k1 & F_VALID) tt->replaced++;
#endif
    }
    if (bound & TT_LOWER && value > lb) lb = value;
    if (bound & TT_UPPER && value < ub) ub = value;
    if (move < 0 || move > TT_NO_MOVE) move = TT_NO_MOVE;
    if (move == TT_NO_MOVE) move = old_move;
    victim->k0 = key->k0;
    victim->k1 = key->k1 | (uint64_t)lb << F_LB_SHIFT | (uint64_t)ub << F_UB_SHIFT |
                 (uint64_t)(tt->generation & 63) << F_GEN_SHIFT | (uint64_t)depth << F_DEPTH_SHIFT |
                 (uint64_t)move << F_MOVE_SHIFT | F_VALID;
}

size_t tt_count_used(const tt_t *tt) {
    size_t n = 0;
    for (size_t i = 0; i < tt->nclusters; i++)
        for (int j = 0; j < TT_CLUSTER; j++) n += (tt->table[i].e[j].k1 & F_VALID) != 0;
    return n;
}
