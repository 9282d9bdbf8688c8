"""``canasta play``: a terminal table where you play against bots.

The table speaks ``canasta.v1`` only, like any host: it deals, shows your seat's
view (hand, melds, pile top, scores) and the legal moves by their text form,
sends your move, and lets the bots move through ``SuggestMove``. It never opens a
snapshot. It keeps the game's credentials as a host does (docs/security.md): every
call made for you (your view, your legal moves and moves, ``hint``, the score)
presents your seat's token, so the service answers it with what your seat may see
and no more; the bots' calls (``SuggestMove`` and ``ApplyMove`` for the other seats)
and ``NextDeal`` present the host token, whose answers ask for your view only and
are never shown. Two ways to reach the rules:

* ``--server HOST:PORT``: a running service, through the Python SDK
  (``clients/python``, :class:`canasta_client.CanastaClient`), or a small gRPC
  client of its own when the SDK is not there;
* by default an embedded engine: the same service core in this process, snapshots
  sealed with a throw-away key, no server needed.

Type a move by its text (``discard 4D``, ``meld KS KH KD``) or by its number in the
list; ``hint`` asks the greedy bot, ``help`` lists the commands, ``quit`` leaves.
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import random
import sys
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol, TextIO, cast

import grpc
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from engine.bots import LEVELS
from service.core import Call, Core
from service.errors import ServiceError
from service.keys import KeyRing, new_key_entry
from service.pb import api, api_grpc, game
from service.snapshot import Sealer

ROOT = Path(__file__).resolve().parent.parent
SDK_SRC = ROOT / "clients" / "python" / "src"
TIMEOUT = 10.0

HELP = """commands:
  <number>        play the move with that number in the list
  <move text>     play a move by its text, e.g. "discard 4D", "meld KS KH KD", "take"
  hint            what the greedy bot would play for you
  moves           list your legal moves again
  help            this text
  quit            leave the table
"""


class TableError(Exception):
    """A refused call, from whichever client: the stable reason and the server's message."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


class Client(Protocol):
    """The calls the table makes: a subset of the SDK's ``CanastaClient``. ``token`` is
    the credential the call presents (``None``: none, a spectator's call)."""

    def deal(self, variant: str = "classic", players: int = 4, *, seed: int | None = None,
             options: Mapping[str, str] | None = None,
             view_seat: int | None = None) -> api.DealResponse: ...

    def legal_moves(self, snapshot: bytes, *,
                    token: str | None = None) -> api.LegalMovesResponse: ...

    def apply_move(self, snapshot: bytes, move: game.Move, *, seat: int | None = None,
                   view_seat: int | None = None,
                   token: str | None = None) -> api.ApplyMoveResponse: ...

    def suggest_move(self, snapshot: bytes, level: str = "greedy", seed: int = 0, *,
                     token: str | None = None) -> api.SuggestMoveResponse: ...

    def score_hand(self, snapshot: bytes, *,
                   token: str | None = None) -> api.ScoreHandResponse: ...

    def next_deal(self, snapshot: bytes, *, view_seat: int | None = None,
                  token: str | None = None) -> api.NextDealResponse: ...

    def view(self, snapshot: bytes, seat: int | None = None, *,
             token: str | None = None) -> api.GetViewResponse: ...

    def close(self) -> None: ...


