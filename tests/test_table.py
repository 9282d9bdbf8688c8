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
from types import SimpleNamespace
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
            session.send("\u00b2")  # a digit to str.isdigit, not to int: it crashed the table
            assert re.search(r"^refused: BAD_MOVE_SYNTAX: ", session.read()[0], re.MULTILINE)
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
    # the game goes on: each side's minimum for the next hand (SideView.next_minimum, CL-MIN-1)
    assert re.search(r"^Next hand, first meld needs: team 0 \(you\), seats 0 2: (15|50|90|120) "
                     r"points · team 1, seats 1 3: (15|50|90|120) points$", out, re.MULTILINE), out
    # a pipe is no terminal: the web table's card faces (10♥, Jk), never a colour code
    assert "\x1b[" not in out and re.search(r"^Your hand \(\d+\): .*[♠♥♦♣]", out, re.MULTILINE)
    # (but what you typed, and the service's words for a refusal)
    shown = [x for x in out.split("Hand over: ")[0].splitlines()
             if "your move> " not in x and not x.startswith("refused: ")]
    assert not [x for x in shown if re.search(r"\b[2-9TJQKA][SHDC]\b", x)]
    # each of your draws names the card drawn, and it is in the hand shown next (but a red
    # three, laid at once: CL-R3-2)
    drew = re.findall(r"^you: draw\n  you drew (.+)\n(?:.*\n)*?Your hand \(\d+\): (.*)$", out,
                      re.MULTILINE)
    assert len(drew) == played.count("draw"), out
    assert all(card in hand.split() or card in ("3♥", "3♦")
               for cards, hand in drew for card in cards.split()), drew


def test_an_output_whose_reader_left_ends_the_table_quietly() -> None:
    """The table piped into ``head``: once the reader has gone, its next write failed with a
    BrokenPipeError traceback, and another at the interpreter's exit. It now ends quietly
    with 141, as a shell reports a command whose pipe's reader left."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "service.cli", "play", "--variant", "classic", "--players", "2",
         "--seed", "1"], cwd=ROOT, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdin is not None
    out = b""
    deadline = time.monotonic() + 60
    while not out.endswith(PROMPTS[0].encode()) and time.monotonic() < deadline:
        chunk = os.read(proc.stdout.fileno(), 65536)
        assert chunk, out
        out += chunk
    proc.stdout.close()  # the reader leaves, as `head` does once it has its lines
    proc.stdin.write(b"draw\n")
    proc.stdin.close()
    assert proc.wait(timeout=60) == 141
    assert proc.stderr is not None
    err = proc.stderr.read().decode()
    proc.stderr.close()
    assert "Traceback" not in err and "BrokenPipe" not in err, err


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
    # May I? shows the deal's contract (MI-CON-1; MI-GAME-1: zioncheck5 by default) and
    # the buys left (MI-BUY-5: three a deal by default)
    shown = "\nContract: two sets\nBuys left: you 3 · seat 1 3 · seat 2 3\n"
    assert (shown in text) == (variant == "may_i"), text
    assert ("Contract: " in text) == (variant == "may_i"), text
    session.send("quit")
    assert session.read()[1] is None
    assert session.close() == 0
    assert session.transcript.rstrip().endswith("bye")


def test_may_i_shows_the_contract_of_the_schedule_given() -> None:
    """MI-CON-1 / MI-GAME-1: a custom schedule's first contract, named as the rules
    document names contracts; MI-BUY-5: no limit of buys."""
    session = Session("--variant", "may_i", "--players", "3", "--seed", "3",
                      "--option", "schedule=sr,rr", "--option", "max_buys_per_deal=none")
    text, prompt = session.read()
    assert prompt == PROMPTS[0], text
    assert "\nContract: one set + one sequence\n" in text, text
    assert "\nBuys left: you no limit · seat 1 no limit · seat 2 no limit\n" in text, text
    session.send("quit")
    assert session.read()[1] is None and session.close() == 0


def test_contracts_in_words() -> None:
    """The contracts of docs/rules-may-i.md ("Contracts and the game"), in its words."""
    from canasta_terminal.table import contract_text

    assert [contract_text(*c) for c in [(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)]
            ] == ["two sets", "one set + one sequence", "two sequences", "three sets",
                  "two sets + one sequence", "one set + two sequences", "three sequences"]


class _Out(io.StringIO):
    """An output stream that says whether it is a terminal, with an encoding."""

    def __init__(self, tty: bool, encoding: str = "utf-8") -> None:
        super().__init__()
        self.tty, self.enc = tty, encoding

    def isatty(self) -> bool:
        return self.tty

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.enc


def test_the_rule_options_a_table_explains_are_the_listed_defaults_under_those_given() -> None:
    """CL-OUT-5, MI-BUY-2: what the table says of a "yes" or a buy follows the game's options
    as dealt: ListVariants' defaults (not a copy in the table: a server whose default is
    another is believed), under the options given with or without ``opt.`` / ``mayi.``."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import rules_of

    listed = game.Variant(id="classic", options=[
        game.VariantOption(name="permission_yes", default_value="advisory"),
        game.VariantOption(name="penalties", default_value="false"),
        game.VariantOption(name="buy_penalty_cards", default_value="2"),
        game.VariantOption(name="no_default")])
    assert rules_of(listed, {}) == {"permission_yes": "advisory", "penalties": "false",
                                    "buy_penalty_cards": "2"}
    assert rules_of(listed, {"opt.penalties": "true", "mayi.buy_penalty_cards": "1",
                             "permission_yes": "strict"}) == {
        "permission_yes": "strict", "penalties": "true", "buy_penalty_cards": "1"}
    assert rules_of(game.Variant(), {"penalties": "true"}) == {"penalties": "true"}


def test_cards_are_written_with_suit_symbols_and_colour_where_the_output_has_them() -> None:
    """The web table's faces (10♥, Jk: clients/web/i18n.js); ANSI red for hearts and
    diamonds on a terminal only, never with NO_COLOR set or TERM=dumb; card codes where
    the output cannot encode the suit symbols."""
    from canasta_terminal.table import Style

    tty = Style.of(_Out(tty=True), environ={"TERM": "xterm"})
    assert tty == Style(symbols=True, colour=True)
    assert tty.cards(["TH", "QS", "4D", "JK", "2C"]) == \
        "\x1b[31m10♥\x1b[0m Q♠ \x1b[31m4♦\x1b[0m Jk 2♣"
    assert tty.text("meld TH TD JK") == "meld \x1b[31m10♥\x1b[0m \x1b[31m10♦\x1b[0m Jk"
    assert tty.text("add S:5-9 5S") == "add S:5-9 5♠"  # a meld's label is not a card
    for env in ({"NO_COLOR": "1"}, {"TERM": "dumb"}):
        assert Style.of(_Out(tty=True), environ=env) == Style(symbols=True, colour=False)
    piped = Style.of(_Out(tty=False), environ={})
    assert piped == Style(symbols=True, colour=False)
    assert piped.cards(["TH", "JK"]) == "10♥ Jk"
    ascii_tty = Style.of(_Out(tty=True, encoding="ascii"), environ={})
    assert ascii_tty.cards(["TH", "QS"]) == "\x1b[31mTH\x1b[0m QS"
    ascii_pipe = Style.of(_Out(tty=False, encoding="ascii"), environ={})
    assert ascii_pipe.text("meld TH TD JK") == "meld TH TD JK"


def test_an_output_without_the_symbols_gets_the_table_in_codes() -> None:
    """An output that cannot encode the suit symbols (an ASCII locale, a legacy console)
    gets the whole table, its banner and help included, in card codes and plain text:
    the banner's ``·`` made such a table crash before it dealt."""
    from canasta_terminal.table import main

    from tests.service.servers import running

    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii", write_through=True)
    with running() as server:
        code = main(["--server", server.grpc_target, "--players", "2", "--seed", "5"],
                    inp=io.StringIO("help\nhint\nquit\n"), out=out)
    text = raw.getvalue().decode("ascii")
    assert code == 0, text
    assert text.startswith(f"canasta table - server {server.grpc_target}\n"), text
    assert "--- classic - 2 players - hand 1 - " in text and "> hint: draw\n" in text
    assert re.search(r"^Your hand \(\d+\): [2-9TJQKA][SHDC]\b", text, re.MULTILINE), text
    assert '"discard TH"' in text and text.rstrip().endswith("bye")


