"""The deal file: parsing, writing, round trips and every malformation's line and message."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from deal_cases import CHIAMO, GOOD, MALFORMED, edit

from calasolve.game.cards import hand_name, mask_of, parse_card, parse_cards, parse_hand
from calasolve.types.record import Record, format_deal_text, format_record
from calasolve.records.dealfile import parse_deal_text, read_deal_file
from calasolve.game.errors import CalasolveError, DealFileError, ExchangeError, RecordError
from calasolve.game.exchange import Exchange
from calasolve.game.state import CONTRACTS, PlayState
from calasolve.game.rules import Rules

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "example.deal"

# The deal of test_exchange.py: seat 0 is strong, the monte is 4C 3D 2D 7D.
HANDS = (parse_hand("32AR.32AR.3A.54"), parse_hand("CF76.CF76.2R.A6"), parse_hand("54.54.CF765.RCF"))
MONTE = parse_hand("-.-.4.327")
# The example of the deal format (README.md and docs/deal-format.md).
FORMAT_HANDS = (parse_hand("3F5.32AF4.2.3F4"), parse_hand("6.C65.AC765.2A5"), parse_hand("2AC7.R7.R4.RC76"))
FORMAT_MONTE = parse_hand("R4.-.3F.-")


def masks(**by_seat: str) -> tuple[int, int, int]:
    """``masks(s1="4C,3D")`` -> one mask per seat."""
    out = [0, 0, 0]
    for key, cards in by_seat.items():
        out[int(key[1])] = mask_of(parse_cards(cards))
    return out[0], out[1], out[2]


def one(text: str) -> Record:
    [rec] = parse_deal_text(text)
    return rec


# -- round trips ----------------------------------------------------------------

ROUND_TRIP = [
    Record(FORMAT_HANDS, FORMAT_MONTE, "solissimo", 0, leader=0, name="example 1"),
    Record(FORMAT_HANDS, FORMAT_MONTE, "solissimo", 2, rules=Rules(first_lead="eldest", stramazzo="off"),
           played=tuple(parse_cards("3S 5S RS 3B"))),
    Record(HANDS, MONTE, "solo", 0, name="solo: every field", leader=1, rules=Rules(payment="plus"),
           exchange=Exchange(discards=masks(s0="4C,7D,5D,4D")), played=tuple(parse_cards("2C 5C 3C"))),
    Record(HANDS, MONTE, "solo", 2),
    Record(HANDS, MONTE, "chiamo", 0, exchange=Exchange(call=parse_card("AD"), returned=parse_card("4D"),
                                                        discards=masks(s0="RB,4C,7D,5D")),
           played=tuple(parse_cards("3B 7B"))),
    Record(HANDS, MONTE, "chiamo", 0, exchange=Exchange(call=parse_card("3D"), discards=masks(s0="4C,7D,5D,4D"))),
    Record(HANDS, MONTE, "chiamo", 0, exchange=Exchange(call=parse_card("AD"))),
    Record(HANDS, MONTE, "chiamo", 0, exchange=Exchange(call=parse_card("AD"), returned=parse_card("4C"))),
    Record(HANDS, MONTE, "dividete", 0, exchange=Exchange(takes=masks(s1="4C,3D", s2="2D,7D"),
                                                          discards=masks(s1="4C,7B", s2="5B,4B"))),
    Record(HANDS, MONTE, "dividete", 0, exchange=Exchange(takes=masks(s1="4C,3D", s2="2D,7D"))),
    Record(HANDS, MONTE, "scegliete", 0, exchange=Exchange(takes=masks(s1="4C,3D,2D,7D"), discards=masks(s1="4C,7B,6B,7D")),
           played=tuple(parse_cards("3B FB"))),
    Record(HANDS, MONTE, "scegliete", 1, exchange=Exchange(takes=masks(s2="4C,3D,2D", s0="7D"),
                                                           discards=masks(s2="5B,4B,5S", s0="4D"))),
]


@pytest.mark.parametrize("rec", ROUND_TRIP, ids=lambda r: f"{r.contract}-{r.soloist}")
def test_round_trip(rec: Record):
    text = format_record(rec)
    back = one(text)
    assert back == rec
    assert format_record(back) == text
    assert back.to_dict() == rec.to_dict()
    json.dumps(rec.to_dict())


def test_round_trip_covers_every_contract_and_field():
    assert {r.contract for r in ROUND_TRIP} == set(CONTRACTS)
    text = format_deal_text(ROUND_TRIP)
    for key in ("name", "hands", "monte", "contract", "soloist", "leader", "rules", "call", "return", "takes", "discards", "played"):
        assert f"\n{key}: " in "\n" + text
    records = parse_deal_text(text, path="all.deal")
    assert records == ROUND_TRIP
    assert [r.index for r in records] == list(range(1, len(ROUND_TRIP) + 1))
    assert records[1].line == text.splitlines().index("hands: " + " ".join(hand_name(h) for h in FORMAT_HANDS), 6) + 1


def test_non_canonical_input_is_written_canonically():
    messy = """
       # leading comment, indented

    name:   messy   example     # trailing comment
    hands: 3j5.32aj4.2.3j4   6.q65.aq765.2a5 2aq7.k7.k4.kq76
    monte: kb 4b 3♥ J♥
    contract:  Solissimo
    soloist:0
    rules: Stramazzo = OFF  payment=Plus
    played: 3♠ 5s    K♠
    """
    rec = one(messy)
    assert format_record(rec) == "\n".join([
        "name: messy   example",
        "hands: 3F5.32AF4.2.3F4 6.C65.AC765.2A5 2AC7.R7.R4.RC76",
        "monte: R4.-.3F.-",
        "contract: solissimo",
        "soloist: 0",
        "rules: stramazzo=off payment=plus",
        "played: 3S 5S RS",
    ])
    assert rec.line == 4 and rec.leader is None


def test_exchange_fields_accept_both_notations():
    base = "hands: 32AR.32AR.3A.54 CF76.CF76.2R.A6 54.54.CF765.RCF\nmonte: -.-.4.327\nsoloist: 0\n"
    solo = one(base + "contract: solo\ndiscards: 0=4c,7d,5d,4d")
    assert format_record(solo).endswith("discards: 4C 7D 5D 4D")
    div = one(base + "contract: dividete\ntakes: 2 = 2D, 7D   1=-.-.4.3\ndiscards: 1=4C,7B 2=54.-.-.-")
    assert format_record(div).splitlines()[-2:] == ["takes: 1=4C,3D 2=2D,7D", "discards: 1=7B,4C 2=5B,4B"]
    sc = one(base + "contract: scegliete\ntakes: 1=4C,3D,2D,7D\ndiscards: 1=4C,7B,6B,7D")
    assert format_record(sc).splitlines()[-2:] == ["takes: 1=4C,3D,2D,7D 2=-", "discards: 1=7B,6B,4C,7D 2=-"]


# -- malformations: exact line and message ----------------------------------------


@pytest.mark.parametrize("text, line, fragment", MALFORMED, ids=[f"{i}-{m[2][:30]}" for i, m in enumerate(MALFORMED)])
def test_malformed(text: str, line: int, fragment: str):
    with pytest.raises(DealFileError) as info:
        parse_deal_text(text, path="bad.deal")
    err = info.value
    assert (err.path, err.line) == ("bad.deal", line), str(err)
    assert fragment in err.message, str(err)
    assert str(err).startswith(f"bad.deal:{line}: ") and "\n" not in str(err)


def test_malformations_are_many_and_distinct():
    assert len({m[2] for m in MALFORMED}) == len(MALFORMED) >= 15


def test_error_in_a_later_record_names_its_line():
    text = GOOD + "\n\n# second\n" + edit(GOOD, 6, "soloist: 5").replace("# a solo for seat 0\n", "")
    with pytest.raises(DealFileError) as info:
        parse_deal_text(text, path="two.deal")
    # GOOD is 8 lines, then 2 blank lines and a comment: the second record's soloist line is 8 + 3 + 5
    assert info.value.line == 16 and "soloist '5'" in str(info.value)


@pytest.mark.parametrize("text", ["", "\n\n   \n", "# only a comment\n\n# another\n"])
def test_no_records(text: str):
    with pytest.raises(DealFileError, match=r"^empty\.deal: no deal records \(the file is empty or holds only comments\)$"):
        parse_deal_text(text, path="empty.deal")


def test_comments_and_blank_lines():
    text = "\n\n" + GOOD.replace("contract: solo", "# between fields\ncontract: solo  # the contract") + "\n\n\n" + GOOD + "\n"
    first, second = parse_deal_text(text)
    assert first == second
    assert (first.line, second.line) == (4, 16)


# -- reading files ------------------------------------------------------------------

def test_read_deal_file(tmp_path: Path):
    path = tmp_path / "good.deal"
    path.write_text("\ufeff" + GOOD, encoding="utf-8")
    [rec] = read_deal_file(str(path))
    assert rec.path == str(path) and rec.line == 2 and rec.name == "good"


def test_unreadable_files(tmp_path: Path):
    with pytest.raises(DealFileError, match="nope.deal: cannot read the file"):
        read_deal_file(str(tmp_path / "nope.deal"))
    with pytest.raises(DealFileError, match="cannot read the file"):
        read_deal_file(str(tmp_path))
    latin = tmp_path / "latin.deal"
    latin.write_bytes(GOOD.encode() + b"name: caf\xe9\n")
    with pytest.raises(DealFileError) as info:
        read_deal_file(str(latin))
    assert info.value.line == 9 and "not UTF-8" in info.value.message
    latin.write_bytes(GOOD.replace("\n", "\r").encode() + b"name: caf\xe9\r")  # old Mac line ends
    with pytest.raises(DealFileError) as info:
        read_deal_file(str(latin))
    assert info.value.line == 9


def test_only_newlines_end_lines():
    """A line ends at \\n, \\r\\n or \\r: other characters str.splitlines breaks at
    (a form feed, U+2028 ...) neither shift the line numbers nor end a record."""
    assert parse_deal_text(GOOD.replace("\n", "\r\n")) == parse_deal_text(GOOD.replace("\n", "\r")) == parse_deal_text(GOOD)
    with pytest.raises(DealFileError) as info:
        parse_deal_text(edit(edit(GOOD, 6, "soloist: 9"), 1, "# a form\ffeed"))
    assert info.value.line == 6 and "soloist '9'" in info.value.message
    with pytest.raises(DealFileError) as info:
        parse_deal_text(edit(GOOD, 2, "name: caf\u00e9\u2028bar"))
    assert info.value.line == 2 and "must be one line" in info.value.message


def test_example_file():
    records = read_deal_file(str(EXAMPLE))
    assert 4 <= len(records) <= 6
    assert {r.contract for r in records} == set(CONTRACTS)
    for rec in records:
        assert not rec.needs_exchange, rec.where()
        rec.state()
    assert any(r.played and len(r.played) % 3 for r in records)  # one record stops mid-trick
    assert parse_deal_text(format_deal_text(records)) == records
    # the deal format's example (README.md, docs/deal-format.md) is the first record, as printed there
    assert records[0] == ROUND_TRIP[0]


# -- the Record API ------------------------------------------------------------------

def test_state_replays_played():
    rec = one(edit(GOOD, 8, "played: 3B 7B 4B 3S 6S 4S AC"))
    st = rec.state()
    ref = PlayState(*rec.after_exchange(), soloist=0, leader=0)
    for card in parse_cards("3B 7B 4B 3S 6S 4S AC"):
        ref.play(card)
    assert st.hands == ref.hands and st.trick == ref.trick and st.captured == ref.captured
    assert st.history == list(rec.played)
    assert [t.winner for t in st.tricks] == [0, 0] and st.captured[0] == 2
    assert st.to_move == 1 and st.trick == [parse_card("AC")]
    assert hand_name(st.hands[0]) == "2AR.2AR.3.32"
    start = rec.start_state()
    assert start.to_move == 0 and start.history == [] and hand_name(start.monte) == "-.-.4.754"


def test_state_after_chiamo_exchange():
    text = edit(CHIAMO, 7, "call: AD\nreturn: 4D\ndiscards: RB 4C 7D 5D")
    text = text.replace("played: 3B 7B 4B", "played: 3B 7B 4B 3D 6D FD")
    st = one(text).state()
    # seat 1 got 4D back for AD, so follows Denari with 6D; 4D stays
    assert hand_name(st.hands[1]) == "CF6.CF76.2R.4"
    assert st.tricks[1].winner == 0


def test_first_leader_and_needs_exchange():
    base = Record(FORMAT_HANDS, FORMAT_MONTE, "solissimo", 2)
    assert base.first_leader == 2
    assert base.with_(rules=Rules(first_lead="eldest")).first_leader == 0
    assert base.with_(leader=1).first_leader == 1
    assert not base.needs_exchange
    chiamo = base.with_(contract="chiamo")
    assert chiamo.first_leader == 0 and chiamo.needs_exchange
    assert base.with_(contract="Scegliete").contract == "scegliete"


def test_after_exchange_incomplete_names_the_record():
    [rec] = parse_deal_text(edit(CHIAMO, 8, None), path="x.deal")
    assert rec.needs_exchange
    with pytest.raises(ExchangeError, match=r"^x\.deal:2: chiamo: the exchange is incomplete \(missing: return, discards\)$"):
        rec.start_state()
    with pytest.raises(ExchangeError, match=r"^record 1: "):
        rec.with_(path=None).after_exchange()


def test_played_on_is_the_record_of_the_cards_played_from_its_state():
    rec = one(edit(GOOD, 8, "played: 3B 7B 4B"))
    st = rec.state()
    for card in parse_cards("3S 6S 4S AC"):
        st.play(card)
    assert rec.played_on(st) == rec.with_(played=tuple(st.history)) and rec.played_on(rec.state()) == rec
    with pytest.raises(CalasolveError, match="not one of this record's deal"):
        rec.played_on(rec.with_(played=()).start_state())


def test_after_exchange_is_kept_and_the_record_is_still_its_fields():
    import copy
    import pickle
    text = edit(CHIAMO, 7, "call: AD\nreturn: 4D\ndiscards: RB 4C 7D 5D")
    first, fresh = one(text), one(text)
    assert first.after_exchange() is first.after_exchange()  # worked out once
    assert first == fresh and hash(first) == hash(fresh) and repr(first) == repr(fresh)
    for twin in (pickle.loads(pickle.dumps(first)), copy.copy(first), first.with_(name="x").with_(name=first.name)):
        assert twin == first and twin.after_exchange() == fresh.after_exchange()
    first.after_exchange()
    with pytest.raises(ExchangeError, match="incomplete"):  # a changed record works its hands out again
        first.with_(played=()).with_(exchange=first.exchange.__class__()).after_exchange()


def test_python_records_are_checked():
    """A record made in memory that breaks a rule is a RecordError naming the key; read from a file, a DealFileError."""
    with pytest.raises(RecordError, match=r"^seat 2 holds 0 cards") as info:
        Record((HANDS[0], HANDS[1], 0), MONTE, "solo", 0)
    assert info.value.key == "hands" and not isinstance(info.value, DealFileError)
    rec = Record(HANDS, MONTE, "solo", 0, exchange=Exchange(discards=masks(s0="4C,7D,5D,4D")))
    with pytest.raises(RecordError, match="played card 1 \\(7B, trick 1\\): seat 0 does not hold it"):
        rec.with_(played=(parse_card("7B"),))
    with pytest.raises(RecordError, match="name 'a # b': must be one line without '#'"):
        rec.with_(name="a # b")
    with pytest.raises(RecordError, match="leader 3"):
        rec.with_(leader=3)
    with pytest.raises(DealFileError, match="^x.deal: leader 3"):
        rec.with_(path="x.deal").with_(leader=3)
    assert rec.with_(played=[parse_card("3B")]).played == (parse_card("3B"),)
    assert rec.with_(name="  padded ").name == "padded"
    assert hash(rec) == hash(rec.with_(path="elsewhere", line=9, index=4))


def test_to_dict():
    rec = one(edit(CHIAMO, 7, "call: AD\nreturn: 4D\ndiscards: RB 4C 7D 5D\nrules: stramazzo=off"))
    assert rec.to_dict() == {
        "name": "good",
        "hands": ["32AR.32AR.3A.54", "CF76.CF76.2R.A6", "54.54.CF765.RCF"],
        "monte": "-.-.4.327",
        "contract": "chiamo",
        "soloist": 0,
        "leader": None,
        "first_leader": 0,
        "played": ["3B", "7B", "4B"],
        "rules": {"stramazzo": "off"},
        "auction": [],
        "exchange": {"call": "AD", "return": "4D", "discards": {"0": "R.-.4.75"}},
    }


# -- every error of a file, with hints ---------------------------------------------

def test_check_reports_every_error_in_line_order() -> None:
    from calasolve.records.dealfile import check_deal_text

    text = "\n\n".join([
        GOOD,
        edit(GOOD, 5, "Contract: solo"),
        edit(GOOD, 6, "soloist: 3"),
        GOOD,
        edit(GOOD, 8, "played: 7B"),
    ])
    records, errors = check_deal_text(text, path="bad.deal")
    assert len(records) == 2
    assert [e.message.split(":")[0] for e in errors] == ["unknown key 'Contract' (keys are lowercase", "soloist '3'",
                                                         "played card 1 (7B, trick 1)"]
    assert [e.line for e in errors] == sorted(e.line for e in errors)
    with pytest.raises(DealFileError) as info:
        parse_deal_text(text, path="bad.deal")
    assert info.value.message == errors[0].message  # the first-error API is unchanged


def test_missing_blank_line_between_records_is_hinted() -> None:
    from calasolve.records.dealfile import check_deal_text

    second = edit(GOOD, 2, "name: second").replace("played: 3B 7B 4B", "played: 3B 7B")
    text = GOOD.strip() + "\n" + second.split("\n", 1)[1]
    records, errors = check_deal_text(text, path="bad.deal")
    [err] = errors
    assert err.line == 9 and "duplicate key 'name'" in err.message
    assert "records are separated by a blank line" in err.message
    assert [len(r.played) for r in records] == [3, 2]  # both records are still checked


def test_wrong_suit_order_is_hinted() -> None:
    # seat 1 wrote Denari before Coppe
    assert not check_deal_text_of(GOOD)[1]
    swapped = GOOD.replace(" CF76.CF76.2R.A6 ", " CF76.CF76.A6.2R ")
    _, errors = check_deal_text_of(swapped)
    [err] = errors
    assert "is dealt twice" in err.message
    assert "seat 1's hand reads right in the suit order B.S.D.C: hands are written B.S.C.D" in err.message


def check_deal_text_of(text: str):  # type: ignore[no-untyped-def]
    from calasolve.records.dealfile import check_deal_text

    return check_deal_text(text, path="bad.deal")
