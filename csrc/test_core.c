/*
 * test_core.c -- checks the core on its own (make -C csrc test):
 *   hand-made positions with known values, bad arguments, random endings
 *   against a plain minimax written here (values, per-card values, lines,
 *   boolean targets), every ablation flag and a tiny table agreeing,
 *   same-structure variants answered by one reused solver (the table's
 *   bound transfer), and full deals (value = best card value, the line
 *   replays to the value, all configurations agree), and the exchange
 *   drivers (lists, floors, deadlines that stop a search midway).
 *   Usage: test_core [endings [deals]]
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "calasolve.h"

static int failures = 0;
static int checks = 0;

#define CHECK(cond, ...)                                      \
    do {                                                      \
        checks++;                                             \
        if (!(cond)) {                                        \
            failures++;                                       \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
            fprintf(stderr, __VA_ARGS__);                     \
            fprintf(stderr, "\n");                            \
        }                                                     \
    } while (0)

static const int PTS[10] = {0, 0, 0, 0, 1, 1, 1, 3, 1, 1};

/* ---- a plain minimax, independent of the core ---- */

typedef struct {
    uint64_t h[3];
    int trick[3], nt, leader, sol, bonus;
} bpos;

/* Legal cards of the player to move (follow suit). */
static uint64_t bf_legal(const bpos *p) {
    uint64_t hand = p->h[(p->leader + p->nt) % 3];
    if (p->nt > 0) {
        uint64_t f = hand & (0x3FFull << (10 * (p->trick[0] / 10)));
        if (f) return f;
    }
    return hand;
}

/* Plays card c for the player to move, resolving a completed trick; returns
 * the thirds the soloist gains. */
static int bf_play(bpos *q, int c) {
    q->h[(q->leader + q->nt) % 3] &= ~(1ull << c);
    q->trick[q->nt++] = c;
    if (q->nt < 3) return 0;
    int w = 0;
    for (int i = 1; i < 3; i++)
        if (q->trick[i] / 10 == q->trick[w] / 10 && q->trick[i] > q->trick[w]) w = i;
    int ws = (q->leader + w) % 3;
    int pts = PTS[q->trick[0] % 10] + PTS[q->trick[1] % 10] + PTS[q->trick[2] % 10];
    if (!(q->h[0] | q->h[1] | q->h[2])) pts += q->bonus;
    q->nt = 0;
    q->leader = ws;
    return ws == q->sol ? pts : 0;
}

static int bf_value(bpos *p) {
    int me = (p->leader + p->nt) % 3;
    if (!p->h[me]) return 0;
    uint64_t legal = bf_legal(p);
    int best = me == p->sol ? -1 : 1000;
    for (int c = 0; c < 40; c++) {
        if (!(legal >> c & 1)) continue;
        bpos q = *p;
        int gain = bf_play(&q, c);
        int v = gain + bf_value(&q);
        if (me == p->sol ? v > best : v < best) best = v;
    }
    return best;
}

/* ---- random positions ---- */

static uint64_t rng_state = 88172645463325252ull;
static uint64_t rnd(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
static int rnd_below(int n) { return (int)(rnd() % (uint64_t)n); }
static int cs_popcount_test(uint64_t x) { return __builtin_popcountll(x); }

/* The public position of a test position. */
static void to_pos(const bpos *b, cs_position *p) {
    memset(p, 0, sizeof *p);
    for (int s = 0; s < 3; s++) p->hands[s] = b->h[s];
    p->ntrick = (uint8_t)b->nt;
    for (int i = 0; i < b->nt; i++) p->trick[i] = (uint8_t)b->trick[i];
    p->leader = (uint8_t)b->leader;
    p->soloist = (uint8_t)b->sol;
    p->last_bonus = (uint8_t)b->bonus;
}

/* A random ending with `tricks` tricks to play, then `played` cards of the
 * current trick played at random (legally). */
static void random_position(int tricks, int played, cs_position *out, bpos *b) {
    int deck[40];
    for (int i = 0; i < 40; i++) deck[i] = i;
    for (int i = 39; i > 0; i--) {
        int j = rnd_below(i + 1);
        int t = deck[i];
        deck[i] = deck[j];
        deck[j] = t;
    }
    memset(b, 0, sizeof *b);
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < tricks; k++) b->h[s] |= 1ull << deck[s * tricks + k];
    b->leader = rnd_below(3);
    b->sol = rnd_below(3);
    b->bonus = rnd_below(16);
    for (int i = 0; i < played; i++) {
        uint64_t legal = bf_legal(b);
        int cards[40], n = 0;
        for (int c = 0; c < 40; c++)
            if (legal >> c & 1) cards[n++] = c;
        bf_play(b, cards[rnd_below(n)]); /* played < 3: no trick completes */
    }
    to_pos(b, out);
}

/* Soloist's thirds along a line from the position. */
static int replay(const cs_position *pos, const uint8_t *line, int n, int *ok) {
    bpos p;
    memset(&p, 0, sizeof p);
    for (int s = 0; s < 3; s++) p.h[s] = pos->hands[s];
    p.nt = pos->ntrick;
    for (int i = 0; i < p.nt; i++) p.trick[i] = pos->trick[i];
    p.leader = pos->leader;
    p.sol = pos->soloist;
    p.bonus = pos->last_bonus;
    int total = 0;
    *ok = 1;
    for (int i = 0; i < n; i++) {
        int c = line[i];
        if (!(bf_legal(&p) >> c & 1)) {
            *ok = 0;
            return -1;
        }
        total += bf_play(&p, c);
    }
    if (p.h[0] | p.h[1] | p.h[2]) *ok = 0; /* the line must reach the end */
    return total;
}

