"""What happened: the events of a deal and of each move, for every game of the engine.

:func:`play` is ``apply`` that also reports the canonical move it applied, the seat
that made it and the events, so a host (or the service) neither canonicalises the
move again nor compares states. Everyone sees the same events; the cards of a
``CARDS_DRAWN`` (the stock cards a seat drew, a May I? buyer's penalty cards too) or of
a Canasta ``PILE_TAKEN`` (the pile, hidden below its top) are ``private``: only that
seat (and a host who sees all) may be shown them (CL-INFO-5: draws from the stock are
public without the card). A May I? ``PILE_TAKEN`` is public: its one card is the pile's
top, which every view showed (MI-TURN-3). A buy has no ``PILE_TAKEN``: its card is the
top of the pile it was bought from.

>>> from engine.game import new_game
>>> from engine.moves import Draw
>>> played = play(new_game("classic", 4, seed=1), Draw())
>>> [e.kind.value for e in played.events]
['move_played', 'cards_drawn']
>>> played.events[1].private, played.events[1].count
(True, 1)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum

from mypy_extensions import mypyc_attr

from engine.cards import Card
from engine.games import game_of
from engine.mayi.moves import Buy
from engine.mayi.state import AnyState
from engine.moves import Move, TakePile
from engine.play import apply, canonicalize
from engine.state import Phase

Laid = tuple[tuple[Card, ...], ...]  # the red threes laid, per seat (Game.red_threes)


class EventKind(StrEnum):
    MOVE_PLAYED = "move_played"  # seat played move (its text)
    CARDS_DRAWN = "cards_drawn"  # seat drew count cards from the stock (private cards)
    PILE_TAKEN = "pile_taken"  # seat took count cards of the pile (Game.public_takes)
    RED_THREES_LAID = "red_threes_laid"  # seat laid cards (public)
    TURN_STARTED = "turn_started"  # seat is now to move
    HAND_OVER = "hand_over"  # the hand ended; seat went out (-1: the stock ran out)
    GAME_OVER = "game_over"  # the game ended; team won (-1: a draw)
    HAND_DEALT = "hand_dealt"  # a hand was dealt; seat is the dealer


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Event:
    kind: EventKind
    seat: int = -1
    move: str = ""
    cards: tuple[Card, ...] = ()
    count: int = 0
    team: int = -1
    private: bool = False  # its cards are for ``seat``'s eyes (and a host's) only


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Played:
    """What :func:`play` did: the next state, the canonical move, who moved, the events."""

    state: AnyState
    move: Move
    seat: int
    events: tuple[Event, ...]


def play(state: AnyState, move: Move, seat: int | None = None) -> Played:
    """:func:`engine.play.apply`, reporting what happened.

    :raises RuleViolation: the move is not legal here (as ``apply``).
    :raises BadInput: the seat does not exist.
    """
    nxt = apply(state, move, seat)
    mover = state.awaited if seat is None else seat
    done = canonicalize(state, move)
    return Played(nxt, done, mover, move_events(state, done, mover, nxt))


def deal_events(state: AnyState) -> tuple[Event, ...]:
    """The events of a fresh deal: who dealt, red threes laid, who plays first."""
    events = [Event(EventKind.HAND_DEALT, state.dealer)]
    events += _red_threes((), game_of(state).red_threes(state))
    if state.awaited >= 0:
        events.append(Event(EventKind.TURN_STARTED, state.turn.seat))
    return tuple(events + _ending(None, state))


def move_events(prev: AnyState, move: Move, seat: int, nxt: AnyState) -> tuple[Event, ...]:
    """What happened when ``seat`` played the canonical ``move`` from ``prev`` to ``nxt``."""
    game = game_of(prev)
    events = [Event(EventKind.MOVE_PLAYED, seat, move=str(move))]
    from_pile: tuple[Card, ...] = ()
    if isinstance(move, TakePile):  # the Canasta games take the pile, May I? its top card
        from_pile = game.pile_taken(prev)
        events.append(Event(EventKind.PILE_TAKEN, seat, cards=from_pile, count=len(from_pile),
                            private=not game.public_takes))
    elif isinstance(move, Buy):
        from_pile = prev.pile[-1:]
    reds = (game.red_threes(prev), game.red_threes(nxt))
    for s, cards in _draws(prev, nxt, reds, seat, from_pile):
        events.append(Event(EventKind.CARDS_DRAWN, s, cards=cards, count=len(cards),
                            private=True))
    events += _red_threes(*reds)
    if nxt.turn.seat != prev.turn.seat and nxt.awaited >= 0:
        events.append(Event(EventKind.TURN_STARTED, nxt.turn.seat))
    return tuple(events + _ending(prev.phase, nxt))


def _red_threes(before: Laid, after: Laid) -> list[Event]:
    """The red threes each seat laid between ``before`` (``()``: a fresh deal) and ``after``."""
    out = []
    for seat, reds in enumerate(after):
        had = len(before[seat]) if before else 0
        if len(reds) > had:
            out.append(Event(EventKind.RED_THREES_LAID, seat, cards=reds[had:]))
    return out


def _ending(prev_phase: Phase | None, nxt: AnyState) -> list[Event]:
    over = (Phase.HAND_OVER, Phase.GAME_OVER)
    if nxt.phase not in over or prev_phase in over or nxt.result is None:
        return []
    out = [Event(EventKind.HAND_OVER, nxt.result.went_out)]
    if nxt.phase is Phase.GAME_OVER:
        out.append(Event(EventKind.GAME_OVER, team=nxt.result.winner))
    return out


def _draws(prev: AnyState, nxt: AnyState, reds: tuple[Laid, Laid], seat: int,
           from_pile: tuple[Card, ...]) -> list[tuple[int, tuple[Card, ...]]]:
    """Who drew which stock cards in one move, the mover first (a May I? buy draws for
    the buyer and for the player in turn): the cards that reached a seat's hand or red
    threes (``reds``: before and after) and not from the pile."""
    before, after = reds
    if nxt.stock == prev.stock and not from_pile:
        return []  # nothing drawn: an undo hands back the turn's staged cards, not the stock's
    gained = [s for s in range(len(nxt.hands))
              if len(nxt.hands[s]) + len(after[s]) > len(prev.hands[s]) + len(before[s])
              or (s == seat and from_pile)]
    if not gained:
        return []
    left = len(nxt.stock)
    if len(gained) == 1 and not from_pile and prev.stock[:left] == nxt.stock:
        return [(gained[0], tuple(sorted(prev.stock[left:])))]  # the common case: one draw
    out = []
    for s in sorted(gained, key=lambda s: (s != seat, s)):
        got = Counter(nxt.hands[s]) + Counter(after[s])
        got.subtract(Counter(prev.hands[s]) + Counter(before[s]))
        if s == seat:
            got.subtract(Counter(from_pile))
        if +got:
            out.append((s, tuple(sorted((+got).elements()))))
    return out
