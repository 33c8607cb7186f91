"""Type stub of the C extension ``calasolve.search._core`` (``_core.pyx``; keep the two in step)."""

from typing import Any, Sequence

from numpy.typing import NDArray

Hands = Sequence[int]
#: a batch's hands (one row of 3 masks per candidate) or bonuses: lists or numpy arrays
Batch = Sequence[Hands] | NDArray[Any]
Bonuses = Sequence[int] | NDArray[Any]

MAX_VALUE: int
MAX_BONUS: int
BEST_OF_PREFIX: int
BEST_OF_DEPTHS: tuple[int, ...]

class Solver:
    config: dict[str, int | bool]
    def __init__(
        self,
        tt_mb: int = 32,
        *,
        tt: bool = True,
        equivalence: bool = True,
        canonical_suits: bool = True,
        ordering: bool = True,
    ) -> None: ...
    def value(self, hands: Hands, trick: Sequence[int], leader: int, soloist: int, last_bonus: int) -> int: ...
    def reaches(
        self, hands: Hands, trick: Sequence[int], leader: int, soloist: int, last_bonus: int, target: int
    ) -> bool: ...
    def reaches_batch(
        self,
        hands: Batch,
        last_bonus: Bonuses,
        leader: int,
        soloist: int,
        target: int,
        max_fails: int = 0,
    ) -> tuple[list[int], int]: ...
    def best_of(
        self, hands: Batch, last_bonus: Bonuses, leader: int, soloist: int, maximise: bool, top: int
    ) -> tuple[list[int], list[int], int]: ...
    def best_of_limited(
        self,
        hands: Batch,
        last_bonus: Bonuses,
        leader: int,
        soloist: int,
        maximise: bool,
        top: int,
        floor: int | None = None,
        deadline: float | None = None,
        shared: Any = None,
        stop: float | None = None,
    ) -> tuple[list[int], list[int], int, bool, int]: ...
    def card_values(
        self, hands: Hands, trick: Sequence[int], leader: int, soloist: int, last_bonus: int
    ) -> dict[int, int]: ...
    def line(self, hands: Hands, trick: Sequence[int], leader: int, soloist: int, last_bonus: int) -> list[int]: ...
    def analyse(
        self, hands: Hands, trick: Sequence[int], leader: int, soloist: int, last_bonus: int
    ) -> tuple[int, dict[int, int], list[int]]: ...
    @property
    def nodes(self) -> int: ...
    @property
    def total_nodes(self) -> int: ...
    def clear(self) -> None: ...
    def stats(self) -> dict[str, int | bool]: ...

class GoalSearch:
    def __init__(self, memo_mb: int = 8, thirds_mb: int = 16) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def total_nodes(self) -> int: ...
    def reaches(
        self,
        hands: Hands,
        trick: Sequence[int],
        leader: int,
        soloist: int,
        last_bonus: int,
        captured: int,
        soloist_has_trick: bool,
        defence_has_trick: bool,
        goal: bytes | bytearray,
    ) -> bool: ...

def best_of(
    solver: Solver,
    hands: Batch,
    last_bonus: Bonuses,
    leader: int,
    soloist: int,
    maximise: bool,
    top: int,
) -> tuple[list[int], list[int], int]: ...
def reaches_batch(
    solver: Solver,
    hands: Batch,
    last_bonus: Bonuses,
    leader: int,
    soloist: int,
    target: int,
    max_fails: int = 0,
) -> tuple[list[int], int]: ...

MAX_LAYOUTS: int
#: a goal: (target thirds, card thirds only), or None (never met)
Target = tuple[int, bool] | None
Layout = tuple[tuple[int, int, int], int]

def deal_layouts(
    seat: int, placed: Sequence[int], may: Sequence[int], sizes: Sequence[int], seed: int, stream: int, n: int
) -> list[Layout] | None: ...
def contract_choice(
    solver: Solver,
    seat: int,
    placed: Sequence[int],
    may: Sequence[int],
    sizes: Sequence[int],
    trick: Sequence[int],
    leader: int,
    soloist: int,
    last_thirds: int,
    captured: int,
    card_thirds: int,
    reps: Sequence[int],
    first: Target,
    rungs: Sequence[tuple[Target, Target]],
    seed: int,
    stream: int,
    samples: int,
) -> tuple[int, int, int, bool] | None: ...
