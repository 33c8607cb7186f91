/* tt.c -- transposition table: allocation, probe, store, replacement. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* madvise under -std=c11 */
#endif
#include "tt.h"

#include "key.h"

#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#define F_SHAPES_SHIFT 6
#define F_BONUS_SHIFT 34
#define F_LB_SHIFT 38
#define F_UB_SHIFT 44
#define F_GEN_SHIFT 50
#define F_DEPTH_SHIFT 58
#define F_VALID (UINT64_C(1) << 63)
#define F6 UINT64_C(0x3F)
#define F_STRUCT_HI UINT64_C(0x3F)                  /* k1 bits 0..5 */
#define F_POSITION (UINT64_C(0x3FFFFFFFFF) | F_VALID) /* k1 bits 0..37: structure, shapes, bonus */

/* shape_delta[a][b]: for suits of shapes a (stored) and b (probed) with the
 * same number of cards, the sums of the positive (plus) and negative
 * (minus) per-card differences of thirds, b - a. */
typedef struct {
    int8_t plus, minus;
} delta_t;
static delta_t shape_delta[120][120];

void tt_tables_init(void) {
    for (uint32_t a = 0; a < 120; a++)
        for (uint32_t b = 0; b < 120; b++) {
            delta_t d = {0, 0};
            if (key_shape_count(a) != key_shape_count(b)) {
                d.plus = 63; /* never compared: structures differ */
                d.minus = -63;
            } else {
                for (int i = 0; i < key_shape_count(a); i++) {
                    int x = key_shape_points(b, i) - key_shape_points(a, i);
                    if (x > 0) d.plus = (int8_t)(d.plus + x);
                    if (x < 0) d.minus = (int8_t)(d.minus + x);
                }
            }
            shape_delta[a][b] = d;
        }
}

/* Tables are probed at random over many MiB: on Linux they are mapped
 * 2 MiB-aligned and marked for transparent huge pages, which removes most
 * TLB misses of the probes (pages stay lazily zero-filled: resident memory
 * grows as entries are written).  Elsewhere: calloc, 64-byte aligned.  The
 * raw block and its size sit in a header just before the table. */
#define TT_ALIGN ((size_t)2 << 20)
typedef struct {
    void *raw;
    size_t bytes;
    int mapped;
} alloc_hdr;

static tt_cluster *alloc_clusters(size_t n) {
    size_t table = n * sizeof(tt_cluster);
#if defined(__linux__)
    if (table >= TT_ALIGN) {
        size_t bytes = table + 2 * TT_ALIGN;
        unsigned char *raw = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw != MAP_FAILED) {
            uintptr_t a = ((uintptr_t)raw + TT_ALIGN) & ~(uintptr_t)(TT_ALIGN - 1);
#ifdef MADV_HUGEPAGE
            madvise((void *)a, table, MADV_HUGEPAGE);
#endif
            alloc_hdr *h = (alloc_hdr *)a - 1;
            h->raw = raw;
            h->bytes = bytes;
            h->mapped = 1;
            return (tt_cluster *)a;
        }
    }
#endif
    size_t bytes = table + 64 + sizeof(alloc_hdr);
    unsigned char *raw = calloc(1, bytes);
    if (!raw) return NULL;
    uintptr_t a = ((uintptr_t)raw + sizeof(alloc_hdr) + 63) & ~(uintptr_t)63;
    alloc_hdr *h = (alloc_hdr *)a - 1;
    h->raw = raw;
    h->bytes = bytes;
    h->mapped = 0;
    return (tt_cluster *)a;
}

static void free_clusters(tt_cluster *t) {
    if (!t) return;
    alloc_hdr *h = (alloc_hdr *)t - 1;
#if defined(__linux__)
    if (h->mapped) {
        munmap(h->raw, h->bytes);
        return;
    }
#endif
    free(h->raw);
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
    uint64_t h = k->s0 * UINT64_C(0x9E3779B97F4A7C15);
    h ^= ((uint64_t)k->s1 + UINT64_C(0x632BE59BD9B4E019)) * UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 32;
    return h;
}

static inline tt_cluster *tt_cluster_of(const tt_t *tt, const tt_key *k) {
    uint64_t h = tt_hash(k);
    return &tt->table[(size_t)(((unsigned __int128)h * tt->nclusters) >> 64)];
}

