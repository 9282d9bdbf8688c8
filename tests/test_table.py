"""``canasta play`` (clients/terminal): scripted terminal sessions that play a whole hand
to its score.

The table runs as a real process (``python -m service.cli play``, which starts its own
local server unless given ``--server``); the test reads its output up to each prompt,
picks a move from the listed ones (by its number or by its text, alternately) and writes
it to the table's stdin, like a person would.

``test_your_screen_never_shows_another_seats_hand`` runs the table in this process
against a running server, recording every call it makes through the SDK: each screen is
compared with the host's full view of the snapshot it shows, and each call's credential
with the one it should present (yours, or the host's for the bots).
"""

from __future__ import annotations

import io
import os
import queue
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def test_a_whole_hand_against_a_local_server() -> None:
    session = Session("--variant", "classic", "--players", "4", "--seed", "11", "--hands", "1")
    played = list(play_hand(session))
    assert session.close() == 0, session.transcript
    out = session.transcript
    assert re.match(r"canasta table · a local server \(127\.0\.0\.1:\d+\)\n", out), out
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
    assert out.startswith(f"canasta table · server {server.grpc_target}\n"), out
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


def test_end_of_input_leaves_quietly_and_stops_the_local_server() -> None:
    session = Session("--seed", "2")
    session.read()
    children = Path(f"/proc/{session.proc.pid}/task/{session.proc.pid}/children")
    (server,) = (int(pid) for pid in children.read_text().split())  # the local server
    assert session.close() == 0
    # the table waited for its server before it exited: that process is gone
    with pytest.raises(ProcessLookupError):
        os.kill(server, 0)


def test_a_bad_variant_is_reported() -> None:
    session = Session("--variant", "nope", "--seed", "2")
    text, prompt = session.read()
    assert prompt is None
    assert "cannot deal: UNKNOWN_VARIANT" in text
    assert session.close() == 2


_CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b")
# lines with cards that are yours (your moves, hints, refusals) or public (red threes laid)
_YOURS_OR_PUBLIC = re.compile(r"^(you: |hint: |refused: |  seat \d laid red threes )")


@dataclass
class _Call:
    name: str
    token: str | None
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    answer: Any = None  # None: refused


class _Recorder:
    """A table client that records every call the table makes: the method, the token it
    presents, its arguments and its answer."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.calls: list[_Call] = []

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.inner, name)

        def call(*args: Any, **kwargs: Any) -> Any:
            record = _Call(name, kwargs.get("token"), args, kwargs)
            self.calls.append(record)
            record.answer = method(*args, **kwargs)
            return record.answer

        return call


class _Player:
    """Stdin of an in-process table: at each prompt, the screen since the last one is
    kept with the snapshot it shows (the last call's), and a move is chosen from the
    listed ones. Tries ``hint`` and a refused move once."""

    def __init__(self, client: _Recorder, out: io.StringIO) -> None:
        self.client = client
        self.out = out
        self.seen = 0
        self.moves: list[str] = []
        self.tried = False
        self.screens: list[tuple[str, bytes]] = []

    def readline(self) -> str:
        text = self.out.getvalue()[self.seen:]
        self.seen += len(text)
        self.screens.append((text, self.client.calls[-1].args[0]))
        if text.endswith(PROMPTS[1]):
            return "\n"  # deal the next hand
        assert text.endswith(PROMPTS[0]), text
        if listed := MOVE_LINE.findall(text):
            self.moves = [m for _, m in listed]
        if not self.tried and any(m.startswith("discard") for m in self.moves):
            self.tried = True
            return "hint\n"
        if text.startswith("hint: "):
            return "meld 2C 2D 2H\n"
        return self.moves[_choose(self.moves)] + "\n"


def test_your_screen_never_shows_another_seats_hand() -> None:
    """Two hands at the table: every screen shows exactly your seat's view of the
    snapshot it is for (the host's full view of that snapshot, seat 0) and none of the
    other hands; every call made for you presents your seat's token, the bots' and the
    next deal the host's, and no answer the table got carries another seat's view."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser, render

    from tests.service.servers import running

    with running() as server, CanastaClient(server.grpc_target) as inner:
        client = _Recorder(inner)
        out = io.StringIO()
        player = _Player(client, out)
        args = build_parser().parse_args(["--players", "4", "--seed", "11", "--hands", "2"])
        assert Table(client, args, player, out).play() == 0  # type: ignore[arg-type]

        dealt = client.calls[0]
        assert dealt.name == "deal" and dealt.kwargs["view_seat"] == 0
        host, seats = dealt.answer.host_token, list(dealt.answer.seat_tokens)
        assert host and len(seats) == 4 and len(set(seats)) == 4
        you = seats[0]
        # the host's full view of each snapshot shown, asked here, not by the table
        full = {snap: list(inner.view(snap, token=host).views) for _, snap in player.screens}

    # the bots' moves as the table announces them (a move played is public)
    announced = {f"seat {c.answer.seat} (greedy): {c.answer.move.text}"
                 for c in client.calls if c.name == "apply_move" and c.kwargs.get("seat")}
    shown = 0
    for text, snapshot in player.screens:
        views = full[snapshot]
        assert [v.seat for v in views] == [0, 1, 2, 3]
        legal = set(views[0].legal_moves)
        if "--- classic · 4 players" in text:  # the table is drawn: exactly seat 0's view
            table = render(views[0], 0)
            assert table in text
            text = text.replace(table, "")
            hand = next(x for x in table.splitlines() if x.startswith("Your hand ("))
            cards = hand.split(": ", 1)[1].split()
            assert cards == list(views[0].hand)
            assert all(cards != list(v.hand) for v in views[1:])
            shown += 1
        # every other line is public or yours: none can hold another seat's cards
        for line in text.splitlines():
            if listed := MOVE_LINE.match(line):
                assert listed.group(2) in legal, line
            elif line.startswith("seat "):
                assert line in announced, line
            else:
                assert _YOURS_OR_PUBLIC.match(line) or not _CARD.search(line), line
    assert shown >= 5 and "Next hand?" in out.getvalue()
    assert "hint: " in out.getvalue() and "refused: " in out.getvalue()

    kinds: set[str] = set()
    for c in client.calls:
        for view in getattr(c.answer, "views", ()):
            assert view.seat == 0, (c.name, view.seat)  # only ever your own view
        if c.name == "deal":
            assert c.token is None
            continue
        assert c.token in (you, host), (c.name, c.token)  # never another seat's, always one
        if c.name in ("apply_move", "suggest_move"):
            bot = c.kwargs.get("seat") is not None if c.name == "apply_move" \
                else c.answer.seat != 0
            assert c.token == (host if bot else you), c
            if bot and c.name == "apply_move":  # for the seat advised, your view only
                assert c.kwargs["seat"] != 0 and c.kwargs["view_seat"] == 0
            kinds.add(f"{c.name} {'bot' if bot else 'you'}")
        elif c.name == "next_deal":
            assert c.token == host and c.kwargs["view_seat"] == 0
            assert c.answer.host_token == host
            kinds.add(c.name)
        else:
            assert c.name in ("legal_moves", "view", "score_hand"), c.name
            assert c.token == you, c.name
            kinds.add(c.name)
    assert kinds == {"apply_move you", "apply_move bot", "suggest_move you", "suggest_move bot",
                     "next_deal", "legal_moves", "view", "score_hand"}
    assert [c.answer for c in client.calls if c.answer is None] == [None]  # the refused move
