"""``canasta play``: a terminal table where you play against bots.

The table speaks ``canasta.v1`` only, like any host, through the Python SDK
(:class:`canasta_client.CanastaClient`): it deals, shows your seat's view (hand,
melds, pile top, scores) and the legal moves by their text form, sends your move,
and lets the bots move through ``SuggestMove``. It never opens a snapshot. It keeps
the game's credentials as a host does (docs/security.md): every call made for you
(your view, your legal moves and moves, ``hint``, the score) presents your seat's
token, so the service answers it with what your seat may see and no more; the bots'
calls (``SuggestMove`` and ``ApplyMove`` for the other seats) and ``NextDeal``
present the host token, whose answers ask for your view only and are never shown.

It plays against ``--server HOST:PORT``, or by default against a server of its own
started for the game (:mod:`canasta_terminal.local`).

Cards are shown with the web table's faces (``10♥``, ``Jk``) where the output can
encode the suit symbols, hearts and diamonds in red when it is a terminal and
``NO_COLOR`` is not set (https://no-color.org), and by their codes (``TH``) otherwise.
After your draw the table names the cards you drew, after a take the pile's cards; in
May I? it shows the deal's contract, and names the card of each buy (the pile's top) and
the penalty cards of yours. It says the game's counts as dealt (the draw, the canastas to
go out, the wild cards in a meld), the red threes laid at the deal, the pile frozen for your
side only, who sits a hand out (classic with five players, six in rotation) and the order
of play of a hand not played round the table.

Type a move by its text (``discard 4D`` or ``discard 4♦``, ``meld KS KH KD``) or by its
number in the list; ``hint`` asks the expert bot, ``help`` lists the commands, ``quit``
leaves.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import secrets
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import ParamSpec, TextIO, TypeVar

from canasta.v1 import engine_service_pb2 as api
from canasta.v1 import game_pb2 as game
from canasta_client import (
    MAX_RETRY_WAIT,
    CanastaClient,
    CanastaError,
    DeadlineExceededError,
    UnavailableError,
)

from canasta_terminal.local import NoLocalServer, local_server

TIMEOUT = 10.0
# Times a call the server refuses for load (it says when to retry) is sent again.
RETRIES = 3
P = ParamSpec("P")
R = TypeVar("R")
LEVELS = ("random", "greedy", "expert")  # the bots of SuggestMove (docs/api.md)

HELP = """commands:
  <number>        play the move with that number in the list
  <move text>     play a move by its text, e.g. "discard 4D", "meld KS KH KD", "take"
                  (cards as listed or by their codes: "discard 10♥" or "discard TH")
  hint            what the expert bot would play for you
  moves           list your legal moves again
  help            this text
  quit            leave the table
"""


def reason(err: CanastaError) -> str:
    """The stable reason of a refusal (the status code when the server sent none)."""
    return err.reason or err.code.name


def unanswered(err: CanastaError) -> bool:
    """The call never got the server's answer (it went away, it took too long): no
    refusal, so the game cannot go on and ``main`` says so, naming the server."""
    return isinstance(err, (UnavailableError, DeadlineExceededError))


def unreachable(err: CanastaError, target: str, local: bool) -> str | None:
    """A sentence for a call that never got the server's answer (it is not running, it
    went away, it is no gRPC server, it took too long), with gRPC's words in brackets;
    ``None`` for an answer of the server (a refusal)."""
    if isinstance(err, DeadlineExceededError):
        return (f"the server at {target} did not answer within {TIMEOUT:g} s, so the game "
                "cannot go on")
    if not isinstance(err, UnavailableError):
        return None
    if local:
        return (f"the table's local server ({target}) stopped answering, so the game cannot "
                f"go on ({err.message})")
    return (f"the server at {target} cannot be reached, so the game cannot go on "
            f"({err.message}); is it running, and is {target} its gRPC address (not its "
            "HTTP one)?")


# --- card faces ---------------------------------------------------------------------------

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RED, RESET = "\x1b[31m", "\x1b[0m"
_CODE = re.compile(r"^(?:[2-9TJQKA][SHDC]|JK)$")


def face(code: str) -> str:
    """A card's face as the web table writes it (clients/web/i18n.js): 10♥, Jk."""
    if code == "JK":
        return "Jk"
    return ("10" if code[0] == "T" else code[0]) + SUITS[code[1]]


# the codes of typed faces, so a move can be typed as it is listed ("discard 10♥")
_CODES = {face(r + s): r + s for r in "23456789TJQKA" for s in SUITS} | {"Jk": "JK"}
# the faces with a suit symbol in a line of text (the help's example), longest first
_FACES = re.compile("|".join(sorted((re.escape(f) for f in _CODES if f != "Jk"),
                                    key=len, reverse=True)))


