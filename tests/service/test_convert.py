"""Moves and events between the engine and the messages, checked along random games."""

from __future__ import annotations

import random

import pytest
from google.protobuf import json_format

from engine import Phase, apply, legal_moves, new_game, parse_move
from engine.errors import BadMove
from engine.moves import GoOut, TakePile
from service import convert
from service.errors import ServiceError
from service.pb import game


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_every_legal_move_round_trips(players: int) -> None:
    rng = random.Random(players)
    state = new_game("classic", players, seed=players)
    seen: set[str] = set()
    for _ in range(400):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        moves = legal_moves(state)
        for move in moves:
            msg = convert.move_to_pb(move)
            kind = msg.WhichOneof("kind")
            assert kind is not None, move
            seen.add(kind)
            assert convert.move_from_pb(msg) == move
            assert convert.move_from_pb(game.Move(text=msg.text)) == move
            typed = game.Move()
            typed.CopyFrom(msg)
            typed.ClearField("text")
            assert convert.move_from_pb(typed) == move
            back = json_format.Parse(json_format.MessageToJson(msg), game.Move())
            assert back == msg
        state = apply(state, rng.choice([m for m in moves if str(m) != "undo"]))
    assert {"draw", "discard", "meld"} <= seen


def test_typed_forms_of_special_moves() -> None:
    take = parse_move("take 9S 9C / KH KD 2C")
    assert isinstance(take, TakePile)
    msg = convert.move_to_pb(take)
    assert [list(g.cards) for g in msg.take_pile.extras] == [["KH", "KD", "2C"]]
    assert convert.move_from_pb(msg) == take
    out = convert.move_to_pb(GoOut())
    assert out.WhichOneof("kind") == "go_out" and not out.go_out.HasField("card")
    assert convert.move_from_pb(game.Move(go_out=game.Move.GoOut())) == GoOut()
    assert convert.move_from_pb(game.Move(answer=game.Move.Answer(yes=False))) == parse_move("no")
    add = game.Move(add_to_meld=game.Move.AddToMeld(rank="k", cards=["2c", "KS"]))
    assert str(convert.move_from_pb(add)) == "add K KS 2C"


@pytest.mark.parametrize("move", [
    game.Move(meld=game.Move.MeldCards()),
    game.Move(meld=game.Move.MeldCards(groups=[game.CardGroup()])),
    game.Move(add_to_meld=game.Move.AddToMeld(rank="K")),
    game.Move(text="draw", discard=game.Move.Discard(card="4S")),
    game.Move(),
])
def test_malformed_typed_moves(move: game.Move) -> None:
    with pytest.raises(ServiceError) as err:
        convert.move_from_pb(move)
    assert err.value.reason == "REQUEST_INVALID"


def test_bad_cards_are_engine_errors() -> None:
    with pytest.raises(BadMove):
        convert.move_from_pb(game.Move(add_to_meld=game.Move.AddToMeld(rank="Z", cards=["KS"])))
    with pytest.raises(BadMove):
        convert.move_from_pb(game.Move(take_pile=game.Move.TakePile(cards=["KS", "XX"])))


@pytest.mark.parametrize("seed", range(6))
def test_events_tell_what_changed(seed: int) -> None:
    rng = random.Random(seed)
    state = new_game("classic", 4, seed=seed)
    for _ in range(300):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        move = rng.choice([m for m in legal_moves(state) if str(m) != "undo"])
        seat = state.awaited
        nxt = apply(state, move)
        events = convert.move_events(state, move, seat, nxt)
        kinds = [e.type for e in events]
        assert events[0].type == game.EVENT_TYPE_MOVE_PLAYED and events[0].move == str(move)
        drawn = sum(e.count for e in events if e.type == game.EVENT_TYPE_CARDS_DRAWN)
        assert drawn == len(state.stock) - len(nxt.stock)
        laid = sum(len(e.cards) for e in events if e.type == game.EVENT_TYPE_RED_THREES_LAID)
        assert laid == sum(len(r) for r in nxt.red3) - sum(len(r) for r in state.red3)
        assert (game.EVENT_TYPE_PILE_TAKEN in kinds) == isinstance(move, TakePile)
        started = [e.seat for e in events if e.type == game.EVENT_TYPE_TURN_STARTED]
        changed = nxt.turn.seat != state.turn.seat and nxt.awaited >= 0
        assert started == ([nxt.turn.seat] if changed else [])
        assert (game.EVENT_TYPE_HAND_OVER in kinds) == (nxt.phase in (Phase.HAND_OVER,
                                                                      Phase.GAME_OVER))
        state = nxt