static cs_solver *make_solver(size_t mb, int tt, int eq, int canon, int order) {
    cs_config cfg;
    cs_config_default(&cfg);
    cfg.tt_mb = mb;
    cfg.use_tt = tt;
    cfg.use_equivalence = eq;
    cfg.use_canonical_suits = canon;
    cfg.use_ordering = order;
    cs_solver *s = NULL;
    int rc = cs_solver_new(&cfg, &s);
    if (rc != CS_OK) {
        fprintf(stderr, "cannot create solver: %d\n", rc);
        exit(2);
    }
    return s;
}

static uint64_t card(const char *t) {
    const char *ranks = "4567FCRA23", *suits = "BSCD";
    int r = (int)(strchr(ranks, t[0]) - ranks), s = (int)(strchr(suits, t[1]) - suits);
    return 1ull << (s * 10 + r);
}

static void test_hand_made(void) {
    cs_solver *s = make_solver(1, 1, 1, 1, 1);
    cs_position p;
    /* Last trick: soloist 0 leads AB, seat 1 has 3B: seat 1 wins. */
    memset(&p, 0, sizeof p);
    p.hands[0] = card("AB");
    p.hands[1] = card("3B");
    p.hands[2] = card("4C");
    p.leader = 0;
    p.soloist = 0;
    p.last_bonus = 3;
    CHECK(cs_value(s, &p) == 0, "last trick lost");
    /* Soloist holds the 3: 1 + 3 (the Ace) + 0 + 3 (last) = 7. */
    p.hands[0] = card("3B");
    p.hands[1] = card("AB");
    CHECK(cs_value(s, &p) == 7, "last trick won: %d", cs_value(s, &p));
    CHECK(cs_reaches(s, &p, 7) == 1, "reaches 7");
    CHECK(cs_reaches(s, &p, 8) == 0, "not 8");
    CHECK(cs_reaches(s, &p, -5) == 1, "target <= 0");
    /* Mid-trick: seat 1 led 4C; the soloist (seat 2) must follow with 5C,
     * seat 0 wins with 7C (0 thirds) and must lead RS; seat 1 plays 2D and
     * the soloist's 3S takes R + 2 + 3 + the last (3): value 6. */
    memset(&p, 0, sizeof p);
    p.hands[0] = card("7C") | card("RS");
    p.hands[1] = card("2D");
    p.hands[2] = card("5C") | card("3S");
    p.ntrick = 1;
    p.trick[0] = 20; /* 4C */
    p.leader = 1;
    p.soloist = 2;
    p.last_bonus = 3;
    CHECK(cs_value(s, &p) == 6, "mid-trick hand-made: %d", cs_value(s, &p));
    {
        int8_t v[40];
        CHECK(cs_card_values(s, &p, v) == 6 && v[21] == 6 && v[39] == -1, "mid-trick card values");
    }
    /* Bad arguments are rejected, never read out of bounds. */
    p.ntrick = 3;
    CHECK(cs_value(s, &p) == CS_EINVAL, "ntrick 3");
    p.ntrick = 1;
    p.trick[0] = 40;
    CHECK(cs_value(s, &p) == CS_EINVAL, "card 40");
    p.trick[0] = 20;
    p.last_bonus = 16;
    CHECK(cs_value(s, &p) == CS_EINVAL, "bonus 16");
    p.last_bonus = 0;
    p.hands[0] |= 1ull << 45;
    CHECK(cs_value(s, &p) == CS_EINVAL, "card bit 45");
    /* An inconsistent position (overlapping, uneven hands) is answered
     * without crashing. */
    memset(&p, 0, sizeof p);
    p.hands[0] = 0xFFFFFull;
    p.hands[1] = 0xFFull;
    p.hands[2] = 0;
    p.last_bonus = 15;
    int v = cs_value(s, &p);
    CHECK(v != CS_EINVAL, "inconsistent position value %d", v); /* any answer, no crash */
    int8_t vals[40];
    cs_card_values(s, &p, vals);
    uint8_t line[CS_MAX_LINE];
    int n = cs_line(s, &p, line);
    CHECK(n >= 0 && n <= CS_MAX_LINE, "inconsistent line %d", n);
    cs_solver_free(s);
}

