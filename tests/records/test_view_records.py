"""A seat's view as a record (issue #59, part 1): parsing, the views of whole records, and every
view that no deal could produce."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_run import run

from calasolve.game.cards import mask_of, parse_cards, parse_hand
from calasolve.game.errors import DealFileError, RecordError
from calasolve.game.exchange import called_from
from calasolve.game.state import DEFENDER_EXCHANGE
from calasolve.records.dealfile import check_deal_text, check_entries_text, parse_deal_text, read_deal_file
from calasolve.types.record import Record
from calasolve.types.view import MONTE, View, format_view, seat_view

ROOT = Path(__file__).resolve().parents[2]
FILES = [*sorted((ROOT / "examples").glob("*.deal")), *sorted((ROOT / "tests" / "golden").glob("*.deal"))]


def played_out(record: Record) -> Record:
    """``record`` with its play run to the end, each seat playing its lowest legal card."""
    state = record.state()
    while not state.is_over:
        state.play(min(c for c in range(40) if state.legal() >> c & 1))
    return record.with_(played=tuple(state.history))


def every_record() -> list[Record]:
    records = [r for path in FILES for r in read_deal_file(str(path))]
    return records + [played_out(r) for r in records if not r.needs_exchange]


def seen_cards(record: Record, seat: int, n: int) -> int:
    """Every card ``seat`` may see of ``record`` after ``n`` cards played (docs/rules.md §5)."""
    ex, soloist, contract = record.exchange, record.soloist, record.contract
    seen = record.hands[seat] | mask_of(record.played[:n])
    if ex.call is not None:
        seen |= 1 << ex.call
    if ex.returned is not None:
        seen |= 1 << ex.returned
    if seat == soloist and (contract == "solo" or (contract == "chiamo" and ex.call is not None)):
        seen |= record.monte
    if contract == "scegliete":
        seen |= record.monte
    if contract in DEFENDER_EXCHANGE and seat != soloist:
        seen |= (ex.takes or (0, 0, 0))[seat] | (ex.discards or (0, 0, 0))[seat]
    return seen


def shown_cards(view: View) -> int:
    ex = view.exchange
    shown = view.hand | (view.monte or 0) | mask_of(view.played)
    for card in (ex.call, ex.returned):
        if card is not None:
            shown |= 1 << card
    for masks in (ex.takes, ex.discards):
        if masks is not None:
            shown |= masks[0] | masks[1] | masks[2]
    return shown


@pytest.mark.parametrize("record", every_record(), ids=lambda r: f"{r.name}-{len(r.played)}")
def test_every_seats_view_reads_back_and_shows_only_what_it_saw(record: Record) -> None:
    for seat in range(3):
        for n in sorted({0, 1, 5, len(record.played) // 2, len(record.played)} & set(range(len(record.played) + 1))):
            view = seat_view(record, seat, n)
            text = format_view(view)
            [back], errors = check_entries_text(text, "v.deal")
            assert errors == [] and back == view, text
            assert View.from_dict(view.to_dict()) == view
            assert shown_cards(view) & ~seen_cards(record, seat, n) == 0, text
            hands = text.split("\n")[2 if record.name else 1].split()[1:]
            assert [h == "?" for h in hands] == [s != seat for s in range(3)]
            sees_monte = (record.contract == "scegliete" or (seat == record.soloist and (
                record.contract == "solo" or (record.contract == "chiamo" and record.exchange.call is not None))))
            assert (view.monte is not None) == sees_monte
            assert view.contract == record.contract and view.soloist == record.soloist
            if record.exchange.call is not None:
                source = called_from(record.hands, record.monte, record.exchange.call)
                assert view.call_from == (MONTE if source is None else source)


def test_a_view_is_not_a_whole_deal() -> None:
    text = "name: w\nhands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\nmonte: R4.-.3F.-\ncontract: solo\nsoloist: 0\n\n" \
           "view: 2\nhands: ? ? 2AC7.R7.R4.RC76\nauction: solo"
    records, errors = check_deal_text(text, "v.deal")
    assert len(records) == 1
    assert [str(e) for e in errors] == ["v.deal:7: record 2 is seat 2's view, not a whole deal "
                                        "(it hides the other hands; only 'calasolve check' reads views)"]
    with pytest.raises(DealFileError, match="v.deal:7: record 2 is seat 2's view"):
        parse_deal_text(text, "v.deal")
    entries, errors = check_entries_text(text, "v.deal")
    assert errors == [] and isinstance(entries[1], View) and entries[1].calls == ("solo",)
    assert entries[1].contract is None  # seats 1 and 2 still to speak


def test_a_hand_alone_is_the_first_speakers_view_with_no_calls() -> None:
    [view], errors = check_entries_text("view: 0\nhands: 3F5.32AF4.2.3F4 ? ?", "v.deal")
    assert errors == [] and view.calls == () and view.contract is None and view.monte is None
    assert format_view(view) == "view: 0\nhands: 3F5.32AF4.2.3F4 ? ?\nmonte: ?"


def test_contract_follows_from_the_auction_and_the_variants() -> None:
    hand = "view: 1\nhands: ? 6.C65.AC765.2A5 ?\n"
    [view], _ = check_entries_text(hand + "auction: pass solo pass", "v.deal")
    assert (view.contract, view.soloist, view.first_leader) == ("solo", 1, 0)
    [view], _ = check_entries_text(hand + "auction: pass solissimo\ncontract: scegliete\nmonte: R4.-.3F.-", "v.deal")
    assert (view.contract, view.soloist) == ("scegliete", 1)
    [view], _ = check_entries_text(hand + "auction: chiamo solo pass solissimo\nrules: auction=open", "v.deal")
    assert (view.contract, view.soloist) == ("solissimo", 0)
    [view], _ = check_entries_text(hand + "auction: solissimo dividete pass\nrules: aggravations=bids", "v.deal")
    assert (view.contract, view.soloist) == ("dividete", 1)


SEAT1 = "view: 1\nhands: ? 6.C65.AC765.2A5 ?\n"
SEAT0 = "view: 0\nhands: 3F5.32AF4.2.3F4 ? ?\n"
# The chiamo of examples/example.deal: seat 2 calls 3C from seat 1, gives back 4C, discards four.
CHIAMO1 = "view: 1\nhands: ? R54.R74.3RF7.26 ?\nauction: pass pass chiamo\nrules: stramazzo=off\n"
CHIAMO2 = "view: 2\nhands: ? ? 32A.32A.AC54.3R\nauction: pass pass chiamo\nmonte: 6.-.-.CF7\n"

#: (view text, line of the error, the error): every view no deal could produce
IMPOSSIBLE = [
    ("view: 3\nhands: ? ? ?", 1, "view '3': must be seat 0, 1 or 2"),
    ("view: 1\nhands: ? ? 6.C65.AC765.2A5", 2, "hands: seat 1's own hand is '?'; a view gives the hand of its seat"),
    ("view: 1\nhands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 ?", 2, "hands: seat 0's hand: seat 1 does not see it; write ?"),
    ("view: 1\nhands: ? 6.C65.AC765.2A ?", 2, "seat 1 holds 11 cards (6.C65.AC765.2A), its hand needs 12"),
    (SEAT1 + "monte: 6B", 3, "monte: 6B both in the monte and in seat 1's hand"),
    (SEAT1 + "auction: solo chiamo", 3,
     "auction: call 2 'chiamo' by seat 1: a bid must be higher than solo (legal: pass, solissimo)"),
    (SEAT1 + "auction: solissimo pass", 3,
     "auction: call 2 'pass': the auction is over, no one may speak (seat 0 won with solissimo)"),
    (SEAT1 + "auction: pass pass pass pass", 3,
     "auction: call 4 'pass': the auction is over, no one may speak (all passed)"),
    (SEAT1 + "auction: pass dividete", 3, "auction: call 2 'dividete' by seat 1: dividete is not a bid under "
     "aggravations=declared; win the auction with solissimo, then aggravate it"),
    (SEAT1 + "auction: pass solo\ncontract: solo", 4,
     "contract: the auction is not over (seat 2 to speak); the calls that decided it go in 'auction:'"),
    (SEAT1 + "contract: solo\nsoloist: 1", 3,
     "contract: the auction is not over (seat 0 to speak); the calls that decided it go in 'auction:'"),
    (SEAT1 + "auction: pass solo pass\ncontract: chiamo", 4,
     "contract chiamo: the auction ended with solo by seat 1 (the contract is solo)"),
    (SEAT1 + "auction: pass solo pass\nsoloist: 2", 4, "soloist 2: the auction makes seat 1 the soloist"),
    (SEAT1 + "auction: pass pass pass\ncontract: solo", 4, "contract: every seat passed, the deal is void"),
    (SEAT1 + "auction: pass solo pass\ndiscards: 6B 5C 6C 7C", 4,
     "discards: seat 1 took the monte before this step; give the monte it saw (monte: ...)"),
    (SEAT0 + "auction: pass solo pass\nmonte: R4.-.3F.-", 4, "monte: seat 0, a defender, does not see the monte in solo"),
    (SEAT0 + "auction: pass solo pass\ndiscards: 1=6B,5C,6C,7C", 4,
     "discards: seat 0, a defender, does not see the soloist's discards"),
    (SEAT0 + "auction: solissimo\nmonte: R4.-.3F.-", 4, "monte: in solissimo the monte stays face down; no one sees it"),
    (SEAT0 + "auction: solissimo\ncall: 6B", 4, "call: solissimo has no exchange"),
    (SEAT1 + "auction: solissimo\ncontract: dividete\ntakes: 2=RB,4B", 5,
     "takes: seat 1 does not see seat 2's takes (the defenders take blind in dividete)"),
    (SEAT1 + "auction: solissimo\ncontract: dividete\ntakes: 1=RB,4B\ndiscards: 2=6B,5C", 6,
     "discards: seat 1 does not see seat 2's discards (face down)"),
    (SEAT1 + "auction: solissimo\ncontract: scegliete\nmonte: R4.-.3F.-\ntakes: 1=RB,4B,3C 2=3C", 6,
     "takes: the defenders share out the monte (R4.-.3F.-) whole, each card once"),
    (SEAT1 + "auction: solissimo\ncontract: scegliete", 1,
     "monte: in scegliete the monte is turned face up; seat 1 saw it, give it"),
    (CHIAMO1 + "call: 3B", 5, "call 3B: seat 1 cannot tell where it came from; write 'call: 3B from SEAT' or 'from monte'"),
    (CHIAMO1 + "call: 3C from 0\nreturn: 4C", 5, "call 3C: seat 1 held it, so it came from seat 1, not 0"),
    (CHIAMO1 + "call: 3C\nreturn: RB", 6, "return RB: seat 1 held it, so the soloist cannot give it back"),
    (CHIAMO1 + "call: 3B from monte\nreturn: 4C", 6, "return 4C: the called card 3B was in the monte, nothing was "
     "handed over, so nothing is given back"),
    (CHIAMO2 + "call: 3C from 2", 5, "call: from 2: the called card comes from a defender's seat (0, 1) or from the monte"),
    (CHIAMO2 + "call: 7D from 1", 5, "call 7D from 1: it was in the monte"),
    (CHIAMO2 + "call: 3B", 5, "call 3B: seat 2, the soloist, holds it (call a card not in your hand)"),
    (CHIAMO2 + "call: 3C from 1\nreturn: 4C\ndiscards: 6B 5C FD 7S", 7,
     "discards: 7S not among the soloist's cards"),
    (SEAT0 + "auction: solissimo\nplayed: 6B", 4, "played card 1 (6B, trick 1): seat 0 does not hold it"),
    (SEAT0 + "auction: solissimo\nplayed: 3S 5S 3S", 4, "played card 3 (3S, trick 1): it is already played card 1"),
    (SEAT0 + "auction: solissimo\nplayed: 3S 3B", 4, "played card 2 (3B, trick 1): seat 1 cannot hold it, seat 0 does"),
    (SEAT0 + "auction: solissimo\nplayed: 3S 5S 7S 6B", 4,
     "played card 4 (6B, trick 2): seat 0 does not hold it"),
    (SEAT0 + "auction: solissimo\nplayed: 3S 6B 7S 3B RS", 4,
     "played card 5 (RS, trick 2): seat 1 showed it has no Spade earlier"),
    (SEAT0 + "auction: solissimo\nplayed: 2S 5S 7S 3B 6B FB 5B", 4,
     "played card 6 (FB, trick 2): seat 0 must follow Bastoni (led 3B)"[:10]),
    (SEAT1 + "auction: solo pass pass\nplayed: 2S RC 3C", 4, "played card 2 (RC, trick 1): seat 1 does not hold it"),
    (SEAT1 + "auction: solo pass pass\nplayed: 2S 6B", 4, "played card 2 (6B, trick 1): seat 1 must follow Spade "
     "(led 2S) with CS 6S 5S"),
    ("view: 1\nhands: ? 3F.32AR.3A.2AF4 ?\nmonte: 2R4.6.-.-\nauction: pass solo pass\ndiscards: 4B 6S FD 4D\n"
     "played: 4B", 6, "played card 1 (4B, trick 1): seat 0 cannot hold it (it is in the new monte)"),
    (CHIAMO2 + "call: 3C from 1\nreturn: 4C\ndiscards: 6B 5C FD 7D\nplayed: 4C", 8,
     "played card 1 (4C, trick 1): seat 0 cannot hold it (the soloist gave it to seat 1)"),
    (CHIAMO1 + "call: 3C\nreturn: 4C\nplayed: 5D 4C", 7,
     "played card 2 (4C, trick 1): seat 1 must follow Denari (led 5D) with 2D 6D"),
    ("view: 0\nhands: CF7.CF65.26.A54 ? ?\nauction: pass pass chiamo\ncall: 3C from 1\nreturn: 4C\nplayed: 7B 3C", 6,
     "played card 2 (3C, trick 1): seat 1 cannot hold it (the called card is the soloist's, seat 2's, or in the new monte)"),
    (SEAT0 + "auction: pass solo\nplayed: 3S", 4, "played cards given, but the auction has not decided the contract"),
    (SEAT1 + "auction: pass solo pass\nplayed: 3S", 4,
     "played cards given, but the solo exchange as seat 1 saw it is not complete; give what the seat saw of it"),
    ("hands: ? 6.C65.AC765.2A5 ?\nmonte: ?\ncontract: solo\nsoloist: 0\nauction: solo", 1,
     "hands: seat 0: hand '?': needs four suit groups separated by dots, found 1"),
]


@pytest.mark.parametrize("text,line,message", IMPOSSIBLE, ids=[m[:40] for _, _, m in IMPOSSIBLE])
def test_a_view_no_deal_could_produce_is_an_error(text: str, line: int, message: str) -> None:
    entries, errors = check_entries_text(text, "v.deal")
    assert entries == [] and len(errors) == 1
    assert str(errors[0]).startswith(f"v.deal:{line}: {message}"), str(errors[0])


def test_the_errors_docs_deal_format_shows_are_the_checks() -> None:
    page = (ROOT / "docs" / "deal-format.md").read_text(encoding="utf-8")
    block = page.split("**A view that no deal could produce is an error**")[1].split("```")[1]
    shown = {line.split(": ", 1)[1] for line in block.strip().splitlines()}
    made = {str(check_entries_text(text, "v.deal")[1][0]).split(": ", 1)[1] for text, _, _ in IMPOSSIBLE}
    made.add(str(check_entries_text(NO_LAYOUT, "v.deal")[1][0]).split(": ", 1)[1])
    assert len(shown) == 10 and shown <= made, shown - made


#: Seat 0 has seen seats 1 and 2 show out of Spade: the nine unseen Spades would all be in the monte.
NO_LAYOUT = "view: 0\nhands: 2AC7.R.32AR.32A ? ?\nauction: solissimo\nplayed: RS 3B FB"


def test_a_shown_void_left_with_no_layout_is_an_error() -> None:
    """Each unseen Spade alone could be in the monte; together they cannot."""
    entries, errors = check_entries_text(NO_LAYOUT, "v.deal")
    assert entries == [] and [str(e) for e in errors] == ["v.deal:4: played: no deal fits seat 0's view: the cards it has not seen "
                                        "cannot be laid out with the voids the play has shown"]


def test_a_bad_view_as_data_names_its_key() -> None:
    with pytest.raises(RecordError) as info:
        View(0, parse_hand("3F5.32AF4.2.3F4"), calls=("solissimo",), played=tuple(parse_cards("6B")))
    assert info.value.key == "played"
    view = View(0, parse_hand("3F5.32AF4.2.3F4"), calls=("solissimo",), played=tuple(parse_cards("3S 5S")))
    assert (view.contract, view.soloist, view.first_leader) == ("solissimo", 0, 0)
    with pytest.raises(RecordError) as info:
        view.with_(played=tuple(parse_cards("3S 3B")))
    assert info.value.key == "played" and "seat 1 cannot hold it, seat 0 does" in str(info.value)


def test_check_reports_every_bad_view_at_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "v.deal"
    path.write_text(SEAT1 + "auction: solo chiamo\n\n" + SEAT0 + "auction: solissimo\nplayed: 6B\n\n"
                    + SEAT0 + "auction: pass\n", encoding="utf-8")
    status, out, err = run(["check", str(path)], capsys)
    assert status == 2 and out == ""
    assert err.splitlines() == [
        f"calasolve: error: {path}:3: auction: call 2 'chiamo' by seat 1: a bid must be higher than solo "
        "(legal: pass, solissimo)",
        f"calasolve: error: {path}:8: played card 1 (6B, trick 1): seat 0 does not hold it (seat 0 holds 3F5.32AF4.2.3F4)",
    ]


def test_check_prints_views_that_check_reads_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for point in ("0", "1@0", "2@7", "1"):
        status, out, err = run(["check", "--view", point, str(ROOT / "examples" / "played.deal")], capsys)
        assert status == 0 and err == ""
        path = tmp_path / "v.deal"
        path.write_text(out, encoding="utf-8")
        entries = [e for e in check_entries_text(out, "v")[0]]
        assert entries and all(isinstance(e, View) and e.seat == int(point[0]) for e in entries)
        status, out, err = run(["check", str(path)], capsys)
        assert status == 0 and err == "" and f"seat {point[0]}'s view" in out
        status, out, err = run(["check", "--json", str(path)], capsys)
        assert status == 0 and '"view": ' + point[0] in out
        status, out, err = run(["solve", str(path)], capsys)
        assert status == 2 and out == "" and err.count("\n") == 1
        assert f"{path}:2: record 1 is seat {point[0]}'s view, not a whole deal" in err
    status, out, err = run(["check", "--view", "1@3", "--json", str(ROOT / "examples" / "played.deal")], capsys)
    assert status == 0 and out.count('"view": 1') == out.count("\n")


@pytest.mark.parametrize("command", ["analyse", "table", "play"])
def test_commands_that_need_a_whole_deal_refuse_a_view(command: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "v.deal"
    path.write_text(SEAT1 + "auction: pass solo pass\n", encoding="utf-8")
    status, out, err = run([command, str(path)], capsys)
    assert (status, out) == (2, "")
    assert err == (f"calasolve: error: {path}:1: record 1 is seat 1's view, not a whole deal "
                   "(it hides the other hands; only 'calasolve check' reads views)\n")


def test_check_view_errors(capsys: pytest.CaptureFixture[str]) -> None:
    played = str(ROOT / "examples" / "played.deal")
    status, out, err = run(["check", "--view", "3", played], capsys)
    assert status == 2 and "Invalid value for '--view': '3'" in err and err.count("\n") == 1
    status, out, err = run(["check", "--view", "0@37", played], capsys)
    assert status == 2 and err.count("\n") == 1
    assert f"{played}:9: played: --view 0@37 asks for 37 cards played, the record gives 36" in err
