"""Card players: double dummy reproduces the solver, PIMC equals it when nothing is hidden, all reproducible."""

from __future__ import annotations

from pathlib import Path

import pytest

import calasolve
from calasolve.game.cards import cards_of
from calasolve.game.errors import InternalError
from calasolve.game.state import PlayState
from calasolve.types.record import Record
from calasolve.records.dealfile import parse_deal_text, read_deal_file
from calasolve.play.knowledge import layout_count, view_of
from calasolve.play.factory import make_player
from calasolve.play.players import PimcPlayer, pick, play_out
from calasolve.search.solving import default_solver, final_card_values

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [r for r in read_deal_file(str(ROOT / "examples" / "example.deal")) if not r.needs_exchange]

# Seat 1 holds only Bastoni and Spade, seat 2 only Coppe and Denari: once the soloist's four leads have
# shown both defenders' voids, the soloist (who knows the monte) can place every card.
SHOWN = parse_deal_text("""name: voids shown
hands: 3A24.3A24.32.32 RCF765.RCF765.-.- -.-.RCF765.RCF765
monte: -.-.A4.A4
contract: solo
soloist: 0
discards: 4B 4S 4C 4D
played: 3C 5B 5C 3B 6B 5D 3D 5S 6D 3S 6S 6C
""")[0]


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_double_dummy_self_play_reproduces_the_value(index: int) -> None:
    record = EXAMPLES[index]
    played = play_out(record, [make_player("dd")] * 3)
    final = played.record.state()
    assert final.is_over
    assert final.captured[record.soloist] == calasolve.solve(record).soloist_thirds
    assert played.record.played[: len(record.played)] == record.played
    assert played.players == ("dd", "dd", "dd")


def test_pimc_equals_double_dummy_when_the_layout_is_forced() -> None:
    """Where a seat's knowledge leaves one layout, the PIMC card has the double-dummy best value."""
    solver = default_solver()
    checked = 0
    for record in [*EXAMPLES, SHOWN]:
        line = play_out(record, [make_player("dd")] * 3).record.played
        for n in range(len(record.played), len(line)):
            rec = record.with_(played=line[:n])
            state = rec.state()
            if state.is_over or len(list(cards_of(state.legal()))) < 2:
                continue
            if layout_count(view_of(rec, state, state.to_move)) != 1:
                continue
            values = final_card_values(solver, state)
            best = (max if state.to_move == state.soloist else min)(values.values())
            card = PimcPlayer(samples=3, seed=n).choose(rec, state)
            assert values[card] == best
            checked += 1
    assert checked >= 5


def test_pimc_is_reproducible_for_a_seed() -> None:
    record = EXAMPLES[0]
    first = play_out(record, [PimcPlayer(samples=6, seed=4) for _ in range(3)]).record.played
    again = play_out(record, [PimcPlayer(samples=6, seed=4) for _ in range(3)]).record.played
    assert first == again
    assert len(first) == 36


def test_pimc_means_are_the_mean_of_the_layouts() -> None:
    record = EXAMPLES[1]
    state = record.state()
    one = PimcPlayer(samples=1, seed=2).means(record, state)
    many = PimcPlayer(samples=8, seed=2).means(record, state)
    assert set(one) == set(many) == set(cards_of(state.legal()))
    assert all(0 <= v <= 35 for v in many.values())


def test_pimc_means_are_the_mean_of_each_layouts_values() -> None:
    """The means against the plain sum of every drawn layout's double-dummy card values, early and late in a deal
    (late, layouts are drawn again: each is solved once)."""
    solver = default_solver()
    record = EXAMPLES[0]
    line = play_out(record, [make_player("dd")] * 3).record.played
    repeated = 0
    for n in (0, 7, 22, 30, 32):
        rec = record.with_(played=line[:n])
        state = rec.state()
        player = PimcPlayer(samples=12, seed=n)
        totals = {c: 0 for c in cards_of(state.legal())}
        for hands, monte in player.layouts(rec, state):
            layout = state.copy()
            layout.hands, layout.monte = list(hands), monte
            for card, value in final_card_values(solver, layout).items():
                totals[card] += value
        assert player.means(rec, state) == {c: t / 12 for c, t in totals.items()}
        repeated += player.stats.layouts - player.stats.solved
    assert repeated > 0


