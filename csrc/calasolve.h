/*
 * calasolve.h -- the one public header of the calasolve double-dummy core.
 *
 * Calabresella: 40 cards, 3 seats (0 -> 1 -> 2 -> 0), no trumps, follow suit
 * if able, the highest card of the suit led wins and its winner leads next.
 * One seat is the soloist (maximises), the two others defend (minimise).
 *
 * Card id 0..39 = suit * 10 + rank; suit 0..3 = B S C D; rank 0 (the 4,
 * lowest) .. 9 (the 3, highest), rank order 4 5 6 7 F C R A 2 3.
 * Card value in thirds by rank: 0 0 0 0 1 1 1 3 1 1.  A set of cards is a
 * uint64_t with bit `card` set.
 *
 * The core solves a position (cs_position) for the number of thirds the
 * soloist captures FROM HERE ON: the cards of the tricks they win (the
 * current trick included) plus `last_bonus` if they win the last trick.
 * What was captured before the position is the caller's business.
 *
 * The core does no semantic validation (consistent hand sizes, disjoint
 * hands, a legal current trick): the caller (the Python wrapper) does.  The
 * API functions only range-check their arguments (CS_EINVAL) so that no
 * input can make the core read or write out of bounds; on an inconsistent
 * position the answers are meaningless but memory-safe.
 *
 * Thread safety: a cs_solver is used by one thread at a time; distinct
 * solvers share nothing and may run concurrently.
 */
#ifndef CALASOLVE_H
#define CALASOLVE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CS_NUM_CARDS 40
#define CS_NUM_SEATS 3
#define CS_MAX_BONUS 15 /* last_bonus range 0..15: 3 + the monte's thirds */
#define CS_MAX_VALUE 35 /* largest possible value of a legal position */
#define CS_MAX_LINE 120 /* room for any line the core can return */

/* Return codes (negative = error). */
enum {
    CS_OK = 0,
    CS_EINVAL = -1, /* an argument out of range */
    CS_ENOMEM = -2,  /* the transposition table could not be allocated */
    CS_ENOLAYOUT = -3 /* no layout of the unseen cards fits a seat's view (contract.c) */
};

/* A position to solve.  Player to move = (leader + ntrick) % 3. */
typedef struct {
    uint64_t hands[CS_NUM_SEATS]; /* cards still held by seats 0, 1, 2 */
    uint8_t trick[2];             /* cards of the current trick, in play order */
    uint8_t ntrick;               /* 0..2 cards already in the current trick */
    uint8_t leader;               /* seat that led the current trick (0..2) */
    uint8_t soloist;              /* the soloist's seat (0..2) */
    uint8_t last_bonus;           /* thirds for the last trick, 0..15 */
} cs_position;

/* Solver configuration.  The four flags are ablation switches: turning one
 * off never changes an answer, only the speed. */
typedef struct {
    size_t tt_mb;            /* transposition table size in MiB (0 = default, 32) */
    int use_tt;              /* transposition table at trick boundaries */
    int use_equivalence;     /* equal adjacent cards of one hand are one move */
    int use_canonical_suits; /* suit permutations share table entries */
    int use_ordering;        /* heuristic move ordering */
} cs_config;

/* Counters.  `nodes` is always counted; the others are filled only when the
 * core is built with -DCS_STATS (else they stay 0), except the table
 * figures (`tt_entries`, `tt_used`) which are always reported. */
typedef struct {
    uint64_t nodes;         /* search nodes of the last API call */
    uint64_t total_nodes;   /* search nodes since the solver was created */
    uint64_t searches;      /* null-window searches of the last call */
    uint64_t tt_probes;     /* table look-ups (last call, CS_STATS) */
    uint64_t tt_hits;       /* look-ups finding the position (CS_STATS) */
    uint64_t tt_cutoffs;    /* look-ups whose bound answered (CS_STATS) */
    uint64_t tt_stores;     /* stores (CS_STATS) */
    uint64_t tt_replaced;   /* stores evicting another position (CS_STATS) */
    uint64_t bound_cutoffs; /* nodes answered by the cheap bounds (CS_STATS) */
    uint64_t tt_entries;    /* capacity of the table in entries */
    uint64_t tt_used;       /* occupied entries (counted on request) */
    uint32_t generation;    /* table generation (one per API call) */
    uint32_t stats_enabled; /* 1 when built with CS_STATS */
} cs_stats;