def test_a_line_without_the_symbols_is_ascii() -> None:
    """Whatever a line holds (a server's message may quote a cut value with ``…``), an
    output without the suit symbols gets it in ASCII."""
    from canasta_terminal.table import Style

    assert Style(symbols=False).line("seat 1 · top 10♥ · “cut”…") == "seat 1 - top TH - ?cut??"
    assert Style(symbols=True).line("top 10♥ · …") == "top 10♥ · …"


def test_a_move_is_typed_with_the_faces_it_is_listed_with() -> None:
    from canasta_terminal.table import typed

    assert typed("meld 10♥ 10♦ Jk") == "meld TH TD JK"
    assert typed("discard 4D") == "discard 4D"
    assert typed("add S:5-9 5♠") == "add S:5-9 5S"


def test_the_cards_drawn_or_taken_are_named_for_your_seat_only() -> None:
    """The host's answers (the bots' moves) carry every seat's drawn and taken cards:
    the table names yours and only yours."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import PLAIN, Style, _event_text

    style = Style(symbols=True)
    drawn = game.Event(type=game.EVENT_TYPE_CARDS_DRAWN, seat=0, cards=["7C", "KD"], count=2)
    assert _event_text(drawn, 0, style) == "  you drew 7♣ K♦"
    assert _event_text(drawn, 0, PLAIN) == "  you drew 7C KD"
    assert _event_text(drawn, 1, style) == ""
    taken = game.Event(type=game.EVENT_TYPE_PILE_TAKEN, seat=2, cards=["QH", "QD", "5S"],
                       count=3)
    assert _event_text(taken, 2, style) == "  you took the pile (3 cards): Q♥ Q♦ 5♠"
    assert _event_text(taken, 0, style) == "  seat 2 took the pile (3 cards)"


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


_CARD = re.compile(r"\b(?:[2-9TJQKA][SHDC]|JK)\b|(?:10|[2-9JQKA])[♠♥♦♣]|\bJk\b")
# lines with cards that are yours (your moves, hints, refusals, draws and takes) or public
# (red threes laid, yours or another seat's)
_YOURS_OR_PUBLIC = re.compile(r"^(you: |hint: |refused: |  you drew |  you took the pile |"
                              r"  (?:you|seat \d) laid red threes )")


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
        self.took = False
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
        if not self.took and (take := [m for m in self.moves if m.startswith("take")]):
            self.took = True
            return take[0] + "\n"  # once: the pile's cards are named
        return self.moves[_choose(self.moves)] + "\n"


def test_your_screen_never_shows_another_seats_hand() -> None:
    """Two hands at the table: every screen shows exactly your seat's view of the
    snapshot it is for (the host's full view of that snapshot, seat 0) and none of the
    other hands; every call made for you presents your seat's token, the bots' and the
    next deal the host's, and no answer the table got carries another seat's view."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser, render, typed

    from tests.service.servers import running

    with running() as server, CanastaClient(server.grpc_target) as inner:
        client = _Recorder(inner)
        out = io.StringIO()
        player = _Player(client, out)
        args = build_parser().parse_args(["--players", "4", "--seed", "11", "--hands", "2"])
        table = Table(client, args, player, out)  # type: ignore[arg-type]
        assert table.play() == 0
        style = table.style

        dealt = client.calls[0]
        assert dealt.name == "deal" and dealt.kwargs["view_seat"] == 0
        host, seats = dealt.answer.host_token, list(dealt.answer.seat_tokens)
        assert host and len(seats) == 4 and len(set(seats)) == 4
        you = seats[0]
        # the host's full view of each snapshot shown, asked here, not by the table
        full = {snap: list(inner.view(snap, token=host).views) for _, snap in player.screens}

    # the bots' moves as the table announces them (a move played is public)
    announced = {f"seat {c.answer.seat} (greedy): {style.text(c.answer.move.text)}"
                 for c in client.calls if c.name == "apply_move" and c.kwargs.get("seat")}
    shown = 0
    named_seen: list[str] = []
    for text, snapshot in player.screens:
        views = full[snapshot]
        assert [v.seat for v in views] == [0, 1, 2, 3]
        legal = set(views[0].legal_moves)
        if "--- classic · 4 players" in text:  # the table is drawn: exactly seat 0's view
            screen = render(views[0], 0, style)
            assert screen in text
            text = text.replace(screen, "")
            hand = next(x for x in screen.splitlines() if x.startswith("Your hand ("))
            cards = typed(hand.split(": ", 1)[1]).split()
            assert cards == list(views[0].hand)
            assert all(cards != list(v.hand) for v in views[1:])
            # the cards you just drew or took are named, and are yours now: in the hand
            # shown, or on your side's table (a pile's top melded, a red three laid)
            side = next(x for x in views[0].sides if 0 in x.seats)
            yours = cards + [c for m in side.melds for c in m.cards] + list(side.red_threes)
            for got in re.findall(r"^  you (?:drew|took the pile \(\d+ cards\):) (.+)$", text,
                                  re.MULTILINE):
                named = typed(got).split()
                assert all(named.count(c) <= yours.count(c) for c in named), (got, yours)
                named_seen.append(got)
            shown += 1
        # every other line is public or yours: none can hold another seat's cards
        for line in text.splitlines():
            if listed := MOVE_LINE.match(line):
                assert typed(listed.group(2)) in legal, line
            elif line.startswith("seat "):
                assert line in announced, line
            else:
                assert _YOURS_OR_PUBLIC.match(line) or not _CARD.search(line), line
    assert shown >= 5 and "Next hand?" in out.getvalue()
    assert "hint: " in out.getvalue() and "refused: " in out.getvalue()
    assert player.took and "  you took the pile (" in out.getvalue()
    assert any(x.count(" ") == 0 for x in named_seen)  # a draw of one card, named

    kinds: set[str] = set()
    for c in client.calls:
        for view in getattr(c.answer, "views", ()):
            assert view.seat == 0, (c.name, view.seat)  # only ever your own view
        if c.name in ("deal", "list_variants"):  # no game's credential to send yet, or ever
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


@pytest.mark.parametrize("refusals", [3, 4])
def test_a_call_refused_for_load_is_sent_again(refusals: int) -> None:
    """A busy server (a shared one, --server) refuses a SuggestMove for load and says when
    to retry: the table says so, waits, and sends it again, up to three times; refused a
    fourth time, the refusal is the call's answer: here the first SuggestMove is your hint,
    so the table says there is no hint and the game goes on."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import RETRIES, Table, build_parser

    from tests.busy import BusyAtFirst
    from tests.service.servers import running

    assert RETRIES == 3
    with running() as server, CanastaClient(server.grpc_target) as inner:
        busy = BusyAtFirst(inner, refusals, retry_after=0.01)
        client = _Recorder(busy)
        out = io.StringIO()
        args = build_parser().parse_args(["--players", "4", "--seed", "11", "--hands", "1"])
        table = Table(client, args, _Player(client, out), out)  # type: ignore[arg-type]
        assert table.play() == 0
    said = out.getvalue().count("(the server is busy: TOO_MANY_CALLS; trying again in 0.01 s)")
    assert said == min(refusals, RETRIES) and busy.refused == refusals
    suggested = [c for c in client.calls if c.name == "suggest_move"]
    assert suggested[0].token == table.mine and suggested[0].args[1] == "expert"  # the hint
    assert [c.answer is None for c in suggested[:5]] == [True] * refusals + [False] * (5 - refusals)
    assert ("no hint: TOO_MANY_CALLS: busy\n" in out.getvalue()) == (refusals > RETRIES)
    assert "Hand over: " in out.getvalue()



def test_a_retry_waits_at_most_the_sdks_longest_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """A retry hint is the server's word (or a proxy's): the table waits at most
    MAX_RETRY_WAIT on it, as the SDK's own retries and the web table do. It slept a day's
    hint through, the game frozen, the player told to wait 86400 s."""
    from canasta_client import MAX_RETRY_WAIT, CanastaClient
    from canasta_terminal import table as terminal

    from tests.busy import BusyAtFirst
    from tests.service.servers import running

    slept: list[float] = []
    # the table's own time alone: the in-process server's threads keep the real sleep
    monkeypatch.setattr(terminal, "time", SimpleNamespace(sleep=slept.append))
    with running() as server, CanastaClient(server.grpc_target) as inner:
        busy = BusyAtFirst(inner, 1, retry_after=86400.0)
        client = _Recorder(busy)
        out = io.StringIO()
        args = terminal.build_parser().parse_args(["--players", "4", "--seed", "11", "--hands", "1"])
        table = terminal.Table(client, args, _Player(client, out), out)  # type: ignore[arg-type]
        assert table.play() == 0
    assert slept == [MAX_RETRY_WAIT] and busy.refused == 1
    assert f"trying again in {MAX_RETRY_WAIT:g} s)" in out.getvalue()


def test_a_seed_you_did_not_choose_is_never_shown() -> None:
    """The deal's seed decides every hand of the game (docs/security.md), so the table
    shows it only when you chose it: without ``--seed`` it deals from a random 64-bit seed
    that no line of the screen names, and the bots and hints use another seed."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser

    from tests.service.servers import running

    with running() as server, CanastaClient(server.grpc_target) as inner:
        client = _Recorder(inner)
        out = io.StringIO()
        args = build_parser().parse_args(["--players", "2", "--hands", "1"])
        table = Table(client, args, _Player(client, out), out)  # type: ignore[arg-type]
        assert table.play() == 0
    (dealt,) = [c for c in client.calls if c.name == "deal"]
    seed = dealt.kwargs["seed"]
    suggested = {c.args[2] for c in client.calls if c.name == "suggest_move"}
    assert suggested and seed not in suggested
    screen = out.getvalue()
    assert "2 players; you are seat 0, the bots play greedy." in screen
    assert "seed" not in screen and str(seed) not in screen


