"""A move's numbers are read as written over the API too, on gRPC and on REST: the text of a
listed move with a number not as written ('layoff 01:0 9D', 'add K#02 JK') was applied as
the listed move, and a typed label ('K#02') read as the listed one's."""

from __future__ import annotations

import pytest

from service.api.pb import api, game
from tests.service.helpers import Call, Failure, ok
from tests.test_numerals import LISTED_TWINS, LONG, position_text


def refused_as_syntax(call: Call, game_name: str, listed: str, move: game.Move) -> None:
    """In the game's position, which lists the move ``listed``, ApplyMove refuses ``move``
    (a twin of it) as a malformed move."""
    start = ok(call("ImportPosition", api.ImportPositionRequest(position=position_text(game_name))))
    legal = ok(call("LegalMoves", api.LegalMovesRequest(snapshot=start.snapshot),
                    start.host_token))
    assert listed in [m.text for m in legal.moves]
    got = call("ApplyMove", api.ApplyMoveRequest(snapshot=start.snapshot, move=move),
               start.host_token)
    assert isinstance(got, Failure), f"{move} was applied"
    assert (got.code, got.reason, got.fields) == ("INVALID_ARGUMENT", "BAD_MOVE_SYNTAX",
                                                  ["move"]), got


@pytest.mark.parametrize(("game_name", "listed", "twin"), LISTED_TWINS)
def test_a_move_text_with_a_number_not_as_written_is_refused(call: Call, game_name: str,
                                                             listed: str, twin: str) -> None:
    refused_as_syntax(call, game_name, listed, game.Move(text=twin))


@pytest.mark.parametrize(("listed", "move"), [
    ("add K#2 JK", game.Move(add_to_meld=game.Move.AddToMeld(rank="K", label="K#02",
                                                             cards=["JK"]))),
    ("merge K K#2", game.Move(merge=game.Move.Merge(first="K", second="K#02"))),
], ids=["add", "merge"])
def test_a_typed_label_with_an_ordinal_not_as_written_is_refused(call: Call, listed: str,
                                                                 move: game.Move) -> None:
    """A typed label is read as the text's label is."""
    refused_as_syntax(call, "samba", listed, move)


def test_a_move_number_longer_than_int_reads_is_refused(call: Call) -> None:
    """More digits than ``int`` reads (4300): its ValueError was an internal error."""
    refused_as_syntax(call, "mayi", "layoff 1:0 9D", game.Move(text=f"layoff 1:{LONG} 9D"))
