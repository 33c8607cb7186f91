"""The defenders' ``sampled`` exchange: legal for every draw and split, blind to the cards a defender
cannot see, reproducible, and choosing the discards that beat the contract more often."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from steady import steady

from calasolve.advice import defence
from calasolve.advice.advisor import advise
from calasolve.advice.checks import parse_advice_hand
from calasolve.advice.defence import fewest_makes, sampled_defender_discards, sampled_defender_exchange
from calasolve.advice.policies import random_draw
from calasolve.advice.samples import policy_exchange, sample_rng
from calasolve.advice.settings import AdviceSettings
from calasolve.exchange.candidates import dividete_draws, scegliete_splits
from calasolve.game.cards import cards_of, mask_of, parse_cards_or_hand, popcount
from calasolve.game.exchange import Hands, apply_exchange
from calasolve.game.rules import Rules
from calasolve.game.sampling import deal_rest, rng_for
from calasolve.game.state import defender_seats

BORDERLINE = "3A76.2AR.3A5.R4"


def _check_legal(hands: Hands, monte: int, contract: str, soloist: int, ex: Any, takes: Hands | None) -> None:
    after, new_monte = apply_exchange(hands, monte, contract, soloist, ex)  # raises on an illegal exchange
    assert [popcount(h) for h in after] == [12, 12, 12] and popcount(new_monte) == 4
    assert after[soloist] == hands[soloist] and ex.discards[soloist] == 0
    if takes is not None:
        assert ex.takes == takes
    for d in defender_seats(soloist):
        assert popcount(ex.discards[d]) == popcount(ex.takes[d])
        assert ex.discards[d] & ~(hands[d] | ex.takes[d]) == 0


def test_legal_for_every_draw_and_every_split(solver) -> None:  # type: ignore[no-untyped-def]
    hand = parse_advice_hand(BORDERLINE)
    for soloist in (0, 2):
        hands, monte = deal_rest(hand, soloist, rng_for(40, soloist))
        for takes in dividete_draws(monte, soloist):
            ex = sampled_defender_exchange(hands, monte, "dividete", soloist, Rules(), solver, rng_for(41),
                                           takes=takes, candidates=2, redeals=2)
            _check_legal(hands, monte, "dividete", soloist, ex, takes)
        splits = scegliete_splits(monte, soloist)
        assert len(splits) == 16  # 4-0, 3-1 and 2-2, either way round
        for takes in splits:
            ex = sampled_defender_exchange(hands, monte, "scegliete", soloist, Rules(), solver, rng_for(42),
                                           takes=takes, candidates=2, redeals=2)
            _check_legal(hands, monte, "scegliete", soloist, ex, takes)
        for contract in ("dividete", "scegliete"):  # the draw and the split the policy makes itself
            ex = sampled_defender_exchange(hands, monte, contract, soloist, Rules(), solver, rng_for(43))
            _check_legal(hands, monte, contract, soloist, ex, None)
            assert ex.takes is not None and ex.takes[0] | ex.takes[1] | ex.takes[2] == monte
    with pytest.raises(Exception, match="only in dividete and scegliete"):
        sampled_defender_exchange(hands, monte, "solo", 0, Rules(), solver, rng_for(1))


def _reshuffled(hands: Hands, keep: int, soloist: int, rng: np.random.Generator) -> Hands:
    """The same deal for the defender at ``keep``: the soloist's and its partner's cards dealt anew."""
    partner = 3 - keep - soloist
    pool = np.array(list(cards_of(hands[soloist] | hands[partner])), dtype=np.int64)
    rng.shuffle(pool)
    out = list(hands)
    out[soloist] = mask_of(int(c) for c in pool[:12])
    out[partner] = mask_of(int(c) for c in pool[12:])
    return out[0], out[1], out[2]


def test_a_defender_never_reads_the_cards_it_cannot_see(solver, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Dealing the cards a defender cannot see anew leaves its choices as they were (the same
    generator): its dividete discards (the same blind draw), its scegliete proposal, and its
    scegliete discards for an agreed split."""
    proposals: list[tuple[int, tuple[int, int]]] = []
    plain = defence.propose_split

    def spy(mine, monte, seat, *args, **kw):  # type: ignore[no-untyped-def]
        out = plain(mine, monte, seat, *args, **kw)
        proposals.append((seat, out))
        return out

    monkeypatch.setattr(defence, "propose_split", spy)
    hand = parse_advice_hand(BORDERLINE)
    changed = 0
    for i in range(3):
        soloist = i % 3
        hands, monte = deal_rest(hand, soloist, rng_for(50, i))
        split = scegliete_splits(monte, soloist)[5 + i]
        for seat in defender_seats(soloist):
            other = _reshuffled(hands, seat, soloist, rng_for(51, i))
            changed += other != hands
            for contract, takes in (("dividete", None), ("scegliete", split)):
                a = sampled_defender_exchange(hands, monte, contract, soloist, Rules(), solver, rng_for(52, i), takes=takes)
                b = sampled_defender_exchange(other, monte, contract, soloist, Rules(), solver, rng_for(52, i), takes=takes)
                assert a.takes == b.takes and a.discards[seat] == b.discards[seat], (i, seat, contract)
            proposals.clear()
            sampled_defender_exchange(hands, monte, "scegliete", soloist, Rules(), solver, rng_for(53, i))
            sampled_defender_exchange(other, monte, "scegliete", soloist, Rules(), solver, rng_for(53, i))
            mine = [p for s, p in proposals if s == seat]
            assert len(mine) == 2 and mine[0] == mine[1]
    assert changed == 6