/* The k1 bits naming the exact position (structure high bits, shapes, bonus). */
static inline uint64_t k1_position(const tt_key *k) {
    return (uint64_t)k->s1 | (uint64_t)k->shapes << F_SHAPES_SHIFT | (uint64_t)k->bonus << F_BONUS_SHIFT | F_VALID;
}

static inline int same_structure(const tt_entry *e, const tt_key *k) {
    return e->k0 == k->s0 && (e->k1 & (F_STRUCT_HI | F_VALID)) == ((uint64_t)k->s1 | F_VALID);
}

const tt_entry *tt_prefetch(const tt_t *tt, const tt_key *key) {
    const tt_cluster *c = tt_cluster_of(tt, key);
    __builtin_prefetch(c);
    return c->e;
}

int tt_probe(tt_t *tt, const tt_key *key, int *lb, int *ub) {
    return tt_probe_at(tt, tt_cluster_of(tt, key)->e, key, lb, ub);
}

int tt_probe_at(tt_t *tt, const tt_entry *cluster, const tt_key *key, int *lb, int *ub) {
    const tt_cluster *c = (const tt_cluster *)cluster;
    (void)tt;
#ifdef CS_STATS
    tt->probes++;
#endif
    int found = 0, best_lb = 0, best_ub = 63;
    uint64_t pos = k1_position(key);
    for (int i = 0; i < TT_CLUSTER; i++) {
        const tt_entry *e = &c->e[i];
        if (!same_structure(e, key)) continue;
        int elb = (int)(e->k1 >> F_LB_SHIFT & F6);
        int eub = (int)(e->k1 >> F_UB_SHIFT & F6);
        if ((e->k1 & F_POSITION) != pos) {
            /* Same structure, other thirds: widen by the differences. */
            uint64_t es = e->k1 >> F_SHAPES_SHIFT, ks = key->shapes;
            int plus = 0, minus = 0;
            for (int s = 0; s < 4; s++, es >>= 7, ks >>= 7) {
                delta_t d = shape_delta[es & 0x7F][ks & 0x7F];
                plus += d.plus;
                minus += d.minus;
            }
            int db = (int)key->bonus - (int)(e->k1 >> F_BONUS_SHIFT & 0xF);
            if (db > 0) plus += db;
            else minus += db;
            elb += minus;
            eub += plus;
        }
        if (elb > best_lb) best_lb = elb;
        if (eub < best_ub) best_ub = eub;
        found = 1;
    }
    if (found) {
        *lb = best_lb;
        *ub = best_ub;
#ifdef CS_STATS
        tt->hits++;
#endif
    }
    return found;
}

void tt_store(tt_t *tt, const tt_key *key, int depth, int value, tt_bound bound) {
    tt_cluster *c = tt_cluster_of(tt, key);
    tt_entry *victim = NULL;
    int lb = 0, ub = (int)F6;
    uint64_t pos = k1_position(key);
    if (value < 0) value = 0;
    if (value > (int)F6) value = (int)F6;
    if (depth > 15) depth = 15;
    if (depth < 0) depth = 0;
#ifdef CS_STATS
    tt->stores++;
#endif
    for (int i = 0; i < TT_CLUSTER; i++) {
        tt_entry *e = &c->e[i];
        if (e->k0 == key->s0 && (e->k1 & F_POSITION) == pos) {
            victim = e;
            lb = (int)(e->k1 >> F_LB_SHIFT & F6);
            ub = (int)(e->k1 >> F_UB_SHIFT & F6);
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
            int age = (uint8_t)(tt->generation - (uint8_t)(e->k1 >> F_GEN_SHIFT));
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
    victim->k0 = key->s0;
    victim->k1 = pos | (uint64_t)lb << F_LB_SHIFT | (uint64_t)ub << F_UB_SHIFT |
                 (uint64_t)tt->generation << F_GEN_SHIFT | (uint64_t)depth << F_DEPTH_SHIFT;
}

size_t tt_count_used(const tt_t *tt) {
    size_t n = 0;
    for (size_t i = 0; i < tt->nclusters; i++)
        for (int j = 0; j < TT_CLUSTER; j++) n += (tt->table[i].e[j].k1 & F_VALID) != 0;
    return n;
}
