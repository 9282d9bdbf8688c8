"""The Python SDK against a live server over a real socket."""

from __future__ import annotations

import contextlib
import importlib.metadata
import io
import re
import socket
import time
from pathlib import Path

import grpc
import pytest
from canasta.v1 import game_pb2
from canasta_client import (
    CanastaClient,
    CanastaError,
    DeadlineExceededError,
    InvalidRequestError,
    Move,
    RuleViolationError,
    StaleSnapshotError,
    UnavailableError,
    __version__,
    move,
)

SDK = Path(__file__).resolve().parent.parent
MAX_MOVES = 2000
ILLEGAL_REASONS = {"WRONG_PHASE", "NOT_LISTED", "CARDS_NOT_IN_HAND"}


def pick(moves: list[Move]) -> Move:
    """Echo the first listed move that is not "undo" or "ask" (ends a hand quickly)."""
    return next(m for m in moves if m.text not in ("undo", "ask"))


def test_readme_example_runs(target: str) -> None:
    text = (SDK / "README.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S)
    assert code, "README has a python example"
    source = code.group(1).replace('"127.0.0.1:50051"', repr(target))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(source, "README.md", "exec"), {})
    lines = out.getvalue().splitlines()
    assert [ln.split(":")[0] for ln in lines] == ["team 0", "team 1"], lines


def test_whole_classic_hand_four_players(client: CanastaClient) -> None:
    deal = client.deal("classic", players=4, seed=11)
    assert deal.header.variant == "classic" and deal.header.seq == 0
    assert {0, 1, 2, 3} <= {v.seat for v in deal.views}
    snapshot, seq = deal.snapshot, 0
    for _ in range(MAX_MOVES):
        legal = client.legal_moves(snapshot)
        chosen = pick(list(legal.moves))
        played = client.apply_move(snapshot, chosen, expected_seq=seq, seat=legal.seat)
        assert played.move.text == chosen.text and played.seat == legal.seat
        assert played.header.seq == seq + 1 and played.header.game_id == deal.header.game_id
        snapshot, seq = played.snapshot, seq + 1
        if played.hand_over:
            break
    else:
        pytest.fail(f"the hand did not end in {MAX_MOVES} moves")
    score = client.score_hand(snapshot)
    assert score.hand_over
    assert sorted(s.team for s in score.sides) == [0, 1]
    assert sorted(seat for s in score.sides for seat in s.seats) == [0, 1, 2, 3]
    for side in score.sides:
        b = side.breakdown
        assert side.total == (b.base + b.canasta_bonus + b.going_out + b.red_three_points
                              - b.in_hand - b.penalties)
    if not played.game_over:
        nxt = client.next_deal(snapshot, expected_seq=seq)
        assert nxt.header.seq == seq + 1
        assert game_pb2.EVENT_TYPE_HAND_DEALT in [e.type for e in nxt.events]


def test_view_and_text_helper(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=3, view_seat=0)
    assert [v.seat for v in deal.views] == [0]
    mine = client.view(deal.snapshot, seat=0).views
    assert len(mine) == 1 and len(mine[0].hand) == 11 and mine[0].phase == "draw"
    assert client.view(deal.snapshot, seat=-1).views[0].hand == []
    played = client.play(deal.snapshot, "draw", view_seat=0)
    assert played.move.text == "draw" and played.move.HasField("draw")
    assert move("draw") == Move(text="draw")


def test_tampered_snapshot_is_snapshot_invalid(client: CanastaClient) -> None:
    snapshot = bytearray(client.deal("classic", 4, seed=5).snapshot)
    snapshot[len(snapshot) // 2] ^= 0x01
    with pytest.raises(InvalidRequestError) as caught:
        client.legal_moves(bytes(snapshot))
    err = caught.value
    assert err.code == grpc.StatusCode.INVALID_ARGUMENT
    assert err.reason == "SNAPSHOT_INVALID"


def test_illegal_move_is_a_rule_violation(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=5)
    with pytest.raises(RuleViolationError) as caught:
        client.play(deal.snapshot, "discard 4D")  # a discard in the draw phase
    err = caught.value
    assert err.code == grpc.StatusCode.FAILED_PRECONDITION
    assert err.reason in ILLEGAL_REASONS, err.reason
    assert isinstance(err, CanastaError) and err.message


def test_stale_snapshot_and_bad_request(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=5)
    with pytest.raises(StaleSnapshotError) as stale:
        client.play(deal.snapshot, "draw", expected_seq=7)
    assert stale.value.reason == "SNAPSHOT_STALE"
    with pytest.raises(InvalidRequestError) as bad:
        client.deal("classic", players=9)
    assert bad.value.reason == "BAD_PLAYER_COUNT"
    assert "players" in [field for field, _ in bad.value.field_violations]


def test_deadline_is_a_typed_error() -> None:
    """A server that accepts the connection and never answers: the call's deadline ends it."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        host, port = silent.getsockname()
        with CanastaClient(f"{host}:{port}", timeout=30.0) as client:
            started = time.monotonic()
            with pytest.raises(DeadlineExceededError) as caught:
                client.deal("classic", 4, seed=1, timeout=0.3)
            assert time.monotonic() - started < 10
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert caught.value.reason == "DEADLINE_EXCEEDED"


def test_no_server_is_unavailable() -> None:
    with CanastaClient("127.0.0.1:1", timeout=2.0) as dead, pytest.raises(UnavailableError):
        dead.list_variants()


def test_version_is_the_one_in_clients_version() -> None:
    assert __version__ == (SDK.parent / "VERSION").read_text().strip()
    assert importlib.metadata.version("canasta-client") == __version__


def test_suggest_move_is_accepted(client: CanastaClient) -> None:
    snapshot = client.deal("classic", players=4, seed=3).snapshot
    hint = client.suggest_move(snapshot, "greedy", seed=1)
    played = client.apply_move(snapshot, hint.move)
    assert (played.move.text, played.seat) == (hint.move.text, hint.seat)
