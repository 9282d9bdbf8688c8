"""The snapshot codec: exact round trips of every reached state, typed errors on garbage."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine import BadInput, Phase, Reason, apply, new_game, next_deal
from engine.bots import random_move, suggest_move
from engine.codec import FORMAT, _coders, decode_state, encode_state
from engine.games import game_of
from engine.notation import export_position, import_position
from engine.records import begin, played, write
from engine.state import State


@pytest.mark.parametrize(("players", "options"), [
    (2, {}), (3, {"p3_mode": "cutthroat"}), (4, {}), (5, {}), (6, {}), (6, {"p6_mode": "rotation"}),
])
def test_codec_round_trips_every_state(players: int, options: dict[str, object]) -> None:
    """decode(encode(s)) == s, and the notation of both agrees, through a hand and a next deal."""
    rng = random.Random(players)
    state = new_game("classic", players, seed=players * 7, options=options)
    for _ in range(2):
        while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
            back = decode_state(encode_state(state))
            assert back == state
            assert export_position(back) == export_position(state)
            state = apply(state, random_move(state, rng))
        assert decode_state(encode_state(state)) == state
        if state.phase is Phase.GAME_OVER:
            break
        state = next_deal(state)


@pytest.mark.parametrize(("variant", "players"), [
    ("classic", 4), ("samba", 4), ("bolivia", 4), ("bolivia_sevens", 4), ("may_i", 4)])
def test_codec_writes_what_json_writes(variant: str, players: int) -> None:
    """The codec writes with orjson the very bytes ``json.dumps`` writes of the same tree
    (compact separators), so snapshots keep their size and format, and a server still on
    the stdlib encoder opens them (a rolling update shares its keys)."""
    rng = random.Random(5)
    state = new_game(variant, players, seed=11)
    encode, _ = _coders(type(state))
    for _ in range(300):
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            break
        tree = [FORMAT, type(state).__name__, encode(state)]
        assert encode_state(state) == json.dumps(tree, separators=(",", ":")).encode()
        state = apply(state, random_move(state, rng))


@pytest.mark.parametrize(("line", "wide"), [
    ("seed: 5", "seed: 18446744073709551616"), ("seed: 5", "seed: -9223372036854775809"),
    ("scores: 0 0", "scores: 99999999999999999999999999 0")])
def test_codec_keeps_integers_beyond_64_bits(line: str, wide: str) -> None:
    """A position text may hold a seed or a score beyond 64 bits (orjson refuses to write
    one, and reads one as a float): the codec still writes it as json does, and reads it
    back exactly."""
    text = export_position(new_game("classic", 2, seed=5))
    assert line in text
    state = import_position(text.replace(line, wide))
    blob = encode_state(state)
    encode, _ = _coders(type(state))
    assert blob == json.dumps([FORMAT, "State", encode(state)], separators=(",", ":")).encode()
    back = decode_state(blob)
    assert back == state and export_position(back) == export_position(state)
    assert wide in export_position(back)


def test_codec_refuses_to_plan_keyword_only_fields() -> None:
    """decode passes a dataclass's fields in order: a keyword-only one cannot be coded."""
    @dataclasses.dataclass(frozen=True)
    class Later:
        seat: int
        extra: int = dataclasses.field(default=0, kw_only=True)

    with pytest.raises(TypeError, match="keyword-only"):
        _coders(Later)


@pytest.mark.parametrize("blob", [b"", b"[]", b"not json", b"NaN", b"[1, \"State\", [1e999]]", b"[1, \"State\", []]",
                                  b"[9, \"State\", []]", b"[1, \"Nope\", []]"])
def test_codec_refuses_garbage(blob: bytes) -> None:
    """Bytes that are not an encoded state give a typed BAD_NOTATION error, never a crash."""
    with pytest.raises(BadInput) as err:
        decode_state(blob)
    assert err.value.reason is Reason.BAD_NOTATION


@pytest.mark.parametrize(("variant", "phase"), [("classic", Phase.BUY_WINDOW),
                                                ("may_i", Phase.PERMISSION)])
def test_codec_refuses_a_phase_of_another_game(variant: str, phase: Phase) -> None:
    """A state holds only its own game's phases (no buy window in the Canasta family,
    MI-BUY-1; no asked partner in May I?, CL-OUT-4): bytes that put one in another's
    phase are not an encoded state."""
    state = new_game(variant, 4, seed=1)
    forged = encode_state(game_of(state).evolve(state, phase=phase))
    with pytest.raises(BadInput) as err:
        decode_state(forged)
    assert err.value.reason is Reason.BAD_NOTATION
    assert f"'{phase.value}' is not one of" in err.value.message


@pytest.mark.parametrize(("variant", "players", "options"), [
    ("classic", 4, {}), ("classic", 3, {"p3_mode": "cutthroat"}), ("samba", 4, {}),
    ("bolivia", 4, {}), ("bolivia_sevens", 4, {})])
def test_a_result_sealed_before_its_tallies_opens_with_them(
        variant: str, players: int, options: dict[str, object]) -> None:
    """A hand's result sealed before SideResult.canastas existed (its rows one field
    shorter) opens as the same state: its canastas by kind come from the melds it scored,
    so its score says them and its record still replays to it (ExportRecord compares the
    replay's end with the snapshot's state: a finished game's record could no longer be
    exported)."""
    state = new_game(variant, players, seed=3, options=options)
    record = begin(state)
    while state.phase not in (Phase.HAND_OVER, Phase.GAME_OVER):
        move = suggest_move(state, "greedy", state.ply)
        record = played(record, state.awaited, move)
        state = apply(state, move)
    assert state.result is not None
    assert any(side.canastas for side in state.result.sides)
    tree = json.loads(encode_state(state))
    rows = tree[2][[f.name for f in dataclasses.fields(State)].index("result")][2]
    for row in rows:
        row.pop()  # the last field, canastas: what an older server sealed
    old = decode_state(json.dumps(tree).encode())
    assert old == state
    assert write(record, None, ends_at=old)