@dataclass(frozen=True)
class Style:
    """How cards are written: suit symbols where the output can encode them, red
    hearts and diamonds where it is a terminal that wants colour."""

    symbols: bool = False
    colour: bool = False

    @classmethod
    def of(cls, stream: TextIO, environ: Mapping[str, str] = os.environ) -> Style:
        """The style for ``stream``: symbols when its encoding has them (a text buffer
        without one holds any text), colour only on a terminal, unless ``NO_COLOR`` is
        set (https://no-color.org) or ``TERM`` is ``dumb``."""
        try:
            "".join(SUITS.values()).encode(getattr(stream, "encoding", None) or "utf-8")
            symbols = True
        except (UnicodeEncodeError, LookupError):
            symbols = False
        colour = (stream.isatty() and not environ.get("NO_COLOR")
                  and environ.get("TERM") != "dumb")
        return cls(symbols, colour)

    def card(self, code: str) -> str:
        if not _CODE.match(code):
            return code
        text = face(code) if self.symbols else code
        return f"{RED}{text}{RESET}" if self.colour and code[1] in "HD" else text

    def cards(self, codes: Iterable[str]) -> str:
        return " ".join(self.card(c) for c in codes)

    def text(self, move: str) -> str:
        """A move's text with its cards written in this style."""
        return " ".join(self.card(w) for w in move.split(" "))

    def line(self, text: str) -> str:
        """A line as this output can show it: without the suit symbols, its separators
        (``·``) as ``-`` and arrows (``→``) as ``->``, any face as its code and any other
        character past ASCII (in a server's message, say) as ``?``, since such an output
        may not encode them (an ASCII locale)."""
        if self.symbols:
            return text
        plain = _FACES.sub(lambda m: _CODES[m.group()],
                           text.replace("\u00b7", "-").replace("\u2192", "->"))
        return plain.encode("ascii", "replace").decode("ascii")


PLAIN = Style()


# the same, any case: "a♣" is A♣ as "ac" is AC (the service reads codes in any case)
_TYPED = {f.upper(): code for f, code in _CODES.items()}


def typed(answer: str) -> str:
    """A typed move with the faces in it turned back into card codes."""
    return " ".join(_TYPED.get(w.upper(), w) for w in answer.split())


# --- the May I? contract --------------------------------------------------------------------

_NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
            "ten", "eleven", "twelve")


def contract_text(sets: int, runs: int) -> str:
    """A contract in the words of docs/rules-may-i.md: "two sets + one sequence"."""
    def count(n: int, word: str) -> str:
        return f"{_NUMBERS[n] if n < len(_NUMBERS) else n} {word}{'' if n == 1 else 's'}"
    return " + ".join(count(n, word) for n, word in ((sets, "set"), (runs, "sequence")) if n)


# --- questions: "may I go out?", May I?'s buy ------------------------------------------------

ASK = '"May I go out?"'


def rules_of(variant: game.Variant, given: Mapping[str, str]) -> dict[str, str]:
    """The game's rule options by name, as it was dealt: those given (``--option``, with or
    without the prefix the service accepts: ``opt.``, May I?'s ``mayi.``), else the variant's defaults as
    ListVariants lists them (the table keeps no copy of the engine's)."""
    rules = {o.name: o.default_value for o in variant.options if o.HasField("default_value")}
    rules.update((name.removeprefix("opt.").removeprefix("mayi."), value)
                 for name, value in given.items())
    return rules


def _yes_means(who: str, options: Mapping[str, str]) -> str:
    """What a "yes" obliges the asker (``who``: "you" or "they") to: ``permission_yes``
    (CL-OUT-5), and with ``penalties`` 100 for a "yes" not followed by going out
    (CL-PEN-2, except under ``advisory``)."""
    kind = options.get("permission_yes")
    if kind == "advisory":
        return f"{who} may go out this turn, but need not"
    means = (f"{who} should go out this turn" if kind == "penalty"
             else f"{who} must go out this turn if {who} can")
    if options.get("penalties") == "true":
        means += f" (your side loses 100 if {who} do not)"
    return means


def render_question(view: game.SeatView, you: int, options: Mapping[str, str],
                    style: Style = PLAIN) -> str:
    """What the view asks of you, or what you asked, and what the answers mean: a May I?
    buy offered to you, or the turn's "may I go out?"; "" for none."""
    if view.phase == "buy_window":
        return _buy_offer(view, you, options, style) if view.awaited == you else ""
    return _go_out_question(view, you, options)


def _buy_offer(view: game.SeatView, you: int, options: Mapping[str, str], style: Style) -> str:
    """May I?'s buy window, your answer due (MI-BUY-1): the pile's top, declined by the
    seat in turn, is yours with ``buy_penalty_cards`` from the stock, out of turn (MI-BUY-2)."""
    card = style.card(view.pile_top)
    penalty = _count(int(options.get("buy_penalty_cards", 0)), "penalty card")
    return (f"May I? {_seat(view.turn_seat, you)} draws from the stock instead of taking "
            f"{card}:\n"
            f"  buy:  you take {card} and {penalty} from the stock (no discard, no turn)\n"
            "  pass: you leave it")