class _Calls(ABC):
    """The client methods over one ``call(name, request, token)``."""

    @abstractmethod
    def call(self, name: str, request: Message, token: str | None = None) -> Any:
        """Send one RPC by name, presenting ``token``; the transport is the subclass's."""

    def deal(self, variant: str = "classic", players: int = 4, *, seed: int | None = None,
             options: Mapping[str, str] | None = None,
             view_seat: int | None = None) -> api.DealResponse:
        req = api.DealRequest(variant=variant, players=players, options=dict(options or {}))
        if seed is not None:
            req.seed = seed
        if view_seat is not None:
            req.view_seat = view_seat
        return cast(api.DealResponse, self.call("Deal", req))

    def legal_moves(self, snapshot: bytes, *,
                    token: str | None = None) -> api.LegalMovesResponse:
        return cast(api.LegalMovesResponse,
                    self.call("LegalMoves", api.LegalMovesRequest(snapshot=snapshot), token))

    def apply_move(self, snapshot: bytes, move: game.Move, *, seat: int | None = None,
                   view_seat: int | None = None,
                   token: str | None = None) -> api.ApplyMoveResponse:
        req = api.ApplyMoveRequest(snapshot=snapshot, move=move)
        if seat is not None:
            req.seat = seat
        if view_seat is not None:
            req.view_seat = view_seat
        return cast(api.ApplyMoveResponse, self.call("ApplyMove", req, token))

    def suggest_move(self, snapshot: bytes, level: str = "greedy", seed: int = 0, *,
                     token: str | None = None) -> api.SuggestMoveResponse:
        req = api.SuggestMoveRequest(snapshot=snapshot, level=level, seed=seed)
        return cast(api.SuggestMoveResponse, self.call("SuggestMove", req, token))

    def score_hand(self, snapshot: bytes, *,
                   token: str | None = None) -> api.ScoreHandResponse:
        return cast(api.ScoreHandResponse,
                    self.call("ScoreHand", api.ScoreHandRequest(snapshot=snapshot), token))

    def next_deal(self, snapshot: bytes, *, view_seat: int | None = None,
                  token: str | None = None) -> api.NextDealResponse:
        req = api.NextDealRequest(snapshot=snapshot)
        if view_seat is not None:
            req.view_seat = view_seat
        return cast(api.NextDealResponse, self.call("NextDeal", req, token))

    def view(self, snapshot: bytes, seat: int | None = None, *,
             token: str | None = None) -> api.GetViewResponse:
        req = api.GetViewRequest(snapshot=snapshot)
        if seat is not None:
            req.seat = seat
        return cast(api.GetViewResponse, self.call("GetView", req, token))

    def close(self) -> None:  # noqa: B027 - transports without a channel hold nothing to close
        return None


def bearer(token: str | None) -> tuple[tuple[str, str], ...]:
    """The gRPC metadata that presents ``token`` (none for ``None``)."""
    return (("authorization", f"Bearer {token}"),) if token else ()


class EmbeddedClient(_Calls):
    """The rules in this process: the service core itself, with a throw-away seal key."""

    def __init__(self) -> None:
        self.core = Core(Sealer(KeyRing.parse(new_key_entry("table")), 1 << 20, 64))

    def call(self, name: str, request: Message, token: str | None = None) -> Any:
        try:
            return self.core.handle(name, request,
                                    Call(authorization=tuple(v for _, v in bearer(token))))
        except ServiceError as err:
            raise TableError(err.reason, err.message("en")) from None


class GrpcClient(_Calls):
    """A small gRPC client, for when the SDK is not installed."""

    def __init__(self, target: str) -> None:
        self.channel = grpc.insecure_channel(target)
        self.stub = api_grpc.CanastaEngineStub(self.channel)

    def call(self, name: str, request: Message, token: str | None = None) -> Any:
        try:
            return getattr(self.stub, name)(request, timeout=TIMEOUT, metadata=bearer(token))
        except grpc.RpcError as err:
            if not isinstance(err, grpc.Call):
                raise TableError("UNAVAILABLE", str(err)) from None
            reason = err.code().name
            status = rpc_status.from_call(err)
            details = list(status.details) if status is not None else []
            for detail in details:
                if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
                    info = error_details_pb2.ErrorInfo()
                    detail.Unpack(info)
                    reason = info.reason
            raise TableError(reason, err.details() or reason) from None

    def close(self) -> None:
        self.channel.close()


def load_sdk() -> Any | None:
    """The Python SDK module ``canasta_client``: installed, or from ``clients/python``."""
    try:
        return importlib.import_module("canasta_client")
    except ImportError:
        pass
    if not (SDK_SRC / "canasta_client").is_dir():
        return None
    sys.path.append(str(SDK_SRC))  # after gen/python: one canasta.v1, generated from proto/
    try:
        return importlib.import_module("canasta_client")
    except ImportError:
        return None


