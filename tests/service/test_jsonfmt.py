"""The fast JSON encoder gives what ``json_format`` gives, on every kind of field and answer."""

from __future__ import annotations

import json
import random

from google.protobuf import json_format
from google.protobuf.message import Message

from service.api import jsonfmt
from service.api.core import Call, Core, SnapshotRequest
from service.api.pb import api, game
from service.sealing.keys import KeyRing, new_key_entry
from service.sealing.snapshot import Sealer


def _same(msg: Message) -> None:
    raw = jsonfmt.to_json(msg)
    fast = json.loads(raw)
    slow = json.loads(json_format.MessageToJson(msg, always_print_fields_with_no_presence=True))
    assert fast == slow, type(msg).__name__
    # byte for byte what the standard library writes (compact, UTF-8, no ASCII escapes)
    assert raw == json.dumps(fast, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    back = type(msg)()
    json_format.Parse(jsonfmt.to_json(msg), back)
    assert back == msg


def test_field_kinds() -> None:
    _same(api.DealRequest())
    _same(api.DealRequest(variant="classic", players=4, seed=2**64 - 1,
                          options={"b": "2", "a": "ü"}, deck=["AS"], view_seat=-1))
    _same(api.ApplyMoveRequest(snapshot=bytes(range(256)), expected_seq=0, seat=0,
                               move=game.Move(text="out", go_out=game.Move.GoOut())))
    _same(game.Move(go_out=game.Move.GoOut(card="4S")))
    _same(game.Move(take_pile=game.Move.TakePile(
        cards=["9S"], extras=[game.CardGroup(cards=["KS", "KH", "2C"])])))
    _same(game.Event(type=game.EVENT_TYPE_GAME_OVER, team=-1))
    _same(game.Event(type=42))  # an enum value this build lacks
    _same(game.VariantOption(type=game.OPTION_TYPE_CHOICE, default_value=""))


def test_every_answer_of_a_game() -> None:
    core = Core(Sealer(KeyRing.parse(new_key_entry("k"))))
    call = Call()
    rng = random.Random(3)
    _same(core.handle("ListVariants", api.ListVariantsRequest(), Call("ru")))
    deal = core.handle("Deal", api.DealRequest(variant="classic", players=4, seed=3), call)
    _same(deal)
    snapshot = deal.snapshot
    call = _bearer(deal.host_token)
    for _ in range(120):
        legal = core.handle("LegalMoves", api.LegalMovesRequest(snapshot=snapshot), call)
        _same(legal)
        _same(core.handle("ScoreHand", api.ScoreHandRequest(snapshot=snapshot), call))
        moves = [m for m in legal.moves if m.text != "undo"]
        applied = core.handle("ApplyMove", api.ApplyMoveRequest(
            snapshot=snapshot, move=rng.choice(moves)), call)
        _same(applied)
        snapshot = applied.snapshot
        if applied.hand_over:
            break
    _same(core.handle("ExportPosition", api.ExportPositionRequest(snapshot=snapshot), call))


def _bearer(token: str) -> Call:
    return Call(authorization=(f"Bearer {token}",))


def test_rest_answers_are_the_messages_json() -> None:
    """``Core.handle_json`` (what REST sends) is ``to_json(handle(...))`` byte for byte,
    for LegalMoves' own JSON path (from a message or a bare snapshot, for the host and
    for each seat) at every step of a hand of each variant, through the hand's end, and
    for a method without one."""
    core = Core(Sealer(KeyRing.parse(new_key_entry("k"))))
    for variant, players in (("classic", 4), ("classic", 3), ("classic", 6), ("samba", 4),
                             ("bolivia", 4), ("bolivia_sevens", 4), ("may_i", 5)):
        rng = random.Random(variant + str(players))
        deal = core.handle("Deal", api.DealRequest(variant=variant, players=players, seed=7),
                           Call())
        snapshot, call = deal.snapshot, _bearer(deal.host_token)
        seats = [_bearer(t) for t in deal.seat_tokens]
        for _ in range(400):
            request = api.LegalMovesRequest(snapshot=snapshot)
            legal = core.handle("LegalMoves", request, call)
            assert core.handle_json("LegalMoves", request, call) == jsonfmt.to_json(legal)
            assert core.handle_json("LegalMoves", SnapshotRequest(snapshot),
                                    call) == jsonfmt.to_json(legal)
            for seat in (seats[legal.seat], seats[(legal.seat + 1) % players]):
                assert core.handle_json("LegalMoves", SnapshotRequest(snapshot),
                                        seat) == jsonfmt.to_json(
                    core.handle("LegalMoves", request, seat))
            score = api.ScoreHandRequest(snapshot=snapshot)
            assert core.handle_json("ScoreHand", score, call) == jsonfmt.to_json(
                core.handle("ScoreHand", score, call))
            if not legal.moves:
                break
            if rng.random() < 0.5:  # half random moves, half the greedy bot's (hands end)
                move = rng.choice([m for m in legal.moves if m.text != "undo"])
            else:
                move = core.handle("SuggestMove", api.SuggestMoveRequest(
                    snapshot=snapshot, level="greedy", seed=rng.getrandbits(32)), call).move
            snapshot = core.handle("ApplyMove", api.ApplyMoveRequest(
                snapshot=snapshot, move=move), call).snapshot
        assert legal.seat == -1 and not legal.moves, f"{variant}: the hand did not end"
