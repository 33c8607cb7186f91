# cython: language_level=3, boundscheck=False, wraparound=False, binding=False
# binding=False: methods are plain method descriptors, which check that
# ``self`` is really a Solver / GoalSearch (Cython's binding functions do
# not, so ``Solver.value(None, ...)`` would reach C with a bad pointer).
"""The C double-dummy core (csrc/), wrapped.

A :class:`Solver` owns one transposition table and is reused across
solves.  Every method takes a position as

* ``hands``: 3 ints, the cards still held by seats 0, 1, 2 (bit masks, bit
  ``card`` for card id ``0..39``);
* ``trick``: the 0, 1 or 2 cards already played to the current trick, in
  order;
* ``leader``: the seat that led the current trick (player to move is
  ``(leader + len(trick)) % 3``);
* ``soloist``: the soloist's seat;
* ``last_bonus``: thirds for the last trick (3 + the monte's thirds), 0..15;

and answers in thirds the soloist captures FROM HERE ON (the current
trick included).

>>> s = Solver(tt_mb=1)
>>> hands = (1 << 9, 1 << 7, 1 << 20)     # 3B / AB / 4C, one trick left
>>> s.value(hands, (), 0, 0, 3)            # the 3 takes the Ace: 1 + 3 + 3
7
>>> s.reaches(hands, (), 0, 0, 3, 8)
False
>>> s.card_values(hands, (), 0, 0, 3)
{9: 7}
>>> s.line(hands, (), 0, 0, 3)
[9, 7, 20]
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memset

from operator import index as _index

from numpy import ascontiguousarray as _ascontiguous, int64 as _int64, ndarray as _ndarray, uint64 as _uint64

from calasolve.game.errors import InternalError, SolverArgumentError, SolverArgumentTypeError

from calasolve.search._ccore cimport (
    CS_EINVAL, CS_ENOMEM, CS_MAX_BONUS, CS_MAX_LINE, CS_MAX_VALUE, CS_OK,
    cs_analyse, cs_analysis, cs_card_values, cs_config, cs_config_default,
    cs_get_stats, cs_last_nodes, cs_total_nodes, cs_line, cs_position, cs_reaches, cs_solver, cs_solver_clear,
    cs_solver_free, cs_solver_new, cs_stats, cs_value,
    CS_GOAL_SIZE, cs_goal, cs_goal_free, cs_goal_new, cs_goal_nodes, cs_goal_reaches, cs_goal_total_nodes, cs_goal_state,
    cs_goal_use_thirds,
    cs_best_of_limited, cs_best_of_limits, cs_reaches_batch, CS_BEST_OF_PREFIX, CS_BEST_OF_PASSES, cs_best_of_depths,
    CS_ENOLAYOUT, CS_MAX_LAYOUTS, CS_MAX_RUNGS, cs_contract_choose, cs_deal_layouts, cs_decision, cs_decision_stats,
    cs_seat_view, cs_target,
)

cdef uint64_t _DECK = (<uint64_t>1 << 40) - 1
_MAX_TT_MB = 1 << 44

#: Largest possible value of a position, in thirds.
MAX_VALUE = CS_MAX_VALUE
#: Largest last-trick bonus (3 + all of a 4-card monte's thirds fits easily).
MAX_BONUS = CS_MAX_BONUS
#: The list search's passes (:func:`best_of`): the first max(BEST_OF_PREFIX, n // BEST_OF_PREFIX)
#: candidates are only tested against the best, then the runners-up are looked for
#: BEST_OF_DEPTHS[d] thirds below the best in pass d (the last: everything).
BEST_OF_PREFIX = CS_BEST_OF_PREFIX
BEST_OF_DEPTHS = tuple(cs_best_of_depths[i] for i in range(CS_BEST_OF_PASSES))


cdef inline uint64_t _suit_mask(int suit):
    return (<uint64_t>0x3FF) << (10 * suit)


cdef int _popcount(uint64_t x) noexcept:
    cdef int n = 0
    while x:
        x &= x - 1
        n += 1
    return n


cdef object _int(object v, str what):
    """``v`` as an exact int (SolverArgumentTypeError for a float, a string, ...).  The
    checks that follow compare exact ints, so an int subclass with its own
    comparison methods cannot slip a bad value past them."""
    try:
        return _index(v)
    except TypeError:
        raise SolverArgumentTypeError(f"{what} must be an int, not {type(v).__name__}") from None


cdef uint64_t _mask(object v, str what) except? 0:
    """``v`` as a mask of cards 0..39 (SolverArgumentError otherwise)."""
    v = _int(v, what)
    if v < 0 or v > _DECK:
        raise SolverArgumentError(f"{what} is not a mask of cards 0..39: {v!r}")
    return <uint64_t>v


cdef void _load(cs_position *pos, object hands, object trick, object leader,
                object soloist, object last_bonus) except *:
    """Checks a position and fills ``pos``; raises SolverArgumentError (a TypeError too for a wrong type)."""
    cdef int i, n, seat, c, m
    cdef uint64_t h, seen = 0
    hs = tuple(hands)
    if len(hs) != 3:
        raise SolverArgumentError(f"hands must be 3 masks, got {len(hs)}")
    for i in range(3):
        h = _mask(hs[i], f"hand {i}")
        if h & seen:
            raise SolverArgumentError(f"hand {i} shares cards with another hand")
        seen |= h
        pos.hands[i] = h
    tr = tuple(trick)
    n = len(tr)
    if n > 2:
        raise SolverArgumentError(f"the current trick holds 0..2 cards before the player to move, got {n}")
    for i in range(n):
        v = _int(tr[i], "a trick card")
        if v < 0 or v >= 40:
            raise SolverArgumentError(f"trick card {v!r} is not a card id 0..39")
        c = v
        if (seen >> c) & 1:
            raise SolverArgumentError(f"trick card {c} is also in a hand or played twice")
        seen |= (<uint64_t>1) << c
        pos.trick[i] = <uint8_t>c
    leader, soloist = _int(leader, "leader"), _int(soloist, "soloist")
    for name, v in (("leader", leader), ("soloist", soloist)):
        if not 0 <= v <= 2:
            raise SolverArgumentError(f"{name} must be a seat 0..2, got {v!r}")
    last_bonus = _int(last_bonus, "last_bonus")
    if not 0 <= last_bonus <= MAX_BONUS:
        raise SolverArgumentError(f"last_bonus must be 0..{MAX_BONUS}, got {last_bonus!r}")
    pos.ntrick = <uint8_t>n
    pos.leader = <uint8_t>leader
    pos.soloist = <uint8_t>soloist
    pos.last_bonus = <uint8_t>last_bonus
    # Hand sizes: the seats that already played to this trick hold one card
    # fewer than the others.
    m = _popcount(pos.hands[(pos.leader + n) % 3])
    for i in range(3):
        seat = (pos.leader + i) % 3
        if _popcount(pos.hands[seat]) != (m - 1 if i < n else m):
            raise SolverArgumentError("inconsistent hand sizes for the current trick")
    if n > 0 and m == 0:
        raise SolverArgumentError("the player to move holds no card")
    # The second card may leave the suit led only if its player is void in it.
    if n == 2 and tr[1] // 10 != tr[0] // 10:
        if pos.hands[(pos.leader + 1) % 3] & _suit_mask(tr[0] // 10):
            raise SolverArgumentError("the second card of the trick did not follow suit")


cdef class Solver:
    """A double-dummy solver owning its transposition table.

    ``Solver(tt_mb=32, *, tt=True, equivalence=True, canonical_suits=True,
    ordering=True)``: ``tt_mb`` is the table size in MiB (32 solves the
    benchmark suites as fast as 64); the keyword flags switch techniques
    off for ablation (answers never change, only speed).
    Raises MemoryError when the table cannot be allocated, and
    :class:`~calasolve.game.errors.SolverArgumentError` (a ``CalasolveError``)
    for a bad argument of any method, as the functions of this module do.

    One solver must not be used by two threads at once (it raises
    RuntimeError if that is tried); distinct solvers are independent and
    release the GIL while solving.
    """

    cdef cs_solver *_s
    cdef bint _busy
    cdef readonly object config

    def __cinit__(self, tt_mb=32, *, tt=True, equivalence=True, canonical_suits=True,
                  ordering=True):
        cdef cs_config cfg
        cdef int rc
        self._s = NULL
        if not isinstance(tt_mb, int) or isinstance(tt_mb, bool):
            raise SolverArgumentTypeError("tt_mb must be an int number of MiB")
        if not 1 <= tt_mb <= _MAX_TT_MB:
            raise SolverArgumentError(f"tt_mb must be 1..{_MAX_TT_MB}, got {tt_mb!r}")
        cs_config_default(&cfg)
        cfg.tt_mb = <size_t>tt_mb
        cfg.use_tt = 1 if tt else 0
        cfg.use_equivalence = 1 if equivalence else 0
        cfg.use_canonical_suits = 1 if canonical_suits else 0
        cfg.use_ordering = 1 if ordering else 0
        rc = cs_solver_new(&cfg, &self._s)
        if rc == CS_ENOMEM:
            raise MemoryError(f"cannot allocate a {tt_mb} MiB transposition table")
        if rc != CS_OK:
            raise InternalError("bad solver configuration")
        self.config = {"tt_mb": tt_mb, "tt": bool(tt), "equivalence": bool(equivalence),
                       "canonical_suits": bool(canonical_suits), "ordering": bool(ordering)}

    def __dealloc__(self):
        if self._s is not NULL:
            cs_solver_free(self._s)
            self._s = NULL

    def __repr__(self):
        opts = ", ".join(f"{k}={v!r}" for k, v in self.config.items())
        return f"Solver({opts})"

    cdef _enter(self):
        if self._busy:
            raise RuntimeError("this Solver is already solving (one thread at a time)")
        self._busy = True

    def value(self, hands, trick, leader, soloist, last_bonus):
        """Exact value: the thirds the soloist wins from here with best play."""
        cdef cs_position pos
        cdef int r
        _load(&pos, hands, trick, leader, soloist, last_bonus)
        self._enter()
        try:
            with nogil:
                r = cs_value(self._s, &pos)
        finally:
            self._busy = False
        if r < 0:
            raise InternalError("invalid position: the C core refuses what the checks here passed")
        return r

    def reaches(self, hands, trick, leader, soloist, last_bonus, target):
        """True if the soloist can win at least ``target`` thirds from here."""
        cdef cs_position pos
        cdef int r, t
        _load(&pos, hands, trick, leader, soloist, last_bonus)
        if not isinstance(target, int):
            raise SolverArgumentTypeError("target must be an int")
        if target <= 0:
            return True
        if target > 127:
            return False
        t = target
        self._enter()
        try:
            with nogil:
                r = cs_reaches(self._s, &pos, t)
        finally:
            self._busy = False
        if r < 0:
            raise InternalError("invalid position: the C core refuses what the checks here passed")
        return r == 1

    def reaches_batch(self, hands, last_bonus, leader, soloist, target, max_fails=0):
        """:func:`reaches_batch` with this solver."""
        return reaches_batch(self, hands, last_bonus, leader, soloist, target, max_fails)

    def best_of(self, hands, last_bonus, leader, soloist, maximise, top):
        """:func:`best_of` with this solver: ``(kept, values, searches)``."""
        return best_of(self, hands, last_bonus, leader, soloist, maximise, top)

    def best_of_limited(self, hands, last_bonus, leader, soloist, bint maximise, top, floor=None, deadline=None,
                        shared=None, stop=None):
        """:func:`best_of` within limits (``cs_best_of_limited``): only candidates
        strictly better than ``floor`` for the side choosing are kept (``None``:
        all), and no candidate is tested after ``deadline`` (a
        :func:`time.monotonic` time; ``None``: none; the first candidate is always
        valued).  ``shared``: a writable buffer of ``MAX_VALUE + 1`` C ints shared
        with the searches of other parts of the same list running meanwhile (in
        processes that map the same memory): the count of candidates known per
        value, to which each candidate entering the list adds itself, and from
        which the floor is raised between candidates.  ``stop`` (a
        :func:`time.monotonic` time; ``None``: none): a test still running then
        gives up inside the search, once the first candidate is valued or the
        floor is given (the end of the whole search, where ``deadline`` may be a
        share of it); it proves and keeps nothing.

        Returns ``(kept, values, searches, complete, bound)``: ``complete`` is
        False when the deadline cut the search (the values kept are exact, but
        better candidates may be missing); ``bound`` is proven of every
        candidate: none is better than it for the side choosing (the best value
        itself, or the floor, when complete).  Python callers ask it through
        :func:`calasolve.search.engines.best_within` (a ``ListQuery``, a ``ListAnswer``).

        >>> s = Solver(tt_mb=1)
        >>> s.best_of_limited([(1 << 9, 1 << 7, 1 << 20), (1 << 0, 1 << 7, 1 << 20)], [3, 3], 0, 0, True, 2, floor=5)
        ([0], [7], 1, True, 7)
        """
        cdef Py_ssize_t n = len(hands)
        cdef cs_position *pos
        cdef cs_best_of_limits lim
        cdef int[::1] shared_view
        leader, soloist = _seats(leader, soloist)
        top = _int(top, "top")
        if top < 1:
            raise SolverArgumentError("top must be at least 1")
        _set_limits(&lim, maximise, floor, deadline, stop)
        if shared is not None:
            shared_view = memoryview(shared).cast("B").cast("i")
            if shared_view.shape[0] < CS_MAX_VALUE + 1:
                raise SolverArgumentError(f"shared: room for {CS_MAX_VALUE + 1} ints needed")
            lim.shared = &shared_view[0]
        pos = _load_batch(hands, last_bonus, leader, soloist)
        try:
            if n == 0:
                return [], [], 0, True, lim.floor
            return self._best_of_limited(pos, n, maximise, top if top < n else n, &lim)
        finally:
            free(pos)

    cdef tuple _best_of_limited(self, cs_position *pos, Py_ssize_t n, bint maximise, int ctop,
                                cs_best_of_limits *lim):
        """The C call of :meth:`best_of_limited` on ``n`` > 0 checked candidates, without the GIL."""
        cdef int8_t *lo = <int8_t *>malloc(n)
        cdef int8_t *hi = <int8_t *>malloc(n)
        cdef int32_t *kept = <int32_t *>malloc(ctop * sizeof(int32_t))
        cdef uint64_t searches = 0
        cdef int r, complete = 1
        cdef Py_ssize_t i
        try:
            if not lo or not hi or not kept:
                raise MemoryError()
            self._enter()
            try:
                with nogil:
                    r = cs_best_of_limited(self._s, pos, <int>n, maximise, ctop, lim, lo, hi, kept, &searches,
                                           &complete)
            finally:
                self._busy = False
            if r < 0:
                raise InternalError("invalid candidates: the C core refuses what the checks here passed")
            return ([kept[i] for i in range(r)], [lo[kept[i]] for i in range(r)], searches, bool(complete),
                    _proven_bound(lo, hi, n, maximise))
        finally:
            free(lo)
            free(hi)
            free(kept)

    def card_values(self, hands, trick, leader, soloist, last_bonus):
        """``{card: value}`` for every legal card of the player to move: the
        soloist's thirds from here if that card is played now and both sides
        then play optimally."""
        cdef cs_position pos
        cdef int8_t vals[40]
        cdef int r, c
        _load(&pos, hands, trick, leader, soloist, last_bonus)
        self._enter()
        try:
            with nogil:
                r = cs_card_values(self._s, &pos, vals)
        finally:
            self._busy = False
        if r < 0:
            raise InternalError("invalid position: the C core refuses what the checks here passed")
        return {c: vals[c] for c in range(40) if vals[c] >= 0}

    def line(self, hands, trick, leader, soloist, last_bonus):
        """One optimal line of play from here to the end (card ids in play
        order); replaying it gives the soloist exactly ``value(...)``."""
        cdef cs_position pos
        cdef uint8_t buf[CS_MAX_LINE]
        cdef int n, i
        _load(&pos, hands, trick, leader, soloist, last_bonus)
        self._enter()
        try:
            with nogil:
                n = cs_line(self._s, &pos, buf)
        finally:
            self._busy = False
        if n < 0:
            raise InternalError("invalid position: the C core refuses what the checks here passed")
        return [buf[i] for i in range(n)]

    def analyse(self, hands, trick, leader, soloist, last_bonus):
        """``(value, card_values, line)`` in one call (cheaper than three)."""
        cdef cs_position pos
        cdef cs_analysis an
        cdef int r, c, i
        _load(&pos, hands, trick, leader, soloist, last_bonus)
        self._enter()
        try:
            with nogil:
                r = cs_analyse(self._s, &pos, &an)
        finally:
            self._busy = False
        if r < 0:
            raise InternalError("invalid position: the C core refuses what the checks here passed")
        return (r, {c: an.card_value[c] for c in range(40) if an.card_value[c] >= 0},
                [an.line[i] for i in range(an.nline)])

    @property
    def nodes(self):
        """Search nodes visited by the last call."""
        return cs_last_nodes(self._s)

    @property
    def total_nodes(self):
        """Search nodes since the solver was created (cheap, unlike :meth:`stats`)."""
        return cs_total_nodes(self._s)

    def clear(self):
        """Drops every table entry (the table stays allocated)."""
        self._enter()
        try:
            cs_solver_clear(self._s)
        finally:
            self._busy = False

    def stats(self):
        """Counters: ``nodes`` and ``searches`` of the last call,
        ``total_nodes``, table capacity/occupancy (``tt_entries``,
        ``tt_used``: counted by a scan of the table, a few ms),
        ``generation``; the detailed ``tt_*`` and ``bound_cutoffs``
        counters are non-zero only in a build with CS_STATS
        (``stats_enabled``; ``CALASOLVE_STATS=1`` at build time)."""
        cdef cs_stats st
        cs_get_stats(self._s, &st)
        return {
            "nodes": st.nodes,
            "total_nodes": st.total_nodes,
            "searches": st.searches,
            "tt_probes": st.tt_probes,
            "tt_hits": st.tt_hits,
            "tt_cutoffs": st.tt_cutoffs,
            "tt_stores": st.tt_stores,
            "tt_replaced": st.tt_replaced,
            "bound_cutoffs": st.bound_cutoffs,
            "tt_entries": st.tt_entries,
            "tt_used": st.tt_used,
            "generation": st.generation,
            "stats_enabled": bool(st.stats_enabled),
        }


cdef class GoalSearch:
    """Decides whether the soloist can force an outcome of a *goal* (payoff-aware solving).

    A goal is a ``bytes`` of 216 flags, ``goal[(S * 2 + L) * 3 + T]``, over
    the finished deal's outcomes: S the soloist's final thirds, L whether they
    won the last trick, T = 0 / 1 / 2 for no trick / some / every trick (see
    :mod:`calasolve.search.payoff`).  ``GoalSearch(memo_mb=8, thirds_mb=16)`` keeps its own memo,
    and a thirds search with a table of ``thirds_mb`` MiB (0: none) for the nodes where the goal
    has become a count of the soloist's thirds (the same answers, found faster).

    >>> g = GoalSearch(1)
    >>> hands = (1 << 9, 1 << 7, 1 << 20)             # 3B / AB / 4C, one trick left
    >>> wins_7 = bytes(1 if (i // 6) == 7 else 0 for i in range(216))
    >>> g.reaches(hands, (), 0, 0, 3, 0, False, False, wins_7)
    True
    """

    cdef cs_goal *_g
    cdef bint _busy

    def __cinit__(self, memo_mb=8, thirds_mb=16):
        self._g = NULL
        for name, size in (("memo_mb", memo_mb), ("thirds_mb", thirds_mb)):
            if not isinstance(size, int) or isinstance(size, bool):
                raise SolverArgumentTypeError(f"{name} must be an int number of MiB")
            if not 0 <= _index(size) <= 65536:
                raise SolverArgumentError(f"{name} must be 0..65536, got {size!r}")
        rc = cs_goal_new(<size_t>memo_mb, &self._g)
        if rc == CS_ENOMEM:
            raise MemoryError(f"cannot allocate a {memo_mb} MiB goal memo")
        if rc != CS_OK:
            raise InternalError(f"cs_goal_new failed ({rc})")
        rc = cs_goal_use_thirds(self._g, <size_t>thirds_mb)
        if rc == CS_ENOMEM:
            raise MemoryError(f"cannot allocate a {thirds_mb} MiB transposition table for the goal search")
        if rc != CS_OK:
            raise InternalError(f"cs_goal_use_thirds failed ({rc})")

    def __dealloc__(self):
        cs_goal_free(self._g)
        self._g = NULL

    @property
    def nodes(self):
        """Search nodes of the last call."""
        return cs_goal_nodes(self._g)

    @property
    def total_nodes(self):
        """Search nodes since the goal search was created."""
        return cs_goal_total_nodes(self._g)

    def reaches(self, hands, trick, leader, soloist, last_bonus, captured, soloist_has_trick,
                defence_has_trick, goal):
        """True if the soloist can force an outcome whose flag in ``goal`` is set."""
        cdef cs_position pos
        cdef cs_goal_state st
        cdef const uint8_t[:] flags
        cdef int rc
        _load(&pos, hands, trick, leader, soloist, last_bonus)
        captured = _int(captured, "captured")
        if not 0 <= captured <= MAX_VALUE:
            raise SolverArgumentError(f"captured must be 0..{MAX_VALUE} thirds, got {captured!r}")
        if not isinstance(goal, (bytes, bytearray)) or len(goal) != CS_GOAL_SIZE:
            raise SolverArgumentError(f"goal must be {CS_GOAL_SIZE} bytes")
        if goal.count(0) + goal.count(1) != CS_GOAL_SIZE:
            raise SolverArgumentError("goal flags must be 0 or 1")
        st.captured = <uint8_t>captured
        st.soloist_has_trick = 1 if soloist_has_trick else 0
        st.defence_has_trick = 1 if defence_has_trick else 0
        data = bytes(goal)
        flags = data
        if self._busy:
            raise RuntimeError("this GoalSearch is already searching in another thread")
        self._busy = True
        try:
            with nogil:
                rc = cs_goal_reaches(self._g, &pos, &st, &flags[0])
        finally:
            self._busy = False
        if rc < 0:
            raise InternalError("invalid position: the C core refuses what the checks here passed")
        return rc == 1


cdef void _store(cs_position *p, Py_ssize_t i, uint64_t h0, uint64_t h1, uint64_t h2, long long b,
                 int leader, int soloist) except *:
    if (h0 | h1 | h2) & ~_DECK or h0 & h1 or h0 & h2 or h1 & h2:
        raise SolverArgumentError(f"candidate {i}: hands must be disjoint masks of cards 0..39")
    size = _popcount(h0)
    if _popcount(h1) != size or _popcount(h2) != size:
        raise SolverArgumentError(f"candidate {i}: hands of unequal sizes")
    if not 0 <= b <= MAX_BONUS:
        raise SolverArgumentError(f"candidate {i}: last_bonus must be 0..{MAX_BONUS}")
    p.hands[0] = h0
    p.hands[1] = h1
    p.hands[2] = h2
    p.ntrick = 0
    p.leader = <uint8_t>leader
    p.soloist = <uint8_t>soloist
    p.last_bonus = <uint8_t>b


cdef cs_position *_load_batch(object hands, object last_bonus, int leader, int soloist) except NULL:
    """The candidates of a batch as a malloc'ed array (the caller frees it),
    every one checked: disjoint masks of equal sizes, a bonus in range.
    ``hands`` is a sequence of 3 masks per candidate, or an (n, 3) uint64
    array with ``last_bonus`` an int64 array (read without Python objects)."""
    cdef Py_ssize_t n = len(hands), i
    cdef cs_position *pos
    cdef const uint64_t[:, ::1] harr
    cdef const int64_t[::1] barr
    if len(last_bonus) != n:
        raise SolverArgumentError("one last_bonus per candidate")
    if n > 0x7FFFFFFF:
        raise SolverArgumentError("too many candidates")
    arrays = isinstance(hands, _ndarray) and isinstance(last_bonus, _ndarray)
    if arrays:
        if hands.dtype != _uint64 or last_bonus.dtype != _int64 or hands.ndim != 2 or hands.shape[1] != 3:
            raise SolverArgumentTypeError("arrays must be (n, 3) uint64 hands and (n,) int64 bonuses")
        harr = _ascontiguous(hands)
        barr = _ascontiguous(last_bonus)
    pos = <cs_position *>malloc((n if n > 0 else 1) * sizeof(cs_position))
    if not pos:
        raise MemoryError()
    try:
        if arrays:
            for i in range(n):
                _store(&pos[i], i, harr[i, 0], harr[i, 1], harr[i, 2], barr[i], leader, soloist)
        else:
            for i in range(n):
                t0, t1, t2 = hands[i]
                b = _int(last_bonus[i], "last_bonus")
                if not 0 <= b <= MAX_BONUS:  # checked as a Python int: any size is a SolverArgumentError
                    raise SolverArgumentError(f"candidate {i}: last_bonus must be 0..{MAX_BONUS}")
                _store(&pos[i], i, _int(t0, "a hand"), _int(t1, "a hand"), _int(t2, "a hand"), b, leader, soloist)
    except BaseException:
        free(pos)
        raise
    return pos


cdef int _clamp_target(object target) except? -1:
    """A target as a C int: every target <= 0 is always reached and every
    one above 35 never, so clamping keeps the answers."""
    t = _int(target, "target")
    return 0 if t < 0 else (127 if t > 127 else t)


cdef tuple _seats(object leader, object soloist):
    leader, soloist = _int(leader, "leader"), _int(soloist, "soloist")
    if not 0 <= leader <= 2 or not 0 <= soloist <= 2:
        raise SolverArgumentError("leader and soloist must be seats 0..2")
    return leader, soloist


def best_of(Solver solver not None, hands, last_bonus, leader, soloist, bint maximise, top):
    """The ``top`` best of a batch of trick-boundary positions for the side
    choosing (the soloist if ``maximise``, else the defenders), in one C call
    (``cs_best_of``: :meth:`Solver.best_of_limited` without limits): ``hands[i]`` the
    3 hands of candidate ``i`` (equal sizes, first lead by ``leader``),
    ``last_bonus[i]`` its bonus.  The candidates are
    tried in the order given, the most promising first; ties keep the first.

    Returns ``(kept, values, searches)``: the indices of the best, best first,
    their exact values, and the null-window searches made.

    >>> s = Solver(tt_mb=1)
    >>> best_of(s, [(1 << 9, 1 << 7, 1 << 20), (1 << 0, 1 << 7, 1 << 20)], [3, 3], 0, 0, True, 2)[:2]
    ([0, 1], [7, 0])
    """
    kept, values, searches, _, _ = solver.best_of_limited(hands, last_bonus, leader, soloist, maximise, top)
    return kept, values, searches


cdef void _set_limits(cs_best_of_limits *lim, bint maximise, object floor, object deadline, object stop) except *:
    """The floor (clamped: every floor outside -1..MAX_VALUE + 1 keeps the same candidates), the deadline and
    the stop of a list search (0.0: none); no shared counts."""
    if floor is None:
        lim.floor = -1 if maximise else CS_MAX_VALUE + 1
    else:
        f = _int(floor, "floor")
        lim.floor = -1 if f < -1 else (CS_MAX_VALUE + 1 if f > CS_MAX_VALUE + 1 else f)
    lim.deadline = 0.0 if deadline is None else max(float(deadline), 1e-9)
    lim.stop = 0.0 if stop is None else max(float(stop), 1e-9)
    lim.shared = NULL


cdef int _proven_bound(const int8_t *lo, const int8_t *hi, Py_ssize_t n, bint maximise) noexcept:
    """What the searches proved of every one of ``n`` > 0 candidates: the best of their upper (``maximise``) or
    lower bounds."""
    cdef Py_ssize_t i
    cdef int bound = hi[0] if maximise else lo[0]
    for i in range(1, n):
        if maximise and hi[i] > bound:
            bound = hi[i]
        elif not maximise and lo[i] < bound:
            bound = lo[i]
    return bound


def reaches_batch(Solver solver not None, hands, last_bonus, leader, soloist, target, max_fails=0):
    """Null-window tests "value >= target" of a batch of trick-boundary positions
    (as for :func:`best_of`), in one C call (``cs_reaches_batch``), in the order
    given; testing stops once ``max_fails`` candidates have failed (0: never).

    Returns ``(results, searches)``: ``results[i]`` is 1 or 0 for each candidate
    tested and -1 for those left untested.

    >>> s = Solver(tt_mb=1)
    >>> reaches_batch(s, [(1 << 0, 1 << 7, 1 << 20), (1 << 9, 1 << 7, 1 << 20), (1 << 0, 1 << 8, 1 << 21)], [3, 3, 3], 0, 0, 4, 1)[0]
    [0, -1, -1]
    >>> reaches_batch(s, [(1 << 0, 1 << 7, 1 << 20), (1 << 9, 1 << 7, 1 << 20)], [3, 3], 0, 0, 4)[0]
    [0, 1]
    """
    cdef Py_ssize_t n = len(hands), i
    cdef cs_position *pos
    cdef int8_t *out
    cdef uint64_t searches = 0
    cdef int r, t, mf
    leader, soloist = _seats(leader, soloist)
    t = _clamp_target(target)
    mf = _int(max_fails, "max_fails")
    if mf < 0:
        raise SolverArgumentError("max_fails must be at least 0")
    pos = _load_batch(hands, last_bonus, leader, soloist)
    out = <int8_t *>malloc(n if n > 0 else 1)
    try:
        if not out:
            raise MemoryError()
        solver._enter()
        try:
            with nogil:
                r = cs_reaches_batch(solver._s, pos, <int>n, t, mf, out, &searches)
        finally:
            solver._busy = False
        if r < 0:
            raise InternalError("invalid candidates: the C core refuses what the checks here passed")
        return [out[i] for i in range(n)], searches
    finally:
        free(pos)
        free(out)


#: The most layouts one call deals (:func:`deal_layouts`, :func:`contract_choice`).
MAX_LAYOUTS = CS_MAX_LAYOUTS
_SEED_MAX = (1 << 64) - 1


cdef void _load_view(cs_seat_view *v, object seat, object placed, object may, object sizes) except *:
    """Checks a seat's view (places: seats 0..2, the monte) and fills ``v``."""
    seat = _int(seat, "seat")
    if not 0 <= seat <= 2:
        raise SolverArgumentError(f"seat must be 0..2, got {seat!r}")
    v.seat = <uint8_t>seat
    for name, masks in (("placed", placed), ("may", may)):
        ms = tuple(masks)
        if len(ms) != 4:
            raise SolverArgumentError(f"{name} must be 4 masks (seats 0..2, the monte), got {len(ms)}")
        for i in range(4):
            if name == "placed":
                v.placed[i] = _mask(ms[i], f"placed[{i}]")
            else:
                v.may[i] = _mask(ms[i], f"may[{i}]")
    sz = tuple(sizes)
    if len(sz) != 4:
        raise SolverArgumentError(f"sizes must be 4 counts, got {len(sz)}")
    for i in range(4):
        n = _int(sz[i], f"sizes[{i}]")
        if not 0 <= n <= 40:
            raise SolverArgumentError(f"sizes[{i}] must be 0..40, got {n!r}")
        v.sizes[i] = <uint8_t>n


cdef bint _fits(int r, str what) except -1:
    """A contract call's return code: False for no layout; raises for the errors."""
    if r == CS_ENOLAYOUT:
        return False
    if r == CS_ENOMEM:
        raise MemoryError()
    if r < 0:
        raise InternalError(f"invalid {what}: the C core refuses what the checks here passed")
    return True


cdef tuple _stream(object seed, object stream):
    seed, stream = _int(seed, "seed"), _int(stream, "stream")
    for name, x in (("seed", seed), ("stream", stream)):
        if not 0 <= x <= _SEED_MAX:
            raise SolverArgumentError(f"{name} must be 0..2**64-1, got {x!r}")
    return seed, stream


def deal_layouts(seat, placed, may, sizes, seed, stream, n):
    """``n`` layouts of the unseen cards, uniform among those that fit a seat's view (``cs_deal_layouts``):
    ``placed[p]`` the cards known at place ``p`` (seats 0..2, the monte 3), ``may[p]`` the unseen cards that may
    be there, ``sizes[p]`` the cards it holds.  Each layout is ``((hand0, hand1, hand2), monte)``; a function
    of ``seed``, ``stream`` and the view.  None when no layout fits.

    >>> layouts = deal_layouts(0, (1, 0, 0, 0), (0, 6, 6, 0), (1, 1, 1, 0), 7, 0, 100)
    >>> sorted(set(layouts))  # seat 0 holds card 0; cards 1 and 2 are with seats 1 and 2, either way
    [((1, 2, 4), 0), ((1, 4, 2), 0)]
    >>> deal_layouts(0, (1, 0, 0, 0), (0, 6, 0, 0), (1, 1, 1, 0), 7, 0, 1) is None  # seat 2 may hold neither
    True
    """
    cdef cs_seat_view v
    cdef int r, count
    cdef uint64_t cseed, cstream
    cdef uint64_t *out
    memset(&v, 0, sizeof(v))
    _load_view(&v, seat, placed, may, sizes)
    cseed, cstream = _stream(seed, stream)
    n = _int(n, "n")
    if not 0 <= n <= CS_MAX_LAYOUTS:
        raise SolverArgumentError(f"n must be 0..{CS_MAX_LAYOUTS}, got {n!r}")
    count = n
    out = <uint64_t *>malloc(sizeof(uint64_t) * 4 * (count if count > 0 else 1))
    if not out:
        raise MemoryError()
    try:
        with nogil:
            r = cs_deal_layouts(&v, cseed, cstream, count, out)
        if not _fits(r, "view"):
            return None
        return [((out[4 * i], out[4 * i + 1], out[4 * i + 2]), out[4 * i + 3]) for i in range(count)]
    finally:
        free(out)


cdef cs_target _target(object goal, str what) except *:
    """A goal ``(target, cards)`` or None (none: never met) as the core's."""
    cdef cs_target t
    if goal is None:
        t.target, t.cards = -1, 0
        return t
    target, cards = goal
    target = _int(target, what)
    if not 0 <= target <= CS_MAX_VALUE + 1:
        raise SolverArgumentError(f"{what} must be 0..{CS_MAX_VALUE + 1} thirds, got {target!r}")
    t.target, t.cards = <int8_t>target, 1 if cards else 0
    return t


def contract_choice(Solver solver not None, seat, placed, may, sizes, trick, leader, soloist, last_thirds,
                    captured, card_thirds, reps, first, rungs, seed, stream, samples):
    """The contract-minded PIMC card of the seat to move (``cs_contract_choose``): the view as
    :func:`deal_layouts`'s, the position (the current ``trick``, its ``leader``, the ``soloist``, the last trick's
    own thirds, the soloist's thirds and card thirds so far), the cards to choose from in tie order, the ``first``
    goal and the ``rungs`` (pairs ``(up, down)``), each goal ``(target, cards)`` or None.  Returns ``(card,
    layouts, calls, settled)``, or None when no layout fits the view."""
    cdef cs_decision d
    cdef cs_decision_stats st
    cdef cs_target *crungs = NULL
    cdef int r, nr, count
    cdef uint64_t cseed, cstream
    memset(&d, 0, sizeof(d))
    _load_view(&d.view, seat, placed, may, sizes)
    tr = tuple(trick)
    if len(tr) > 2:
        raise SolverArgumentError(f"the current trick holds 0..2 cards before the player to move, got {len(tr)}")
    d.ntrick = <uint8_t>len(tr)
    for i, c in enumerate(tr):
        c = _int(c, "a trick card")
        if not 0 <= c < 40:
            raise SolverArgumentError(f"trick card {c!r} is not a card id 0..39")
        d.trick[i] = <uint8_t>c
    leader, soloist = _seats(leader, soloist)
    d.leader, d.soloist = <uint8_t>leader, <uint8_t>soloist
    if (leader + len(tr)) % 3 != d.view.seat:
        raise SolverArgumentError(f"seat {d.view.seat} is not the player to move")
    for name, x, top in (("last_thirds", last_thirds, MAX_BONUS), ("captured", captured, CS_MAX_VALUE),
                         ("card_thirds", card_thirds, CS_MAX_VALUE)):
        x = _int(x, name)
        if not 0 <= x <= top:
            raise SolverArgumentError(f"{name} must be 0..{top}, got {x!r}")
    d.last_thirds, d.captured, d.card_thirds = <uint8_t>last_thirds, <uint8_t>captured, <uint8_t>card_thirds
    rs = tuple(reps)
    if not 1 <= len(rs) <= 40:
        raise SolverArgumentError(f"reps must be 1..40 cards, got {len(rs)}")
    for i, c in enumerate(rs):
        c = _int(c, "a card to choose")
        if not 0 <= c < 40:
            raise SolverArgumentError(f"card {c!r} is not a card id 0..39")
        d.reps[i] = <uint8_t>c
    d.nreps = <uint8_t>len(rs)
    d.first = _target(first, "first")
    ladder = tuple(rungs)
    nr = len(ladder)
    if nr > CS_MAX_RUNGS:
        raise SolverArgumentError(f"rungs: at most {CS_MAX_RUNGS}, got {nr}")
    cseed, cstream = _stream(seed, stream)
    count = _int(samples, "samples")
    if not 1 <= count <= CS_MAX_LAYOUTS:
        raise SolverArgumentError(f"samples must be 1..{CS_MAX_LAYOUTS}, got {samples!r}")
    crungs = <cs_target *>malloc(sizeof(cs_target) * 2 * (nr if nr > 0 else 1))
    if not crungs:
        raise MemoryError()
    try:
        for i, (up, down) in enumerate(ladder):
            crungs[2 * i] = _target(up, "a rung's up goal")
            crungs[2 * i + 1] = _target(down, "a rung's down goal")
        solver._enter()
        try:
            with nogil:
                r = cs_contract_choose(solver._s, &d, cseed, cstream, count, crungs, nr, &st)
        finally:
            solver._busy = False
    finally:
        free(crungs)
    if not _fits(r, "decision"):
        return None
    return r, st.layouts, st.calls, bool(st.settled)