class SdkClient:
    """The SDK's ``CanastaClient``, its errors turned into :class:`TableError`; each call
    presents its ``token`` (the SDK's per-call ``token=``)."""

    def __init__(self, sdk: Any, target: str) -> None:
        self.sdk = sdk
        self.client = sdk.CanastaClient(target, timeout=TIMEOUT)
        # an SDK older than credentials takes no token=: a client per token on the same
        # channel then sends it as metadata
        self.per_call = "token" in inspect.signature(self.client.view).parameters
        self.bound: dict[str, Any] = {}

    def _client(self, token: str | None, kwargs: dict[str, Any]) -> Any:
        if not token:
            return self.client
        if self.per_call:
            kwargs["token"] = token
            return self.client
        if token not in self.bound:
            self.bound[token] = self.sdk.CanastaClient(
                channel=self.client.channel, timeout=TIMEOUT, metadata=bearer(token))
        return self.bound[token]

    def _run(self, name: str, *args: Any, token: str | None = None, **kwargs: Any) -> Any:
        client = self._client(token, kwargs)
        if name == "suggest_move" and not hasattr(client, name):  # an SDK older than it
            return self._suggest_move(*args, token=token)
        try:
            return getattr(client, name)(*args, **kwargs)
        except self.sdk.CanastaError as err:
            raise TableError(err.reason or err.code.name, err.message) from None

    def deal(self, variant: str = "classic", players: int = 4, *, seed: int | None = None,
             options: Mapping[str, str] | None = None,
             view_seat: int | None = None) -> api.DealResponse:
        return cast(api.DealResponse, self._run("deal", variant, players, seed=seed,
                                                options=options, view_seat=view_seat))

    def legal_moves(self, snapshot: bytes, *,
                    token: str | None = None) -> api.LegalMovesResponse:
        return cast(api.LegalMovesResponse, self._run("legal_moves", snapshot, token=token))

    def apply_move(self, snapshot: bytes, move: game.Move, *, seat: int | None = None,
                   view_seat: int | None = None,
                   token: str | None = None) -> api.ApplyMoveResponse:
        return cast(api.ApplyMoveResponse, self._run("apply_move", snapshot, move, seat=seat,
                                                     view_seat=view_seat, token=token))

    def suggest_move(self, snapshot: bytes, level: str = "greedy", seed: int = 0, *,
                     token: str | None = None) -> api.SuggestMoveResponse:
        return cast(api.SuggestMoveResponse,
                    self._run("suggest_move", snapshot, level, seed, token=token))

    def score_hand(self, snapshot: bytes, *,
                   token: str | None = None) -> api.ScoreHandResponse:
        return cast(api.ScoreHandResponse, self._run("score_hand", snapshot, token=token))

    def next_deal(self, snapshot: bytes, *, view_seat: int | None = None,
                  token: str | None = None) -> api.NextDealResponse:
        return cast(api.NextDealResponse,
                    self._run("next_deal", snapshot, view_seat=view_seat, token=token))

    def view(self, snapshot: bytes, seat: int | None = None, *,
             token: str | None = None) -> api.GetViewResponse:
        return cast(api.GetViewResponse, self._run("view", snapshot, seat, token=token))

    def _suggest_move(self, snapshot: bytes, level: str = "greedy", seed: int = 0, *,
                      token: str | None = None) -> api.SuggestMoveResponse:
        req = api.SuggestMoveRequest(snapshot=snapshot, level=level, seed=seed)
        try:
            return cast(api.SuggestMoveResponse, self.client.stub.SuggestMove(
                req, timeout=TIMEOUT, metadata=bearer(token)))
        except grpc.RpcError as err:
            error = self.sdk.errors.from_rpc_error(err)
            raise TableError(error.reason or error.code.name, error.message) from None

    def close(self) -> None:
        self.client.close()


def connect(server: str | None) -> tuple[Client, str]:
    """A client and how it reaches the rules (for the banner)."""
    if not server:
        return EmbeddedClient(), "embedded engine"
    sdk = load_sdk()
    if sdk is not None:
        return SdkClient(sdk, server), f"server {server} (Python SDK)"
    return GrpcClient(server), f"server {server} (gRPC)"


# --- rendering ----------------------------------------------------------------------------


def _meld_text(m: game.MeldView) -> str:
    tag = f" ({m.canasta} canasta)" if m.canasta else ""
    return f"[{m.rank}] {' '.join(m.cards)}{tag}"


def _side_name(side: game.SideView, you: int, solo: bool) -> str:
    if solo:
        return "you" if side.team == you else f"seat {side.team}"
    seats = " ".join(str(s) for s in side.seats)
    mine = " (you)" if you in side.seats else ""
    return f"team {side.team}{mine}, seats {seats}"


def render(view: game.SeatView, you: int) -> str:
    """What the table shows you: scores, the table, the pile, hands, your cards."""
    solo = all(len(s.seats) == 1 for s in view.sides)
    lines = [f"--- {view.variant} · {view.players} players · hand {view.hand_no + 1} · "
             f"dealer seat {view.dealer} · you are seat {you} ---"]
    lines.append("Scores: " + " · ".join(f"{_side_name(s, you, solo)}: {s.score}"
                                         for s in view.sides))
    top = view.pile_top or "-"
    frozen = "  (frozen)" if view.pile_frozen else ""
    lines.append(f"Stock {view.stock_size} · Pile {view.pile_size} · top {top}{frozen}")
    lines.append("Melds:")
    for s in view.sides:
        melds = " | ".join(_meld_text(m) for m in s.melds) or "-"
        extra = f" · red threes {' '.join(s.red_threes)}" if s.red_threes else ""
        lines.append(f"  {_side_name(s, you, solo)}: {melds}{extra}")
    others = " · ".join(f"seat {i}: {n}" for i, n in enumerate(view.hand_sizes) if i != you)
    lines.append(f"Cards held: {others}")
    if view.staged:
        lines.append("Staged this turn: " + " ; ".join(view.staged))
    lines.append(f"Your hand ({len(view.hand)}): {' '.join(view.hand)}")
    return "\n".join(lines)


