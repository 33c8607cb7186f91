"""A whole deal record's auction (the optional ``auction:`` line): read, written, checked against the
contract and soloist, and the calls of the record's seat views."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cli_run import run
from deal_cases import GOOD, insert

from calasolve.game.errors import DealFileError, RecordError
from calasolve.game.rules import Rules
from calasolve.records import dealfile
from calasolve.records.dealfile import check_deal_text, check_entries_text, parse_deal_text
from calasolve.types.record import KEYS, Record, format_record
from calasolve.types.view import format_view, seat_view

DEAL = "hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76\nmonte: R4.-.3F.-\n"
#: records with an auction: the calls, the contract they give, the variants
WITH_AUCTION = [
    insert(GOOD, 7, "auction: Solo pass  PASS"),  # written back lowercase, one space apart
    DEAL + "contract: solissimo\nsoloist: 1\nauction: chiamo solissimo\nplayed: 6B 2B",
    DEAL + "contract: dividete\nsoloist: 0\nauction: solissimo\ntakes: 1=RB,4B 2=3C,FC",
    DEAL + "contract: scegliete\nsoloist: 2\nrules: aggravations=bids\nauction: chiamo solo scegliete",
    DEAL + "contract: solo\nsoloist: 1\nrules: auction=open\nauction: chiamo solo pass pass",
]


def one(text: str) -> Record:
    [rec] = parse_deal_text(text)
    return rec


@pytest.mark.parametrize("text", WITH_AUCTION, ids=lambda t: t.split("auction: ")[1].split("\n")[0])
def test_a_record_with_an_auction_reads_back_from_its_text_and_its_json(text: str) -> None:
    rec = one(text)
    assert rec.auction and all(call == call.strip().lower() for call in rec.auction)
    written = format_record(rec)
    assert f"\nauction: {' '.join(rec.auction)}\n" in written + "\n"
    assert one(written) == rec and one(written).auction == rec.auction
    d = json.loads(json.dumps(rec.to_dict()))
    assert d["auction"] == list(rec.auction)
    assert Record.from_dict(d) == rec
    assert f"auction={' '.join(rec.auction)!r}" in repr(rec)


def test_the_auction_line_comes_after_rules_and_before_the_exchange() -> None:
    rec = one(DEAL + "name: n\ncontract: dividete\nsoloist: 0\nleader: 1\nrules: stramazzo=off\n"
              "takes: 1=RB,4B 2=3C,FC\nauction: solissimo")
    assert [line.split(":")[0] for line in format_record(rec).splitlines()] == [
        "name", "hands", "monte", "contract", "soloist", "leader", "rules", "auction", "takes"]
    assert KEYS.index("rules") + 1 == KEYS.index("auction") == KEYS.index("call") - 1


def test_no_auction_is_the_empty_tuple_and_older_json_still_loads() -> None:
    rec = one(GOOD)
    assert rec.auction == () and rec.to_dict()["auction"] == []
    assert "auction" not in format_record(rec) and "auction" not in repr(rec)
    old = rec.to_dict()
    del old["auction"]
    assert Record.from_dict(old) == rec
    assert rec != rec.with_(auction=("solo", "pass", "pass"))  # the auction is part of the record


def test_auction_is_a_key_once() -> None:
    assert dealfile.VIEW_KEYS == ("view",)
    assert dealfile._ALL_KEYS.count("auction") == 1
    [err] = check_deal_text(DEAL + "contract: solo\nsoloist: 0\nauctoin: solo", "x.deal")[1]
    assert str(err).count("auction") == 1


#: (what follows the deal, line of the error, the error): every auction that does not give the record
BAD = [
    ("contract: solo\nsoloist: 1\nauction: solo chiamo", 5,
     "auction: call 2 'chiamo' by seat 1: a bid must be higher than solo (legal: pass, solissimo)"),
    ("contract: solo\nsoloist: 1\nauction: pass solo pass pass", 5,
     "auction: call 4 'pass': the auction is over, no one may speak (seat 1 won with solo)"),
    ("contract: solo\nsoloist: 1\nauction: pass sol", 5,
     "auction: call 2 'sol' by seat 1: unknown call (use pass or chiamo, solo, solissimo)"),
    ("contract: solo\nsoloist: 1\nauction: pass solo", 5, "auction: the auction is not over (seat 2 to speak)"),
    ("contract: solo\nsoloist: 1\nrules: auction=open\nauction: chiamo solo pass", 6,
     "auction: the auction is not over (seat 0 to speak)"),
    ("contract: solo\nsoloist: 1\nauction: pass pass pass", 5,
     "auction: every seat passed, the deal is void (a void deal has no record)"),
    ("contract: solo\nsoloist: 1\nauction: solo pass pass", 5, "auction: the auction makes seat 0 the soloist, not seat 1"),
    ("contract: chiamo\nsoloist: 1\nauction: pass solo pass", 5,
     "auction: the auction ended with solo by seat 1, so the contract is solo, not chiamo"),
    ("contract: solo\nsoloist: 0\nauction: solissimo", 5, "auction: the auction ended with solissimo by seat 0, so the "
     "contract is solissimo or its aggravation dividete or scegliete, not solo"),
    # the standard rules (aggravations=declared): dividete is the declaration of a won solissimo, not a bid
    ("contract: dividete\nsoloist: 1\nauction: pass dividete", 5, "auction: call 2 'dividete' by seat 1: dividete is "
     "not a bid under aggravations=declared; win the auction with solissimo, then aggravate it"),
    # aggravations=bids: dividete is a bid, so a won solissimo stays solissimo
    ("contract: dividete\nsoloist: 0\nrules: aggravations=bids\nauction: solissimo pass pass", 6,
     "auction: the auction ended with solissimo by seat 0, so the contract is solissimo, not dividete"),
]


@pytest.mark.parametrize("text,line,message", BAD, ids=[m[9:50] for _, _, m in BAD])
def test_an_auction_that_does_not_give_the_record_is_an_error_at_its_line(text: str, line: int, message: str) -> None:
    records, errors = check_deal_text(DEAL + text, "x.deal")
    assert records == [] and [str(e) for e in errors] == [f"x.deal:{line}: {message}"]
    assert "\n" not in str(errors[0])
    with pytest.raises(DealFileError):
        parse_deal_text(DEAL + text, "x.deal")


def test_the_declared_aggravations_follow_a_won_solissimo() -> None:
    for contract in ("solissimo", "dividete", "scegliete"):
        assert one(DEAL + f"contract: {contract}\nsoloist: 1\nauction: pass solissimo").contract == contract
    assert one(DEAL + "contract: dividete\nsoloist: 1\nrules: aggravations=bids\nauction: pass dividete pass").auction \
        == ("pass", "dividete", "pass")


def test_a_record_made_in_memory_names_the_auction_key() -> None:
    rec = one(DEAL + "contract: solo\nsoloist: 1").with_(path=None, key_lines=None)
    with pytest.raises(RecordError) as info:
        rec.with_(auction=("solo", "chiamo"))
    assert info.value.key == "auction"
    with pytest.raises(RecordError, match=r"^auction 'pass solo pass': give the calls as a tuple of strings"):
        rec.with_(auction="pass solo pass")
    good = rec.with_(auction=[" Pass", "SOLO ", "pass"])
    assert good.auction == ("pass", "solo", "pass")
    assert good.with_(played=()).auction == good.auction  # a copy keeps it
    with pytest.raises(RecordError, match="^auction: the auction ended with solo by seat 1, so the contract is solo, not chiamo$"):
        good.with_(contract="chiamo")  # and checks it again
    with pytest.raises(RecordError, match=r"^auction: the auction is not over \(seat 0 to speak\)$"):
        rec.with_(auction=("chiamo", "solo", "pass"), rules=Rules(auction="open"))


def test_a_seat_view_of_a_record_has_the_records_calls() -> None:
    rec = one(DEAL + "contract: scegliete\nsoloist: 1\nauction: chiamo solissimo\ntakes: 0=RB,4B 2=3C,FC")
    for seat in range(3):
        view = seat_view(rec, seat)
        assert view.calls == ("chiamo", "solissimo") and view.contract == "scegliete"
        [back], errors = check_entries_text(format_view(view), "v.deal")
        assert errors == [] and back == view
    assert seat_view(rec.with_(auction=()), 0).calls == ("pass", "solissimo")  # the plainest auction


def test_check_view_prints_the_records_calls(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "a.deal"
    path.write_text(DEAL + "contract: solo\nsoloist: 1\nrules: auction=open\nauction: chiamo solo pass pass\n", encoding="utf-8")
    code, out, err = run(["check", str(path)], capsys)
    assert code == 0 and err == ""
    code, out, err = run(["check", "--view", "2", str(path)], capsys)
    assert code == 0 and "auction: chiamo solo pass pass\n" in out
    code, out, err = run(["check", "--json", str(path)], capsys)
    assert code == 0 and json.loads(out.splitlines()[0])["auction"] == ["chiamo", "solo", "pass", "pass"]


def test_the_auction_docs_deal_format_shows_is_read_and_its_errors_are_the_checks() -> None:
    page = (Path(__file__).resolve().parents[2] / "docs" / "deal-format.md").read_text(encoding="utf-8")
    section = page.split("### The auction of a record")[1].split("### ")[0]
    example, errors = section.split("```")[1], section.split("```")[3]
    assert one(example).auction == ("pass", "chiamo", "solissimo")
    shown = [line.split(": ", 1)[1] for line in errors.strip().splitlines()]
    assert len(shown) == 3 and set(shown) <= {message for _, _, message in BAD}, shown