/* Result of cs_analyse: value, every legal card's value, one optimal line. */
typedef struct {
    int value;                       /* exact value of the position */
    int8_t card_value[CS_NUM_CARDS]; /* value if this card is played now; -1 = not legal */
    int nline;                       /* length of `line` */
    uint8_t line[CS_MAX_LINE];       /* one optimal line of play to the end */
} cs_analysis;

typedef struct cs_solver cs_solver;

/* Fills `cfg` with the defaults: 32 MiB, every technique on.  (32 MiB
 * solves the benchmark suites as fast as 64: the quasi-symmetric table
 * needs few entries; it keeps a Python process well under 100 MiB.) */
void cs_config_default(cs_config *cfg);

/* Creates a solver owning its table.  Returns CS_OK, CS_EINVAL (NULL
 * pointers) or CS_ENOMEM; on error *out is NULL. */
int cs_solver_new(const cs_config *cfg, cs_solver **out);
void cs_solver_free(cs_solver *s);
/* Drops every table entry (the table itself stays allocated). */
void cs_solver_clear(cs_solver *s);
void cs_solver_config(const cs_solver *s, cs_config *cfg);

/* Exact value (0..35 for a legal position), or CS_EINVAL. */
int cs_value(cs_solver *s, const cs_position *pos);
/* 1 if the value is >= target, 0 if not, or CS_EINVAL.  Any int target. */
int cs_reaches(cs_solver *s, const cs_position *pos, int target);
/* Value of each legal card of the player to move (values[c] = -1 for the
 * others); returns the position's value (the max over the cards when the
 * soloist is to move, the min otherwise) or CS_EINVAL. */
int cs_card_values(cs_solver *s, const cs_position *pos, int8_t values[CS_NUM_CARDS]);
/* One optimal line of play to the end; returns its length or CS_EINVAL.
 * `line` must have room for CS_MAX_LINE cards. */
int cs_line(cs_solver *s, const cs_position *pos, uint8_t line[CS_MAX_LINE]);
/* Everything in one call (cheaper than the three above); returns the value
 * or CS_EINVAL. */
int cs_analyse(cs_solver *s, const cs_position *pos, cs_analysis *out);

/* All counters; `tt_used` is counted by scanning the table (a few ms for
 * 64 MiB), so ask for it only when needed. */
void cs_get_stats(const cs_solver *s, cs_stats *out);
/* Search nodes of the last API call (cheap). */
uint64_t cs_last_nodes(const cs_solver *s);
/* Search nodes since the solver was created (cheap: no table scan). */
uint64_t cs_total_nodes(const cs_solver *s);

/* ---- Goal search (goal.c): payoff-aware solving ------------------------
 *
 * Game points depend on three facts about the finished deal: S, the
 * soloist's final thirds (what was captured before the position included);
 * L, whether the soloist won the last trick; and T, whether the soloist won
 * no trick, some, or every trick of the deal.  A goal is the table of the
 * outcomes the soloist wants, goal[(S * 2 + L) * 3 + T] = 1; the search
 * decides whether the soloist can force one of them.  */
#define CS_GOAL_SIZE (36 * 2 * 3)
enum { CS_GOAL_NONE = 0, CS_GOAL_SOME = 1, CS_GOAL_SWEEP = 2 };

/* What the deal already holds when the position is reached. */
typedef struct {
    uint8_t captured;          /* soloist's thirds so far (0..35) */
    uint8_t soloist_has_trick; /* the soloist has won a trick */
    uint8_t defence_has_trick; /* a defender has won a trick */
} cs_goal_state;

typedef struct cs_goal cs_goal;

/* A goal searcher with a memo of `mb` MiB (0 = no memo).  CS_OK, CS_EINVAL
 * or CS_ENOMEM; on error *out is NULL. */