def render_moves(moves: Sequence[game.Move]) -> str:
    width = len(str(len(moves)))
    return "Your moves:\n" + "\n".join(f"  {i + 1:>{width}}) {m.text}"
                                       for i, m in enumerate(moves))


def render_score(score: api.ScoreHandResponse, you: int, variant: str) -> str:
    solo = all(len(s.seats) == 1 for s in score.sides)
    lines = ["Hand over: " + ("the stock ran out" if score.went_out < 0
                              else f"seat {score.went_out} went out"
                              + (" concealed" if score.concealed else ""))]
    if variant == "may_i":
        lines.append("Penalty points (lowest total wins):")
        for s in score.sides:
            who = "you" if you in s.seats else f"seat {s.team}"
            lines.append(f"  {who:<8} hand {s.total:>5} · game {s.cumulative:>6}")
    else:
        lines.append(f"  {'side':<26}{'melds':>7}{'canastas':>9}{'out':>6}{'red 3s':>7}"
                     f"{'in hand':>8}{'total':>7}{'game':>7}")
        for s in score.sides:
            b = s.breakdown
            who = ("you" if you in s.seats else f"seat {s.team}") if solo else \
                f"team {s.team} ({' '.join(str(x) for x in s.seats)})" + \
                (" you" if you in s.seats else "")
            lines.append(f"  {who:<26}{b.base:>7}{b.canasta_bonus:>9}{b.going_out:>6}"
                         f"{b.red_three_points:>7}{-b.in_hand - b.penalties:>8}{s.total:>7}"
                         f"{s.cumulative:>7}")
    if score.game_over:
        if score.draw or score.winner < 0:
            lines.append("Game over: a draw.")
        else:
            side = next((s for s in score.sides if s.team == score.winner), None)
            won = side is not None and you in side.seats
            lines.append(f"Game over: {'you win' if won else f'side {score.winner} wins'}.")
    return "\n".join(lines)


def _event_text(e: game.Event) -> str:
    """An event's public line. Never the cards of a draw or a take: the bots' answers
    are the host's, whose events carry the cards every seat drew."""
    if e.type == game.EVENT_TYPE_PILE_TAKEN:
        return f"  seat {e.seat} took the pile ({e.count} cards)"
    if e.type == game.EVENT_TYPE_RED_THREES_LAID:
        return f"  seat {e.seat} laid red threes {' '.join(e.cards)}"
    return ""


# --- the table ------------------------------------------------------------------------------


