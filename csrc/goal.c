/* goal.c -- boolean search for a goal on the finished deal (payoff-aware solving).
 *
 * The thirds search (search.c) asks "does the soloist win >= T thirds from
 * here?", a question about one additive number.  Game points are not
 * additive: cappotto (all or no tricks) pays x2 but stramazzo (the losing
 * side under 3 card thirds) pays x3, so leaving the defenders one pointless
 * trick can be worth more than sweeping.  The final payoff depends only on
 *   S  the soloist's final thirds (0..35, what was captured before included),
 *   L  whether the soloist won the last trick, and
 *   T  whether the soloist won no trick, some, or every trick,
 * so a goal is a table of the (S, L, T) outcomes the soloist wants.  This
 * file searches AND/OR trees for such a goal: the soloist needs one move
 * reaching it, the defenders one move refuting it.
 *
 * It keeps its own small memo (exact keys, so no collision can lie) at trick
 * boundaries, cleared by a generation stamp per goal, and prunes a node as
 * soon as every outcome still possible from it is a win, or every one a
 * loss -- which for the usual threshold-like goals ends most lines early.
 *
 * With a thirds search of its own (cs_goal_use_thirds), a trick-boundary
 * node whose outcomes still possible win exactly above a count of the
 * soloist's thirds (all of them, or in cards: the last's 3 not counted) is
 * that null-window question, asked of the thirds search (search.c, its
 * bounds and table): e.g. "3 card thirds or no trick at all" becomes "3 card
 * thirds" once the soloist has won a trick, so only the lines where he has
 * not are searched here.
 */
#include <stdlib.h>
#include <string.h>

#include "bounds.h"
#include "calasolve.h"
#include "key.h"
#include "movegen.h"
#include "position.h"
#include "tables.h"

#define GOAL_SLOTS 8

/* A memo entry, keyed on the NORMALISED position (key.c: relative ranks,
 * owners relative to the soloist, canonical suit order, point classes and
 * the last's bonus -- positions with equal keys have isomorphic game trees
 * with the same thirds everywhere, so the same answer for every goal) plus
 * the accumulated facts.  Layout (32 bytes): s0 8 (structure bits 0..63),
 * s1 4 (structure bits 64..69, leader relative to the soloist << 4),
 * shapes 4 (4 x 7 bits), acc 4 (S 6 bits | flags 2 bits << 6 | bonus
 * 4 bits << 8), gen 4, result 1, pad 7. */
typedef struct {
    uint64_t s0;
    uint32_t s1, shapes, acc;
    uint32_t gen; /* 0 = empty */
    uint8_t result;
} goal_entry;

struct cs_goal {
    goal_entry *table;
    size_t mask; /* entries - 1 (a power of two) */
    uint32_t gen; /* last stamp handed out */
    uint32_t cur; /* the stamp of the goal under search */
    const uint8_t *goal; /* CS_GOAL_SIZE bytes, for the search under way */
    /* The memo answers several goals at once: each recent goal owns a
     * generation stamp, and an entry is valid only under its goal's stamp. */
    uint8_t slot_goal[GOAL_SLOTS][CS_GOAL_SIZE];
    uint32_t slot_gen[GOAL_SLOTS]; /* 0 = unused */
    uint32_t slot_used[GOAL_SLOTS]; /* last use, for LRU */
    uint32_t clock;
    /* wins[l][t][v] = goal outcomes (S < v, L = l, T = t) that win, so a range of S
     * is all wins or all losses in O(1). */
    int16_t wins[2][3][CS_MAX_VALUE + 2];
    uint64_t nodes;       /* of the last call (the thirds search's included) */
    uint64_t total_nodes; /* since creation */
    unsigned mg_flags;
    cs_solver *thirds;    /* the thirds search threshold nodes are asked of (NULL: none) */
};

static inline int goal_at(const uint8_t *goal, int s, int l, int t) { return goal[(s * 2 + l) * 3 + t]; }

/* The trick class T at the end from the two "has won a trick" flags. */
static inline int trick_class(int sol_any, int def_any) {
    if (!sol_any) return CS_GOAL_NONE;
    return def_any ? CS_GOAL_SOME : CS_GOAL_SWEEP;
}

/* 1: every outcome still possible wins; 0: every one loses; -1: undecided.
 * S ends in [s, s + rem] (s <= 35: goal_node clamps it); L and T are whatever is still possible. */