static void test_random_endings(int count) {
    cs_solver *sv[6] = {
        make_solver(4, 1, 1, 1, 1),  make_solver(0, 0, 1, 1, 1), make_solver(4, 1, 0, 1, 1),
        make_solver(4, 1, 1, 0, 1),  make_solver(4, 1, 1, 1, 0), make_solver(0, 1, 1, 1, 1),
    };
    /* The last one gets tt_mb 0 = default; use a tiny table for heavy
     * replacement instead. */
    cs_solver_free(sv[5]);
    {
        cs_config cfg;
        cs_config_default(&cfg);
        cfg.tt_mb = 1; /* smallest configurable size; replacement is still exercised below */
        cs_solver_new(&cfg, &sv[5]);
    }
    for (int it = 0; it < count; it++) {
        int tricks = 1 + rnd_below(4);
        int played = rnd_below(3) == 0 ? 1 + rnd_below(2) : 0;
        cs_position p;
        bpos b;
        random_position(tricks, played, &p, &b);
        int bf = bf_value(&b);
        for (int k = 0; k < 6; k++) {
            int v = cs_value(sv[k], &p);
            CHECK(v == bf, "random ending %d solver %d: %d vs brute force %d", it, k, v, bf);
        }
        /* Card values against the brute force. */
        int8_t vals[40];
        int cv = cs_card_values(sv[it % 6], &p, vals);
        CHECK(cv == bf, "card_values root %d vs %d", cv, bf);
        uint64_t legal = bf_legal(&b);
        for (int c = 0; c < 40; c++) {
            if (!(legal >> c & 1)) {
                CHECK(vals[c] == -1, "illegal card %d has a value", c);
                continue;
            }
            bpos q = b;
            int gain = bf_play(&q, c);
            int want = gain + bf_value(&q);
            CHECK(vals[c] == want, "ending %d card %d: %d vs %d", it, c, vals[c], want);
        }
        /* The line replays to the value. */
        uint8_t line[CS_MAX_LINE];
        int n = cs_line(sv[(it + 1) % 6], &p, line);
        int ok;
        int got = replay(&p, line, n, &ok);
        CHECK(ok && got == bf, "line of ending %d: ok %d, %d vs %d", it, ok, got, bf);
        cs_analysis an;
        int av = cs_analyse(sv[(it + 2) % 6], &p, &an);
        got = replay(&p, an.line, an.nline, &ok);
        CHECK(av == bf && ok && got == bf, "analyse of ending %d", it);
        /* Boolean targets around the value. */
        CHECK(cs_reaches(sv[it % 6], &p, bf) == 1, "reaches value");
        CHECK(cs_reaches(sv[it % 6], &p, bf + 1) == 0, "not value + 1");
    }
    for (int k = 0; k < 6; k++) cs_solver_free(sv[k]);
}

/* Full deals: every configuration agrees, value = max/min of card values,
 * the line replays to the value. */
static void test_full_deals(int count) {
    cs_solver *sv[5] = {
        make_solver(16, 1, 1, 1, 1), make_solver(16, 1, 0, 1, 1), make_solver(16, 1, 1, 0, 1),
        make_solver(16, 1, 1, 1, 0), make_solver(1, 1, 1, 1, 1),
    };
    for (int it = 0; it < count; it++) {
        cs_position p;
        bpos b;
        random_position(12, 0, &p, &b);
        uint64_t total = cs_total_nodes(sv[0]);
        int v0 = cs_value(sv[0], &p);
        CHECK(cs_total_nodes(sv[0]) == total + cs_last_nodes(sv[0]) && cs_last_nodes(sv[0]) > 0,
              "full deal %d: node counters", it);
        for (int k = 1; k < 5; k++) {
            int v = cs_value(sv[k], &p);
            CHECK(v == v0, "full deal %d solver %d: %d vs %d", it, k, v, v0);
        }
        int8_t vals[40];
        int cv = cs_card_values(sv[0], &p, vals);
        int mx = -1, mn = 1000;
        for (int c = 0; c < 40; c++) {
            if (vals[c] < 0) continue;
            if (vals[c] > mx) mx = vals[c];
            if (vals[c] < mn) mn = vals[c];
        }
        int want = p.leader == p.soloist ? mx : mn;
        CHECK(cv == v0 && want == v0, "full deal %d card values %d/%d vs %d", it, cv, want, v0);
        uint8_t line[CS_MAX_LINE];
        int n = cs_line(sv[0], &p, line);
        int ok;
        int got = replay(&p, line, n, &ok);
        CHECK(ok && got == v0 && n == 36, "full deal %d line %d (%d cards) vs %d", it, got, n, v0);
    }
    for (int k = 0; k < 5; k++) cs_solver_free(sv[k]);
}

/* Same rank structure, other point classes: every suit's remaining cards
 * moved to another random set of ranks of the same size, order kept.  A
 * solver that saw the original must still answer the variant exactly
 * (the table transfers bounds between them, tt.h). */
static void rerank(const bpos *in, bpos *out) {
    *out = *in;
    int map[40];
    for (int s = 0; s < 4; s++) {
        int old[10], n = 0;
        uint64_t all = in->h[0] | in->h[1] | in->h[2];
        for (int i = 0; i < in->nt; i++) all |= 1ull << in->trick[i];
        for (int r = 0; r < 10; r++)
            if (all >> (s * 10 + r) & 1) old[n++] = s * 10 + r;
        /* choose n of the 10 ranks at random, increasing */
        int pick[10], k = 0;
        for (int r = 0; r < 10 && k < n; r++) {
            int left = 10 - r, need = n - k;
            if (rnd_below(left) < need) pick[k++] = s * 10 + r;
        }
        for (int i = 0; i < n; i++) map[old[i]] = pick[i];
    }
    for (int p = 0; p < 3; p++) {
        out->h[p] = 0;
        for (int c = 0; c < 40; c++)
            if (in->h[p] >> c & 1) out->h[p] |= 1ull << map[c];
    }
    for (int i = 0; i < in->nt; i++) out->trick[i] = map[in->trick[i]];
}

static void test_quasi_symmetric_variants(int count) {
    cs_solver *s = make_solver(2, 1, 1, 1, 1);
    for (int it = 0; it < count; it++) {
        cs_position p;
        bpos b;
        random_position(2 + rnd_below(3), rnd_below(3), &p, &b);
        int want = bf_value(&b);
        CHECK(cs_value(s, &p) == want, "variant base %d", it);
        for (int k = 0; k < 4; k++) {
            bpos v;
            rerank(&b, &v);
            v.bonus = rnd_below(16);
            cs_position q;
            to_pos(&v, &q);
            int w = bf_value(&v);
            int got = cs_value(s, &q);
            CHECK(got == w, "variant %d/%d: %d vs %d", it, k, got, w);
            CHECK(cs_reaches(s, &q, w) && !cs_reaches(s, &q, w + 1), "variant reaches %d/%d", it, k);
        }
    }
    cs_solver_free(s);
}