class Table:
    """One game at the terminal. It holds the game's credentials like a host: the host
    token for the bots and the deals, your seat's token for everything shown to you."""

    def __init__(self, client: Client, args: argparse.Namespace, inp: TextIO,
                 out: TextIO) -> None:
        self.client = client
        self.args = args
        self.inp = inp
        self.out = out
        self.you: int = args.seat
        self.host: str | None = None  # the host token: the bots' moves and the deals
        self.mine: str | None = None  # your seat's token: your view, moves, hints, score

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say()
            return None
        return line.strip()

    def credentials(self, answer: api.DealResponse | api.NextDealResponse) -> None:
        """Keep the game's credentials from a Deal (or the host's NextDeal) answer. A
        server that issues none leaves both ``None``: its calls then go without one."""
        if answer.host_token:
            self.host = answer.host_token
        if len(answer.seat_tokens) > self.you:
            self.mine = answer.seat_tokens[self.you]

    def play(self) -> int:
        a = self.args
        options = dict(o.split("=", 1) for o in a.option)
        if not 0 <= self.you < a.players:
            self.say(f"there is no seat {self.you} at a {a.players}-player table")
            return 2
        try:  # the answer carries your view only, as every answer the table asks for
            dealt = self.client.deal(a.variant, a.players, seed=a.seed, options=options,
                                     view_seat=self.you)
        except TableError as err:
            self.say(f"cannot deal: {err.reason}: {err.message}")
            return 2
        self.credentials(dealt)
        self.say(f"{a.variant}, {a.players} players, seed {a.seed}; you are seat {self.you}, "
                 f"the bots play {a.bot}.")
        snapshot = dealt.snapshot
        hands = 0
        while True:
            played = self.play_hand(snapshot)
            if played is None:
                return 0
            snapshot, score = played
            hands += 1
            if score.game_over or (a.hands and hands >= a.hands):
                return 0
            answer = self.ask("Next hand? [Enter: deal, q: quit] ")
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                self.say("bye")
                return 0
            dealt_next = self.client.next_deal(snapshot, view_seat=self.you, token=self.host)
            self.credentials(dealt_next)
            snapshot = dealt_next.snapshot

    def bot_move(self, snapshot: bytes) -> bytes:
        """The awaited bot's move, as the host: the answer carries your view only."""
        suggestion = self.client.suggest_move(snapshot, self.args.bot, self.args.seed,
                                              token=self.host)
        done = self.client.apply_move(snapshot, suggestion.move, seat=suggestion.seat,
                                      view_seat=self.you, token=self.host)
        self.say(f"seat {done.seat} ({self.args.bot}): {done.move.text}")
        self.say_events(done.events)
        return done.snapshot

    def say_events(self, events: Sequence[game.Event]) -> None:
        for e in events:
            if text := _event_text(e):
                self.say(text)

    def play_hand(self, snapshot: bytes) -> tuple[bytes, api.ScoreHandResponse] | None:
        """Play one hand out; ``None`` when you quit."""
        shown = -1  # the ply whose table was last shown
        ply = 0
        while True:
            # with your token: who is awaited, and your moves when it is you
            legal = self.client.legal_moves(snapshot, token=self.mine)
            if legal.seat < 0:
                break
            if legal.seat != self.you:
                snapshot = self.bot_move(snapshot)
                ply += 1
                continue
            if shown != ply:
                view = self.client.view(snapshot, self.you, token=self.mine).views[0]
                self.say(render(view, self.you))
                self.say(render_moves(legal.moves))
                shown = ply
            answer = self.ask("your move> ")
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                self.say("bye")
                return None
            move = self.read_move(answer, legal.moves, snapshot)
            if move is None:
                continue
            try:
                done = self.client.apply_move(snapshot, move, token=self.mine)
            except TableError as err:
                self.say(f"refused: {err.reason}: {err.message}")
                continue
            self.say(f"you: {done.move.text}")
            self.say_events(done.events)
            snapshot = done.snapshot
            ply += 1
        score = self.client.score_hand(snapshot, token=self.mine)
        self.say(render_score(score, self.you, self.args.variant))
        return snapshot, score

    def read_move(self, answer: str, moves: Sequence[game.Move],
                  snapshot: bytes) -> game.Move | None:
        word = answer.lower()
        if not word or word == "moves":
            self.say(render_moves(moves))
            return None
        if word in ("help", "?"):
            self.say(HELP.rstrip())
            return None
        if word == "hint":
            hint = self.client.suggest_move(snapshot, "greedy", self.args.seed,
                                            token=self.mine)
            self.say(f"hint: {hint.move.text}")
            return None
        if word.isdigit():
            n = int(word)
            if not 1 <= n <= len(moves):
                self.say(f"no move {n}: pick 1 to {len(moves)}")
                return None
            return moves[n - 1]
        return game.Move(text=answer)


def build_parser(prog: str = "canasta play") -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Play Canasta in the terminal: "
                                     "you against bots.")
    parser.add_argument("--variant", default="classic",
                        help="classic, samba, bolivia, bolivia_sevens or may_i")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--bot", default="greedy", choices=LEVELS, help="the bots' level")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: random)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option of the variant (repeatable)")
    parser.add_argument("--hands", type=int, default=0,
                        help="stop after this many hands (default: play the game out)")
    parser.add_argument("--server", default=None, metavar="HOST:PORT",
                        help="a running service (gRPC); default: an embedded engine")
    return parser


def main(argv: Sequence[str] | None = None, inp: TextIO | None = None,
         out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2**32)
    if any("=" not in o for o in args.option):
        build_parser().error("--option takes NAME=VALUE")
    client, how = connect(args.server)
    stream = out or sys.stdout
    stream.write(f"canasta table · {how}\n")
    try:
        return Table(client, args, inp or sys.stdin, stream).play()
    except TableError as err:
        stream.write(f"error: {err.reason}: {err.message}\n")
        return 1
    except KeyboardInterrupt:
        stream.write("\nbye\n")
        return 130
    finally:
        client.close()


if __name__ == "__main__":
    raise SystemExit(main())
