"""Property: the deal-file reader turns any bytes into records or a CalasolveError, never another exception."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from calasolve.types.record import format_deal_text
from calasolve.records.dealfile import parse_deal_bytes, parse_deal_text
from calasolve.game.errors import CalasolveError

EXAMPLES = [p.read_bytes() for p in sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.deal"))]
KEYS = [b"hands:", b"monte:", b"contract:", b"soloist:", b"leader:", b"played:", b"rules:", b"name:", b"auction:", b"call:",
        b"returned:", b"discards:", b"takes:", b"\n", b"\r", b"#", b"-", b".", b"3B", b"\xff", b"\xef\xbb\xbf"]


@st.composite
def edited_examples(draw: st.DrawFn) -> bytes:
    """An example file with a few slices replaced by bytes or by deal-file tokens."""
    data = bytearray(draw(st.sampled_from(EXAMPLES)))
    for _ in range(draw(st.integers(1, 5))):
        i = draw(st.integers(0, len(data)))
        j = draw(st.integers(i, min(len(data), i + 30)))
        data[i:j] = draw(st.one_of(st.binary(max_size=8), st.sampled_from(KEYS)))
    return bytes(data)


def read(data: bytes) -> None:
    try:
        records = parse_deal_bytes(data, "prop.deal")
    except CalasolveError as err:
        assert str(err).startswith("prop.deal")  # the message names the file
        return
    assert records
    assert parse_deal_text(format_deal_text(records)) == records  # what is read writes back


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400))
def test_any_bytes_give_records_or_the_projects_error(data: bytes) -> None:
    read(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edited_examples())
def test_edited_deal_files_give_records_or_the_projects_error(data: bytes) -> None:
    read(data)
