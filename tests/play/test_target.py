"""The contract-minded PIMC player: legal and reproducible play, the card best for the contract on its layouts,
a made contract kept, a beating card found, and the multiplier's thresholds."""

from __future__ import annotations

from pathlib import Path

import pytest

import calasolve
from calasolve.game.cards import MAKE_THIRDS, card_name, cards_of, parse_card, popcount
from calasolve.game.rules import Rules
from calasolve.game.state import PlayState, core_position
from collections import Counter

from calasolve.play.knowledge import layout_count, view_masks, view_of
from calasolve.play.factory import make_player
from calasolve.play.players import PimcPlayer, play_out
from calasolve.play.target import (
    RESTS, ContractPimcPlayer, Goal, card_threshold, core_layouts, multiplier_goals, representatives,
)
from calasolve.search import _core
from calasolve.records.dealfile import read_deal_file
from calasolve.types.record import Record
from calasolve.search.solving import default_solver, final_card_values

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [r for r in read_deal_file(str(ROOT / "examples" / "example.deal")) if not r.needs_exchange]


def dd_line(record: Record) -> tuple[int, ...]:
    return play_out(record, [make_player("dd")] * 3).record.played


def layout_states(player: ContractPimcPlayer, record: Record, state: PlayState) -> list[PlayState]:
    out = []
    for hands, monte in player.layouts(record, state):
        pos = state.copy()
        pos.hands, pos.monte = list(hands), monte
        out.append(pos)
    return out


def makes_after(state: PlayState, card: int) -> bool:
    """Does the soloist make the contract double dummy after ``card`` (the plain way: every card searched)?"""
    child = state.copy()
    child.play(card)
    need = MAKE_THIRDS - child.captured[child.soloist]
    if child.is_over:
        return need <= 0
    return bool(default_solver().reaches(*core_position(child), need))


@pytest.mark.parametrize("rest", RESTS)
def test_plays_legal_cards_to_the_end(rest: str) -> None:
    for record in EXAMPLES:
        players = [ContractPimcPlayer(samples=4, seed=2, rest=rest) for _ in range(3)]  # type: ignore[arg-type]
        out = play_out(record, players)
        final = out.record.state()
        assert final.is_over and out.players == ("contract",) * 3
        assert out.record.played[: len(record.played)] == record.played
        Record.from_dict(out.record.to_dict())  # a record is checked when made: every card legal
        assert final.result(record.contract, record.rules).soloist_thirds == final.captured[record.soloist]
        stats = players[0].stats
        assert stats.layouts <= 4 * stats.decisions and stats.solved <= stats.layouts and stats.settled <= stats.decisions


def test_mixed_with_the_other_players() -> None:
    record = EXAMPLES[1]
    out = play_out(record, [make_player(p, samples=3, seed=1) for p in ("contract", "pimc", "heuristic")])
    assert out.record.state().is_over and out.players == ("contract", "pimc", "heuristic")


def test_reproducible_for_a_seed() -> None:
    record = EXAMPLES[0]
    first = play_out(record, [ContractPimcPlayer(samples=6, seed=4) for _ in range(3)]).record.played
    again = play_out(record, [ContractPimcPlayer(samples=6, seed=4) for _ in range(3)]).record.played
    assert first == again and len(first) == 36


def test_the_same_layouts_as_pimc() -> None:
    record = EXAMPLES[2]
    state = record.state()
    player = ContractPimcPlayer(samples=7, seed=9, first_samples=7)  # the first trick's own count: below
    assert player.layouts(record, state) == PimcPlayer(samples=7, seed=9).layouts(record, state)


def test_the_card_is_best_for_the_contract_on_its_layouts() -> None:
    """Against the plain count (every card searched on every layout, no shortcut, no equal cards merged): the
    chosen card makes the contract on the most layouts (soloist) or the fewest (defenders)."""
    checked = 0
    for i, record in enumerate(EXAMPLES[:4]):
        line = dd_line(record)
        for n in range(len(record.played) + i % 3, len(line) - 3, 5):
            rec = record.with_(played=line[:n])
            state = rec.state()
            if len(list(cards_of(state.legal()))) < 2:
                continue
            player = ContractPimcPlayer(samples=5, seed=n)
            card = player.choose(rec, state)
            counts = {c: sum(makes_after(pos, c) for pos in layout_states(player, rec, state))
                      for c in cards_of(state.legal())}
            best = (max if state.to_move == state.soloist else min)(counts.values())
            assert counts[card] == best, (i, n, card_name(card), {card_name(c): v for c, v in counts.items()})
            checked += 1
    assert checked >= 15