/* The goal search with a pure threshold goal ("final thirds >= T", whatever
 * the last trick and the trick class) must agree with the thirds search. */
static void test_goal_thresholds(int count) {
    cs_solver *s = make_solver(4, 1, 1, 1, 1);
    cs_goal *g = NULL;
    CHECK(cs_goal_new(1, &g) == CS_OK && g, "cs_goal_new");
    uint8_t goal[CS_GOAL_SIZE];
    for (int it = 0; it < count; it++) {
        cs_position p;
        bpos b;
        random_position(1 + it % 4, it % 3, &p, &b);
        int v = cs_value(s, &p);
        cs_goal_state st = {0, 1, 1}; /* both sides already hold a trick: class SOME */
        for (int t = v - 1; t <= v + 1; t++) {
            for (int i = 0; i < CS_GOAL_SIZE; i++) goal[i] = (uint8_t)(i / 6 >= t);
            int r = cs_goal_reaches(g, &p, &st, goal);
            CHECK(r == (v >= t), "goal >= %d on ending %d: %d (value %d)", t, it, r, v);
        }
    }
    cs_position bad = {{0, 0, 0}, {0, 0}, 3, 0, 0, 3};
    cs_goal_state st = {0, 0, 0};
    CHECK(cs_goal_reaches(g, &bad, &st, goal) == CS_EINVAL, "goal: ntrick 3");
    CHECK(cs_goal_reaches(NULL, &bad, &st, goal) == CS_EINVAL, "goal: NULL");
    cs_goal_free(g);
    cs_solver_free(s);
}

/* cs_goal_use_thirds: a goal search that asks its threshold nodes of a
 * thirds search answers as one that searches them itself, on random endings
 * and goals that become thresholds on the way ("c card thirds or no trick",
 * "c thirds but not a sweep") or never do (random tables), every flag. */
static void test_goal_with_thirds(int count) {
    cs_goal *plain = NULL, *fast = NULL;
    CHECK(cs_goal_new(1, &plain) == CS_OK && cs_goal_new(1, &fast) == CS_OK, "cs_goal_new");
    CHECK(cs_goal_use_thirds(fast, 2) == CS_OK, "cs_goal_use_thirds");
    CHECK(cs_goal_use_thirds(NULL, 2) == CS_EINVAL, "cs_goal_use_thirds: NULL");
    uint8_t goal[CS_GOAL_SIZE];
    int asked = 0;
    for (int it = 0; it < count; it++) {
        cs_position p;
        bpos b;
        random_position(1 + it % 4, it % 3, &p, &b);
        int c = rnd_below(12);
        for (int i = 0; i < CS_GOAL_SIZE; i++) {
            int v = i / 6, l = i / 3 % 2, t = i % 3;
            switch (it % 3) {
            case 0: goal[i] = (uint8_t)(v - 3 * l >= c || t == CS_GOAL_NONE); break;
            case 1: goal[i] = (uint8_t)(v >= c && t != CS_GOAL_SWEEP); break;
            default: goal[i] = (uint8_t)rnd_below(2); break;
            }
        }
        for (int flags = 0; flags < 4; flags++) {
            cs_goal_state st = {(uint8_t)rnd_below(4), (uint8_t)(flags & 1), (uint8_t)(flags >> 1)};
            int want = cs_goal_reaches(plain, &p, &st, goal);
            int got = cs_goal_reaches(fast, &p, &st, goal);
            CHECK(want >= 0 && got == want, "goal with thirds, ending %d flags %d: %d vs %d", it, flags, got, want);
            asked++;
        }
    }
    CHECK(asked == 4 * count, "goal with thirds: %d asked", asked);
    CHECK(cs_goal_use_thirds(fast, 0) == CS_OK, "cs_goal_use_thirds: off");
    cs_goal_free(plain);
    cs_goal_free(fast);
}

/* A batch of 1..max random endings of one size, leader and soloist (as
 * the exchange drivers take them), with their plain-minimax values. */
static int random_batch(int max, cs_position *cands, int *val) {
    int n = 1 + rnd_below(max);
    int tricks = 1 + rnd_below(3), leader = rnd_below(3), sol = rnd_below(3);
    for (int i = 0; i < n; i++) {
        bpos b;
        random_position(tricks, 0, &cands[i], &b);
        b.leader = leader;
        b.sol = sol;
        cands[i].leader = (uint8_t)leader;
        cands[i].soloist = (uint8_t)sol;
        val[i] = bf_value(&b);
    }
    return n;
}

/* cs_best_of: batches of random endings (one leader and soloist), the
 * list against values from the plain minimax, both sides, several list
 * lengths; every proven interval holds the value; bad arguments. */
