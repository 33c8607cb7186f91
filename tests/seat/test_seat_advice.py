"""The advice for a seat's decision: what it rests on, what it never sees, and its command line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from calasolve.env.actions import PASS, bid_action
from calasolve.env.agents import LearnedAgent
from calasolve.env.game import GameState
from calasolve.game.cards import parse_hand, popcount, strength
from calasolve.game.sampling import rng_for
from calasolve.play.knowledge import layout_count
from calasolve.search.engines import CoreSolver
from calasolve.search.solving import final_card_values
from calasolve.seat.advice import advise_view
from calasolve.seat.bidding import BiddingModel
from calasolve.seat.layouts import _in_play, posterior_layouts, view_layouts
from calasolve.seat.views import state_view
from calasolve.types.seat import SeatAdvice
from calasolve.types.view import View
from cli_run import run


def _game(seed: int, calls: tuple[str, ...], cards: int) -> GameState:
    """A game after ``calls`` and ``cards`` cards played by the learned agent."""
    agent = LearnedAgent(seed=1)
    g = GameState()
    g.sample_chance(rng_for(seed, 5))
    for c in calls:
        g.apply(PASS if c == "pass" else bid_action(c))
    while not (g.phase == "play" and g.play is not None and len(g.play.history) == cards):
        g.apply(agent.act(g))
    return g


def _same(a: SeatAdvice, b: SeatAdvice) -> bool:
    x, y = a.to_dict(), b.to_dict()
    x.pop("seconds"), y.pop("seconds")
    return bool(x == y)


def _unique_layout() -> GameState:
    """A solo game (seat 1) by the learned agent at the first position where the soloist, to move with a
    choice, can place every card."""
    agent = LearnedAgent(seed=1)
    for seed in range(50, 90):
        g = GameState()
        g.sample_chance(rng_for(seed, 5))
        for c in ("pass", "solo", "pass"):
            g.apply(PASS if c == "pass" else bid_action(c))
        while not g.is_terminal:
            if g.phase == "play" and g.current_player == 1 and popcount(g.play.legal()) > 1:  # type: ignore[union-attr]
                if layout_count(_in_play(state_view(g, 1))[0]) == 1:
                    return g
            g.apply(agent.act(g))
    raise AssertionError("no position with a unique layout")


def test_a_unique_layout_gives_each_cards_double_dummy_value(solver: CoreSolver) -> None:
    g = _unique_layout()
    view = state_view(g, 1)
    advice = advise_view(view, layouts=4, solver=solver)
    exact = final_card_values(solver, g.play)  # type: ignore[arg-type]
    from calasolve.game.cards import card_name
    assert {o.option: o.dd for o in advice.options} == {card_name(c): float(v) for c, v in exact.items()}


def _replayed(g: GameState, hands: list[int]) -> GameState:
    """``g``'s actions on another deal."""
    h = GameState(g.rules)
    for s in range(3):
        for c in range(40):
            if hands[s] >> c & 1:
                h.apply(c)
    for action in g.history[36:]:
        h.apply(action)
    return h


@pytest.mark.parametrize("calls,cards,seat", [(("pass", "solo", "pass"), 10, 2), (("pass", "pass"), None, 2),
                                              (("solo", "pass", "pass"), None, 0), (("pass", "solo", "pass"), 3, 1)])