def _go_out_question(view: game.SeatView, you: int, options: Mapping[str, str]) -> str:
    """The turn's "may I go out?" from the view's ``asked`` and ``answer`` (CL-OUT-4..6):
    for you asked, what your answers mean; for you who asked, that your partner's answer
    is awaited, then what it obliges you to; "" for none, or one between other seats."""
    if not view.asked:
        return ""
    if not view.answer and view.awaited == you:
        return (f"Your partner (seat {view.turn_seat}) asks you: {ASK} Answer yes or no:\n"
                f"  yes: {_yes_means('they', options)}\n"
                "  no:  they may not go out this turn")
    if view.turn_seat != you:
        return ""
    if not view.answer:
        return f"You asked your partner (seat {view.awaited}): {ASK} Waiting for their answer."
    means = _yes_means("you", options) if view.answer == "yes" else \
        "you may not go out this turn"
    return f"Your partner answered {view.answer} to {ASK}: {means}."


# --- help: the moves whose text does not say what they do ------------------------------------


def _entry(command: str, text: str) -> str:
    """One entry of the help: its text wrapped in the column where the commands' texts start."""
    return textwrap.fill(text, width=88, initial_indent=f"  {command:<16}",
                         subsequent_indent=" " * 18, break_on_hyphens=False)


def help_text(variant: str, options: Mapping[str, str]) -> str:
    """The commands, then the game's moves their text does not explain, in the words of the
    rules docs under the game's options: May I?'s buy window and contract, else a Canasta
    game's "may I go out?"."""
    moves = _may_i_help(options) if variant == "may_i" else _ask_help(options)
    return HELP + "\n".join(moves)


def _ask_help(options: Mapping[str, str]) -> list[str]:
    """``ask``, ``yes`` and ``no`` (docs/rules-classic.md, CL-OUT-4..6): when one may ask,
    and what the answers oblige to under ``permission_yes`` and ``penalties``."""
    limit = int(options.get("permission_asks_per_hand") or 0)
    times = f", at most {_count(limit, 'time')} a hand" if limit else ""
    return ["with a partner (these moves are listed only where your game lets you ask):",
            _entry("ask", f"ask your partner {ASK} before your draw, or right after a draw "
                          f"from the stock before you lay anything (once a turn{times}); "
                          'after a "no" you may not go out this turn'),
            _entry("yes", f"your answer when your partner asks: {_yes_means('they', options)}"),
            _entry("no", "your answer when your partner asks: they may not go out this turn")]


def _may_i_help(options: Mapping[str, str]) -> list[str]:
    """``buy`` and ``pass`` (MI-BUY-1/2) and the contract's sets and sequences (MI-CON-2/3,
    MI-MELD-1..3) as docs/rules-may-i.md says them, under ``buy_penalty_cards``,
    ``contract_exact_sizes``, ``ace_wrap`` and ``allow_contiguous_runs``."""
    exact = options.get("contract_exact_sizes") == "true"
    penalty = _count(int(options.get("buy_penalty_cards", 0)), "penalty card")
    ace = ("the ace is high and low, and a sequence may go round the corner (Q K A 2)"
           if options.get("ace_wrap") == "true" else "the ace is only an end (A 2 3 4 or J Q K A)")
    runs = "" if options.get("allow_contiguous_runs") == "true" else (
        "; two sequences of one suit may not join end to end (3-6 and 7-10 of spades is one "
        "sequence)")
    later = "; longer pieces wait to be laid off (layoff)" if exact else ""
    return ["May I?:",
            _entry("buy", "when the player in turn draws from the stock instead of taking the "
                          f"discard: you take it and {penalty} from the stock, out of turn; you "
                          "do not discard and get no turn (the first buy wins)"),
            _entry("pass", "you leave the discard: the next player who may buy is asked"),
            _entry("down ...", 'go down with the deal\'s contract (the "Contract:" line) after '
                               "your draw, in one move: exactly the contract's number of sets "
                               "and sequences" + later),
            _entry("  a set", f"{_cards_of(3, exact)} cards of one rank, suits free and repeatable"),
            _entry("  a sequence", f"{_cards_of(4, exact)} consecutive cards of one suit, no "
                                   f"rank twice; {ace}{runs}")]


def _cards_of(n: int, exact: bool) -> str:
    """A piece's size in the contract: exactly ``n`` (``contract_exact_sizes``), or more."""
    return f"exactly {_NUMBERS[n]}" if exact else f"{_NUMBERS[n]} or more"


# --- rendering ----------------------------------------------------------------------------


# A canasta's name by its kind, in the web table's words (a samba, an escalera and a
# bolivia are named by the kind alone)
_CANASTA_NAMES = {"natural": "natural canasta", "mixed": "mixed canasta"}


def _meld_text(m: game.MeldView, name: str, style: Style) -> str:
    """A meld and its canasta's kind as the game names it (``canasta_kind``: a samba or an
    escalera is natural by ``canasta``, a bolivia mixed); a view without it (an older
    service) says ``canasta``'s."""
    kind = m.canasta_kind or m.canasta
    tag = f" ({_CANASTA_NAMES.get(kind, kind)})" if kind else ""
    return f"[{name}] {style.cards(m.cards)}{tag}"