class PlainTally(ContractPimcPlayer):
    """The same player counting the plain way: every card tested on every layout, no position tested first."""

    def _tally(self, solver, positions, weights, reps, goal_of, maximise):  # type: ignore[no-untyped-def]
        results: dict[int, list[bool | None]] = {r: [] for r in reps}
        good = dict.fromkeys(reps, 0)
        for j, pos in enumerate(positions):
            for r in reps:
                goal = goal_of(r, j)
                child = pos.copy()
                child.play(r)
                met = goal is not None and self._meets(solver, child, goal)
                results[r].append(met)
                good[r] += weights[j] if met == maximise else 0
        best = max(good.values())
        return results, [r for r in reps if good[r] == best]


@pytest.mark.parametrize("seed", [0, 7])
def test_best_first_counting_plays_as_the_plain_count(seed: int) -> None:
    """The tally tests the most promising card first and drops what cannot catch up: the same cards as counting
    every card on every layout, ties and the multiplier's tie-breaks included, with fewer searches."""
    fast_calls = plain_calls = 0
    for record in EXAMPLES[:3]:
        fast = [ContractPimcPlayer(samples=5, seed=seed) for _ in range(3)]
        plain = [PlainTally(samples=5, seed=seed) for _ in range(3)]
        assert play_out(record, fast).record.played == play_out(record, plain).record.played
        fast_calls += sum(p.stats.calls for p in fast)
        plain_calls += sum(p.stats.calls for p in plain)
    assert fast_calls < plain_calls


def test_the_opening_tricks_have_half_the_layouts() -> None:
    record = EXAMPLES[2]
    state = record.state()
    assert len(state.history) < 3
    eight = ContractPimcPlayer(samples=8, seed=9)
    first = eight.layouts(record, state)
    assert first == PimcPlayer(samples=4, seed=9).layouts(record, state)  # the first 4 of the same draws
    assert ContractPimcPlayer(samples=7, seed=9, first_samples=7).layouts(record, state) == \
        PimcPlayer(samples=7, seed=9).layouts(record, state)
    later = state.copy()
    counts = []
    while len(later.history) < 9:
        later.play(next(iter(cards_of(later.legal()))))
        counts.append((len(later.history), len(eight.layouts(record, later)),
                       len(ContractPimcPlayer(samples=8, seed=9, opening_tricks=1).layouts(record, later))))
    assert [(n, a, b) for n, a, b in counts if n % 3 == 0] == [(3, 4, 8), (6, 8, 8), (9, 8, 8)]
    with pytest.raises(calasolve.ParameterError, match="first_samples"):
        ContractPimcPlayer(first_samples=0)
    with pytest.raises(calasolve.ParameterError, match="opening_tricks"):
        ContractPimcPlayer(opening_tricks=-1)


