"""``canasta play``: scripted terminal sessions that play a whole hand to its score.

The table runs as a real process (``python -m service.cli play``); the test reads
its output up to each prompt, picks a move from the listed ones (by its number or
by its text, alternately) and writes it to the table's stdin, like a person would.
"""

from __future__ import annotations

import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROMPTS = ("your move> ", "Next hand? [Enter: deal, q: quit] ")
MOVE_LINE = re.compile(r"^\s+(\d+)\) (.+)$", re.MULTILINE)


class Session:
    """A table process, read up to its prompts."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "service.cli", "play", *args], cwd=ROOT, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.chunks: queue.Queue[bytes] = queue.Queue()
        self.transcript = ""
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        while chunk := os.read(self.proc.stdout.fileno(), 65536):
            self.chunks.put(chunk)
        self.chunks.put(b"")

    def read(self, timeout: float = 60.0) -> tuple[str, str | None]:
        """Output up to the next prompt (and which prompt), or to the end (``None``)."""
        text = ""
        deadline = time.monotonic() + timeout
        while True:
            for prompt in PROMPTS:
                if text.endswith(prompt):
                    self.transcript += text
                    return text, prompt
            try:
                chunk = self.chunks.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no prompt in {timeout}s; output so far:\n{text}") from None
            if not chunk:
                self.transcript += text
                return text, None
            text += chunk.decode()

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.transcript += line + "\n"
        self.proc.stdin.write((line + "\n").encode())
        self.proc.stdin.flush()

    def close(self) -> int:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        return self.proc.wait(timeout=30)


def _choose(moves: list[str]) -> int:
    """Index of the move a cautious player makes: go out, say yes, draw, discard."""
    for want in (lambda m: m == "out" or m.startswith("out ") or m == "end",
                 lambda m: m == "yes", lambda m: m == "draw", lambda m: m == "decline",
                 lambda m: m.startswith("discard"), lambda m: m not in ("undo", "ask")):
        for i, m in enumerate(moves):
            if want(m):
                return i
    return 0


def play_hand(session: Session) -> Iterator[str]:
    """Answer prompts until the hand is scored; yields each move sent. Tries the
    commands once: a hint, a move number out of range and a refused move."""
    turn = 0
    tried = False
    moves: list[str] = []
    while True:
        text, prompt = session.read()
        if prompt != PROMPTS[0]:
            return
        listed = MOVE_LINE.findall(text)
        if listed:
            moves = [m for _, m in listed]
        assert moves, text
        if not tried and any(m.startswith("discard") for m in moves):
            tried = True
            session.send("hint")
            assert re.search(r"^hint: \S", session.read()[0], re.MULTILINE)
            session.send("99")
            assert f"no move 99: pick 1 to {len(moves)}" in session.read()[0]
            session.send("meld 2C 2D 2H")
            assert re.search(r"^refused: [A-Z_]+: ", session.read()[0], re.MULTILINE)
        i = _choose(moves)
        answer = str(i + 1) if turn % 2 else moves[i]  # by number, then by text
        session.send(answer)
        turn += 1
        yield moves[i]


def _assert_scored(transcript: str, sides: int) -> None:
    assert "Hand over: " in transcript
    table = transcript[transcript.index("Hand over: "):]
    assert re.search(r"side\s+melds\s+canastas\s+out\s+red 3s\s+in hand\s+total\s+game", table)
    rows = re.findall(r"^  (team \d.*|you .*|seat \d .*)\s+(-?\d+)\s+(-?\d+)$", table,
                      re.MULTILINE)
    assert len(rows) == sides, table


def test_a_whole_hand_in_the_embedded_engine() -> None:
    session = Session("--variant", "classic", "--players", "4", "--seed", "11", "--hands", "1")
    played = list(play_hand(session))
    assert session.close() == 0, session.transcript
    out = session.transcript
    assert out.startswith("canasta table · embedded engine\n")
    assert "classic, 4 players, seed 11; you are seat 0, the bots play greedy." in out
    # the table shows the hand, melds, the pile top, scores and the moves by their text
    for part in ("Your hand (", "Melds:", "Stock ", " · top ", "Scores: team 0 (you), seats 0 2",
                 "Your moves:\n  1) draw"):
        assert part in out
    assert "you: draw" in out and re.search(r"^seat [123] \(greedy\): ", out, re.MULTILINE)
    assert played and "draw" in played
    _assert_scored(out, sides=2)


def test_a_hand_against_a_running_server(tmp_path: Path) -> None:
    from tests.service.servers import running

    with running() as server:
        session = Session("--server", server.grpc_target, "--variant", "classic",
                          "--players", "2", "--seed", "5", "--hands", "1", "--bot", "random")
        played = list(play_hand(session))
        assert session.close() == 0, session.transcript
    out = session.transcript
    assert re.match(r"canasta table · server 127\.0\.0\.1:\d+ \((Python SDK|gRPC)\)\n", out)
    assert "the bots play random" in out and played
    _assert_scored(out, sides=2)


@pytest.mark.parametrize("variant,players", [("samba", 4), ("may_i", 3)])
def test_other_games_start_and_quit(variant: str, players: int) -> None:
    from engine.variants import VARIANTS

    if variant not in VARIANTS:
        pytest.skip(f"{variant} is not registered")
    session = Session("--variant", variant, "--players", str(players), "--seed", "3")
    text, prompt = session.read()
    assert prompt == PROMPTS[0], text
    assert f"--- {variant} · {players} players · hand 1" in text
    assert MOVE_LINE.search(text)
    session.send("quit")
    assert session.read()[1] is None
    assert session.close() == 0
    assert session.transcript.rstrip().endswith("bye")


def test_end_of_input_leaves_quietly() -> None:
    session = Session("--seed", "2")
    session.read()
    assert session.close() == 0


def test_a_bad_variant_is_reported() -> None:
    session = Session("--variant", "nope", "--seed", "2")
    text, prompt = session.read()
    assert prompt is None
    assert "cannot deal: UNKNOWN_VARIANT" in text
    assert session.close() == 2
