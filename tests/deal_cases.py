"""Deal-file texts shared by the tests: a good record, its variants, and every malformation
with the line and message it must give (tests/records/test_dealfile.py, tests/cli/test_cli.py)."""

from __future__ import annotations

GOOD = """\
# a solo for seat 0
name: good
hands: 32AR.32AR.3A.54 CF76.CF76.2R.A6 54.54.CF765.RCF
monte: -.-.4.327
contract: solo
soloist: 0
discards: 4C 7D 5D 4D
played: 3B 7B 4B
"""
CHIAMO = GOOD.replace("contract: solo", "contract: chiamo").replace("discards: 4C 7D 5D 4D", "call: AD")
# Two quick tables (tests/table): the top three cards of every suit with seat 0, then with seat 1
# (examples/table.deal and its turn).
TOP_THREE = """name: seat 0 holds the top three of every suit
hands: 32A.32A.32A.32A RCF7.RCF7.65.65 654.654.RCF7.RC
monte: -.-.4.F74
contract: solissimo
soloist: 0

name: seat 1 holds the top three of every suit
hands: RCF7.RCF7.65.65 32A.32A.32A.32A 654.654.RCF7.RC
monte: -.-.4.F74
contract: solissimo
soloist: 1
"""
DIVIDETE = GOOD.replace("contract: solo", "contract: dividete").replace("discards: 4C 7D 5D 4D", "takes: 1=4C,3D 2=2D,7D")


def edit(text: str, line: int, new: str | None) -> str:
    """``text`` with its line ``line`` (1-based) replaced by ``new`` (or removed when None)."""
    lines = text.splitlines()
    if new is None:
        del lines[line - 1]
    else:
        lines[line - 1] = new
    return "\n".join(lines) + "\n"


def insert(text: str, line: int, new: str) -> str:
    lines = text.splitlines()
    lines.insert(line - 1, new)
    return "\n".join(lines) + "\n"