def test_shared_layouts_give_the_same_means_and_play() -> None:
    """Workers sharing a decision's layouts: the same means as one process, so the same play, for any split."""
    from calasolve.scale.workers import worker_pool

    record = EXAMPLES[1]
    state = record.state()
    alone = PimcPlayer(samples=5, seed=7).means(record, state)
    with worker_pool(2) as pool:
        for workers in (2, 3):
            assert PimcPlayer(samples=5, seed=7, pool=pool, workers=workers).means(record, state) == alone
        shared = play_out(record, [PimcPlayer(samples=3, seed=1, pool=pool, workers=2) for _ in range(3)])
    assert shared.record.played == play_out(record, [PimcPlayer(samples=3, seed=1) for _ in range(3)]).record.played


def test_heuristic_and_mixed_players_finish_legally() -> None:
    for i, record in enumerate(EXAMPLES):
        for players in (["heuristic"] * 3, ["pimc", "heuristic", "dd"])[: 2 if i < 2 else 1]:
            out = play_out(record, [make_player(p, samples=3, seed=1) for p in players])
            assert out.record.state().is_over
            calasolve.analyse(out.record)  # the analyser accepts the play: every card legal


def test_pick_ties_go_to_the_lowest_card() -> None:
    from calasolve.game.cards import parse_card

    assert pick({parse_card("AS"): 3, parse_card("5S"): 3, parse_card("4D"): 1}, maximise=True) == parse_card("5S")
    assert pick({parse_card("AS"): 3, parse_card("5S"): 3, parse_card("4D"): 1}, maximise=False) == parse_card("4D")


def test_bad_arguments() -> None:
    with pytest.raises(calasolve.ParameterError, match="samples"):
        PimcPlayer(samples=0)
    with pytest.raises(calasolve.ParameterError, match="unknown player"):
        make_player("oracle")
    with pytest.raises(calasolve.ParameterError, match="one player per seat"):
        play_out(EXAMPLES[0], [make_player("dd")] * 2)
    incomplete = read_deal_file(str(ROOT / "examples" / "example.deal"))
    missing: list[Record] = [r.with_(exchange=calasolve.Exchange()) for r in incomplete if r.contract == "solo"]
    with pytest.raises(calasolve.CalasolveError, match="exchange is incomplete"):
        play_out(missing[0], [make_player("dd")] * 3)


def test_play_command(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "calasolve", "play", *args], capture_output=True, text=True,
                              cwd=ROOT, timeout=600)

    example = str(ROOT / "examples" / "example.deal")
    one = run("--json", "--players", "pimc,dd,heuristic", "--samples", "4", "--seed", "3", "--jobs", "1", example)
    two = run("--json", "--players", "pimc,dd,heuristic", "--samples", "4", "--seed", "3", "--jobs", "2", example)
    assert one.returncode == 0, one.stderr
    rows = [json.loads(line, parse_constant=lambda name: (_ for _ in ()).throw(ValueError(name)))
            for line in one.stdout.splitlines()]
    assert [json.loads(line)["played"] for line in two.stdout.splitlines()] == [r["played"] for r in rows]
    # one record, two jobs: the workers share each decision's layouts, and play the same cards
    single = tmp_path / "one.deal"
    single.write_text("hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\nmonte: R4.-.3F.-\n"
                      "contract: solissimo\nsoloist: 0\nplayed: 3S 6S 7S 2S\n")
    shared = [run("--json", "--samples", "3", "--seed", "3", "--jobs", j, str(single)) for j in ("1", "2")]
    assert all(r.returncode == 0 for r in shared), shared[1].stderr
    assert json.loads(shared[0].stdout)["played"] == json.loads(shared[1].stdout)["played"]
    assert all(r["players"] == ["pimc", "dd", "heuristic"] and len(r["played"]) == 36 for r in rows)
    text = run("--players", "dd", example)
    assert text.returncode == 0 and "played by seat 0 dd, seat 1 dd, seat 2 dd" in text.stdout
    for args in (["--players", "oracle"], ["--players", "dd,dd"], ["--samples", "0"]):
        bad = run(*args, example)
        assert bad.returncode == 2 and bad.stdout == "" and "Traceback" not in bad.stderr, args


class _Cheat:
    """A player that plays a card its seat does not hold."""

    name = "cheat"

    def choose(self, record: Record, state: PlayState) -> int:
        return next(c for c in range(40) if not state.hands[state.to_move] >> c & 1)


def test_a_player_choosing_an_illegal_card_is_a_bug() -> None:
    record = EXAMPLES[0]
    assert not record.played
    with pytest.raises(InternalError, match=rf"player 'cheat' \(seat {record.first_leader}\) chose a card it may not play: "
                                            rf"\w+: seat {record.first_leader} does not hold it"):
        play_out(record, [_Cheat()] * 3)