static int decided(const cs_goal *g, int s, int rem, int sol_any, int def_any) {
    int hi = s + rem > CS_MAX_VALUE ? CS_MAX_VALUE : s + rem;
    int wins = 0, total = 0;
    for (int l = 0; l < 2; l++) {
        for (int t = 0; t < 3; t++) {
            /* T only changes towards SOME: NONE needs no soloist trick, SWEEP no defence trick. */
            if (t == CS_GOAL_NONE && sol_any) continue;
            if (t == CS_GOAL_SWEEP && def_any) continue;
            wins += g->wins[l][t][hi + 1] - g->wins[l][t][s];
            total += hi + 1 - s;
        }
    }
    if (wins == 0) return 0;
    return wins == total ? 1 : -1;
}

static size_t slot_of(const tt_key *k, uint32_t acc) {
    uint64_t h = k->s0 * UINT64_C(0x9E3779B97F4A7C15);
    h ^= ((uint64_t)k->s1 << 32 | k->shapes) * UINT64_C(0xC2B2AE3D27D4EB4F);
    h ^= (uint64_t)acc * UINT64_C(0xD6E8FEB86659FD93);
    h ^= h >> 29;
    h *= UINT64_C(0xBF58476D1CE4E5B9);
    return (size_t)(h ^ (h >> 32));
}

/* Can the soloist, off lead, duck every trick still to come?  Per suit, with
 * the soloist's cards a1 < a2 < ... and the defence's d1 < d2 < ... (both
 * defenders together), it suffices that aj < dj for every j: each round of
 * the suit is led by a defender and uses up at least one defence card, so
 * the card led in round j ranks at least dj, above the soloist's lowest card
 * left, aj.  The soloist follows with his lowest card and, when void,
 * discards his highest (which keeps the condition; a discard never wins),
 * so he never wins a trick and never gets the lead back. */
static int soloist_ducks_all(const pos_t *p) {
    uint64_t sol = p->hand[p->soloist];
    uint64_t def = pos_all(p) & ~sol;
    for (int st = 0; st < 4; st++) {
        uint32_t a = cs_suit_of_mask(sol, st), d = cs_suit_of_mask(def, st);
        while (a && d) {
            if ((a & -a) > (d & -d)) return 0; /* aj above dj */
            a &= a - 1;
            d &= d - 1;
        }
    }
    return 1;
}

/* Lines one side can force from a trick boundary that settle the goal:
 * 1 if the soloist has a winning line, 0 if the defence has one, -1 else.
 *  - The side on lead cashes a sure winner in every trick left (bounds.c):
 *    the soloist then ends with S + rem and the last trick, the defence
 *    holds S and takes the last.
 *  - The soloist, off lead, ducks every trick (soloist_ducks_all).
 * Each is one line among many, so it only decides when it wins for the
 * side that can force it. */
static int forced_line(const cs_goal *g, const pos_t *p, int s, int rem, int sol_any, int def_any) {
    int tricks;
    bd_cash(p, &tricks);
    int left = cs_popcount(p->hand[p->leader]);
    int hi = s + rem > CS_MAX_VALUE ? CS_MAX_VALUE : s + rem;
    if (tricks >= left) {
        if (p->leader == p->soloist) {
            if (goal_at(g->goal, hi, 1, trick_class(1, def_any))) return 1;
        } else if (!goal_at(g->goal, s, 0, trick_class(sol_any, 1))) {
            return 0;
        }
    }
    if (p->leader != p->soloist && soloist_ducks_all(p) && goal_at(g->goal, s, 0, trick_class(sol_any, 1)))
        return 1;
    return -1;
}

/* One outcome's count into the lowest count that wins and the highest that fails. */
static inline void tally(int wins, int count, int *min_win, int *max_fail) {
    if (wins) {
        if (count < *min_win) *min_win = count;
    } else if (count > *max_fail) {
        *max_fail = count;
    }
}

/* The count of the soloist's thirds that decides every outcome still possible from a
 * trick boundary with s thirds captured and rem in play: c such that an outcome wins
 * exactly when its count reaches c, counting the last's 3 (*cards = 0) or not (1);
 * -1 when neither count does.  A sweep ends with every thirds in play and the last,
 * no trick with none; the rest may end anywhere between (counting a few endings
 * that cannot happen only makes the test stricter). */
