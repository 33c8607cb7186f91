"""The learned card player: legal cards only, what its seat sees only, the batched play-outs equal to the
one-at-a-time ones, the shipped weights, and the training data and fit reproducible from their seeds."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from calasolve.game.cards import RANK_THIRDS, cards_of, popcount, suit_of
from calasolve.game.defaults import DEFAULT_ENDGAME
from calasolve.game.errors import CalasolveError, ParameterError
from calasolve.game.state import PlayState
from calasolve.play.factory import make_player
from calasolve.play.knowledge import view_of
from calasolve.play.learned import (
    N_FEATURES, VIEW_FEATURES, WEIGHTS, LearnedPlayer, Network, default_network, features, features_many, network_cards,
    play_out_many, view_features_many, with_derived,
)
from calasolve.play.players import play_out
from calasolve.search.solving import default_solver
from calasolve.train.data import CHUNK, Chunk, Rows, chunks_of, deal_rows, generate, training_deal
from calasolve.types.record import Record

DEALS = [training_deal(mix, d, default_solver()) for mix, d in
         [("rule", 900_001), ("rule", 900_002), ("stakes", 900_003), ("stakes", 900_004), ("stakes", 900_005)]]


def test_the_shipped_network_loads_and_is_small() -> None:
    net = default_network()
    assert net.layers[0][0].shape == (N_FEATURES, 256) and net.layers[-1][0].shape == (256, 40)
    path = Path(__file__).resolve().parents[2] / "src" / "calasolve" / "play" / WEIGHTS
    assert path.stat().st_size < 4 * 2**20


@pytest.mark.parametrize("endgame", [0, 6, 12])
def test_learned_players_play_whole_deals_legally_and_reproducibly(endgame: int) -> None:
    # play_choice raises on an illegal card; the same seed plays the same cards
    for record, seed in DEALS:
        first = play_out(record, [LearnedPlayer(endgame=endgame, seed=seed) for _ in range(3)]).record
        again = play_out(record, [LearnedPlayer(endgame=endgame, seed=seed) for _ in range(3)]).record
        assert len(first.played) == 36 and first.played == again.played
        assert first.state().is_over


def test_many_deals_played_together_play_the_cards_played_one_at_a_time() -> None:
    records = [r for r, _ in DEALS]
    for endgame, defender in ((0, None), (8, None), (8, 6)):
        together = play_out_many(records, [[LearnedPlayer(endgame, seed=s, defender_endgame=defender) for _ in range(3)]
                                           for _, s in DEALS])
        alone = [play_out(r, [LearnedPlayer(endgame, seed=s, defender_endgame=defender) for _ in range(3)])
                 for r, s in DEALS]
        assert [p.record.played for p in together] == [p.record.played for p in alone]
        assert [p.record for p in together] == [r.with_(played=p.record.played) for r, p in zip(records, together)]
    # mixed seats: a learned soloist against contract-minded defenders
    mixed = [[make_player("learned", samples=4, seed=s) if seat == r.soloist else make_player("contract", samples=4, seed=s)
              for seat in range(3)] for r, s in DEALS]
    assert [p.record.played for p in play_out_many(records, mixed)] == [
        play_out(r, seats).record.played for r, seats in zip(records, mixed)]


def test_play_out_many_checks_its_input() -> None:
    record = DEALS[0][0]
    with pytest.raises(ParameterError):
        play_out_many([record], [])
    with pytest.raises(ParameterError):
        play_out_many([record], [[LearnedPlayer()] * 2])
    with pytest.raises(CalasolveError, match="exchange is incomplete"):
        play_out_many([Record(hands=record.hands, monte=record.monte, contract="solo", soloist=0)], [[LearnedPlayer()] * 3])


def _swapped(record: Record, a: int, b: int, ca: int, cb: int) -> Record:
    hands = list(record.hands)
    hands[a] = hands[a] & ~(1 << ca) | 1 << cb
    hands[b] = hands[b] & ~(1 << cb) | 1 << ca
    return record.with_(hands=tuple(hands))


def _unseen_pair(record: Record, played: int) -> tuple[Record, int, int, int, int] | None:
    """A position ``played`` cards in and two cards the mover has not seen, one in each other hand, that
    may be in either (so the swapped deal is one the mover cannot tell apart)."""
    state = record.with_(played=record.played[:played]).state()
    m = state.to_move
    view = view_of(record, state, m)
    a, b = (m + 1) % 3, (m + 2) % 3
    both = (1 << a) | (1 << b)
    # dealt to the seat and held there still (not moved by the exchange)
    in_a = [c for c in cards_of(state.hands[a] & record.hands[a]) if view.unseen.get(c, 0) & both == both]
    in_b = [c for c in cards_of(state.hands[b] & record.hands[b]) if view.unseen.get(c, 0) & both == both]
    if not in_a or not in_b:
        return None
    return record.with_(played=record.played[:played]), a, b, in_a[0], in_b[0]


@pytest.mark.parametrize("endgame", [0, 6, 8])
def test_the_player_decides_alike_on_deals_its_seat_cannot_tell_apart(endgame: int) -> None:
    checked = 0
    for record, seed in DEALS:
        line = play_out(record, [LearnedPlayer(endgame=0, seed=seed) for _ in range(3)]).record.played
        full = record.with_(played=line)
        for played in (0, 4, 13, 20, 26):
            found = _unseen_pair(full, played)
            if found is None:
                continue
            here, a, b, ca, cb = found
            other = _swapped(here, a, b, ca, cb)
            s1, s2 = here.state(), other.state()
            assert s1.hands != s2.hands
            assert np.array_equal(features(here, s1), features(other, s2))
            p1, p2 = LearnedPlayer(endgame=endgame, seed=seed), LearnedPlayer(endgame=endgame, seed=seed)
            assert p1.choose(here, s1) == p2.choose(other, s2)
            checked += 1
    assert checked >= 10


def test_network_cards_are_legal_and_the_best_legal_logit() -> None:
    record, _ = DEALS[0]
    state = record.state()
    (card,) = network_cards(default_network(), [(record, state)])
    logits = default_network().logits(features(record, state)[None, :])[0]
    legal = list(cards_of(state.legal()))
    assert card in legal and logits[card] == max(logits[c] for c in legal)


def test_a_file_that_is_not_a_card_network_is_one_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.npz"
    np.savez(path, w0=np.zeros((3, 40), np.float32), b0=np.zeros(40, np.float32))
    with pytest.raises(CalasolveError, match="not a card network"):
        Network.load(str(path))


def test_a_defender_may_search_fewer_tricks_than_the_soloist() -> None:
    record, seed = DEALS[0]
    line = play_out(record, [LearnedPlayer(endgame=0, seed=seed) for _ in range(3)]).record.played
    player = LearnedPlayer(endgame=8, defender_endgame=6, seed=seed)
    assert player.searched == (8, 6) and LearnedPlayer().searched == (DEFAULT_ENDGAME, DEFAULT_ENDGAME)
    seen = set()
    for n in range(len(line)):
        state = record.with_(played=line[:n]).state()
        if popcount(state.legal()) < 2:
            continue
        left = 12 - len(state.tricks)  # tricks still to play, this one included
        soloist = state.to_move == state.soloist
        assert player.by_network(state) == (left > (8 if soloist else 6))
        if 6 < left <= 8:
            seen.add((soloist, player.by_network(state)))
    assert seen == {(False, True), (True, False)}  # there a defender plays the network's card, the soloist searches


def test_endgame_and_samples_are_checked() -> None:
    with pytest.raises(ParameterError, match="endgame"):
        LearnedPlayer(endgame=13)
    with pytest.raises(ParameterError, match="defender_endgame"):
        LearnedPlayer(defender_endgame=-1)
    with pytest.raises(ParameterError, match="samples"):
        LearnedPlayer(samples=0)


def test_training_data_is_a_function_of_the_deal_and_the_learner() -> None:
    first, again = deal_rows(("stakes", 900_003, None)), deal_rows(("stakes", 900_003, None))
    assert np.array_equal(first.x, again.x) and np.array_equal(first.chosen, again.chosen)
    assert first.x.shape[1] == VIEW_FEATURES and all(first.legal[i, c] for i, c in enumerate(first.chosen))
    assert all(popcount(sum(1 << int(c) for c in np.flatnonzero(row))) > 1 for row in first.legal)
    # with a learner, only the positions its network decides are labelled (the first six tricks)
    taught = deal_rows(("stakes", 900_003, default_network()))
    assert 0 < len(taught.chosen) and all(x[-1] < 6 / 12 + 1e-6 for x in taught.x)
    assert [c.name for c in chunks_of("rule", 0, CHUNK + 1)] == [f"rule-0-{CHUNK // 2 + 1}.npz", f"rule-{CHUNK // 2 + 1}-{CHUNK // 2}.npz"]
    with pytest.raises(ParameterError):
        chunks_of("bogus", 0, 1)


def test_generate_on_a_pool_is_the_same_as_here(tmp_path: Path) -> None:
    from calasolve.scale.workers import worker_pool

    chunk = Chunk("rule", 900_010, 3)
    here = generate(chunk)
    with worker_pool(2) as pool:
        there = generate(chunk, None, pool)
    assert np.array_equal(here.x, there.x) and np.array_equal(here.chosen, there.chosen)
    here.save(str(tmp_path / chunk.name))
    back = Rows.load(str(tmp_path / chunk.name))
    assert np.array_equal(back.legal, here.legal)
    # a file of the network's whole input (or anything else) is not a data file
    Rows(with_derived(here.x), here.legal, here.chosen).save(str(tmp_path / "wide.npz"))
    with pytest.raises(CalasolveError, match="wide.npz: not card decisions"):
        Rows.load(str(tmp_path / "wide.npz"))


def test_the_fit_is_seeded_and_its_weights_play() -> None:
    pytest.importorskip("torch")
    from calasolve.train.fit import fit

    rows = [generate(Chunk("stakes", 900_020, 4))]
    a = fit(rows, seed=3, epochs=2, log=lambda _: None)
    b = fit(rows, seed=3, epochs=2, log=lambda _: None)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    net = Network.from_weights(a)
    record, seed = DEALS[0]
    assert len(play_out(record, [LearnedPlayer(endgame=0, network=net, seed=seed)] * 3).record.played) == 36


def test_the_training_command_fails_in_one_line_without_deals(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from calasolve.train.__main__ import main

    result = CliRunner().invoke(main, ["--out", str(tmp_path / "w.npz"), "--deals", "0", "--stake-deals", "0"])
    assert result.exit_code == 2 and result.output.count("\n") == 1 and "no deals" in result.output
    assert not os.path.exists(tmp_path / "w.npz")


def test_the_exchange_fit_is_seeded_and_its_networks_decide() -> None:
    pytest.importorskip("torch")
    from calasolve.advice.learned_exchange import learned_defender_exchange
    from calasolve.train.exchange import fit_exchange, generate_exchange

    data = [generate_exchange(900_000, 12)]
    a = fit_exchange(data, seed=1, epochs=2, log=lambda _: None)
    b = fit_exchange(data, seed=1, epochs=2, log=lambda _: None)
    assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    assert {k[:2] for k in a} == {"dw", "db", "sw", "sb", "ow", "ob"}
    record, _ = DEALS[2]
    assert learned_defender_exchange(record.hands, record.monte, "scegliete", record.soloist).takes is not None


def test_exchange_data_saves_and_loads_every_head(tmp_path: Path) -> None:
    from calasolve.train.exchange import HEADS, Heads, generate_exchange

    data = generate_exchange(900_100, 4)
    data.save(str(tmp_path / "x.npz"))
    back = Heads.load(str(tmp_path / "x.npz"))
    for head in HEADS:
        assert all(np.array_equal(a, b) for a, b in zip(getattr(data, head), getattr(back, head)))
    assert back.split[0].shape[1] != back.soloist[0].shape[1]


def test_the_training_command_makes_weights_the_players_load(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from click.testing import CliRunner

    from calasolve.advice.learned_exchange import SOLOIST_INPUTS
    from calasolve.train.__main__ import main

    out, ex = tmp_path / "cards.npz", tmp_path / "exchange.npz"
    args = ["--out", str(out), "--exchange-out", str(ex), "--data", str(tmp_path / "data"), "--deals", "4",
            "--stake-deals", "2", "--rounds", "2", "--epochs", "1", "--exchange-deals", "4", "--jobs", "1"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "data").iterdir())
    assert names == ["exchange-0-4.npz", "rule-0-4.npz", "rule-4-2-r1.npz", "stakes-20000-2.npz", "stakes-20002-1-r1.npz"]
    net = Network.load(str(out))
    record, seed = DEALS[0]
    assert len(play_out(record, [LearnedPlayer(endgame=0, network=net, seed=seed)] * 3).record.played) == 36
    with np.load(ex) as data:
        assert data["ow0"].shape[0] == SOLOIST_INPUTS
    # again: the data files are kept, and the same seed fits the same weights
    again = tmp_path / "again.npz"
    assert CliRunner().invoke(main, ["--out", str(again), *args[4:]]).exit_code == 0
    with np.load(out) as a, np.load(again) as b:
        assert all(np.array_equal(a[k], b[k]) for k in a.files)


def _planes_card_by_card(record: Record, state: PlayState) -> np.ndarray:
    """The network's 480 card inputs written out card by card from the view (what :func:`features` packs as
    masks and unpacks for the batch; the 17 of context after them are not packed)."""
    from calasolve.play.knowledge import MONTE
    m = state.to_move
    view = view_of(record, state, m, check=False)
    f = np.zeros((12, 40), dtype=np.float32)
    f[0, list(cards_of(state.hands[m]))] = 1
    for t in state.tricks:
        for i, c in enumerate(t.cards):
            f[1 + (t.leader + i - m) % 3, c] = 1
    for i, c in enumerate(state.trick):
        f[1 + (state.leader + i - m) % 3, c] = 1
        f[4 + i, c] = 1
    for r in (1, 2):
        f[5 + r, list(cards_of(view.placed[(m + r) % 3]))] = 1
    f[8, list(cards_of(view.placed[MONTE]))] = 1
    for c, bits in view.unseen.items():
        for r in (1, 2):
            f[8 + r, c] = bits >> ((m + r) % 3) & 1
        f[11, c] = bits >> MONTE & 1
    return f.ravel()


def _positions() -> list[tuple[Record, PlayState]]:
    """Every position of the test deals played out by the network."""
    positions = []
    for record, seed in DEALS:
        played = play_out(record, [LearnedPlayer(endgame=0, seed=seed) for _ in range(3)]).record.played
        state = record.state()
        for card in played:
            positions.append((record, state.copy()))
            state.play(card)
    return positions


def test_the_features_of_many_positions_are_each_ones_features_card_by_card() -> None:
    positions = _positions()
    together = features_many(positions)
    assert together.shape == (len(positions), N_FEATURES) and together.dtype == np.float32
    assert np.array_equal(together[:, :480], np.stack([_planes_card_by_card(r, s) for r, s in positions]))
    assert np.array_equal(together, np.stack([features(r, s) for r, s in positions]))


def _derived_card_by_card(record: Record, state: PlayState) -> np.ndarray:
    """What :func:`with_derived` adds to a view, worked out card by card from the seat's view."""
    m = state.to_move
    view = view_of(record, state, m, check=False)
    mine = set(cards_of(state.hands[m]))
    hands = {r: set(cards_of(view.placed[(m + r) % 3])) | {c for c, bits in view.unseen.items() if bits >> ((m + r) % 3) & 1}
             for r in (1, 2)}
    threat = set().union(*(hands[r] for r in (1, 2) if m == state.soloist or (m + r) % 3 == state.soloist))
    held = hands[1] | hands[2]

    def above(c: int, cards: set[int]) -> int:
        return sum(1 for d in cards if suit_of(d) == suit_of(c) and d > c)

    planes = np.zeros((4, 40), dtype=np.float32)
    for c in range(40):
        planes[0, c] = c in mine and above(c, threat) == 0
        planes[1, c] = c in mine and above(c, threat) == 1
        planes[2, c] = c in held and c not in mine and above(c, held | mine) == 0
        if state.trick:
            led = suit_of(state.trick[0])
            planes[3, c] = c in mine and suit_of(c) == led and all(c > t for t in state.trick if suit_of(t) == led)
    counts = np.array([[sum(1 for c in cards if suit_of(c) == suit) for suit in range(4)]
                       for cards in (mine, threat, hands[1], hands[2])], dtype=np.float32)
    who = np.zeros(2, dtype=np.float32)
    if state.trick:
        led = suit_of(state.trick[0])
        best = max(range(len(state.trick)), key=lambda i: (suit_of(state.trick[i]) == led, state.trick[i]))
        who[(state.leader + best - m) % 3 - 1] = 1
    thirds = sum(RANK_THIRDS[c % 10] for c in state.trick) / 11
    return np.concatenate([planes.ravel(), counts.ravel() / 10, who, [thirds]]).astype(np.float32)


def test_what_follows_from_the_view_is_worked_out_card_by_card() -> None:
    positions = _positions()
    x = features_many(positions)
    # worked out on the masks a position at a time, by numpy for a batch and the training data: the same numbers
    assert np.array_equal(x, with_derived(view_features_many(positions)))
    assert np.array_equal(x, np.concatenate([features_many(positions[i:i + 5]) for i in range(0, len(positions), 5)]))
    assert np.array_equal(x[:, :VIEW_FEATURES], view_features_many(positions))
    assert np.allclose(x[:, VIEW_FEATURES:], np.stack([_derived_card_by_card(r, s) for r, s in positions]), atol=1e-6)
    # the trick's winner so far is never the mover, and is another seat whenever a card lies on the table
    assert all((x[i, VIEW_FEATURES + 176:VIEW_FEATURES + 178].sum() == 1) == bool(s.trick) for i, (_, s) in enumerate(positions))
