"""Numbers in move, position and record text are ASCII digits: a character that
``str.isdigit`` takes and ``int`` refuses (the superscript two, '²') reached ``int`` in four
readers and failed as an internal error. Each is now the reader's own typed refusal."""

from __future__ import annotations

import pytest

from engine import records
from engine.errors import BadInput, EngineError, Reason
from engine.game import new_game
from engine.melds import parse_label
from engine.moves import parse_move
from engine.notation import export_position, import_position
from tests.positions import position

SUP2 = "\u00b2"


def test_a_record_move_line_with_a_superscript_seat_is_bad_notation() -> None:
    text = f"canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\n{SUP2} draw\n"
    with pytest.raises(BadInput) as info:
        records.replay(text)
    assert info.value.reason is Reason.BAD_NOTATION


@pytest.mark.parametrize("text", [f"layoff {SUP2}:0 5H", f"layoff 0:{SUP2} 5H",
                                  f"add K#{SUP2} KS", f"merge K K#{SUP2}"])
def test_a_move_with_a_superscript_number_is_bad_move_syntax(text: str) -> None:
    with pytest.raises(EngineError) as info:
        parse_move(text)
    assert info.value.reason is Reason.BAD_MOVE_SYNTAX


def test_a_meld_label_with_a_superscript_ordinal_is_bad_move_syntax() -> None:
    with pytest.raises(EngineError) as info:
        parse_label(f"K#{SUP2}")
    assert info.value.reason is Reason.BAD_MOVE_SYNTAX


def test_a_position_meld_owner_in_superscript_is_bad_notation() -> None:
    """It was refused already, but with Python's own ``int()`` text as the message."""
    text = export_position(new_game("classic", 2, seed=1)).replace(
        "melds0: -", f"melds0: K@{SUP2}: KS KH KD")
    with pytest.raises(BadInput) as info:
        import_position(text)
    assert info.value.reason is Reason.BAD_NOTATION
    assert "invalid literal" not in info.value.message


# Numbers the notation never writes: a sign, digit groups, spaces inside, other scripts,
# leading zeros and a negative zero ('02', '-0': int read them as 2 and 0).
NOT_WRITTEN = ["+2", "0_2", "\u0662", "2\u00a02", "-+2", "--2", "02", "00", "-0", "-02"]


@pytest.mark.parametrize("number", NOT_WRITTEN)
def test_a_record_header_number_not_as_written_is_bad_notation(number: str) -> None:
    """``int`` read them all ('٢' as 2, '0_2' as 2), so two texts stood for one record."""
    text = f"canasta-record 1\nvariant: classic\nplayers: {number}\nseed: 1\nhand 0\n"
    with pytest.raises(BadInput) as info:
        records.parse(text)
    assert info.value.reason is Reason.BAD_NOTATION
    assert "players must be a number" in info.value.message


@pytest.mark.parametrize("number", NOT_WRITTEN)
@pytest.mark.parametrize("line", ["scores: {n} 0", "hand: {n}", "flags: 0 {n}"])
def test_a_position_number_not_as_written_is_bad_notation(number: str, line: str) -> None:
    text = export_position(new_game("classic", 2, seed=1))
    key = line.split(":")[0]
    (old,) = [x for x in text.splitlines() if x.startswith(f"{key}:")]
    with pytest.raises(BadInput) as info:
        import_position(text.replace(old, line.format(n=number)))
    assert info.value.reason is Reason.BAD_NOTATION


def test_negative_numbers_as_written_still_read() -> None:
    """The notation writes a negative number with '-' (a position's scores): it still
    reads, and round-trips."""
    text = export_position(new_game("classic", 2, seed=1)).replace("scores: 0 0",
                                                                   "scores: -120 35")
    assert export_position(import_position(text)) == text


@pytest.mark.parametrize("seat", ["00", "01", "-0"])
def test_a_record_move_seat_not_as_written_is_bad_notation(seat: str) -> None:
    """A move line's seat is a number as written too: '01 draw' was read as seat 1's."""
    text = f"canasta-record 1\nvariant: classic\nplayers: 2\nseed: 1\nhand 0\n{seat} draw\n"
    with pytest.raises(BadInput) as info:
        records.parse(text)
    assert info.value.reason is Reason.BAD_NOTATION


@pytest.mark.parametrize("owner", ["00", "+0", "-0", "-1", "\u0660"])
def test_a_position_meld_owner_not_as_written_is_bad_notation(owner: str) -> None:
    """A meld's seat is read as written: '00' and '+0' were read as seat 0 (``int``)."""
    text = export_position(position("classic", phase="draw", melds={0: "K@0: KS KH KD"},
                                    hands={0: "4C 6D 7S 8H TS JC QD 5C 5S"}))
    assert "K@0: KS KH KD" in text and export_position(import_position(text)) == text
    with pytest.raises(BadInput) as info:
        import_position(text.replace("K@0:", f"K@{owner}:"))
    assert info.value.reason is Reason.BAD_NOTATION
    assert "a meld is 'RANK@SEAT: cards'" in info.value.message