static int threshold(const cs_goal *g, int s, int rem, int sol_any, int def_any, int *cards) {
    int hi = s + rem > CS_MAX_VALUE ? CS_MAX_VALUE : s + rem;
    for (int mode = 1; mode >= 0; mode--) {
        int min_win = 1000, max_fail = -1000;
        for (int l = 0; l < 2; l++)
            for (int v = s; v <= hi; v++)
                tally(goal_at(g->goal, v, l, CS_GOAL_SOME), v - 3 * mode * l, &min_win, &max_fail);
        if (!def_any) tally(goal_at(g->goal, hi, 1, CS_GOAL_SWEEP), hi - 3 * mode, &min_win, &max_fail);
        if (!sol_any) tally(goal_at(g->goal, s, 0, CS_GOAL_NONE), s, &min_win, &max_fail);
        if (max_fail < min_win && min_win < 1000 && max_fail > -1000) {
            *cards = mode;
            return max_fail + 1;
        }
    }
    return -1;
}

/* Ask a threshold node of the thirds search: 1 or 0, or -1 when it cannot be. */
static int ask_thirds(cs_goal *g, const pos_t *p, int s, int rem, int sol_any, int def_any) {
    int cards;
    int c = threshold(g, s, rem, sol_any, def_any, &cards);
    if (c < 0 || (cards && p->bonus < 3)) return -1;
    int target = c - s;
    if (target > rem - 3 * cards) return 0; /* more than is left */
    if (target <= 0) return 1;
    cs_position cp;
    for (int i = 0; i < 3; i++) cp.hands[i] = p->hand[i];
    cp.ntrick = 0;
    cp.leader = p->leader;
    cp.soloist = p->soloist;
    cp.last_bonus = (uint8_t)(p->bonus - 3 * cards);
    int r = cs_reaches(g->thirds, &cp, target);
    g->nodes += cs_last_nodes(g->thirds);
    return r < 0 ? -1 : r;
}

static int goal_node(cs_goal *g, pos_t *p, int s, int sol_any, int def_any);

/* Play every move of the player to move; OR for the soloist, AND for the defence. */
static int goal_moves(cs_goal *g, pos_t *p, int s, int sol_any, int def_any) {
    cs_move mv[CS_MAX_MOVES];
    int n = mg_generate(p, g->mg_flags, mv);
    if (n == 0) return 0; /* inconsistent position: treat as a loss, never read past */
    int soloist_moves = pos_to_move(p) == p->soloist;
    for (int i = 0; i < n; i++) {
        undo_t u;
        int gained = pos_make(p, mv[i].card, &u);
        int ns = s + gained, na = sol_any, nd = def_any;
        if (u.completed) {
            if (p->leader == p->soloist)
                na = 1;
            else
                nd = 1;
        }
        int r = goal_node(g, p, ns, na, nd);
        pos_unmake(p, &u);
        if (soloist_moves && r) return 1;
        if (!soloist_moves && !r) return 0;
    }
    return soloist_moves ? 0 : 1;
}

static int goal_node(cs_goal *g, pos_t *p, int s, int sol_any, int def_any) {
    g->nodes++;
    /* S above 35 happens only in inconsistent positions and answers as 35
     * does (every outcome caps at 35): clamped once here, it stays inside
     * the goal tables and the memo's 6 bits. */
    if (s > CS_MAX_VALUE) s = CS_MAX_VALUE;
    uint64_t all = pos_all(p);
    if (p->ntrick == 0 && all == 0) {
        /* The deal is over: the last trick's winner leads "next". */
        int l = p->leader == p->soloist;
        return goal_at(g->goal, s, l, trick_class(sol_any, def_any));
    }
    int rem = pos_remaining(p);
    int d = decided(g, s, rem, sol_any, def_any);
    if (d >= 0) return d;
    if (p->ntrick != 0) return goal_moves(g, p, s, sol_any, def_any);
    int f = forced_line(g, p, s, rem, sol_any, def_any);
    if (f >= 0) return f;
    if (g->thirds) {
        int t = ask_thirds(g, p, s, rem, sol_any, def_any);
        if (t >= 0) return t;
    }
    if (!g->table) return goal_moves(g, p, s, sol_any, def_any);

    tt_key k;
    key_of(p, 1, &k);
    uint32_t acc = (uint32_t)s | (uint32_t)(sol_any | def_any << 1) << 6 | k.bonus << 8;
    size_t i = slot_of(&k, acc) & g->mask;
    goal_entry *e = &g->table[i];
    if (e->gen == g->cur && e->s0 == k.s0 && e->s1 == k.s1 && e->shapes == k.shapes && e->acc == acc)
        return e->result;
    int r = goal_moves(g, p, s, sol_any, def_any);
    /* Always replace: the newest entry is the one most likely to be asked again
     * (and it is the current goal's, which the other goals' entries yield to). */
    e = &g->table[i];
    e->s0 = k.s0;
    e->s1 = k.s1;
    e->shapes = k.shapes;
    e->acc = acc;
    e->gen = g->cur;
    e->result = (uint8_t)r;
    return r;
}