def _meld_names(side: game.SideView) -> list[str]:
    """Each meld of a side by the name its moves give it: its label (``K``, ``K#2``,
    ``S:5-9``), or in May I?, whose melds have none, ``seat:index`` (``layoff 2:1 9D``)."""
    return [m.label or f"{side.seats[0]}:{i}" for i, m in enumerate(side.melds)]


def _progress(view: game.SeatView) -> str:
    """Which hand this is, of how many where a number of deals ends the game (past the
    last only after a tie with ``tie_policy`` ``play_on``, SV-GAME-1)."""
    n = view.hand_no + 1
    if not view.deals:
        return f"hand {n}"
    return f"hand {n} of {view.deals}" if n <= view.deals else f"hand {n} (another after a tie)"


def _seat(seat: int, you: int) -> str:
    """A seat as every line of the table names it: yours is "you"."""
    return "you" if seat == you else f"seat {seat}"


def _side_name(side: game.SideView, you: int, solo: bool, out: Set[int] = frozenset()) -> str:
    """A side by its seats, but those sitting the hand out (``out``): the team scores with
    them, but does not play the hand with them."""
    if solo:
        return _seat(side.team, you)
    seats = " ".join(str(s) for s in side.seats if s not in out)
    mine = " (you)" if you in side.seats else ""
    return f"team {side.team}{mine}, seats {seats}"


def meld_sides(view: game.SeatView) -> list[tuple[game.SideView, list[int]]]:
    """The sides melds are laid on, each with the seats that lay them (``SeatView.meld_side``):
    the teams, but in cutthroat (CL-P3-2), once the lone hand has taken the pile, the two
    others meld on one side, shown once, and the other's side, empty, not at all. A view
    without ``meld_side`` (an older server) gives the teams."""
    if len(view.meld_side) != view.players:
        return [(s, list(s.seats)) for s in view.sides]
    return [(s, [seat for seat, i in enumerate(view.meld_side) if i == k])
            for k, s in enumerate(view.sides) if k in view.meld_side]


def _meld_side_name(view: game.SeatView, side: game.SideView, seats: list[int], you: int,
                    solo: bool, out: Set[int]) -> str:
    """A side of melds by the seats that lay them: a cutthroat pair "you & seat 2", the
    lone hand "seat 1, alone"; any other side as the scores name it."""
    if solo and len(seats) > 1:
        return " & ".join(_seat(s, you) for s in seats)
    if solo and view.lone_hand >= 0 and seats == [view.lone_hand]:
        return f"{_seat(view.lone_hand, you)}, alone"
    return _side_name(side, you, solo, out)


def sitting_out(view: game.SeatView) -> frozenset[int]:
    """The seats that sit this hand out (classic with five players, CL-P5-2, or six with
    p6_mode=rotation, CL-P6-11): those not in the view's ``seats_in_play``, the rules' as
    dealt. A server that does not send it (empty) says no one sits out."""
    if not view.seats_in_play:
        return frozenset()
    return frozenset(range(view.players)) - set(view.seats_in_play)


def play_order(view: game.SeatView, you: int) -> list[int]:
    """The seats that play this hand in their order of play, from you when you play, where
    it is not their order round the table (classic for five plays its third hand 0, 3, 2,
    4: the sides in turn, CL-P5-3); [] where it is, or the view does not say."""
    order = list(view.seats_in_play)

    def start(seat: int) -> list[int]:
        i = order.index(seat)
        return order[i:] + order[:i]

    if not order or start(min(order)) == sorted(order):
        return []
    return start(you if you in order else order[0])


def order_line(view: game.SeatView, you: int) -> str:
    """The web table's line of a hand not played round the table; "" for one that is."""
    order = play_order(view, you)
    return "Order of play this hand: " + " → ".join(_seat(s, you) for s in order) if order else ""


def rules_line(view: game.SeatView) -> str:
    """The game's counts as it was dealt, its options applied (the view's ``draw_count``,
    ``canastas_to_go_out`` and ``wild_limit``; ``out_needs_sequence``: one of those canastas
    an escalera, BO-C1), in the web table's words; a count of 0 is none (May I? has no
    canastas and no wild cards), and a view without them says none."""
    parts = []
    if n := view.draw_count:
        parts.append(f"draw {'the top card' if n == 1 else f'{n} cards'} from the stock")
    if n := view.canastas_to_go_out:
        escalera = ", one of them an escalera" if view.out_needs_sequence else ""
        parts.append(f"to go out, your side needs {'a canasta' if n == 1 else f'{n} canastas'}"
                     f"{escalera}")
    if n := view.wild_limit:
        parts.append("a meld of one rank holds at most "
                     f"{'one wild card' if n == 1 else f'{n} wild cards'}")
    return textwrap.fill("Rules: " + " · ".join(parts), width=88, subsequent_indent="  ",
                         break_on_hyphens=False) if parts else ""