def test_equal_cards_are_run_once() -> None:
    record = EXAMPLES[0]
    state = record.state()
    reps = representatives(state)
    legal = set(cards_of(state.legal()))
    assert set(reps) <= legal and len(reps) < len(legal)
    values = final_card_values(default_solver(), state)
    # every legal card has the value of its run's representative: the highest representative at or below it
    for card in legal:
        rep = max(r for r in reps if r // 10 == card // 10 and r <= card)
        assert values[card] == values[rep], card_name(card)


def test_a_soloist_keeps_a_contract_made_on_every_layout() -> None:
    """Four tricks to go, the soloist to move, four layouts possible (all drawn): two cards make the contract on
    every one, two do not.  The contract-minded soloist plays one of the three and, against double-dummy
    defenders, makes the contract."""
    record = EXAMPLES[1]
    rec = record.with_(played=dd_line(record)[:26])
    state = rec.state()
    assert state.to_move == state.soloist and state.total_tricks - len(state.tricks) == 4
    player = ContractPimcPlayer(samples=50, seed=1)
    layouts = layout_states(player, rec, state)
    assert len({(tuple(p.hands), p.monte) for p in layouts}) == layout_count(view_of(rec, state, state.to_move)) == 4
    keep = [c for c in cards_of(state.legal()) if all(makes_after(p, c) for p in layouts)]
    assert keep and len(keep) < len(list(cards_of(state.legal())))
    assert player.choose(rec, state) in keep
    assert calasolve.solve(rec).soloist_thirds >= MAKE_THIRDS + 3  # well over the contract
    seats = [player if s == state.soloist else make_player("dd") for s in range(3)]
    final = play_out(rec, seats).record.state()
    assert final.captured[state.soloist] >= MAKE_THIRDS


def test_a_defender_plays_the_card_that_beats_it_on_every_layout() -> None:
    """A defender to move in solissimo: on each of its 50 layouts one card, 2B, beats the contract; the others
    let it make on some.  The contract-minded defender plays 2B."""
    record = EXAMPLES[0]
    rec = record.with_(played=dd_line(record)[:9])
    state = rec.state()
    assert state.to_move != state.soloist
    player = ContractPimcPlayer(samples=50, seed=1)
    layouts = layout_states(player, rec, state)
    beats = [c for c in cards_of(state.legal()) if not any(makes_after(p, c) for p in layouts)]
    assert beats == [parse_card("2B")]
    assert player.choose(rec, state) == parse_card("2B")
    # thirds-minded PIMC on the same layouts need not: the test is about the contract, not the thirds
    assert player.stats.decisions == 1 and player.stats.calls > 0


def test_the_multiplier_goals() -> None:
    # standard rules: a made contract wins stramazzo with 30 of the 32 card thirds; a failed one escapes it with 3
    assert multiplier_goals("solo") == (Goal(30, True), Goal(3, True))
    assert card_threshold("scegliete", 64, True) == 30
    # stramazzo off: only a sweep doubles (32 card thirds needed, not sufficient), and a trick escapes cappotto
    assert multiplier_goals("chiamo", Rules(stramazzo="off")) == (Goal(32, True), Goal(1, True))
    assert card_threshold("solo", 100, True) is None


def test_a_settled_contract_is_counted() -> None:
    """The soloist already holds 18 thirds: every decision after is settled and costs no search for the contract."""
    rec = next(r for r in (record.with_(played=dd_line(record)[:k]) for record in EXAMPLES for k in range(3, 33, 3))
               if r.state().captured[r.soloist] >= MAKE_THIRDS)
    players = [ContractPimcPlayer(samples=3, seed=5, rest="heuristic") for _ in range(3)]
    play_out(rec, players)
    assert all(p.stats.settled == p.stats.decisions for p in players)
    assert all(p.stats.calls == 0 for p in players)


def test_bad_arguments() -> None:
    with pytest.raises(calasolve.ParameterError, match="samples"):
        ContractPimcPlayer(samples=0)
    with pytest.raises(calasolve.ParameterError, match="rest"):
        ContractPimcPlayer(rest="greedy")  # type: ignore[arg-type]
    with pytest.raises(calasolve.ParameterError, match="sampler"):
        ContractPimcPlayer(sampler="torch")  # type: ignore[arg-type]


class Delegate:
    """A solver keeping the whole contract that is not the C ``Solver``: the decision is tallied in Python."""

    def __init__(self, solver: object) -> None:
        self._solver = solver

    def __getattr__(self, name: str) -> object:
        return getattr(self._solver, name)


@pytest.mark.parametrize(("seed", "step"), [(0, 0), (5, 0), (3, 6)])
def test_the_core_decides_as_the_tally_on_its_layouts(seed: int, step: int) -> None:
    """The core's one call (dealing and tally) plays the card the tally here plays on the same layouts, at every
    decision of whole deals: the contract's count, the multiplier's tie-breaks (and the ladder's, with a step), and
    the decisions after the tricks taken settle the contract; with the same searches."""
    settled = 0
    for record in EXAMPLES[:3]:
        core = [ContractPimcPlayer(samples=6, seed=seed, step=step, sampler="core") for _ in range(3)]
        python = [ContractPimcPlayer(samples=6, seed=seed, step=step, sampler="core", solver=Delegate(default_solver()))
                  for _ in range(3)]  # type: ignore[arg-type]
        assert play_out(record, core).record.played == play_out(record, python).record.played
        for a, b in zip(core, python):
            # the core deals no layout where the tricks taken settle the game points too
            assert (a.stats.decisions, a.stats.settled, a.stats.calls) == (b.stats.decisions, b.stats.settled, b.stats.calls)
            assert a.stats.solved <= b.stats.solved
            settled += a.stats.settled
    assert settled > 0


def _small_view(record: Record) -> tuple[Record, PlayState, int]:
    """A late position of ``record`` whose seat to move has between 6 and 40 layouts of the unseen cards."""
    line = dd_line(record)
    for k in range(len(line) - 4, 0, -1):
        rec = record.with_(played=line[:k])
        state = rec.state()
        if 6 <= layout_count(view_of(rec, state, state.to_move)) <= 40:
            return rec, state, state.to_move
    raise AssertionError("no small view")


@pytest.mark.parametrize("index", [0, 3])
def test_the_core_deals_every_layout_alike(index: int) -> None:
    """Every layout the core deals fits the view, every one that fits comes, each as often (within 5 sigma)."""
    rec, state, seat = _small_view(EXAMPLES[index])
    view = view_of(rec, state, seat)
    masks = view_masks(rec, state, seat)
    k = layout_count(view)
    n = 250 * k
    drawn = Counter(core_layouts(masks, seat, 11, 0, n))
    for hands, monte in drawn:
        places = (*hands, monte)
        assert hands[seat] == state.hands[seat]
        assert [popcount(m) for m in places] == list(view.sizes)
        for p, m in enumerate(places):
            assert m & ~view.placed[p] & ~view.may_masks[p] == 0 and m & view.placed[p] == view.placed[p]
    assert len(drawn) == k
    assert all(abs(c - n / k) < 5 * (n / k) ** 0.5 for c in drawn.values()), sorted(drawn.values())
    assert core_layouts(masks, seat, 11, 0, 20) == core_layouts(masks, seat, 11, 0, 20)
    assert core_layouts(masks, seat, 11, 1, 20) != core_layouts(masks, seat, 11, 0, 20)


def test_the_core_refuses_bad_views_and_decisions() -> None:
    rec, state, seat = _small_view(EXAMPLES[0])
    m = view_masks(rec, state, seat)
    for args, match in [
        ((3, m.placed, m.may, m.sizes, 0, 0, 1), "seat"),
        ((seat, m.placed[:3], m.may, m.sizes, 0, 0, 1), "placed"),
        ((seat, m.placed, (*m.may[:3], 1 << 40), m.sizes, 0, 0, 1), "may"),
        ((seat, m.placed, m.may, (*m.sizes[:3], 41), 0, 0, 1), "sizes"),
        ((seat, m.placed, m.may, m.sizes, -1, 0, 1), "seed"),
        ((seat, m.placed, m.may, m.sizes, 0, 0, _core.MAX_LAYOUTS + 1), "n must"),
        ((seat, m.placed, m.may, m.sizes, 0.5, 0, 1), "seed"),
    ]:
        with pytest.raises(calasolve.CalasolveError, match=match):
            _core.deal_layouts(*args)
    wrong = (*m.sizes[:3], m.sizes[3] + 1)
    assert _core.deal_layouts(seat, m.placed, m.may, wrong, 0, 0, 1) is None
    with pytest.raises(calasolve.CalasolveError, match="admits no layout"):
        core_layouts(m._replace(sizes=wrong), seat, 0, 0, 1)
    solver = default_solver()
    reps = representatives(state)
    good = dict(solver=solver, seat=seat, placed=m.placed, may=m.may, sizes=m.sizes, trick=state.trick,
                leader=state.leader, soloist=state.soloist, last_thirds=3, captured=state.captured[state.soloist],
                card_thirds=state.card_thirds[state.soloist], reps=reps, first=(18, False), rungs=[], seed=0, stream=0,
                samples=4)
    card, layouts, calls, _ = _core.contract_choice(**good)  # type: ignore[arg-type]
    assert card in reps and 1 <= layouts <= 4 and calls >= 0
    for change, match in [
        ({"seat": (seat + 1) % 3}, "not the player to move"), ({"reps": []}, "reps"), ({"reps": [40]}, "card 40"),
        ({"first": (37, False)}, "first"), ({"rungs": [((18, False), None)] * 17}, "rungs"),
        ({"samples": 0}, "samples"), ({"captured": 36}, "captured"), ({"trick": [1, 2, 3]}, "trick"),
    ]:
        with pytest.raises(calasolve.CalasolveError, match=match):
            _core.contract_choice(**{**good, **change})  # type: ignore[arg-type]
    assert _core.contract_choice(**{**good, "sizes": wrong}) is None  # type: ignore[arg-type]


def test_play_command_seats_it() -> None:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "calasolve", "play", "--players", "contract,pimc,pimc", "--samples", "3",
                          "--seed", "1", "--jobs", "1", str(ROOT / "examples" / "example.deal")],
                         capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "played by seat 0 contract, seat 1 pimc, seat 2 pimc (3 layouts a PIMC decision, seed 1)" in run.stdout