int cs_goal_new(size_t mb, cs_goal **out) {
    if (!out) return CS_EINVAL;
    *out = NULL;
    cs_tables_init();
    cs_goal *g = calloc(1, sizeof *g);
    if (!g) return CS_ENOMEM;
    g->mg_flags = MG_EQUIV | MG_ORDER;
    if (mb > 0) {
        size_t want = mb * (size_t)1048576 / sizeof(goal_entry), n = 1;
        while (n * 2 <= want) n *= 2;
        g->table = calloc(n, sizeof(goal_entry));
        if (!g->table) {
            free(g);
            return CS_ENOMEM;
        }
        g->mask = n - 1;
    }
    *out = g;
    return CS_OK;
}

void cs_goal_free(cs_goal *g) {
    if (!g) return;
    cs_solver_free(g->thirds);
    free(g->table);
    free(g);
}

int cs_goal_use_thirds(cs_goal *g, size_t tt_mb) {
    if (!g) return CS_EINVAL;
    cs_solver_free(g->thirds);
    g->thirds = NULL;
    if (tt_mb == 0) return CS_OK;
    cs_config cfg;
    cs_config_default(&cfg);
    cfg.tt_mb = tt_mb;
    return cs_solver_new(&cfg, &g->thirds);
}

int cs_goal_reaches(cs_goal *g, const cs_position *pos, const cs_goal_state *st,
                    const uint8_t goal[CS_GOAL_SIZE]) {
    if (!g || !pos || !st || !goal) return CS_EINVAL;
    if (pos->ntrick > 2 || pos->leader > 2 || pos->soloist > 2 || pos->last_bonus > CS_MAX_BONUS)
        return CS_EINVAL;
    for (int i = 0; i < pos->ntrick; i++)
        if (pos->trick[i] >= CS_NUM_CARDS) return CS_EINVAL;
    if (st->captured > CS_MAX_VALUE) return CS_EINVAL;
    pos_t p;
    pos_load(&p, pos);
    g->goal = goal;
    g->nodes = 0;
    /* Find the goal's stamp: entries are exact answers for one goal, so they
     * stay valid while the goal is asked again (stepping through a line asks
     * the same few goals over and over). */
    int slot = -1, lru = 0;
    for (int i = 0; i < GOAL_SLOTS; i++) {
        if (g->slot_gen[i] && memcmp(g->slot_goal[i], goal, CS_GOAL_SIZE) == 0) {
            slot = i;
            break;
        }
        if (g->slot_used[i] < g->slot_used[lru]) lru = i;
    }
    if (slot < 0) {
        slot = lru;
        if (++g->gen == 0) {
            /* The stamp wrapped: forget everything once in 2^32 goals. */
            if (g->table) memset(g->table, 0, (g->mask + 1) * sizeof(goal_entry));
            memset(g->slot_gen, 0, sizeof g->slot_gen);
            g->gen = 1;
        }
        memcpy(g->slot_goal[slot], goal, CS_GOAL_SIZE);
        g->slot_gen[slot] = g->gen;
    }
    g->slot_used[slot] = ++g->clock;
    g->cur = g->slot_gen[slot];
    for (int l = 0; l < 2; l++)
        for (int t = 0; t < 3; t++) {
            g->wins[l][t][0] = 0;
            for (int v = 0; v <= CS_MAX_VALUE; v++)
                g->wins[l][t][v + 1] = (int16_t)(g->wins[l][t][v] + goal_at(goal, v, l, t));
        }
    int r = goal_node(g, &p, st->captured, st->soloist_has_trick ? 1 : 0, st->defence_has_trick ? 1 : 0);
    g->goal = NULL;
    g->total_nodes += g->nodes;
    return r;
}

uint64_t cs_goal_nodes(const cs_goal *g) { return g ? g->nodes : 0; }

uint64_t cs_goal_total_nodes(const cs_goal *g) { return g ? g->total_nodes : 0; }