static void test_best_of(int count) {
    cs_solver *s = make_solver(1, 1, 1, 1, 1);
    enum { MAXN = 24 };
    cs_position cands[MAXN];
    int val[MAXN];
    int8_t lo[MAXN], hi[MAXN];
    int32_t kept[MAXN];
    for (int round = 0; round < count; round++) {
        int n = random_batch(MAXN, cands, val);
        for (int maximise = 0; maximise < 2; maximise++) {
            const int tops[3] = {1, 3, MAXN};
            for (int k = 0; k < 3; k++) {
                int top = tops[k] < n ? tops[k] : n;
                uint64_t searches = 0;
                int r = cs_best_of(s, cands, n, maximise, top, lo, hi, kept, &searches);
                CHECK(r == top, "best_of returned %d, want %d", r, top);
                if (r != top) continue;
                /* the list: distinct, best first (ties by index), exact values */
                int used[MAXN] = {0};
                for (int j = 0; j < r; j++) {
                    int i = kept[j];
                    CHECK(i >= 0 && i < n && !used[i], "best_of kept a bad index %d", i);
                    if (i < 0 || i >= n || used[i]) break;
                    used[i] = 1;
                    CHECK(lo[i] == val[i] && hi[i] == val[i], "best_of: kept %d valued [%d, %d], true %d", i, lo[i], hi[i],
                          val[i]);
                    if (j > 0) {
                        int a = val[kept[j - 1]], b = val[i];
                        CHECK(maximise ? a >= b : a <= b, "best_of: list not best first");
                    }
                }
                /* nothing left out is strictly better than the last kept; intervals hold */
                int last = val[kept[r - 1]];
                for (int i = 0; i < n; i++) {
                    CHECK(lo[i] <= val[i] && val[i] <= hi[i], "best_of: interval [%d, %d] misses %d", lo[i], hi[i], val[i]);
                    if (!used[i]) CHECK(maximise ? val[i] <= last : val[i] >= last, "best_of: %d left out", i);
                }
            }
        }
    }
    CHECK(cs_best_of(s, cands, 0, 1, 1, lo, hi, kept, NULL) == 0, "best_of of nothing");
    CHECK(cs_best_of(NULL, cands, 1, 1, 1, lo, hi, kept, NULL) == CS_EINVAL, "best_of NULL solver");
    CHECK(cs_best_of(s, NULL, 1, 1, 1, lo, hi, kept, NULL) == CS_EINVAL, "best_of NULL candidates");
    CHECK(cs_best_of(s, cands, 1, 1, 0, lo, hi, kept, NULL) == CS_EINVAL, "best_of top 0");
    CHECK(cs_best_of(s, cands, -1, 1, 1, lo, hi, kept, NULL) == CS_EINVAL, "best_of n < 0");
    cands[0].last_bonus = 16;
    CHECK(cs_best_of(s, cands, 1, 1, 1, lo, hi, kept, NULL) == CS_EINVAL, "best_of bad bonus");
    cs_solver_free(s);
}

/* cs_best_of_limited: with a floor, the list is exactly the candidates
 * strictly better than it among the `top` best (the same values as
 * without); a deadline already passed looks at the first candidate only,
 * says so, and every interval still holds the value. */
static void test_best_of_limited(int count) {
    cs_solver *s = make_solver(1, 1, 1, 1, 1);
    enum { MAXN = 24 };
    cs_position cands[MAXN];
    int val[MAXN];
    int8_t lo[MAXN], hi[MAXN];
    int32_t kept[MAXN], full[MAXN];
    for (int round = 0; round < count; round++) {
        int n = random_batch(MAXN, cands, val);
        for (int maximise = 0; maximise < 2; maximise++) {
            int top = 3 < n ? 3 : n;
            int complete = -1;
            int r0 = cs_best_of(s, cands, n, maximise, top, lo, hi, full, NULL);
            int floor = val[full[r0 / 2]] + (maximise ? -1 : 1) * (round % 3 - 1);
            int shared[CS_MAX_VALUE + 1] = {0};
            cs_best_of_limits lim = {floor, 0.0, round % 2 ? shared : NULL, 0.0};
            int r = cs_best_of_limited(s, cands, n, maximise, top, &lim, lo, hi, kept, NULL, &complete);
            CHECK(complete == 1, "best_of_limited: no deadline, yet cut");
            int want = 0;
            for (int j = 0; j < r0; j++)
                if (maximise ? val[full[j]] > floor : val[full[j]] < floor) want++;
            CHECK(r == want, "best_of_limited: floor %d kept %d, want %d", floor, r, want);
            for (int j = 0; j < r && j < want; j++)
                CHECK(val[kept[j]] == val[full[j]], "best_of_limited: value %d, want %d", val[kept[j]], val[full[j]]);
            for (int i = 0; i < n; i++)
                CHECK(lo[i] <= val[i] && val[i] <= hi[i], "best_of_limited: interval [%d, %d] misses %d", lo[i],
                      hi[i], val[i]);
            if (round % 2) {
                int counted = 0;
                for (int v = 0; v <= CS_MAX_VALUE; v++) counted += shared[v];
                CHECK(counted >= r && (r == 0 || shared[val[kept[0]]] > 0), "best_of_limited: %d counted, %d kept",
                      counted, r);
            }
            /* values found by another search: the list is the part of the full one better than its floor */
            memset(shared, 0, sizeof shared);
            if (floor < 0 || floor > CS_MAX_VALUE) continue;
            shared[floor] = top;
            cs_best_of_limits raised = {maximise ? -1 : CS_MAX_VALUE + 1, 0.0, shared, 0.0};
            r = cs_best_of_limited(s, cands, n, maximise, top, &raised, lo, hi, kept, NULL, &complete);
            CHECK(r == want, "best_of_limited raised: floor %d kept %d, want %d", floor, r, want);
            for (int j = 0; j < r && j < want; j++)
                CHECK(val[kept[j]] == val[full[j]], "best_of_limited raised: value %d, want %d", val[kept[j]],
                      val[full[j]]);
            for (int i = 0; i < n; i++)
                CHECK(lo[i] <= val[i] && val[i] <= hi[i], "best_of_limited raised: interval [%d, %d] misses %d",
                      lo[i], hi[i], val[i]);
            cs_best_of_limits late = {maximise ? -1 : CS_MAX_VALUE + 1, 1e-9, NULL, 0.0};
            r = cs_best_of_limited(s, cands, n, maximise, top, &late, lo, hi, kept, NULL, &complete);
            CHECK(r == 1 && kept[0] == 0 && lo[0] == val[0] && hi[0] == val[0], "best_of_limited: cut, first not valued");
            CHECK(complete == (n == 1), "best_of_limited: cut not reported (n %d, complete %d)", n, complete);
            for (int i = 0; i < n; i++)
                CHECK(lo[i] <= val[i] && val[i] <= hi[i], "best_of_limited cut: interval [%d, %d] misses %d", lo[i],
                      hi[i], val[i]);
        }
    }
    CHECK(cs_best_of_limited(s, cands, 1, 1, 1, NULL, lo, hi, kept, NULL, NULL) == CS_EINVAL, "best_of_limited NULL");
    cs_solver_free(s);
}

