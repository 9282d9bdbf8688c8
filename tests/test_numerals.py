"""Numbers in move, position and record text are ASCII digits: a character that
``str.isdigit`` takes and ``int`` refuses (the superscript two, '²') reached ``int`` in four
readers and failed as an internal error. Each is now the reader's own typed refusal."""

from __future__ import annotations

import pytest

from engine import apply, legal_moves, records
from engine.errors import BadInput, EngineError, Reason
from engine.game import new_game
from engine.mayi.state import AnyState
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


# A May I? seat 2 may lay 9D off on seat 1's nines (``layoff 1:0 9D``); a Samba side with a
# second group of kings (``add K#2 JK``, ``merge K K#2``).
MAYI_LAYOFF = "\n".join([
    "mayi-position 1", "players: 4", "options: -", "hand: 0", "dealer: 3", "phase: meld",
    "turn: 2", "melds1: 9S 9H 9C | KS KD KC", "melds2: 5S 5H 5D | 8S 8H 8D", "hand0: *10",
    "hand1: *10", "hand2: 9D 2C 3C 4C JD", "hand3: *10", "pile: *5", "stock: *"]) + "\n"


def position_text(game: str) -> str:
    """The position of a listed move that names a number (``mayi`` or ``samba``)."""
    if game == "mayi":
        return MAYI_LAYOFF
    return export_position(position("samba", hands={0: "JK 9S 4C 6D"},
                                    melds={0: "K@0: KS KH KD KS | K@0: KD KC 2C"}))


# A listed move and texts of it with a number not as written: int read '01' as 1 and the
# parser stripped a tab inside 'SEAT:MELD', so each was another text of the listed move.
LISTED_TWINS = [
    ("mayi", "layoff 1:0 9D", "layoff 01:0 9D"),
    ("mayi", "layoff 1:0 9D", "layoff 1:00 9D"),
    ("mayi", "layoff 1:0 9D", "layoff 1:\t0 9D"),
    ("mayi", "layoff 1:0 9D", "layoff 1\t:0 9D"),
    ("samba", "add K#2 JK", "add K#02 JK"),
    ("samba", "merge K K#2", "merge K K#02"),
]


def listed_in(game: str, text: str) -> AnyState:
    """The game's position, where the move ``text`` is listed."""
    state = import_position(position_text(game))
    assert text in [str(m) for m in legal_moves(state)]
    return state


@pytest.mark.parametrize(("game", "listed", "twin"), LISTED_TWINS)
def test_a_listed_move_has_one_text(game: str, listed: str, twin: str) -> None:
    """A move's numbers are read as written, as positions and records read theirs: the
    twin was parsed as the listed move, so two texts stood for one move."""
    listed_in(game, listed)
    assert str(parse_move(listed)) == listed
    with pytest.raises(EngineError) as info:
        parse_move(twin)
    assert info.value.reason is Reason.BAD_MOVE_SYNTAX


@pytest.mark.parametrize(("game", "listed", "twin"), LISTED_TWINS)
def test_a_record_move_line_with_a_number_not_as_written_is_refused(game: str, listed: str,
                                                                     twin: str) -> None:
    """The twin of a listed move on a record's move line replayed as the listed move."""
    state = listed_in(game, listed)
    seat = state.turn.seat
    text = records.write(records.played(records.begin(state), seat, listed))
    assert f"\n{seat} {listed}\n" in text and records.replay(text) is not None
    with pytest.raises(EngineError) as info:
        records.replay(text.replace(f"\n{seat} {listed}\n", f"\n{seat} {twin}\n"))
    assert info.value.reason is Reason.BAD_MOVE_SYNTAX


def test_a_staged_move_number_not_as_written_is_bad_notation() -> None:
    """A position's staged move reads its numbers as written: 'add K#02 JK' was the
    position of 'add K#2 JK'."""
    state = apply(listed_in("samba", "add K#2 JK"), parse_move("add K#2 JK"))
    text = export_position(state)
    assert "staged: add K#2 JK\n" in text and export_position(import_position(text)) == text
    with pytest.raises(BadInput) as info:
        import_position(text.replace("staged: add K#2 JK", "staged: add K#02 JK"))
    assert info.value.reason is Reason.BAD_NOTATION


@pytest.mark.parametrize("number", NOT_WRITTEN)
@pytest.mark.parametrize("move", ["layoff {n}:0 9D", "layoff 1:{n} 9D", "add K#{n} JK",
                                  "add S:5-9#{n} 4S", "merge K K#{n}", "take on K#{n}",
                                  "take 9S 9C on 9#{n}"])
def test_a_move_number_not_as_written_is_bad_move_syntax(number: str, move: str) -> None:
    """Every number a move names: a lay-off's seat and meld, a meld label's ordinal."""
    with pytest.raises(EngineError) as info:
        parse_move(move.format(n=number))
    assert info.value.reason is Reason.BAD_MOVE_SYNTAX


@pytest.mark.parametrize("text", ["layoff 0:0 9D", "layoff 10:12 9D", "add K#2 JK",
                                  "add K#10 JK", "merge K#2 K#11", "take on S:5-9#3",
                                  "layoff 1:0\t 9D"])
def test_move_numbers_as_written_still_read(text: str) -> None:
    """As written, a number reads at any size (spaces around a word are spaces)."""
    assert str(parse_move(text)) == text.replace("\t", "").replace("  ", " ")


LONG = "1" * 5000  # more digits than int() reads (sys.get_int_max_str_digits, 4300)


@pytest.mark.parametrize("move", ["layoff {n}:0 9D", "layoff 1:{n} 9D", "add K#{n} JK"])
def test_a_move_number_longer_than_int_reads_is_bad_move_syntax(move: str) -> None:
    """``int`` refuses it with a ValueError, which left the move's parser as itself: an
    internal error over the API, where a move is the caller's text."""
    with pytest.raises(EngineError) as info:
        parse_move(move.format(n=LONG))
    assert info.value.reason is Reason.BAD_MOVE_SYNTAX