int cs_goal_new(size_t mb, cs_goal **out);
void cs_goal_free(cs_goal *g);
/* Give the goal search a thirds search of its own, with a transposition table
 * of `tt_mb` MiB (0: none, as made), for the nodes whose goal has become a
 * count of thirds (goal.c).  The answers are the same; only the work changes.
 * CS_OK, CS_EINVAL or CS_ENOMEM (then it has none). */
int cs_goal_use_thirds(cs_goal *g, size_t tt_mb);
/* 1 if the soloist can force an outcome of `goal`, 0 if not, or CS_EINVAL. */
int cs_goal_reaches(cs_goal *g, const cs_position *pos, const cs_goal_state *st,
                    const uint8_t goal[CS_GOAL_SIZE]);
/* Search nodes of the last cs_goal_reaches. */
uint64_t cs_goal_nodes(const cs_goal *g);
/* Search nodes since the goal search was created. */
uint64_t cs_goal_total_nodes(const cs_goal *g);

/* ---- Exchange search (exchange.c): the best of a batch of positions ----
 *
 * The `top` best of the positions cands[0..n-1] for the side choosing (the
 * soloist when `maximise`, else the defenders), with exact values.  The
 * candidates come in the order to try them, most promising first; ties
 * keep the candidate met first.  One search state (table, killer leads)
 * serves the whole batch; most candidates cost one null-window test
 * against the `top`-th best so far.
 *
 * Out: kept[0..r-1] (room for `top`) the indices of the best, best first;
 * lo[i] <= value(i) <= hi[i] what was proven of every candidate (exact for
 * the kept ones; the others are no better than the last kept).
 * *searches (if not NULL) the null-window searches made.  Returns r =
 * min(top, n), or CS_EINVAL (NULL pointers with n > 0, n < 0, top < 1, a
 * position out of range). */
int cs_best_of(cs_solver *s, const cs_position *cands, int n, int maximise, int top, int8_t *lo, int8_t *hi,
               int32_t *kept, uint64_t *searches);

/* The limits of cs_best_of_limited.  `floor`: only candidates strictly
 * better than it for the side choosing are looked for (a value known from
 * elsewhere; -1 when maximising and CS_MAX_VALUE + 1 when minimising leave
 * every candidate in).  `deadline`: CLOCK_MONOTONIC seconds after which no
 * new candidate is tested (<= 0: none); the first candidate is always
 * looked at.  `stop`: CLOCK_MONOTONIC seconds at which a test still
 * running gives up inside the search (<= 0: tests run to their end),
 * once the first candidate is valued or the floor is not open: the end
 * of the whole search, where `deadline` may be a share of it.  A test
 * given up proves nothing and keeps nothing, and the table keeps only
 * what finished searches stored.  `shared` (NULL: none): CS_MAX_VALUE + 1 counts shared by the
 * searches of the parts of one list running side by side (threads, or
 * processes mapping the same memory): shared[v] candidates of value v are
 * known (every candidate entering a list adds itself, atomically), and
 * between candidates each search raises its floor to the `top`-th best
 * value they imply.  Start them at the values of any kept candidates. */
typedef struct {
    int floor;
    double deadline;
    int *shared;
    double stop;
} cs_best_of_limits;

/* cs_best_of within `lim` (cs_best_of is this without limits).  Only the
 * candidates better than the floor are kept, so fewer than min(top, n) may
 * be returned.  *complete (if not NULL) is 0 when the deadline cut the
 * search: the kept values are still exact, but the list may miss better
 * candidates, of which lo/hi still bound every value. */
int cs_best_of_limited(cs_solver *s, const cs_position *cands, int n, int maximise, int top,
                       const cs_best_of_limits *lim, int8_t *lo, int8_t *hi, int32_t *kept, uint64_t *searches,
                       int *complete);

/* The passes of cs_best_of: the first max(CS_BEST_OF_PREFIX, n / CS_BEST_OF_PREFIX)
 * candidates (with a deadline: all of them) are only tested against the best;
 * then pass d looks for the runners-up down to cs_best_of_depths[d] thirds
 * below the best (the last: everything), until the list is full. */
