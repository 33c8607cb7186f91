# cython: language_level=3
# Declarations of csrc/calasolve.h, mirrored 1:1 (keep them in step).

from libc.stdint cimport int8_t, int32_t, uint8_t, uint32_t, uint64_t


cdef extern from "calasolve.h" nogil:
    enum:
        CS_NUM_CARDS
        CS_NUM_SEATS
        CS_MAX_BONUS
        CS_MAX_VALUE
        CS_MAX_LINE

    enum:
        CS_OK
        CS_EINVAL
        CS_ENOMEM
        CS_ENOLAYOUT

    ctypedef struct cs_position:
        uint64_t hands[3]
        uint8_t trick[2]
        uint8_t ntrick
        uint8_t leader
        uint8_t soloist
        uint8_t last_bonus

    ctypedef struct cs_config:
        size_t tt_mb
        int use_tt
        int use_equivalence
        int use_canonical_suits
        int use_ordering

    ctypedef struct cs_stats:
        uint64_t nodes
        uint64_t total_nodes
        uint64_t searches
        uint64_t tt_probes
        uint64_t tt_hits
        uint64_t tt_cutoffs
        uint64_t tt_stores
        uint64_t tt_replaced
        uint64_t bound_cutoffs
        uint64_t tt_entries
        uint64_t tt_used
        uint32_t generation
        uint32_t stats_enabled

    ctypedef struct cs_analysis:
        int value
        int8_t card_value[40]
        int nline
        uint8_t line[120]

    ctypedef struct cs_solver:
        pass

    void cs_config_default(cs_config *cfg)
    int cs_solver_new(const cs_config *cfg, cs_solver **out)
    void cs_solver_free(cs_solver *s)
    void cs_solver_clear(cs_solver *s)
    void cs_solver_config(const cs_solver *s, cs_config *cfg)

    int cs_value(cs_solver *s, const cs_position *pos)
    int cs_reaches(cs_solver *s, const cs_position *pos, int target)
    int cs_card_values(cs_solver *s, const cs_position *pos, int8_t *values)
    int cs_line(cs_solver *s, const cs_position *pos, uint8_t *line)
    int cs_analyse(cs_solver *s, const cs_position *pos, cs_analysis *out)

    void cs_get_stats(const cs_solver *s, cs_stats *out)
    uint64_t cs_last_nodes(const cs_solver *s)
    uint64_t cs_total_nodes(const cs_solver *s)

    # goal search (goal.c): payoff-aware solving
    int CS_GOAL_SIZE
    int CS_GOAL_NONE
    int CS_GOAL_SOME
    int CS_GOAL_SWEEP

    ctypedef struct cs_goal_state:
        uint8_t captured
        uint8_t soloist_has_trick
        uint8_t defence_has_trick

    ctypedef struct cs_goal:
        pass

    int cs_goal_new(size_t mb, cs_goal **out)
    void cs_goal_free(cs_goal *g)
    int cs_goal_use_thirds(cs_goal *g, size_t tt_mb)
    int cs_goal_reaches(cs_goal *g, const cs_position *pos, const cs_goal_state *st, const uint8_t *goal)
    uint64_t cs_goal_nodes(const cs_goal *g)
    uint64_t cs_goal_total_nodes(const cs_goal *g)

    # exchange search (exchange.c): the best of a batch of positions
    int cs_best_of(cs_solver *s, const cs_position *cands, int n, int maximise, int top, int8_t *lo, int8_t *hi,
                   int32_t *kept, uint64_t *searches)
    ctypedef struct cs_best_of_limits:
        int floor
        double deadline
        int *shared
        double stop
    int cs_best_of_limited(cs_solver *s, const cs_position *cands, int n, int maximise, int top,
                           const cs_best_of_limits *lim, int8_t *lo, int8_t *hi, int32_t *kept, uint64_t *searches,
                           int *complete)
    enum:
        CS_BEST_OF_PREFIX
        CS_BEST_OF_PASSES
    const int cs_best_of_depths[3]
    int cs_reaches_batch(cs_solver *s, const cs_position *cands, int n, int target, int max_fails, int8_t *out,
                         uint64_t *searches)

    enum:
        CS_MAX_LAYOUTS
        CS_MAX_RUNGS

    ctypedef struct cs_seat_view:
        uint64_t placed[4]
        uint64_t may[4]
        uint8_t sizes[4]
        uint8_t seat

    ctypedef struct cs_target:
        int8_t target
        uint8_t cards

    ctypedef struct cs_decision:
        cs_seat_view view
        uint8_t trick[2]
        uint8_t ntrick
        uint8_t leader
        uint8_t soloist
        uint8_t last_thirds
        uint8_t captured
        uint8_t card_thirds
        uint8_t reps[40]
        uint8_t nreps
        cs_target first

    ctypedef struct cs_decision_stats:
        int layouts
        int calls
        int settled

    int cs_deal_layouts(const cs_seat_view *v, uint64_t seed, uint64_t stream, int n, uint64_t *out)
    int cs_contract_choose(cs_solver *s, const cs_decision *d, uint64_t seed, uint64_t stream, int samples,
                           const cs_target *rungs, int nrungs, cs_decision_stats *st)