def test_reproducible_from_the_samples_generator(solver) -> None:  # type: ignore[no-untyped-def]
    # the same generator, the same exchange; the advisor's is sample_rng's, after the same draw as every policy's
    settings = AdviceSettings(hand=parse_advice_hand(BORDERLINE), seat=1, seed=7, defender_policy="sampled")
    for index in range(3):
        hands, monte = deal_rest(settings.hand, 1, rng_for(7, index))
        for contract in ("dividete", "scegliete"):
            one, known = policy_exchange(settings, contract, hands, monte, solver, sample_rng(settings, index, contract))
            two, _ = policy_exchange(settings, contract, hands, monte, solver, sample_rng(settings, index, contract))
            assert one == two and known is None
            if contract == "dividete":
                assert one.takes == random_draw(monte, 1, sample_rng(settings, index, contract))


def test_advice_under_sampled_defenders_is_the_same_for_any_jobs() -> None:
    kwargs = dict(seat=0, samples=6, seed=11, fixed=True, contracts=["dividete", "scegliete"], defender_policy="sampled")
    one = advise(BORDERLINE, play="dd", jobs=1, **kwargs).to_dict()  # type: ignore[arg-type]
    two = advise(BORDERLINE, play="dd", jobs=2, **kwargs).to_dict()  # type: ignore[arg-type]
    assert steady(one) == steady(two)
    assert one["defender_policy"] == "sampled"
    assert one["policy_notes"]["defenders"] == "each defender chooses with what it sees"


def test_the_discards_that_beat_the_contract_more_often_are_chosen(solver, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # a defender with every low card of three suits: whoever else holds what, the soloist is strong.
    # Throwing its ace and 3 of denari into the monte (the soloist's in 8 of the 16 re-deals) against
    # two low cards (1 of 16): the low cards, whichever the estimate ranks first.
    mine = parse_cards_or_hand("7654.7654.7654.3A")
    bad, good = parse_cards_or_hand("-.-.-.3A"), parse_cards_or_hand("54.-.-.-")
    for order in ([bad, good], [good, bad]):
        monkeypatch.setattr(defence, "defender_discard_choices", lambda *a, order=order: list(order))
        got = sampled_defender_discards(mine, 2, 1, 0, 0, solver, rng_for(0), partner=(0, 2), redeals=16)
        assert got == good


class _TableSolver:
    """reaches_batch from a table: made or not, by the position's hands."""

    def __init__(self, made: dict[Hands, bool]) -> None:
        self.made, self.calls = made, 0

    def reaches_batch(self, hands, bonuses, leader, soloist, target, max_fails=0):  # type: ignore[no-untyped-def]
        assert max_fails == 0
        self.calls += len(hands)
        return [int(self.made[h]) for h in hands], len(hands)


def test_fewest_makes_picks_what_counting_every_world_picks() -> None:
    """The early stop and the world order only save tests: the choice has the fewest makes over
    all the worlds, the first on a tie, and a winner's count is exact."""
    rng = rng_for(60)
    saved = 0
    for trial in range(300):
        n_choices, n_worlds = int(rng.integers(1, 6)), int(rng.integers(1, 7))
        p = float(rng.random())
        table = [[((trial, c, w), 0) for w in range(n_worlds)] for c in range(n_choices)]
        made = {(trial, c, w): bool(rng.random() < p) for c in range(n_choices) for w in range(n_worlds)}
        counts = [sum(made[(trial, c, w)] for w in range(n_worlds)) for c in range(n_choices)]
        solver = _TableSolver(made)  # type: ignore[arg-type]
        index, makes = fewest_makes(table, 0, 0, solver)  # type: ignore[arg-type]
        assert (index, makes) == (counts.index(min(counts)), min(counts)), trial
        saved += n_choices * n_worlds - solver.calls
    assert saved > 0


def test_the_play_outs_and_the_text_under_sampled_defenders(solver) -> None:  # type: ignore[no-untyped-def]
    from calasolve.advice.playadvice import advise_play
    from calasolve.advice.realplay import played_exchange
    from calasolve.cli.text import format_advice, format_play_advice

    # a play-out's exchange is the advice's, found without the double-dummy search (no thirds known)
    settings = AdviceSettings(hand=parse_advice_hand(BORDERLINE), seed=3, defender_policy="sampled")
    hands, monte = deal_rest(settings.hand, 0, rng_for(3, 0))
    for contract in ("dividete", "scegliete"):
        got = played_exchange(settings, 0, contract, hands, monte, solver)
        assert got == policy_exchange(settings, contract, hands, monte, solver, sample_rng(settings, 0, contract))
        assert got[1] is None
    play = advise_play(BORDERLINE, seed=3, play_samples=1, pimc_samples=2, contracts=["dividete"], jobs=1,
                       defender_policy="sampled")
    assert play.to_dict()["policy_notes"]["defenders"] == "each defender chooses with what it sees"
    assert "defenders sampled (4 choices x 4 re-deals each)" in "\n".join(format_play_advice(play, explain=True))
    # an aggravation recommended under defenders who do not see every card says how to check it
    text = "\n".join(format_advice(advise("32A.32A.32A.32A", play="dd", samples=2, jobs=1, contracts=["solissimo", "scegliete"],
                                          defender_policy="sampled"), explain=True))
    assert "recommendation: scegliete" in text and "exchanged each with what it sees" in text
    assert "the dd defender policy" in text