def test_cards_the_seat_has_not_seen_do_not_change_the_advice(calls: tuple[str, ...], cards: int | None,
                                                                seat: int) -> None:
    """Two cards of one suit that the seat has not seen, still held by the other two seats, change hands in
    the deal (the game so far stays legal): the view and the advice are the same."""
    g = GameState()
    g.sample_chance(rng_for(3, 5))
    for c in calls:
        g.apply(PASS if c == "pass" else bid_action(c))
    agent = LearnedAgent(seed=1)
    while cards is not None and not (g.phase == "play" and len(g.play.history) >= cards  # type: ignore[union-attr]
                                     and g.current_player == seat):
        g.apply(agent.act(g))
    a, b = [s for s in range(3) if s != seat]
    seen = {g.call, g.returned}
    pick = [[c for c in range(40) if g.dealt[x] >> c & 1 and g.held(x) >> c & 1 and c not in seen] for x in (a, b)]
    ca, cb = next((x, y) for x in pick[0] for y in pick[1] if x // 10 == y // 10)
    hands = list(g.dealt)
    for x in (a, b):
        hands[x] ^= (1 << ca) | (1 << cb)
    swapped = _replayed(g, hands)
    va, vb = state_view(g, seat), state_view(swapped, seat)
    assert va == vb and g.dealt != swapped.dealt
    assert _same(advise_view(va, layouts=12, seed=4), advise_view(vb, layouts=12, seed=4))


def test_the_same_answer_for_any_number_of_jobs() -> None:
    view = View(2, parse_hand("2AC7.R7.R4.RC76"), calls=("chiamo", "pass"))
    one, two = advise_view(view, layouts=16, seed=2), advise_view(view, layouts=16, seed=2, jobs=2)
    assert _same(one, two)
    assert SeatAdvice.from_dict(json.loads(json.dumps(one.to_dict()))) == one


def test_the_auction_options_and_their_ranges() -> None:
    advice = advise_view(View(2, parse_hand("2AC7.R7.R4.RC76"), calls=("chiamo", "pass")), layouts=30, seed=1)
    assert advice.decision == "call" and sorted(o.option for o in advice.options) == ["pass", "solissimo", "solo"]
    for o in advice.options:
        assert o.points_95[0] <= o.points <= o.points_95[1]
        assert o.behind >= 0 and o.behind_95[0] <= o.behind <= o.behind_95[1]
    assert advice.options[0].option == advice.recommendation


def test_the_bidding_model() -> None:
    model = BiddingModel()
    strong, weak = parse_hand("32AR.32A.3A.2A5"), parse_hand("54.765.CF.RC764")
    for hand in (strong, weak):
        wants = model.wants(hand)
        assert abs(sum(wants.values()) - 1) < 1e-12 and min(wants.values()) >= 0
    # a near-zero softness is the agents' rule
    from calasolve.env.agents import rule_bid
    from calasolve.game.rules import STANDARD
    sharp = BiddingModel(softness=0.01)
    for hand in (strong, weak, parse_hand("3A.2A.RF.RC764")):
        wants = sharp.wants(hand)
        assert max(wants, key=lambda k: wants[k]) == rule_bid(hand, STANDARD)
    # the chance of a seat's calls is what drawing its wanted contract and bidding by it gives
    rng = np.random.default_rng(0)
    hand = parse_hand("3A.2A.RF.RC764")
    draws = [model.draw_want(hand, 0, (), STANDARD, rng) for _ in range(4000)]
    share = np.mean([w == "chiamo" for w in draws])
    assert abs(share - model.calls_chance(hand, 0, ("chiamo",))) < 0.03


def test_the_posterior_reads_the_calls() -> None:
    """Seat 0 bid solissimo: its hands in the posterior are strong; the posterior agrees with the weights."""
    view = View(1, parse_hand("6.C65.AC765.2A5"), calls=("solissimo",), contract="solissimo")
    kept, drawn, _ = posterior_layouts(view, 60, seed=1)
    uniform = view_layouts(view, 400, seed=2)
    weights = np.array([x.weight for x in uniform])
    weighted = float(np.sum(weights * [strength(x.hands[0]) for x in uniform]) / weights.sum())
    posterior = float(np.mean([strength(x.hands[0]) for x in kept]))
    plain = float(np.mean([strength(x.hands[0]) for x in uniform]))
    assert drawn > 60 and posterior > plain + 3 and abs(posterior - weighted) < 1.5


def test_advise_a_view_file(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    path = f"{tmp_path}/views.txt"
    with open(path, "w") as f:
        f.write("name: dealer\nview: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: chiamo pass\n\n"
                "view: 1\nhands: ? 6.C65.AC765.2A5 ?\nauction: solissimo\nplayed: 3S 6S 7S 2S\n")
    code, out, err = run(["advise", path, "--layouts", "8"], capsys)
    assert code == 0, err
    assert "A call in the auction:" in out and "The card to play:" in out and "dd thirds" in out
    code, out, err = run(["advise", path, "--layouts", "8", "--json"], capsys)
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["decision"] for r in rows] == ["call", "card"] and rows[0]["view"]["view"] == 2
    assert {o["option"] for o in rows[1]["options"]} == {"5S", "CS"}


@pytest.mark.parametrize("text,extra,message", [
    ("view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: pass\n", [], "seat 1 is to speak, not seat 2"),
    ("view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: pass\n", ["--seat", "1"], "--seat: does not apply to a view"),
    ("hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\nmonte: R4.-.3F.-\ncontract: solo\nsoloist: 0\n", [],
     "a whole deal; advise takes a hand or a seat's view"),
    ("view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: solo chiamo\n", [], "a bid must be higher than solo"),
])
def test_bad_views_are_one_line_errors(tmp_path: object, capsys: pytest.CaptureFixture[str], text: str,
                                       extra: list[str], message: str) -> None:
    path = f"{tmp_path}/v.txt"
    with open(path, "w") as f:
        f.write(text)
    code, out, err = run(["advise", path, *extra], capsys)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_the_soloists_leaving_chance_is_a_distribution_led_by_the_policys_choice() -> None:
    import itertools

    from calasolve.advice.learned_exchange import learned_soloist_plan, soloist_leaving_chance
    from calasolve.game.cards import cards_of

    monte = parse_hand("5.-.6.R3")
    mine = parse_hand("32AF.C65.AC7.2A") | monte
    _, chosen = learned_soloist_plan(mine, monte, None, None, "solo", False)
    sets = [sum(1 << c for c in four) for four in itertools.combinations(cards_of(mine), 4)]
    for t in (1.0, 3.0):
        chances = {s: soloist_leaving_chance(mine, monte, None, False, "solo", False, s, t) for s in sets}
        assert abs(sum(chances.values()) - 1) < 1e-9 and max(chances, key=lambda s: chances[s]) == chosen
    assert soloist_leaving_chance(mine, monte, None, False, "solo", False, parse_hand("3F.C.-.4")) == 0.0  # 4D not held