#define CS_BEST_OF_PREFIX 50
#define CS_BEST_OF_PASSES 3
extern const int cs_best_of_depths[CS_BEST_OF_PASSES];

/* Null-window tests "value >= target" of cands[0..n-1], in order, with one
 * search state for the batch (as cs_best_of).  out[i] = 1 or 0 for each
 * candidate tested; the batch stops once `max_fails` candidates have
 * failed (max_fails < 1: never stops early), and out[i] = -1 for the
 * candidates left untested.  One call answers "does every candidate
 * reach the target?" (max_fails 1) or counts the candidates that do.
 * *searches (if not NULL) the null-window searches made.  Returns the
 * number of candidates tested, or CS_EINVAL. */
int cs_reaches_batch(cs_solver *s, const cs_position *cands, int n, int target, int max_fails, int8_t *out,
                     uint64_t *searches);

/* ---- Contract decisions (contract.c): a seat's card from what it sees ----
 *
 * The contract-minded PIMC rule (calasolve.play.target, the `levels`
 * rest): deal `samples` layouts of the unseen cards, uniformly among those
 * that fit the seat's view, and play the card that meets the first goal
 * (the soloist) or stops it (the defenders) on the most layouts; ties go
 * through the rungs, then to the first card in `reps`' order. */
#define CS_MAX_LAYOUTS 10000
#define CS_MAX_RUNGS 16

/* What a seat knows.  Places: seats 0..2, then the monte (3). */
typedef struct {
    uint64_t placed[4]; /* the cards known at each place (the seat's own hand whole at its place) */
    uint64_t may[4];    /* the unseen cards that may be at each place (the seat's own is ignored) */
    uint8_t sizes[4];   /* the cards each place holds */
    uint8_t seat;       /* the seat whose view it is (0..2) */
} cs_seat_view;

/* The soloist ends the deal with at least `target` thirds: all of them, or
 * with `cards` only the thirds in cards (the monte counted, the last
 * trick's own not).  A negative target is no goal: never met. */
typedef struct {
    int8_t target;
    uint8_t cards;
} cs_target;

/* A decision: the mover's view (view.seat is the player to move) and
 * what the tricks so far hold. */
typedef struct {
    cs_seat_view view;
    uint8_t trick[2];       /* the current trick's cards */
    uint8_t ntrick;         /* 0..2 */
    uint8_t leader;         /* who led the current trick */
    uint8_t soloist;
    uint8_t last_thirds;    /* the last trick's own thirds (the monte's go with them) */
    uint8_t captured;       /* the soloist's thirds so far */
    uint8_t card_thirds;    /* the soloist's thirds in cards so far */
    uint8_t reps[CS_NUM_CARDS]; /* the cards to choose from, in tie order */
    uint8_t nreps;
    cs_target first;        /* the goal tallied first (the contract) */
} cs_decision;

typedef struct {
    int layouts; /* distinct layouts tested */
    int calls;   /* null-window searches */
    int settled; /* every card met the first goal on every layout, or none on any */
} cs_decision_stats;

/* `n` layouts (0..CS_MAX_LAYOUTS) for the view, each the four places'
 * masks, out[4 * i + p]: a function of (seed, stream) and the view.
 * Returns n, CS_ENOLAYOUT, CS_ENOMEM or CS_EINVAL. */
int cs_deal_layouts(const cs_seat_view *v, uint64_t seed, uint64_t stream, int n, uint64_t *out);

/* The card chosen (0..39) for decision `d`, with the layouts of
 * cs_deal_layouts(&d->view, seed, stream, samples); `rungs` holds
 * `nrungs` pairs {up, down}: after the first goal, each pair breaks the
 * ties left, `up` asked where a card met the first goal on a layout and
 * `down` where it did not.  *st (if not NULL) what it did.  Returns the
 * card, CS_ENOLAYOUT, CS_ENOMEM or CS_EINVAL. */
int cs_contract_choose(cs_solver *s, const cs_decision *d, uint64_t seed, uint64_t stream, int samples,
                       const cs_target *rungs, int nrungs, cs_decision_stats *st);

#ifdef __cplusplus
}
#endif

#endif /* CALASOLVE_H */