/* Seconds on CLOCK_MONOTONIC, as the deadlines of cs_best_of_limited. */
static double now_mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* A deadline stops a test inside the search: with a floor from elsewhere
 * and the deadline passed, no candidate needing a search is kept; full
 * deals stopped mid-search leave every interval true, their list's
 * values exact, and the table as good as new (the same values as a fresh
 * solver's, after many stops). */
static void test_best_of_stopped(int count) {
    cs_solver *s = make_solver(16, 1, 1, 1, 1), *fresh = make_solver(16, 1, 1, 1, 1);
    enum { MAXN = 24, FULL = 6 };
    cs_position cands[MAXN];
    int val[MAXN];
    int8_t lo[MAXN], hi[MAXN];
    int32_t kept[MAXN];
    for (int round = 0; round < count; round++) {
        int n = random_batch(MAXN, cands, val);
        int maximise = round % 2;
        int floor = maximise ? 0 : CS_MAX_VALUE;
        cs_best_of_limits late = {floor, 1e-9, NULL, 1e-9};
        int complete = -1;
        int r = cs_best_of_limited(s, cands, n, maximise, 3 < n ? 3 : n, &late, lo, hi, kept, NULL, &complete);
        int searched = 0;
        for (int i = 0; i < n; i++) {
            CHECK(lo[i] <= val[i] && val[i] <= hi[i], "stopped: interval [%d, %d] misses %d", lo[i], hi[i], val[i]);
            searched |= lo[i] != hi[i];
        }
        for (int j = 0; j < r; j++)
            CHECK(lo[kept[j]] == val[kept[j]] && hi[kept[j]] == val[kept[j]], "stopped: kept %d not exact", kept[j]);
        CHECK(complete == 0 || !searched, "stopped: a search left undone, yet complete");
    }
    /* Full deals: stop after about a millisecond, over and over, then value them with the same table. */
    int stops = 0;
    for (int round = 0; round < count / 10 + 1; round++) {
        int leader = rnd_below(3), sol = rnd_below(3);
        for (int i = 0; i < FULL; i++) {
            bpos b;
            random_position(12, 0, &cands[i], &b);
            cands[i].leader = (uint8_t)leader;
            cands[i].soloist = (uint8_t)sol;
        }
        for (int k = 0; k < 4; k++) {
            double t = now_mono() + 1e-3 * (k + 1);
            cs_best_of_limits soon = {k % 2 ? 0 : -1, t, NULL, t};
            int complete = -1;
            int r = cs_best_of_limited(s, cands, FULL, 1, 2, &soon, lo, hi, kept, NULL, &complete);
            stops += complete == 0;
            for (int i = 0; i < FULL; i++) {
                int v = cs_value(fresh, &cands[i]);
                CHECK(lo[i] <= v && v <= hi[i], "stopped deal %d: interval [%d, %d] misses %d", i, lo[i], hi[i], v);
            }
            for (int j = 0; j < r; j++)
                CHECK(lo[kept[j]] == hi[kept[j]] && lo[kept[j]] == cs_value(fresh, &cands[kept[j]]),
                      "stopped deal %d: kept, not exact", kept[j]);
        }
        for (int i = 0; i < FULL; i++) {
            int v = cs_value(s, &cands[i]), want = cs_value(fresh, &cands[i]);
            CHECK(v == want, "after stops, deal %d: %d, a fresh table %d", i, v, want);
        }
    }
    CHECK(stops > 0, "no full-deal list was stopped by its deadline");
    cs_solver_free(s);
    cs_solver_free(fresh);
}

/* cs_reaches_batch: batches of random endings against the plain minimax,
 * every target, with and without an early stop; bad arguments. */
static void test_reaches_batch(int count) {
    cs_solver *s = make_solver(1, 1, 1, 1, 1);
    enum { MAXN = 24 };
    cs_position cands[MAXN];
    int val[MAXN];
    int8_t out[MAXN];
    for (int round = 0; round < count; round++) {
        int n = random_batch(MAXN, cands, val);
        int target = rnd_below(12);
        int max_fails = rnd_below(4); /* 0: never stop */
        uint64_t searches = 0;
        int r = cs_reaches_batch(s, cands, n, target, max_fails, out, &searches);
        int fails = 0, stop = n;
        for (int i = 0; i < n; i++) {
            if (val[i] < target && ++fails == max_fails) {
                stop = i + 1;
                break;
            }
        }
        CHECK(r == stop, "reaches_batch tested %d, want %d", r, stop);
        CHECK(searches == (uint64_t)r, "reaches_batch: %llu searches for %d tests", (unsigned long long)searches, r);
        for (int i = 0; i < n; i++) {
            int want = i < stop ? val[i] >= target : -1;
            CHECK(out[i] == want, "reaches_batch: candidate %d says %d, want %d (value %d, target %d)", i, out[i], want,
                  val[i], target);
        }
    }
    CHECK(cs_reaches_batch(s, cands, 0, 1, 0, out, NULL) == 0, "reaches_batch of nothing");
    CHECK(cs_reaches_batch(NULL, cands, 1, 1, 0, out, NULL) == CS_EINVAL, "reaches_batch NULL solver");
    CHECK(cs_reaches_batch(s, NULL, 1, 1, 0, out, NULL) == CS_EINVAL, "reaches_batch NULL candidates");
    CHECK(cs_reaches_batch(s, cands, 1, 1, 0, NULL, NULL) == CS_EINVAL, "reaches_batch NULL out");
    CHECK(cs_reaches_batch(s, cands, -1, 1, 0, out, NULL) == CS_EINVAL, "reaches_batch n < 0");
    cands[0].last_bonus = 16;
    CHECK(cs_reaches_batch(s, cands, 1, 1, 0, out, NULL) == CS_EINVAL, "reaches_batch bad bonus");
    cs_solver_free(s);
}

/* ---- contract decisions (contract.c) ---- */

/* A random ending seen by its player to move: the monte of 4 other cards,
 * known to the mover when `monte_known`; each other seat may hold any unseen
 * card but those of one suit it lacks (when it lacks one). */
static void random_view(int tricks, int played, int monte_known, bpos *b, cs_decision *d) {
    cs_position p;
    random_position(tricks, played, &p, b);
    memset(d, 0, sizeof *d);
    int mover = (b->leader + b->nt) % 3;
    uint64_t gone = 0;
    for (int i = 0; i < b->nt; i++) gone |= 1ull << b->trick[i];
    uint64_t rest = ((1ull << 40) - 1) & ~(b->h[0] | b->h[1] | b->h[2] | gone), monte = 0;
    while (cs_popcount_test(monte) < 4) {
        int c = rnd_below(40);
        if (rest >> c & 1) monte |= 1ull << c;
    }
    cs_seat_view *v = &d->view;
    v->seat = (uint8_t)mover;
    v->placed[mover] = b->h[mover];
    if (monte_known) v->placed[3] = monte;
    uint64_t unseen = (b->h[0] | b->h[1] | b->h[2] | monte) & ~v->placed[mover] & ~v->placed[3];
    for (int q = 0; q < 4; q++) {
        if (q == mover) continue;
        v->may[q] = unseen;
        if (q < 3)
            for (int suit = 0; suit < 4; suit++)
                if (!(b->h[q] & (0x3FFull << (10 * suit)))) {
                    v->may[q] &= ~(0x3FFull << (10 * suit));
                    break;
                }
    }
    for (int q = 0; q < 3; q++) v->sizes[q] = (uint8_t)cs_popcount_test(b->h[q]);
    v->sizes[3] = 4;
    for (int i = 0; i < b->nt; i++) d->trick[i] = (uint8_t)b->trick[i];
    d->ntrick = (uint8_t)b->nt;
    d->leader = (uint8_t)b->leader;
    d->soloist = (uint8_t)b->sol;
    d->last_thirds = 3;
    uint64_t legal = bf_legal(b);
    for (int c = 0; c < 40; c++)
        if (legal >> c & 1) d->reps[d->nreps++] = (uint8_t)c;
    b->bonus = 3;
    for (int c = 0; c < 40; c++)
        if (monte >> c & 1) b->bonus += PTS[c % 10];
}

static void test_layouts(int count) {
    enum { N = 50 };
    uint64_t out[4 * N], again[4 * N];
    for (int it = 0; it < count; it++) {
        bpos b;
        cs_decision d;
        random_view(2 + it % 4, it % 3, it % 2, &b, &d);
        const cs_seat_view *v = &d.view;
        int n = cs_deal_layouts(v, 7, (uint64_t)it, N, out);
        CHECK(n == N, "layouts of view %d: %d", it, n);
        CHECK(cs_deal_layouts(v, 7, (uint64_t)it, N, again) == N && !memcmp(out, again, sizeof out),
              "layouts of view %d: the same for the same stream", it);
        uint64_t all = v->placed[0] | v->placed[1] | v->placed[2] | v->placed[3] | v->may[0] | v->may[1] | v->may[2] |
                       v->may[3];
        for (int i = 0; i < N; i++) {
            uint64_t seen = 0;
            int ok = 1;
            for (int q = 0; q < 4; q++) {
                uint64_t h = out[4 * i + q];
                ok &= !(h & seen) && cs_popcount_test(h) == v->sizes[q] && (h & v->placed[q]) == v->placed[q];
                ok &= !(h & ~v->placed[q] & ~v->may[q]);
                seen |= h;
            }
            CHECK(ok && seen == all && out[4 * i + v->seat] == v->placed[v->seat], "layout %d of view %d", i, it);
        }
    }
    bpos b;
    cs_decision d;
    random_view(3, 0, 1, &b, &d);
    CHECK(cs_deal_layouts(NULL, 0, 0, 1, out) == CS_EINVAL, "layouts: NULL view");
    CHECK(cs_deal_layouts(&d.view, 0, 0, -1, out) == CS_EINVAL, "layouts: n -1");
    CHECK(cs_deal_layouts(&d.view, 0, 0, CS_MAX_LAYOUTS + 1, out) == CS_EINVAL, "layouts: too many");
    CHECK(cs_deal_layouts(&d.view, 0, 0, 1, NULL) == CS_EINVAL, "layouts: NULL out");
    CHECK(cs_deal_layouts(&d.view, 0, 0, 0, NULL) == 0, "layouts: none asked");
    cs_seat_view bad = d.view;
    bad.sizes[(bad.seat + 1) % 3]++;
    CHECK(cs_deal_layouts(&bad, 0, 0, 1, out) == CS_ENOLAYOUT, "layouts: a size that no layout fits");
    bad = d.view;
    bad.may[(bad.seat + 1) % 3] = bad.may[(bad.seat + 2) % 3] = 0;
    CHECK(cs_deal_layouts(&bad, 0, 0, 1, out) == CS_ENOLAYOUT, "layouts: cards with no place");
    bad = d.view;
    bad.seat = 3;
    CHECK(cs_deal_layouts(&bad, 0, 0, 1, out) == CS_EINVAL, "layouts: seat 3");
    bad = d.view;
    bad.may[0] |= 1ull << 45;
    CHECK(cs_deal_layouts(&bad, 0, 0, 1, out) == CS_EINVAL, "layouts: card bit 45");
    bad = d.view;
    bad.sizes[1] = 41;
    CHECK(cs_deal_layouts(&bad, 0, 0, 1, out) == CS_EINVAL, "layouts: size 41");
}

/* With nothing unseen every layout is the deal itself: the mover plays the
 * first card (in `reps` order) that meets the goal (soloist) or stops it
 * (defenders), else the first card. */
static void test_contract_choose(int count) {
    cs_solver *s = make_solver(1, 1, 1, 1, 1);
    for (int it = 0; it < count; it++) {
        bpos b;
        cs_decision d;
        random_view(1 + it % 3, it % 3, 1, &b, &d);
        int mover = d.view.seat;
        d.view.placed[0] = b.h[0], d.view.placed[1] = b.h[1], d.view.placed[2] = b.h[2];
        memset(d.view.may, 0, sizeof d.view.may);
        d.captured = (uint8_t)rnd_below(20);
        d.card_thirds = d.captured;
        d.first.target = (int8_t)(d.captured + rnd_below(12));
        int want = -1;
        for (int i = 0; i < d.nreps && want < 0; i++) {
            bpos q = b;
            int v = d.captured + bf_play(&q, d.reps[i]) + bf_value(&q);
            if ((v >= d.first.target) == (mover == d.soloist)) want = d.reps[i];
        }
        if (want < 0) want = d.reps[0];
        cs_decision_stats st;
        int got = cs_contract_choose(s, &d, 1, (uint64_t)it, 1 + it % 5, NULL, 0, &st);
        CHECK(got == want, "contract decision %d: %d vs %d", it, got, want);
        CHECK(st.layouts == 1 && st.calls >= 0, "contract decision %d: %d layouts", it, st.layouts);
    }
    bpos b;
    cs_decision d;
    cs_target rungs[2] = {{30, 1}, {3, 1}};
    random_view(3, 1, 0, &b, &d);
    d.first.target = 18;
    int card = cs_contract_choose(s, &d, 0, 0, 8, rungs, 1, NULL);
    CHECK(card >= 0 && card < 40 && (bf_legal(&b) >> card & 1), "contract decision with a rung: %d", card);
    CHECK(cs_contract_choose(NULL, &d, 0, 0, 8, NULL, 0, NULL) == CS_EINVAL, "contract: NULL solver");
    CHECK(cs_contract_choose(s, &d, 0, 0, 0, NULL, 0, NULL) == CS_EINVAL, "contract: no samples");
    CHECK(cs_contract_choose(s, &d, 0, 0, 8, NULL, 1, NULL) == CS_EINVAL, "contract: rungs NULL");
    CHECK(cs_contract_choose(s, &d, 0, 0, 8, rungs, CS_MAX_RUNGS + 1, NULL) == CS_EINVAL, "contract: too many rungs");
    cs_decision bad = d;
    bad.nreps = 0;
    CHECK(cs_contract_choose(s, &bad, 0, 0, 8, NULL, 0, NULL) == CS_EINVAL, "contract: no card");
    bad = d;
    bad.reps[0] = 40;
    CHECK(cs_contract_choose(s, &bad, 0, 0, 8, NULL, 0, NULL) == CS_EINVAL, "contract: card 40");
    bad = d;
    bad.view.seat = (uint8_t)((bad.view.seat + 1) % 3);
    CHECK(cs_contract_choose(s, &bad, 0, 0, 8, NULL, 0, NULL) == CS_EINVAL, "contract: not the mover's view");
    bad = d;
    bad.first.target = 40;
    CHECK(cs_contract_choose(s, &bad, 0, 0, 8, NULL, 0, NULL) == CS_EINVAL, "contract: target 40");
    bad = d;
    bad.view.sizes[3] = 5;
    CHECK(cs_contract_choose(s, &bad, 0, 0, 8, NULL, 0, NULL) == CS_ENOLAYOUT, "contract: no layout");
    cs_solver_free(s);
}

int main(int argc, char **argv) {
    int endings = argc > 1 ? atoi(argv[1]) : 500;
    int deals = argc > 2 ? atoi(argv[2]) : 6;
    test_hand_made();
    test_random_endings(endings);
    test_quasi_symmetric_variants(endings / 2);
    test_full_deals(deals);
    test_goal_thresholds(endings / 2);
    test_goal_with_thirds(endings / 2);
    test_best_of(endings / 5);
    test_best_of_limited(endings / 5);
    test_best_of_stopped(endings / 5);
    test_reaches_batch(endings / 2);
    test_layouts(endings / 5);
    test_contract_choose(endings / 2);
    printf("%d checks, %d failures\n", checks, failures);
    return failures ? 1 : 0;
}