def _frozen(view: game.SeatView, you: int) -> str:
    """Whether the pile is frozen: for both sides (``SeatView.pile_frozen``), or for yours
    only (``SideView.pile_frozen``: a side that has not made its first meld, CL-PILE-3),
    whose take then needs a natural pair of the top card (CL-PILE-6); "" for neither, or
    no pile to take."""
    if view.pile_frozen:
        return "  (frozen)"
    side = next((s for s, seats in meld_sides(view) if you in seats), None)
    if not (view.pile_size and side and side.pile_frozen):
        return ""
    why = "no first meld yet, so " if not side.opened else ""
    return f"  (frozen for your side: {why}a take needs a natural pair of the top card)"


def render(view: game.SeatView, you: int, style: Style = PLAIN) -> str:
    """What the table shows you: which hand of how many, scores and the score that ends
    the game, the deal's contract and buys (May I?), the game's counts, the table, the
    pile, hands (or who sits the hand out) and the order of play, your cards."""
    solo = all(len(s.seats) == 1 for s in view.sides)
    out = sitting_out(view)
    dealer = "you deal" if view.dealer == you else f"dealer seat {view.dealer}"
    lines = [f"--- {view.variant} · {view.players} players · {_progress(view)} · "
             f"{dealer} · you are seat {you} ---"]
    if view.HasField("may_i"):  # public: every seat knows the deal's contract and buys
        deal = view.may_i
        lines.append(f"Contract: {contract_text(deal.sets, deal.sequences)}")
        lines.append("Buys left: " + " · ".join(
            f"{_seat(i, you)} {'no limit' if n < 0 else n}"
            for i, n in enumerate(deal.buys_left)))
    lines.append("Scores: " + " · ".join(f"{_side_name(s, you, solo)}: {s.score}"
                                         for s in view.sides))
    if view.target_score:
        lines.append(f"The game is played to {view.target_score}.")
    if rules := rules_line(view):
        lines.append(rules)
    top = style.card(view.pile_top) if view.pile_top else "-"
    lines.append(f"Stock {view.stock_size} · Pile {view.pile_size} · top {top}"
                 f"{_frozen(view, you)}")
    lines.append("Melds:")
    for s, seats in meld_sides(view):
        melds = " | ".join(_meld_text(m, name, style)
                           for m, name in zip(s.melds, _meld_names(s), strict=True)) or "-"
        # the initial meld's minimum (CL-MIN-1, SA-INIT-1, BO-INIT-1) until the side makes it
        extra = f" · first meld needs {s.minimum} points" if s.minimum and not s.opened else ""
        red = [c for seat in seats for c in view.seat_red_threes[seat].cards] \
            if len(view.seat_red_threes) == view.players else list(s.red_threes)
        extra += f" · red threes {style.cards(red)}" if red else ""
        lines.append(f"  {_meld_side_name(view, s, seats, you, solo, out)}: {melds}{extra}")
    others = " · ".join(f"seat {i} sits out this hand" if i in out else f"seat {i}: {n}"
                        for i, n in enumerate(view.hand_sizes) if i != you)
    lines.append(f"Cards held: {others}")
    if order := order_line(view, you):
        lines.append(order)
    if view.staged:
        lines.append("Staged this turn: " + " ; ".join(style.text(t) for t in view.staged))
    lines.append(f"Your hand ({len(view.hand)}): {style.cards(view.hand)}")
    return "\n".join(lines)


def next_minimum_line(view: game.SeatView, you: int) -> str:
    """At a hand's end, each side's initial-meld minimum for the next hand (the view's
    ``next_minimum``: from the side's new total by the game's bands, CL-MIN-1, SA-INIT-1,
    BO-INIT-1, SV-INIT-1, which the table does not derive); "" while a hand is played, at
    the game's end and in May I?, where the view gives none."""
    if not any(s.next_minimum for s in view.sides):
        return ""
    solo = all(len(s.seats) == 1 for s in view.sides)
    return "Next hand, first meld needs: " + " · ".join(
        f"{_side_name(s, you, solo)}: {s.next_minimum} points" for s in view.sides)


def render_moves(moves: Sequence[game.Move], style: Style = PLAIN) -> str:
    width = len(str(len(moves)))
    return "Your moves:\n" + "\n".join(f"  {i + 1:>{width}}) {style.text(m.text)}"
                                       for i, m in enumerate(moves))


