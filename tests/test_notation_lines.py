"""The one reader of both games' position notations (engine/notation_lines.py, docs/notation.md)."""

from __future__ import annotations

import pytest

from engine import BadInput, Reason
from engine.cards import parse_cards
from engine.notation import export_position, import_position

CANASTA = ("canasta-position 1\nplayers: 4\nred3_0: 3H 3D\nred3_1: 3H 3D\n"
           "hand0: *11\nhand1: *11\nhand2: *11\nhand3: *11\n")
MAY_I = "mayi-position 1\nplayers: 4\nhand0: *11\nhand1: *11\nhand2: *11\nhand3: *11\n"


@pytest.mark.parametrize("head", [CANASTA, MAY_I], ids=["canasta", "may_i"])
def test_a_fill_lies_under_the_cards_written_after_it(head: str) -> None:
    """``pile: *6 9H`` is six unplaced cards under a 9H, in either game, and the text
    exported from it reads back as the same position."""
    state = import_position(head + "pile: *6 9H\nstock: *\n")
    assert len(state.pile) == 7 and state.pile[-1] == parse_cards("9H")[0]
    assert import_position(export_position(state)) == state


@pytest.mark.parametrize("head", [CANASTA, MAY_I], ids=["canasta", "may_i"])
@pytest.mark.parametrize(("lines", "message"), [
    ("pile: *x\nstock: *\n", "bad fill count in 'pile'"),
    ("pile: *-2\nstock: *\n", "bad fill count in 'pile'"),
    ("pile: *1\npile: *1\nstock: *\n", "line 'pile' is given twice"),
    ("pile *1\nstock: *\n", "expected 'key: value', got 'pile *1'"),
    ("stock: *500\n", "not enough unplaced cards for 'stock'"),
])
def test_both_games_refuse_bad_lines_alike(head: str, lines: str, message: str) -> None:
    with pytest.raises(BadInput) as err:
        import_position(head + lines)
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message