MALFORMED = [
    # (text, line, message fragment)
    (edit(GOOD, 3, "hands 32AR.32AR.3A.54"), 3, "expected 'key: value', got 'hands 32AR.32AR.3A.54'"),
    (edit(GOOD, 5, "contrat: solo"), 5, "unknown key 'contrat' (known keys: name, hands, monte, contract,"),
    (edit(GOOD, 5, "Contract: solo"), 5, "unknown key 'Contract' (keys are lowercase: contract)"),
    (insert(GOOD, 8, "contract: chiamo"), 8, "duplicate key 'contract' (first given on line 5)"),
    (edit(GOOD, 6, None), 2, "record has no 'soloist' line (required: hands, monte, contract, soloist)"),
    (edit(GOOD, 2, "name:   # only a comment"), 2, "name: no value given"),
    (edit(GOOD, 3, "hands: 32AR.32AR.3A.5X CF76.CF76.2R.A6 54.54.CF765.RCF"), 3,
     "hands: seat 0: hand '32AR.32AR.3A.5X': unknown rank 'X'"),
    (edit(GOOD, 3, "hands: 32AR.32AR.3A.54 CF76.CF76.2R.A6"), 3, "hands: 2 hands given, need 3"),
    (edit(GOOD, 3, "hands: 32AR.32AR.3A.5 CF76.CF76.2R.A6 54.54.CF765.RCF"), 3,
     "seat 0 holds 11 cards (32AR.32AR.3A.5), each hand needs 12; 4D dealt nowhere"),
    (edit(GOOD, 4, "monte: -.-.4.32"), 4, "the monte holds 3 cards (-.-.4.32), it needs 4; 7D dealt nowhere"),
    (edit(GOOD, 3, "hands: 32AR.32AR.3A.54 CF75.CF76.2R.A6 54.54.CF765.RCF"), 3,
     "5B is dealt twice: in seat 1's hand and in seat 2's hand"),
    (edit(GOOD, 3, "hands: 32AR.32AR.3A.54 CF76.CF76.2R.A6 54.54.CF765.R3F"), 4,
     "3D is dealt twice: in seat 2's hand and in the monte"),
    (edit(GOOD, 4, "monte: 4B 5B"), 4, "5B is dealt twice: in seat 2's hand and in the monte"),
    (edit(GOOD, 5, "contract: grand"), 5, "unknown contract 'grand'"),
    (edit(GOOD, 6, "soloist: 3"), 6, "soloist '3': must be seat 0, 1 or 2"),
    (insert(GOOD, 7, "leader: north"), 7, "leader 'north': must be seat 0, 1 or 2"),
    (insert(GOOD, 7, "rules: stramazo=off"), 7, "rules: unknown rule 'stramazo' (known: auction"),
    (insert(GOOD, 7, "rules: stramazzo=maybe"), 7, "rules: rule stramazzo: unknown value 'maybe' (allowed: on, off)"),
    (edit(GOOD, 8, "played: 7B"), 8,
     "played card 1 (7B, trick 1): seat 0 does not hold it, seat 1 holds it (seat 0 holds 32AR.32AR.3A.32)"),
    (edit(GOOD, 8, "played: 3B 6S"), 8, "played card 2 (6S, trick 1): seat 1 must follow Bastoni (led 3B) with CB FB 7B 6B"),
    (edit(GOOD, 8, "played: 3B 7B 4B 3B"), 8, "played card 4 (3B, trick 2): seat 0 does not hold it, it is already played card 1"),
    (edit(GOOD, 8, "played: 4D"), 8, "played card 1 (4D, trick 1): seat 0 does not hold it, it is in the monte"),
    (edit(GOOD, 8, "played: " + " ".join(["3B"] * 37)), 8, "played: 37 cards, but a deal has only 36"),
    (edit(GOOD, 8, "played: 3B 7X"), 8, "played: card '7X': unknown suit 'X'"),
    (edit(GOOD, 7, "discards: 4C 7D 5D AD"), 7, "solo: the soloist cannot discard AD: not in their hand or the monte"),
    (edit(GOOD, 7, "discards: 4C 7D 5D"), 7, "solo: the soloist discards exactly 4 cards, not 3"),
    (edit(GOOD, 7, None), 7, "played cards given, but the solo exchange is incomplete, so the hands in play are unknown; "
     "give the exchange (discards) or remove played"),
    (insert(GOOD, 7, "call: AD"), 7, "solo has no call (its exchange gives discards)"),
    (edit(GOOD, 7, "discards: 1=4C,7D,5D,4D"), 7, "solo: only the soloist (seat 0) discards, not seat 1"),
    (edit(GOOD, 5, "contract: solissimo"), 7, "solissimo has no exchange: remove discards"),
    (edit(CHIAMO, 7, "call: 3B"), 7, "chiamo: the soloist (seat 0) holds 3B; call a card they do not hold"),
    (edit(CHIAMO, 7, "call: AD 3D"), 7, "call: give one card, not 2"),
    (edit(CHIAMO, 7, "call: 3D\nreturn: 4D"), 8, "chiamo: the called card 3D was in the monte, so nothing is returned"),
    (edit(CHIAMO, 7, "call: AD\nreturn: AD"), 8, "chiamo: the soloist may not return the called card AD"),
    (edit(CHIAMO, 7, "call: AD\nreturn: 4D\ndiscards: RB 4C 7D RD"), 9,
     "chiamo: the soloist cannot discard RD: not in their hand, the monte or the call"),
    (edit(CHIAMO, 7, "return: 4D"), 7, "chiamo: return given without the call"),
    (CHIAMO, 8, "give the exchange (return, discards) or remove played"),
    (edit(DIVIDETE, 7, "takes: 1=4C,3D,2D 2=7D"), 7, "dividete: each defender takes exactly 2 monte cards; seat 1 takes 3"),
    (edit(DIVIDETE, 7, "takes: 1=4C,AD 2=2D,7D"), 7, "dividete: seat 1 cannot take AD: not in the monte (-.-.4.327)"),
    (edit(DIVIDETE, 7, "takes: 1=4C,3D 1=2D,7D"), 7, "takes: seat 1 given twice"),
    (edit(DIVIDETE, 7, "takes: 1=4C,3D 3=2D,7D"), 7, "takes: '3' is not a seat (use 0, 1 or 2 before '=')"),
    (edit(DIVIDETE, 7, "takes: 4C 3D 2D 7D"), 7, "takes: expected seat=cards items like '1=7S,4D 2=-', got '4C 3D 2D 7D'"),
    (edit(DIVIDETE, 7, "takes: 1=4C,3D 2="), 7, "takes: no cards after '2=' (write '2=-' for none)"),
    (insert(DIVIDETE, 8, "discards: 7B 4C 5B 4B"), 8, "discards: in dividete the defenders discard; give them per seat, "
     "e.g. 'discards: 1=7S,4D 2=5C,6C'"),
    (insert(DIVIDETE, 8, "discards: 1=7B,4C 2=5B,4S,4B"), 8, "dividete: seat 2 took 2 and must discard as many, not 3"),
    (edit(DIVIDETE, 7, "discards: 1=7B,4C 2=5B,4B"), 7, "dividete: the defenders' discards are given without their takes"),
    (edit(DIVIDETE.replace("dividete", "scegliete"), 7, "takes: 1=4C,3D 2=2D"), 7,
     "scegliete: the defenders share out the whole monte; nobody takes 7D"),
]