def render_score(score: api.ScoreHandResponse, you: int, variant: str) -> str:
    solo = all(len(s.seats) == 1 for s in score.sides)
    lines = ["Hand over: " + ("the stock ran out" if score.went_out < 0
                              else f"{_seat(score.went_out, you)} went out"
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
            if canastas := _canasta_tallies(b):
                lines.append(f"    canastas: {canastas}")
    if score.game_over:
        if score.draw or score.winner < 0:
            lines.append("Game over: a draw.")
        else:
            side = next((s for s in score.sides if s.team == score.winner), None)
            won = side is not None and you in side.seats
            other = (f"seat {side.seats[0]}" if solo and side is not None and side.seats
                     else f"team {score.winner}")  # as the table names sides above
            lines.append(f"Game over: {'you win' if won else f'{other} wins'}.")
    return "\n".join(lines)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _canasta_tallies(b: game.ScoreBreakdown) -> str:
    """A side's canastas by kind with their bonuses, as the score tallies them (natural,
    mixed, then the game's own: "1 natural canasta 500, 2 sambas 3000"), which the bonus
    column adds up; a score without tallies (a hand an older server scored) gives the
    natural and mixed counts alone. "" for a side with none."""
    if b.canastas:
        return ", ".join(f"{_count(t.count, _CANASTA_NAMES.get(t.kind, t.kind))} {t.bonus}"
                         for t in b.canastas if t.count)
    return ", ".join(_count(n, _CANASTA_NAMES[kind])
                     for kind, n in (("natural", b.natural_canastas),
                                     ("mixed", b.mixed_canastas)) if n)


def _event_text(e: game.Event, you: int, style: Style, buyer: int = -1) -> str:
    """An event's line. The cards of a draw or a take are named for your seat only:
    the bots' answers are the host's, whose events carry the cards every seat drew
    (yours too, as in a May I? draw that waits for the buy window). The cards a May I?
    ``buyer`` draws are the buy's penalty (MI-BUY-2), and said to be."""
    if e.type == game.EVENT_TYPE_CARDS_DRAWN and e.seat == you and e.cards:
        drew = f"  you drew {style.cards(e.cards)}"
        cards = "card" if len(e.cards) == 1 else "cards"
        return f"{drew}, the penalty {cards} of your buy" if e.seat == buyer else drew
    who = _seat(e.seat, you)
    if e.type == game.EVENT_TYPE_PILE_TAKEN:
        taken = f"  {who} took the pile ({_count(e.count, 'card')})"
        return f"{taken}: {style.cards(e.cards)}" if e.seat == you and e.cards else taken
    if e.type == game.EVENT_TYPE_RED_THREES_LAID:
        return f"  {who} laid red threes {style.cards(e.cards)}"
    return ""


# the answers of May I?'s buy window as your line and a bot's say them, before the card
_WINDOW_MOVES = {"buy": ("buy", "buys"), "pass": ("pass on", "passes on")}


def _move_line(who: str, move: str, top: str, style: Style) -> str:
    """A move's line. A May I? buy names the card bought, the pile's top before it (public,
    MI-BUY-2), which neither its move nor its events name: "seat 1 (random): buys 7♣"; a
    pass the card not bought: "seat 2 (random): passes on 7♣"."""
    if move in _WINDOW_MOVES and top:
        yours, theirs = _WINDOW_MOVES[move]
        move = f"{yours if who == 'you' else theirs} {top}"
    return f"{who}: {style.text(move)}"


# --- the table ------------------------------------------------------------------------------


class Table:
    """One game at the terminal. It holds the game's credentials like a host: the host
    token for the bots and the deals, your seat's token for everything shown to you."""

    def __init__(self, client: CanastaClient, args: argparse.Namespace, inp: TextIO,
                 out: TextIO) -> None:
        self.client = client
        self.args = args
        self.inp = inp
        self.out = out
        self.you: int = args.seat
        self.options = dict(o.split("=", 1) for o in args.option)
        self.rules: dict[str, str] = {}  # the game's rule options, once dealt (rules_of)
        self.variant = args.variant  # the variant's id, once dealt
        self.host: str | None = None  # the host token: the bots' moves and the deals
        self.mine: str | None = None  # your seat's token: your view, moves, hints, score
        self.style = Style.of(out)
        # the deal's seed decides every hand, so one you did not choose is never shown;
        # the bots' and the hints' seed is another (SuggestMove's, which reveals nothing)
        self.seed: int = args.seed if args.seed is not None else secrets.randbits(64)
        self.bot_seed = self.seed if args.seed is not None else secrets.randbits(32)
        # your view in the last move's answer: its pile's top, and at a hand's end the sides'
        # minimums for the next hand
        self.view = game.SeatView()

    def say(self, text: str = "") -> None:
        self.out.write(self.style.line(text) + "\n")
        self.out.flush()

    def call(self, method: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """One call of the client, sent again while the server refuses it for load and says
        when to retry (its RetryInfo), up to RETRIES times: every call is pure. It waits at
        most MAX_RETRY_WAIT, as the SDK's retries do: the hint is the server's word."""
        tries = 0
        while True:
            try:
                return method(*args, **kwargs)
            except CanastaError as err:
                if err.retry_after is None or tries == RETRIES:
                    raise
                tries += 1
                wait = min(err.retry_after, MAX_RETRY_WAIT)
                self.say(f"(the server is busy: {err.reason}; trying again in {wait:g} s)")
                time.sleep(wait)

    def ask(self, prompt: str) -> str | None:
        self.out.write(prompt)
        self.out.flush()
        try:
            line = self._line()
        except UnicodeDecodeError:  # a strict input: bytes not in its encoding
            self.say("(that line is not text in the terminal's encoding)")
            return ""
        if not line:
            self.say()
            return None
        # an input that keeps such bytes as lone surrogates (a C or POSIX locale): each is
        # a "?", which no move holds, so the service refuses the move with its reason
        return line.encode("utf-8", "replace").decode("utf-8").strip()

    def _line(self) -> str:
        """The input's next line. A text stream over bytes gives the line's bytes, decoded
        as the stream decodes: its decoder works on whole chunks, and a strict one failing
        on a chunk lost the lines after the bad one in it (piped, or pasted at once)."""
        buffer = getattr(self.inp, "buffer", None)
        if buffer is None:
            return self.inp.readline()
        raw: bytes = buffer.readline()
        return raw.decode(self.inp.encoding, self.inp.errors or "strict")

    def credentials(self, answer: api.DealResponse | api.NextDealResponse) -> None:
        """Keep the game's credentials from a Deal (or the host's NextDeal) answer. A
        server that issues none leaves both ``None``: its calls then go without one."""
        if answer.host_token:
            self.host = answer.host_token
        if len(answer.seat_tokens) > self.you:
            self.mine = answer.seat_tokens[self.you]

    def play(self) -> int:
        a = self.args
        if not 0 <= self.you < a.players:
            self.say(f"there is no seat {self.you} at a {a.players}-player table")
            return 2
        try:  # the answer carries your view only, as every answer the table asks for
            dealt = self.call(self.client.deal, a.variant, a.players, seed=self.seed,
                              options=self.options, view_seat=self.you)
        except CanastaError as err:
            if unanswered(err):
                raise  # no answer: main says so, naming the server
            self.say(f"cannot deal: {reason(err)}: {err.message}")
            return 2
        self.credentials(dealt)
        self.variant = dealt.header.variant  # the id, as a name it had before is read
        listed = self.call(self.client.list_variants).variants
        # (a server that does not list it: the options given alone)
        info = next((v for v in listed if v.id == self.variant), game.Variant())
        self.rules = rules_of(info, self.options)
        chosen = f", seed {a.seed}" if a.seed is not None else ""
        self.say(f"{a.variant}, {a.players} players{chosen}; you are seat {self.you}, "
                 f"the bots play {a.bot}.")
        deal: api.DealResponse | api.NextDealResponse = dealt
        hands = 0
        while True:
            played = self.play_hand(deal)
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
            deal = self.call(self.client.next_deal, snapshot, view_seat=self.you,
                             token=self.host)
            self.credentials(deal)

    def bot_move(self, snapshot: bytes) -> bytes:
        """The awaited bot's move, as the host: the answer carries your view only."""
        suggestion = self.call(self.client.suggest_move, snapshot, self.args.bot,
                               self.bot_seed, token=self.host)
        done = self.call(self.client.apply_move, snapshot, suggestion.move,
                         seat=suggestion.seat, view_seat=self.you, token=self.host)
        return self.moved(done, f"seat {done.seat} ({self.args.bot})")

    def moved(self, done: api.ApplyMoveResponse, who: str) -> bytes:
        """Say a move applied (yours or a bot's) and its events; keep the pile's top of your
        view in its answer: a May I? buy, always after a move (a draw, a pass), takes it.
        A question of yours still unanswered is said here: your screen shows the others."""
        self.say(_move_line(who, done.move.text, self.view.pile_top, self.style))
        self.events(done.events, done.seat if done.move.text == "buy" else -1)
        view = self.view = self.yours(done.views)
        if view.awaited != self.you and (asked := render_question(view, self.you, self.rules, self.style)):
            self.say(asked)
        return done.snapshot

    def yours(self, views: Iterable[game.SeatView]) -> game.SeatView:
        """Your view among an answer's (a server that issues no tokens answers with every
        seat's); an empty one if it holds none."""
        return next((v for v in views if v.seat == self.you), game.SeatView())

    def events(self, events: Iterable[game.Event], buyer: int = -1) -> None:
        """Say the events of a move or a deal (``buyer``: the seat of a May I? buy)."""
        for e in events:
            if text := _event_text(e, self.you, self.style, buyer):
                self.say(text)

    def dealt(self, deal: api.DealResponse | api.NextDealResponse) -> None:
        """Say what the deal's answer tells before the first move: that you sit the hand out
        (CL-P5-2) and in what order the others play it where it is not round the table
        (CL-P5-3), the red threes laid at the deal (CL-R3-1), as a move's are said."""
        view = self.yours(deal.views)
        if self.you in (out := sitting_out(view)):
            playing = " ".join(str(s) for s in range(view.players) if s not in out)
            self.say(f"You sit out this hand: seats {playing} play it.")
            if order := order_line(view, self.you):
                self.say(order)
        self.events(deal.events)

    def play_hand(self, deal: api.DealResponse | api.NextDealResponse
                  ) -> tuple[bytes, api.ScoreHandResponse] | None:
        """Play one hand out from its deal; ``None`` when you quit."""
        self.dealt(deal)
        snapshot = deal.snapshot
        shown = -1  # the ply whose table was last shown
        ply = 0
        while True:
            # with your token: who is awaited, and your moves when it is you
            legal = self.call(self.client.legal_moves, snapshot, token=self.mine)
            if legal.seat < 0:
                break
            if legal.seat != self.you:
                snapshot = self.bot_move(snapshot)
                ply += 1
                continue
            if shown != ply:
                view = self.call(self.client.view, snapshot, self.you, token=self.mine).views[0]
                self.say(render(view, self.you, self.style))
                if asked := render_question(view, self.you, self.rules, self.style):
                    self.say(asked)
                self.say(render_moves(legal.moves, self.style))
                shown = ply
            answer = self.ask("your move> ")
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                self.say("bye")
                return None
            move = self.read_move(answer, legal.moves, snapshot)
            if move is None:
                continue
            try:
                done = self.call(self.client.apply_move, snapshot, move, token=self.mine)
            except CanastaError as err:
                if unanswered(err):
                    raise
                self.say(f"refused: {reason(err)}: {err.message}")
                continue
            snapshot = self.moved(done, "you")
            ply += 1
        score = self.call(self.client.score_hand, snapshot, token=self.mine)
        self.say(render_score(score, self.you, self.variant))
        if line := next_minimum_line(self.view, self.you):
            self.say(line)
        return snapshot, score

    def read_move(self, answer: str, moves: Sequence[game.Move],
                  snapshot: bytes) -> game.Move | None:
        word = answer.lower()
        if not word or word == "moves":
            self.say(render_moves(moves, self.style))
            return None
        if word in ("help", "?"):
            self.say(help_text(self.variant, self.rules))
            return None
        if word == "hint":
            try:
                hint = self.call(self.client.suggest_move, snapshot, "expert", self.bot_seed,
                                 token=self.mine)
            except CanastaError as err:  # a hint is help, not a move: the game goes on
                self.say(f"no hint: {reason(err)}: {err.message}")
                return None
            self.say(f"hint: {self.style.text(hint.move.text)}")
            return None
        if word.isascii() and word.isdigit():
            n = int(word)
            if not 1 <= n <= len(moves):
                self.say(f"no move {n}: pick 1 to {len(moves)}")
                return None
            return moves[n - 1]
        return game.Move(text=typed(answer))


SEED_MAX = 2**64 - 1  # a deal's and a bot's seed are uint64 (proto/canasta/v1)


def seed(text: str) -> int:
    """``--seed``: a whole number 0 to 2**64-1, the range of the API's seed."""
    value = _whole(text)
    if not 0 <= value <= SEED_MAX:
        raise argparse.ArgumentTypeError(f"{value} is not a seed: pick 0 to {SEED_MAX}")
    return value


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def hands(text: str) -> int:
    """``--hands``: how many hands to play, 0 (the default) for the whole game."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{value} is not a number of hands: pick 1 or more, "
                                         "or 0 to play the game out")
    return value


def players(text: str) -> int:
    """``--players``: 1 or more; each game's own range is the deal's to say (BAD_PLAYERS)."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is not a number of players: each game "
                                         "has its range (classic 2 to 6)")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="canasta play", description="Play Canasta in the terminal: "
                                     "you against bots.")
    parser.add_argument("--variant", default="classic",
                        help="classic, samba, bolivia, bolivia_sevens or may_i")
    parser.add_argument("--players", type=players, default=4)
    parser.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    parser.add_argument("--bot", default="greedy", choices=LEVELS, help="the bots' level")
    parser.add_argument("--seed", type=seed, default=None,
                        help="deal seed (default: a random one, never shown: it decides every hand)")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option of the variant (repeatable)")
    parser.add_argument("--hands", type=hands, default=0,
                        help="stop after this many hands (default: play the game out)")
    parser.add_argument("--server", default=None, metavar="HOST:PORT",
                        help="a running service (gRPC); default: a local one started "
                        "for this table")
    return parser


def main(argv: Sequence[str] | None = None, inp: TextIO | None = None,
         out: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    if any("=" not in o for o in args.option):
        build_parser().error("--option takes NAME=VALUE")
    stream = out or sys.stdout
    target = ""
    try:
        with server(args.server) as (target, how), \
                CanastaClient(target, timeout=TIMEOUT) as client:
            stream.write(Style.of(stream).line(f"canasta table · {how}") + "\n")
            return Table(client, args, inp or sys.stdin, stream).play()
    except NoLocalServer as err:
        stream.write(f"error: {err}\nstart one (make run) and pass --server HOST:PORT\n")
        return 1
    except CanastaError as err:
        said = unreachable(err, target, local=not args.server) or \
            f"{reason(err)}: {err.message}"
        stream.write(Style.of(stream).line(f"error: {said}") + "\n")
        return 1
    except KeyboardInterrupt:
        stream.write("\nbye\n")
        return 130
    except BrokenPipeError:
        # the output's reader went away (the table piped into `head`): nothing can be said,
        # and the interpreter's flush at exit would fail again, so what is left goes nowhere
        if stream is sys.stdout:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141  # 128 + SIGPIPE: what a shell reports of a command whose reader left


@contextlib.contextmanager
def server(given: str | None) -> Iterator[tuple[str, str]]:
    """The gRPC target to play against and how it is reached (for the banner): the given
    server, or a local one for this table (:func:`~canasta_terminal.local.local_server`)."""
    if given:
        yield given, f"server {given}"
        return
    with local_server() as target:
        yield target, f"a local server ({target})"


if __name__ == "__main__":
    raise SystemExit(main())