@pytest.mark.parametrize("given", ["-5", str(2**64), "abc"])
def test_a_seed_out_of_range_is_refused_by_the_parser(
        given: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The API's seed is a uint64: a negative or too large ``--seed`` is a usage error
    (exit 2, a sentence), not a ValueError traceback from the request's encoding."""
    from canasta_terminal.table import main

    with pytest.raises(SystemExit) as exited:
        main(["--seed", given, "--server", "127.0.0.1:1"], io.StringIO(), io.StringIO())
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--seed" in err and "Traceback" not in err


@pytest.mark.parametrize(("flag", "given"), [("--hands", "-1"), ("--hands", "two"),
                                             ("--players", "0"), ("--players", "-2")])
def test_a_count_out_of_range_is_refused_by_the_parser(
        flag: str, given: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--hands -1`` (it played one hand) and ``--players 0`` (it said "there is no seat 0 at
    a 0-player table") are usage errors naming the flag (exit 2)."""
    from canasta_terminal.table import main

    with pytest.raises(SystemExit) as exited:
        main([flag, given, "--server", "127.0.0.1:1"], io.StringIO(), io.StringIO())
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert flag in err and "Traceback" not in err


def test_a_players_count_the_game_does_not_have_is_refused_by_the_deal() -> None:
    """``--players 1``: the service's refusal, with the game's range (classic is for 2 to 6,
    docs/rules-classic.md); a seat past a real table's last is named as such."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser

    from tests.service.servers import running

    with running() as server, CanastaClient(server.grpc_target) as client:
        said = []
        for argv in (["--players", "1"], ["--players", "4", "--seat", "4"]):
            out = io.StringIO()
            table = Table(client, build_parser().parse_args(argv), io.StringIO(), out)
            assert table.play() == 2
            said.append(out.getvalue().strip())
    assert said[0] == "cannot deal: BAD_PLAYER_COUNT: classic canasta is for 2 to 6 players, not 1", said
    assert said[1] == "there is no seat 4 at a 4-player table", said


def test_the_largest_seed_deals() -> None:
    from canasta_terminal.table import SEED_MAX, build_parser

    assert build_parser().parse_args(["--seed", str(SEED_MAX)]).seed == SEED_MAX


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_a_server_that_is_not_running_is_named_in_a_sentence() -> None:
    """``--server`` where nothing listens: the table says which server it cannot reach
    and what to check, not gRPC's bare status and exit 2 of a refused deal."""
    from canasta_terminal.table import main

    target = f"127.0.0.1:{_closed_port()}"
    out = io.StringIO()
    assert main(["--server", target, "--seed", "1"], io.StringIO(), out) == 1
    said = out.getvalue().splitlines()[-1]
    assert said.startswith(f"error: the server at {target} cannot be reached, so the game "
                           "cannot go on ("), said
    assert said.endswith(f"is it running, and is {target} its gRPC address (not its HTTP one)?")


class _GoneAfterDeal:
    """A client whose server deals, then goes away (UNAVAILABLE, as gRPC says it)."""

    def __init__(self, target: str, timeout: float) -> None:
        from canasta.v1 import engine_service_pb2 as api

        self.dealt = api.DealResponse(snapshot=b"s", host_token="h", seat_tokens=["a", "b"])

    def __enter__(self) -> _GoneAfterDeal:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def deal(self, *args: Any, **kwargs: Any) -> Any:
        return self.dealt

    def __getattr__(self, name: str) -> Any:
        import grpc
        from canasta_client import UnavailableError

        def gone(*args: Any, **kwargs: Any) -> Any:
            raise UnavailableError(grpc.StatusCode.UNAVAILABLE, "Stream removed (Socket closed)")

        return gone


def test_the_server_going_away_mid_game_is_said_in_a_sentence(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from canasta_terminal import table

    monkeypatch.setattr(table, "CanastaClient", _GoneAfterDeal)
    out = io.StringIO()
    assert table.main(["--server", "127.0.0.1:18599", "--players", "2", "--seed", "1"],
                      io.StringIO(), out) == 1
    said = out.getvalue().splitlines()[-1]
    assert said == ("error: the server at 127.0.0.1:18599 cannot be reached, so the game cannot"
                    " go on (Stream removed (Socket closed)); is it running, and is "
                    "127.0.0.1:18599 its gRPC address (not its HTTP one)?"), said


class _NoHints:
    """A client whose server cannot give an expert's move in time (its search on a busy
    shared server): SuggestMove at the expert level runs past its deadline."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def suggest_move(self, snapshot: bytes, level: str, *args: Any, **kw: Any) -> Any:
        import grpc
        from canasta_client import DeadlineExceededError

        if level == "expert":
            raise DeadlineExceededError(grpc.StatusCode.DEADLINE_EXCEEDED, "Deadline Exceeded",
                                        reason="DEADLINE_EXCEEDED")
        return self.inner.suggest_move(snapshot, level, *args, **kw)


def test_a_hint_the_server_cannot_give_leaves_the_game_going() -> None:
    """A hint is help, not a move: when the server cannot give one, the table says so and
    you play on (it ended the game with "error: DEADLINE_EXCEEDED")."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser

    from tests.service.servers import running

    with running() as server, CanastaClient(server.grpc_target) as inner:
        client = _Recorder(_NoHints(inner))  # the bots play random: only hints are expert's
        out = io.StringIO()
        args = build_parser().parse_args(["--players", "2", "--seed", "4", "--hands", "1",
                                          "--bot", "random"])
        table = Table(client, args, _Player(client, out), out)  # type: ignore[arg-type]
        assert table.play() == 0
    screen = out.getvalue()
    assert "no hint: DEADLINE_EXCEEDED: Deadline Exceeded\n" in screen, screen
    assert "Hand over: " in screen


def test_a_face_is_typed_in_any_case() -> None:
    """The service reads "discard ac" as "discard AC"; the table read "discard a♣" as a
    card code 'a♣' the service refused (BAD_CARD)."""
    from canasta_terminal.table import typed

    assert typed("discard a♣") == "discard AC"
    assert typed("meld q♥ Q♦ k♠") == "meld QH QD KS"
    assert typed("discard jk") == "discard JK" and typed("discard JK") == "discard JK"
    assert typed("take 10♥ / j♦") == "take TH / JD"


def test_a_pile_of_one_card_is_one_card() -> None:
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import Style, _event_text

    one = game.Event(type=game.EVENT_TYPE_PILE_TAKEN, seat=1, cards=["6S"], count=1)
    assert _event_text(one, 1, Style(symbols=True)) == "  you took the pile (1 card): 6♠"
    assert _event_text(one, 0, Style(symbols=True)) == "  seat 1 took the pile (1 card)"


def test_the_winner_is_named_as_the_table_names_sides() -> None:
    """The score names a side "seat 1" (one player) or "team 1" (partners): so does the
    game's end, which said "side 1 wins", a name shown nowhere else."""
    from canasta.v1 import engine_service_pb2 as api
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render_score

    solo = api.ScoreHandResponse(went_out=1, game_over=True, winner=1, sides=[
        game.SideScore(team=0, seats=[0]), game.SideScore(team=1, seats=[1])])
    assert render_score(solo, 0, "classic").endswith("\nGame over: seat 1 wins.")
    teams = api.ScoreHandResponse(went_out=1, game_over=True, winner=1, sides=[
        game.SideScore(team=0, seats=[0, 2]), game.SideScore(team=1, seats=[1, 3])])
    assert render_score(teams, 0, "classic").endswith("\nGame over: team 1 wins.")
    assert render_score(teams, 1, "classic").endswith("\nGame over: you win.")


def test_the_score_names_each_sides_canastas_by_kind() -> None:
    """Under a side's row, its canastas by kind with their bonuses, as the score tallies
    them (``ScoreBreakdown.canastas``): the score said the bonuses' sum alone, not which
    canastas made it (two sambas or six natural canastas). A score without tallies (a hand
    an older server scored) says the natural and mixed counts; a side with none, no line."""
    from canasta.v1 import engine_service_pb2 as api
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render_score

    def side(team: int, seats: list[int], tallies: list[tuple[str, int, int]],
             natural: int = 0, mixed: int = 0) -> game.SideScore:
        canastas = [game.CanastaTally(kind=k, count=n, bonus=b) for k, n, b in tallies]
        return game.SideScore(team=team, seats=seats, breakdown=game.ScoreBreakdown(
            natural_canastas=natural, mixed_canastas=mixed, canastas=canastas,
            canasta_bonus=sum(b for _, _, b in tallies)))

    samba = api.ScoreHandResponse(went_out=0, sides=[
        side(0, [0, 2], [("natural", 1, 500), ("samba", 2, 3000)], natural=3),
        side(1, [1, 3], [("mixed", 1, 300)], mixed=1)])
    lines = render_score(samba, 0, "samba").splitlines()
    assert lines[3] == "    canastas: 1 natural canasta 500, 2 sambas 3000", lines
    assert lines[5] == "    canastas: 1 mixed canasta 300", lines
    bolivia = api.ScoreHandResponse(went_out=1, sides=[
        side(0, [0], [("escalera", 1, 2000), ("bolivia", 2, 5000)], natural=1, mixed=2),
        side(1, [1], [])])
    lines = render_score(bolivia, 0, "bolivia").splitlines()
    assert lines[3] == "    canastas: 1 escalera 2000, 2 bolivias 5000", lines
    assert len(lines) == 5 and not lines[4].startswith("    "), lines  # none: no line
    older = api.ScoreHandResponse(went_out=1, sides=[
        side(0, [0], [], natural=2, mixed=1), side(1, [1], [], mixed=1)])
    lines = render_score(older, 0, "classic").splitlines()
    assert lines[3] == "    canastas: 2 natural canastas, 1 mixed canasta", lines
    assert lines[5] == "    canastas: 1 mixed canasta", lines


def test_the_screen_says_what_ends_the_game() -> None:
    """The score that ends the game (``SeatView.target_score``: CL-GAME-1, SA-GAME-1,
    BO-GAME-1) under the scores, or which hand this is of how many where a number of deals
    ends it (``SeatView.deals``: SV-GAME-1, MI-GAME-1); the table said neither."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import render

    from tests.service.servers import running

    screens = {}
    with running() as server, CanastaClient(server.grpc_target) as client:
        for variant, players, options in (("classic", 2, {}), ("samba", 4, {}),
                                          ("bolivia_sevens", 4, {}),
                                          ("may_i", 3, {"schedule": "sr,rr"})):
            dealt = client.deal(variant, players, seed=3, options=options, view_seat=0)
            view = client.view(dealt.snapshot, 0, token=dealt.seat_tokens[0]).views[0]
            screens[variant] = render(view, 0).splitlines()
    assert screens["classic"][1:3] == ["Scores: you: 0 · seat 1: 0",
                                       "The game is played to 5000."], screens["classic"]
    assert screens["samba"][2] == "The game is played to 10000.", screens["samba"]
    assert screens["bolivia_sevens"][0].startswith(
        "--- bolivia_sevens · 4 players · hand 1 of 4 · dealer seat "), screens["bolivia_sevens"]
    assert screens["may_i"][0].startswith("--- may_i · 3 players · hand 1 of 2 · ")
    for variant in ("classic", "samba"):
        assert " of " not in screens[variant][0], screens[variant]
    for variant in ("bolivia_sevens", "may_i"):
        assert not [x for x in screens[variant] if "played to" in x], screens[variant]


def test_a_hand_past_the_last_deal_is_one_after_a_tie() -> None:
    """Bolivia with sevens plays on after four deals only when the totals are equal and
    ``tie_policy`` is ``play_on`` (SV-GAME-1): the fifth hand is no "hand 5 of 4"."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render

    view = game.SeatView(variant="bolivia_sevens", players=4, hand_no=4, deals=4)
    assert render(view, 0).startswith("--- bolivia_sevens · 4 players · hand 5 (another after "
                                      "a tie) · ")
    view.hand_no = 3
    assert render(view, 0).startswith("--- bolivia_sevens · 4 players · hand 4 of 4 · ")


def test_melds_are_named_as_the_moves_name_them() -> None:
    """A side's second meld of queens is ``Q#2`` in its moves (``add Q#2 QC``, ``merge Q
    Q#2``) and a May I? meld ``seat:index`` (``layoff 2:1 9D``): the table named both by
    their rank only ("[Q] … | [Q] …"), so a move could not be told to its meld."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render

    queens = game.SideView(team=0, seats=[0, 2], melds=[
        game.MeldView(rank="Q", label="Q", cards=["QS", "QH", "QD"]),
        game.MeldView(rank="Q", label="Q#2", cards=["QC", "QC", "JK"]),
        game.MeldView(rank="S", label="S:5-8", kind="sequence", cards=["5S", "6S", "7S", "8S"])])
    screen = render(game.SeatView(variant="samba", players=4, sides=[queens]), 0)
    assert "  team 0 (you), seats 0 2: [Q] QS QH QD | [Q#2] QC QC JK | [S:5-8] 5S 6S 7S 8S\n" \
        in screen, screen
    may_i = [game.SideView(team=s, seats=[s]) for s in range(3)]
    may_i[2].melds.extend([game.MeldView(rank="9", cards=["9S", "9H", "9C"]),
                           game.MeldView(rank="H", kind="sequence",
                                         cards=["4H", "5H", "6H", "7H"])])
    screen = render(game.SeatView(variant="may_i", players=3, sides=may_i), 0)
    assert "  seat 2: [2:0] 9S 9H 9C | [2:1] 4H 5H 6H 7H\n" in screen, screen


def test_each_canasta_is_named_as_its_game_names_it() -> None:
    """A samba and an escalera were "(natural canasta)" on the screen and a bolivia "(mixed
    canasta)": the table read ``MeldView.canasta``, natural or mixed only. It reads
    ``canasta_kind`` (SA-SEQ-5, BO-SEQ-2, BO-WILD-2) in the web table's words; a meld that
    is no canasta has no name (the service's cases of each game's canastas)."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import render

    from tests.service.servers import running
    from tests.service.test_view_rule_counts import KINDS, kinds_position

    words = {"natural": "natural canasta", "mixed": "mixed canasta", "": None}
    with running() as server, CanastaClient(server.grpc_target) as client:
        for variant, melds, kinds in KINDS:
            view = client.import_position(kinds_position(variant, melds), view_seat=0).views[0]
            line = next(x for x in render(view, 0).splitlines() if x.startswith("  team 0 "))
            shown = dict(re.fullmatch(r"\[(.+?)\] [^(]*?(?: \((.+)\))?", meld).groups()  # type: ignore[union-attr]
                         for meld in line.split(": ", 1)[1].split(" | "))
            assert shown == {label: words.get(kind, kind) for label, kind in kinds.items()}, line


@pytest.mark.parametrize("errors", ["surrogateescape", "strict"])
def test_a_line_that_is_not_text_is_no_crash(errors: str) -> None:
    """A byte the terminal's encoding does not have (a Latin-1 key, a paste): an input
    that keeps it as a lone surrogate (a C or POSIX locale) made the move's encoding fail,
    a strict one its reading, both with a traceback. Now the service refuses the move,
    with its reason, or the table says it could not read the line; the game goes on with
    the next line: a strict input's decoder failed on the whole chunk it had read, so the
    lines piped or pasted after the bad one were lost and the table ended as at the input's
    end ("help" and "quit" below were never read)."""
    from canasta_terminal.table import main

    from tests.service.servers import running

    inp = io.TextIOWrapper(io.BytesIO(b"discard \xff\nhelp\nquit\n"), encoding="utf-8",
                           errors=errors)
    out = io.StringIO()
    with running() as server:
        code = main(["--server", server.grpc_target, "--players", "2", "--seed", "5"],
                    inp=inp, out=out)
    text = out.getvalue()
    assert code == 0, text
    said = ("refused: BAD_CARD: " if errors == "surrogateescape"
            else "(that line is not text in the terminal's encoding)")
    assert f"your move> {said}" in text, text
    assert "\n  quit            leave the table\n" in text, text  # help's answer
    assert text.endswith("your move> bye\n"), text  # quit, not the input's end

class _GoneAtYourMove:
    """A real server's client whose server goes away as your move is sent (UNAVAILABLE)."""

    def __init__(self, target: str, timeout: float) -> None:
        from canasta_client import CanastaClient

        self.client = CanastaClient(target, timeout=timeout)

    def __enter__(self) -> _GoneAtYourMove:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.client, name)

    def apply_move(self, *args: Any, **kwargs: Any) -> Any:
        import grpc
        from canasta_client import UnavailableError

        if kwargs.get("seat") is None:  # yours: the bots' name their seat
            raise UnavailableError(grpc.StatusCode.UNAVAILABLE, "Stream removed (Socket closed)")
        return self.client.apply_move(*args, **kwargs)


def test_the_server_going_away_at_your_move_is_no_refusal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Your move got no answer: the table said "refused: UNAVAILABLE: …" as if the service
    had refused the move, and asked for a move again. Now it says, as for any other call,
    that the server cannot be reached and the game cannot go on."""
    from canasta_terminal import table

    from tests.service.servers import running

    monkeypatch.setattr(table, "CanastaClient", _GoneAtYourMove)
    out = io.StringIO()
    with running() as server:
        target = server.grpc_target
        code = table.main(["--server", target, "--players", "2", "--seed", "5"],
                          io.StringIO("draw\nquit\n"), out)
    text = out.getvalue()
    assert code == 1, text
    assert "refused: " not in text, text
    assert text.endswith(  # after the prompt: your move is not echoed here
        f"your move> error: the server at {target} cannot be reached, so the game cannot go on (Stream "
        f"removed (Socket closed)); is it running, and is {target} its gRPC address (not its "
        "HTTP one)?\n"), text


def test_your_seat_is_you_on_every_line() -> None:
    """Every line says "you" for your seat, as the table's other lines do: the hand's end
    said "Hand over: seat 0 went out", a red three you laid "seat 0 laid red threes", the
    screen of a hand you deal "dealer seat 0", in every variant."""
    from canasta.v1 import engine_service_pb2 as api
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import PLAIN, _event_text, render, render_score

    for variant, seats in (("may_i", [[0], [1], [2]]), ("classic", [[0], [1]]),
                           ("classic", [[0, 2], [1, 3]])):
        sides = [game.SideScore(team=t, seats=s) for t, s in enumerate(seats)]
        for concealed, out in ((False, "you went out"), (True, "you went out concealed")):
            score = api.ScoreHandResponse(went_out=0, concealed=concealed, sides=sides)
            assert render_score(score, 0, variant).startswith(f"Hand over: {out}\n")
        score = api.ScoreHandResponse(went_out=1, sides=sides)
        assert render_score(score, 0, variant).startswith("Hand over: seat 1 went out\n")
    laid = game.Event(type=game.EVENT_TYPE_RED_THREES_LAID, seat=0, cards=["3H"])
    assert _event_text(laid, 0, PLAIN) == "  you laid red threes 3H"
    assert _event_text(laid, 1, PLAIN) == "  seat 0 laid red threes 3H"
    taken = game.Event(type=game.EVENT_TYPE_PILE_TAKEN, seat=0, count=4)  # no cards told
    assert _event_text(taken, 0, PLAIN) == "  you took the pile (4 cards)"
    for variant, players in (("classic", 4), ("may_i", 3)):
        view = game.SeatView(variant=variant, players=players, dealer=0)
        assert render(view, 0).startswith(f"--- {variant} · {players} players · hand 1 · "
                                          "you deal · you are seat 0 ---\n")
        view.dealer = 1
        assert " · dealer seat 1 · you are seat 0 ---\n" in render(view, 0)


def test_a_buy_names_the_card_bought() -> None:
    """May I? (MI-BUY-2): a buy takes the pile's top, which every seat sees; the table said
    "seat 2 (random): buy" and "you: buy" without it. Each buy line names that card, the top
    of the pile before the buy (the host's view of the snapshot bought from, read here)."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser

    from tests.service.servers import running

    with running() as server, CanastaClient(server.grpc_target) as inner:
        client = _Recorder(inner)
        out = io.StringIO()
        args = build_parser().parse_args(["--variant", "may_i", "--players", "3", "--seed", "3",
                                          "--hands", "1", "--bot", "random"])
        table = Table(client, args, _Player(client, out), out)  # type: ignore[arg-type]
        assert table.play() == 0
        host = client.calls[0].answer.host_token
        bought = [(c.answer.seat, inner.view(c.args[0], token=host).views[0].pile_top)
                  for c in client.calls
                  if c.name == "apply_move" and c.answer and c.answer.move.text == "buy"]
    lines = out.getvalue().replace("your move> ", "").splitlines()
    style = table.style
    said = [x for x in lines if re.match(r"^(you|seat \d \(random\)): buys? ", x)]
    assert said == [f"you: buy {style.card(top)}" if seat == 0
                    else f"seat {seat} (random): buys {style.card(top)}"
                    for seat, top in bought], said
    assert {seat == 0 for seat, _ in bought} == {True, False}  # yours and the bots'
    assert not [x for x in lines if x.endswith(": buy")], lines


class _PartnerAsks:
    """A client whose bots play as the server suggests, but for your partner (seat 2),
    who asks "may I go out?" at the first turn it may (a bot may ask: ``ask`` is a move)."""

    def __init__(self, inner: Any, host: list[str]) -> None:
        self.inner = inner
        self.host = host  # the host token, once the table has dealt
        self.asked = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def deal(self, *args: Any, **kwargs: Any) -> Any:
        dealt = self.inner.deal(*args, **kwargs)
        self.host.append(dealt.host_token)
        return dealt

    def suggest_move(self, snapshot: bytes, *args: Any, **kwargs: Any) -> Any:
        from canasta.v1 import game_pb2 as game

        suggested = self.inner.suggest_move(snapshot, *args, **kwargs)
        legal = self.inner.legal_moves(snapshot, token=self.host[0])
        if suggested.seat == 2 and not self.asked and "ask" in [m.text for m in legal.moves]:
            self.asked = True
            suggested.move.CopyFrom(game.Move(text="ask"))
        return suggested


class _Asker(_Player):
    """A player who asks "may I go out?" at the first turn they may, and says yes when
    asked (as ``_Player`` does)."""

    asked = False

    def readline(self) -> str:
        answer = super().readline()
        if not self.asked and "ask" in self.moves:
            self.asked = True
            return "ask\n"
        return answer


@pytest.mark.parametrize("options,yes", [
    ((), "they must go out this turn if they can"),
    (("permission_yes=advisory",), "they may go out this turn, but need not"),
    (("penalties=true",), "they must go out this turn if they can (your side loses 100 if "
                          "they do not)"),
    (("permission_yes=penalty", "penalties=true"), "they should go out this turn (your side "
                                                   "loses 100 if they do not)")])
def test_a_question_to_go_out_is_said_from_the_view(options: tuple[str, ...], yes: str) -> None:
    """CL-OUT-4: a player may ask their partner "may I go out?". The table showed only
    the log's "seat 2 (greedy): ask" and then "yes"/"no" as your moves, and "you: ask" when
    you asked. From the view's ``asked`` and ``answer`` it now says that your partner asks
    and what your answers mean (CL-OUT-5: a "yes" obliges as ``permission_yes`` says, with
    ``penalties`` 100 for a "yes" not followed by going out; CL-OUT-6: "no" forbids going out
    this turn), that you wait for your partner's answer, and what the answer obliges you to."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser

    from tests.service.servers import running

    with running() as server, CanastaClient(server.grpc_target) as inner:
        client = _Recorder(_PartnerAsks(inner, []))
        out = io.StringIO()
        args = build_parser().parse_args(["--players", "4", "--seed", "11", "--hands", "1",
                                          *(f"--option={o}" for o in options)])
        player = _Asker(client, out)
        assert Table(client, args, player, out).play() == 0  # type: ignore[arg-type]
    text = out.getvalue()
    assert player.asked and client.inner.asked
    assert ("your move> you: ask\n"
            'You asked your partner (seat 2): "May I go out?" Waiting for their answer.\n'
            "seat 2 (greedy): ") in text, text
    answer = re.search(r"^seat 2 \(greedy\): (yes|no)\n--- classic(?:.*\n)*?"
                       r"Your partner answered (yes|no) to \"May I go out\?\": (.*)\.\nYour moves:",
                       text, re.MULTILINE)
    assert answer and answer[1] == answer[2], text
    assert answer[3] == ("you may not go out this turn" if answer[1] == "no"
                         else yes.replace("they", "you")), text
    assert ("\nYour partner (seat 2) asks you: \"May I go out?\" Answer yes or no:\n"
            f"  yes: {yes}\n"
            "  no:  they may not go out this turn\n"
            "Your moves:\n  1) yes\n  2) no\nyour move> you: yes\n") in text, text
    # once you answered, the question is your partner's to heed: your screens say no more
    assert '"May I go out?"' not in text.split("your move> you: yes\n", 1)[1], text


def test_the_screen_says_what_a_first_meld_needs() -> None:
    """CL-MIN-1 (SA-INIT-1, BO-INIT-1): a side's first meld needs its minimum, from its
    score (``SideView.minimum``), until it is made (``opened``). The screen said neither,
    and a meld short of it was refused "the melds of this turn do not reach the minimum"
    without a number anywhere. May I?, whose view has no minimum, shows none."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render

    sides = [game.SideView(team=0, seats=[0, 2], minimum=90, red_threes=["3D"]),
             game.SideView(team=1, seats=[1, 3], minimum=50, opened=True,
                           melds=[game.MeldView(rank="K", label="K", cards=["KS", "KH", "KD"])])]
    screen = render(game.SeatView(variant="classic", players=4, sides=sides), 0)
    assert "\n  team 0 (you), seats 0 2: - · first meld needs 90 points · red threes 3D\n" \
        "  team 1, seats 1 3: [K] KS KH KD\n" in screen, screen
    may_i = [game.SideView(team=s, seats=[s]) for s in range(3)]
    screen = render(game.SeatView(variant="may_i", players=3, sides=may_i), 0)
    assert "needs" not in screen, screen


def test_a_hands_end_says_each_sides_next_minimum() -> None:
    """CL-MIN-1 (SA-INIT-1, BO-INIT-1, SV-INIT-1): at a hand's end the screen gave the
    scores alone, and the next hand's minimum (from the new total by the game's bands) only
    once that hand was dealt. The view's ``next_minimum`` gives it now; none while a hand is
    played, at the game's end, and in May I? (every such view gives 0)."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import next_minimum_line

    sides = [game.SideView(team=0, seats=[0, 2], minimum=50, next_minimum=90),
             game.SideView(team=1, seats=[1, 3], minimum=90, next_minimum=15)]
    assert next_minimum_line(game.SeatView(sides=sides), 1) == \
        "Next hand, first meld needs: team 0, seats 0 2: 90 points · " \
        "team 1 (you), seats 1 3: 15 points"
    solo = [game.SideView(team=s, seats=[s], next_minimum=50) for s in range(3)]
    assert next_minimum_line(game.SeatView(sides=solo), 2) == \
        "Next hand, first meld needs: seat 0: 50 points · seat 1: 50 points · you: 50 points"
    played = [game.SideView(team=s, seats=[s], minimum=50) for s in range(2)]
    assert next_minimum_line(game.SeatView(sides=played), 0) == ""


def test_cutthroat_partners_meld_together_on_the_screen() -> None:
    """CL-P3-2: in cutthroat for three, once a seat has taken the pile the two others are
    partners and meld on one side (``SeatView.meld_side``; ``lone_hand`` names the taker).
    The screen listed the three scoring sides, the pair's melds under one partner and "-"
    under the other, and nothing said who plays alone or with whom."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render

    meld = game.MeldView(rank="K", label="K", cards=["KS", "KH", "KD"])
    sides = [game.SideView(team=0, seats=[0], opened=True, melds=[meld]),
             game.SideView(team=1, seats=[1], minimum=50),
             game.SideView(team=2, seats=[2], minimum=50, pile_frozen=True)]
    reds = [game.SeatCards(cards=c) for c in (["3D"], [], ["3H"])]
    view = game.SeatView(variant="classic", players=3, sides=sides, meld_side=[0, 1, 0],
                         lone_hand=1, seat_red_threes=reds, pile_size=3)
    screen = render(view, 2)
    assert "Melds:\n  seat 0 & you: [K] KS KH KD · red threes 3D 3H\n" \
        "  seat 1, alone: - · first meld needs 50 points\nCards held:" in screen, screen
    assert "frozen" not in screen, screen  # your side is the pair's, opened
    before = game.SeatView(variant="classic", players=3, sides=sides, meld_side=[0, 1, 2],
                           lone_hand=-1, seat_red_threes=reds, pile_size=3)
    screen = render(before, 2)
    assert "\n  you: - · first meld needs 50 points · red threes 3H\nCards held:" in screen
    assert "frozen for your side" in screen and "alone" not in screen, screen


class _Buyer(_Player):
    """A player who buys when offered (as ``_Player`` does) and leaves after two buys: a
    ``_Player``, who never goes down, may play a May I? hand on and on."""

    bought = 0

    def readline(self) -> str:
        answer = super().readline()
        if self.bought == 2:
            return "quit\n"
        self.bought += answer == "buy\n"
        return answer


def _buyers_hand(options: tuple[str, ...]) -> str:
    """The screen of one May I? hand for three (seed 3, random bots) that ``_Buyer`` plays
    with ``options``."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser

    from tests.service.servers import running

    with running() as server, CanastaClient(server.grpc_target) as inner:
        client = _Recorder(inner)
        out = io.StringIO()
        args = build_parser().parse_args(["--variant", "may_i", "--players", "3", "--seed", "3",
                                          "--hands", "1", "--bot", "random",
                                          *(f"--option={o}" for o in options)])
        table = Table(client, args, _Buyer(client, out), out)  # type: ignore[arg-type]
        assert table.play() == 0
    return out.getvalue()


@pytest.mark.parametrize("options,penalty", [((), "1 penalty card"),
                                             (("buy_penalty_cards=2",), "2 penalty cards"),
                                             (("mayi.buy_penalty_cards=2",), "2 penalty cards")])
def test_a_buy_offered_to_you_says_what_it_is(options: tuple[str, ...], penalty: str) -> None:
    """MI-BUY-1/2: in the buy window the table listed only "1) buy 2) pass", naming neither
    the card nor its cost. From the view (``phase``, ``awaited``, ``turn_seat``,
    ``pile_top``) it now says who declined which card and what a buy takes and costs (the
    card, ``buy_penalty_cards`` from the stock, no discard and no turn)."""
    text = _buyers_hand(options)
    screens = [x for x in text.split("\n--- may_i ")[1:] if "Your moves:\n  1) buy\n" in x]
    assert screens, text
    for screen in screens:
        top = re.search(r" · top (\S+)\n", screen)
        offer = re.search(r"\nMay I\? seat [12] draws from the stock instead of taking (\S+):\n"
                          r"  buy:  you take (\S+) and (.+) from the stock \(no discard, no "
                          r"turn\)\n  pass: you leave it\nYour moves:\n", screen)
        assert top and offer, screen
        assert offer.groups() == (top[1], top[1], penalty), screen


def test_a_pass_in_the_buy_window_names_the_card() -> None:
    """May I? (MI-BUY-1): a pass declines the pile's top, as a buy takes it; the table said
    "seat 2 (random): pass", a word a new player could not tell from a pass of the turn."""
    from canasta_terminal.table import PLAIN, Style, _move_line

    style = Style(symbols=True)
    assert _move_line("seat 2 (random)", "pass", "7C", style) == "seat 2 (random): passes on 7♣"
    assert _move_line("you", "pass", "TH", PLAIN) == "you: pass on TH"
    assert _move_line("seat 1 (random)", "buy", "7C", style) == "seat 1 (random): buys 7♣"


def _table(argv: list[str], typed_in: str) -> str:
    """The screen of a table against a running server, given what is typed."""
    from canasta_terminal.table import main

    from tests.service.servers import running

    out = io.StringIO()
    with running() as server:
        code = main(["--server", server.grpc_target, *argv], inp=io.StringIO(typed_in), out=out)
    assert code == 0, out.getvalue()
    return out.getvalue()


def test_a_seat_sitting_out_the_hand_is_said_to() -> None:
    """CL-P5-1, CL-P5-2, CL-P5-4: with five players seats 0 and 2 play against two of 1, 3
    and 4, in rotation; the idle seat holds nothing. The screen said "seat 4: 0" under "Cards
    held" and listed seat 4 among its team's players; it now says seat 4 sits out (from
    the view's ``seats_in_play``), and the team's melds are its two players'.
    Its score is still the team's, seat 4 with it (CL-P5-5)."""
    text = _table(["--players", "5", "--seed", "2"], "quit\n")
    assert "\nCards held: seat 1: 11 · seat 2: 11 · seat 3: 11 · seat 4 sits out this hand\n" \
        in text, text
    assert "Scores: team 0 (you), seats 0 2: 0 · team 1, seats 1 3 4: 0\n" in text, text
    assert "\n  team 1, seats 1 3: - · first meld needs 50 points\n" in text, text


def test_the_hand_you_sit_out_is_said_to_be() -> None:
    """CL-P5-2: seat 4 sits out the first hand of five players; the table showed the bots'
    moves, then the score, and never why you had no turn."""
    text = _table(["--players", "5", "--seed", "2", "--seat", "4", "--hands", "1"], "")
    assert text.split("\n")[1:3] == [
        "classic, 5 players, seed 2; you are seat 4, the bots play greedy.",
        "You sit out this hand: seats 0 1 2 3 play it."], text
    assert "your move> " not in text and "Hand over: " in text, text


def test_the_seats_out_of_a_rotation_of_six_are_said_to_sit_out() -> None:
    """CL-P6-11: six players with p6_mode=rotation play four at a time, seats 0 to 3 in the
    first hand. ListVariants' ``seats_in_play`` is the default options' (all six play), so
    the table showed seats 4 and 5 as holding 0 cards and never told seat 4 why it had no
    turn; the view's ``seats_in_play`` says who plays the hand as dealt."""
    options = ["--players", "6", "--option", "p6_mode=rotation", "--seed", "2"]
    text = _table(options, "quit\n")
    assert "\nCards held: seat 1: 11 · seat 2: 11 · seat 3: 11 · seat 4 sits out this hand · " \
        "seat 5 sits out this hand\n" in text, text
    assert "\n  team 0 (you), seats 0 2: - · first meld needs 50 points\n" in text, text
    text = _table([*options, "--seat", "4", "--hands", "1"], "")
    assert "\nYou sit out this hand: seats 0 1 2 3 play it.\n" in text, text
    assert "your move> " not in text and "Hand over: " in text, text


def test_who_sits_out_is_the_views_seats_in_play() -> None:
    """The seats not in the view's ``seats_in_play`` sit the hand out, whatever the hand's
    number; a view without it (a server before the field) says no one does."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render, sitting_out

    view = game.SeatView(variant="classic", players=5, hand_no=4, dealer=2,
                         hand_sizes=[11, 11, 11, 0, 11], seats_in_play=[0, 1, 2, 4])
    assert sitting_out(view) == {3}
    assert "· seat 3 sits out this hand · seat 4: 11\n" in render(view, 0)
    del view.seats_in_play[:]
    assert sitting_out(view) == frozenset()
    assert "sits out" not in render(view, 0)


def _rules(text: str) -> list[str]:
    """Each screen's "Rules:" line of a table's output, its wrapped lines joined."""
    return [" ".join(m.split()) for m in re.findall(r"^Rules: .*(?:\n  .*)*", text, re.M)]


@pytest.mark.parametrize("argv,rules", [
    (["--players", "4", "--seed", "11"],
     "draw the top card from the stock · to go out, your side needs a canasta · a meld of one "
     "rank holds at most 3 wild cards"),
    (["--players", "2", "--seed", "1", "--option", "p2_draw_count=3"],
     "draw 3 cards from the stock · to go out, your side needs 2 canastas · a meld of one rank "
     "holds at most 3 wild cards"),
    (["--variant", "bolivia", "--players", "4", "--seed", "3",
      "--option", "bolivia.unlimited_wilds_in_groups=true"],
     "draw 2 cards from the stock · a meld of one rank holds at most 18 wild cards"),
    (["--variant", "may_i", "--players", "3", "--seed", "3"], "draw the top card from the stock"),
    # BO-C1: going out with bolivia.going_out=hoyle needs an escalera among the two canastas
    # (the view's out_needs_sequence; the screen said only "2 canastas")
    (["--variant", "bolivia", "--players", "4", "--seed", "3",
      "--option", "bolivia.going_out=hoyle"],
     "draw 2 cards from the stock · to go out, your side needs 2 canastas, one of them an "
     "escalera · a meld of one rank holds at most 2 wild cards"),
    (["--variant", "bolivia_sevens", "--players", "4", "--seed", "3",
      "--option", "bolivia.going_out=hoyle"],
     "draw 2 cards from the stock · to go out, your side needs 2 canastas, one of them an "
     "escalera · a meld of one rank holds at most 2 wild cards")])
def test_the_screen_says_the_games_counts_as_dealt(argv: list[str], rules: str) -> None:
    """The cards a stock draw takes, the canastas a side needs to go out and the most wild
    cards in a meld of one rank, as the game was dealt, its options applied (the view's
    ``draw_count``, ``canastas_to_go_out`` and ``wild_limit``: classic for two with
    ``p2_draw_count=3`` draws 3, CL-P2-2; Bolivia's unlimited wilds 18; May I? has neither
    canastas nor wild cards), in the web table's words. The table said none of them."""
    assert _rules(_table(argv, "quit\n")) == [f"Rules: {rules}"]


def test_a_view_without_the_counts_says_no_rules() -> None:
    """A server before ``draw_count`` and its neighbours (0 in every view) has no rules line."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render

    assert "Rules:" not in render(game.SeatView(variant="classic", players=4), 0)


# the third hand of classic for five: seat 1 dealt out, seat 4 deals (CL-P5-2), the others play
# in the order 0, 3, 2, 4, the sides in turn (CL-P5-3)
_FIFTH_THIRD = "\n".join(["canasta-position 1", "variant: classic", "players: 5", "hand: 2",
                          "dealer: 4", *(f"hand{s}: {'-' if s == 1 else '*11'}" for s in range(5)),
                          "pile: *1", "stock: *", ""])


class _Imported:
    """A client whose deal is the position imported (its seat views, its credentials)."""

    def __init__(self, inner: Any, position: str) -> None:
        self.inner, self.position = inner, position

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def deal(self, *args: Any, view_seat: int, **kwargs: Any) -> Any:
        from canasta.v1 import engine_service_pb2 as api

        got = self.inner.import_position(self.position, view_seat=view_seat)
        return api.DealResponse(snapshot=got.snapshot, header=got.header, views=got.views,
                                host_token=got.host_token, seat_tokens=got.seat_tokens)


def _imported_table(position: str, argv: list[str], typed_in: str) -> str:
    """The screen of a table whose game starts at ``position``."""
    from canasta_client import CanastaClient
    from canasta_terminal.table import Table, build_parser

    from tests.service.servers import running

    out = io.StringIO()
    with running() as server, CanastaClient(server.grpc_target) as inner:
        table = Table(_Imported(inner, position), build_parser().parse_args(argv),  # type: ignore[arg-type]
                      io.StringIO(typed_in), out)
        assert table.play() == 0, out.getvalue()
    return out.getvalue()


def test_a_hand_not_played_round_the_table_says_its_order() -> None:
    """CL-P5-3: classic for five plays its third hand 0, 3, 2, 4 (the view's
    ``seats_in_play``), not round the table; the screen listed the seats in their order and
    never said who plays after whom. It now says the order, from you, as the web table does
    ("Order of play this hand: ..."); and to seat 1, who sits that hand out, at the deal."""
    argv = ["--players", "5", "--seed", "2", "--hands", "1"]
    text = _imported_table(_FIFTH_THIRD, argv, "quit\n")
    assert "\nCards held: seat 1 sits out this hand · seat 2: 11 · seat 3: 11 · seat 4: 11\n" \
        "Order of play this hand: you → seat 3 → seat 2 → seat 4\n" in text, text
    text = _imported_table(_FIFTH_THIRD, [*argv, "--seat", "1"], "")
    assert "\nYou sit out this hand: seats 0 2 3 4 play it.\n" \
        "Order of play this hand: seat 0 → seat 3 → seat 2 → seat 4\n" in text, text
    assert "your move> " not in text and "Hand over: " in text, text


def test_a_hand_played_round_the_table_says_no_order() -> None:
    """Where the seats play round the table, those out skipped (five players' first two
    hands, six in rotation), or the view does not say, no order is said; without suit
    symbols the arrows are written ``->``."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import PLAIN, order_line

    for order in ([0, 1, 2, 3], [0, 1, 2, 4], [2, 3, 4, 5], []):
        assert order_line(game.SeatView(players=6, seats_in_play=order), 0) == "", order
    view = game.SeatView(players=5, seats_in_play=[0, 3, 2, 4])
    assert order_line(view, 2) == "Order of play this hand: you → seat 4 → seat 0 → seat 3"
    assert PLAIN.line(order_line(view, 1)) == \
        "Order of play this hand: seat 0 -> seat 3 -> seat 2 -> seat 4"


def test_the_pile_frozen_for_your_side_only_is_said_to_be() -> None:
    """CL-PILE-3: the pile is frozen for a side that has not made its first meld
    (``SideView.pile_frozen``), and then a take needs a natural pair of its top card
    (CL-PILE-6). The table said "(frozen)" only when it was frozen for both sides
    (``SeatView.pile_frozen``: CL-PILE-4)."""
    from canasta.v1 import game_pb2 as game
    from canasta_terminal.table import render

    sides = [game.SideView(team=0, seats=[0, 2], pile_frozen=True),
             game.SideView(team=1, seats=[1, 3], opened=True)]
    view = game.SeatView(variant="classic", players=4, pile_size=3, pile_top="9S", sides=sides)
    mine = "top 9S  (frozen for your side: no first meld yet, so a take needs a natural pair " \
        "of the top card)\n"
    assert mine in render(view, 0), render(view, 0)
    assert "frozen" not in render(view, 1)  # seat 1's side has opened: not frozen for it
    view.pile_frozen = True
    assert "top 9S  (frozen)\n" in render(view, 0) and "top 9S  (frozen)\n" in render(view, 1)
    view.pile_frozen, view.pile_size, view.pile_top = False, 0, ""
    assert "frozen" not in render(view, 0)  # no pile to take
    # at the table: no side has melded at the start
    text = _table(["--players", "4", "--seed", "11"], "quit\n")
    assert "(frozen for your side: no first meld yet, " in text, text


@pytest.mark.parametrize("options,laid", [((), "  you laid red threes 3♦"),
                                          (("red3_dealt_timing=after_deal",),
                                           "  seat 1 laid red threes 3♥")])
def test_red_threes_laid_at_the_deal_are_said(options: tuple[str, ...], laid: str) -> None:
    """CL-R3-1: red threes dealt are laid at the start of the owner's first turn (with
    ``red3_dealt_timing=after_deal``: right after the deal), which for the first player (for
    every seat) is in the deal's answer (RED_THREES_LAID): those were never said, the moves'
    were."""
    seed = "0" if options else "1"
    text = _table(["--players", "4", "--seed", seed, *(f"--option={o}" for o in options)],
                  "quit\n")
    assert f"you are seat 0, the bots play greedy.\n{laid}\n--- classic" in text, text


@pytest.mark.parametrize("options,cards", [((), "card"), (("buy_penalty_cards=2",), "cards")])
def test_the_penalty_card_of_your_buy_is_said_to_be(options: tuple[str, ...], cards: str) -> None:
    """MI-BUY-2: the buyer takes the discard and the top stock card(s) as a penalty. After
    "you: buy 7♣" the table said "you drew 4♣", as for a draw; it now says that is the buy's
    penalty. Your draw after another seat's buy is a draw."""
    text = _buyers_hand(options).replace("your move> ", "")
    bought = re.findall(r"^you: buy \S+\n(.*)$", text, re.MULTILINE)
    assert bought, text
    count = 1 if cards == "card" else 2
    assert all(re.fullmatch(rf"  you drew (\S+ ){{{count - 1}}}\S+, the penalty {cards} of "
                            "your buy", line) for line in bought), bought
    drew = re.findall(r"^  you drew .*$", text, re.MULTILINE)
    assert len([x for x in drew if "penalty" in x]) == len(bought), drew


def test_help_says_what_asking_your_partner_and_its_answers_are() -> None:
    """CL-OUT-4..6: ``help`` did not say what ``ask``, ``yes`` and ``no`` are: when one may
    ask, and what the answers oblige to under the game's options (``permission_yes``,
    ``penalties``, ``permission_asks_per_hand``)."""
    text = _table(["--players", "4", "--seed", "11", "--option", "permission_yes=advisory",
                   "--option", "permission_asks_per_hand=2"], "help\nquit\n")
    shown = " ".join(text.split("your move> ")[1].split())
    assert 'ask ask your partner "May I go out?" before your draw, or right after a draw from ' \
        "the stock before you lay anything (once a turn, at most 2 times a hand); after a " \
        '"no" you may not go out this turn' in shown, text
    assert "yes your answer when your partner asks: they may go out this turn, but need " \
        "not no your answer when your partner asks: they may not go out this turn" in shown
    assert "buy" not in shown


@pytest.mark.parametrize("options,pieces", [
    ((), ["a set exactly three cards of one rank, suits free and repeatable",
          "a sequence exactly four consecutive cards of one suit, no rank twice; the ace is "
          "high and low, and a sequence may go round the corner (Q K A 2); two sequences of "
          "one suit may not join end to end (3-6 and 7-10 of spades is one sequence)",
          "and 1 penalty card from the stock", "longer pieces wait to be laid off"]),
    (("contract_exact_sizes=false", "ace_wrap=false", "allow_contiguous_runs=true",
      "buy_penalty_cards=2"),
     ["a set three or more cards of one rank, suits free and repeatable",
      "a sequence four or more consecutive cards of one suit, no rank twice; the ace is only "
      "an end (A 2 3 4 or J Q K A) your move>", "and 2 penalty cards from the stock"])])
def test_help_says_what_a_buy_a_pass_a_set_and_a_sequence_are(
        options: tuple[str, ...], pieces: list[str]) -> None:
    """May I?: ``help`` did not say what ``buy`` and ``pass`` do (MI-BUY-1/2) nor what the
    contract's sets and sequences are (MI-CON-2: exactly three and four cards unless
    ``contract_exact_sizes=false``; MI-MELD-1/2; MI-MELD-3 ``ace_wrap``; MI-CON-3
    ``allow_contiguous_runs``), in the words of docs/rules-may-i.md."""
    text = _table(["--variant", "may_i", "--players", "3", "--seed", "3",
                   *(f"--option={o}" for o in options)], "help\nquit\n")
    shown = " ".join(text.split("your move> ", 1)[1].split())
    assert "buy when the player in turn draws from the stock instead of taking the discard: " \
        "you take it and" in shown, shown
    assert "pass you leave the discard: the next player who may buy is asked" in shown, shown
    for piece in pieces:
        assert piece in shown, shown
    assert ("longer pieces" in shown) == (not options), shown
    assert '"May I go out?"' not in shown
