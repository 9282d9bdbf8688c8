"""Bots that pick a legal move: deterministic for a seed, pure functions of the state.

One interface for every game: a bot is ``(state, rng) -> move`` and only ever
returns a move from ``legal_moves(state)`` (for ``state.awaited``). The levels:

``random``
    a uniformly random legal move (never ``undo`` while the turn can be ended).
``greedy``
    a one-ply heuristic. In the Canasta games it goes out when it may, takes a
    rich pile, melds what pays (checking that the turn can still be ended, so it
    never stages itself into a dead end), keeps wild cards for canastas and does
    not feed the pile to the opponents. In May I? it goes down as soon as the
    contract allows, lays off, takes or buys a discard only when it builds toward
    the contract and discards its most expensive useless card. Move kinds it does
    not know score neutrally, so a later variant's moves still work.
``expert``
    a search over deals of the hidden cards consistent with the seat's view,
    weighing its favourite moves by playouts (:mod:`engine.expert`; in May I? its
    own play is :mod:`engine.mayi.bots`); its ``budget`` of playouts sets its
    strength.

:func:`suggest_move` is the entry point a host (or the ``SuggestMove`` RPC) calls:
the same state, level and seed always give the same move.

>>> from engine.game import new_game
>>> s = new_game("classic", 4, seed=3)
>>> suggest_move(s, "greedy", seed=1) == suggest_move(s, "greedy", seed=1)
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final, TypeAlias, TypeVar

from engine.cards import IS_BLACK_THREE, RANK
from engine.errors import BadInput, Reason, RuleViolation
from engine.games import game_of
from engine.legal import canasta_legal_moves, legal_moves_for
from engine.mayi.legal import legal_moves as mayi_legal_moves
from engine.mayi.moves import MayIMove
from engine.mayi.state import AnyState, MayIState
from engine.melds import find_label
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    CanastaMove,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Meld,
    Merge,
    Move,
    TakePile,
    Undo,
)
from engine.observation import redact
from engine.play import canasta_apply
from engine.state import Phase, State

Bot = Callable[[AnyState, random.Random], Move]
_M = TypeVar("_M")  # a game's move type (engine.games.Game)

_COMMITS: Final = (Discard, GoOut, EndHand)
_STAGING: Final = (Meld, AddToMeld, Merge)


def random_move(state: AnyState, rng: random.Random) -> Move:
    """A uniformly random legal move.

    ``undo`` is left out while the turn can be ended, so random play moves on;
    when staged melds leave no way to end the turn, ``undo`` is one of the
    choices, so random play always backs out of a dead end.
    """
    move: Move = game_of(state).random_move(state, rng)
    return move


def greedy_move(state: AnyState, rng: random.Random) -> Move:
    """The best legal move by a one-ply heuristic; ties broken by ``rng``."""
    move: Move = game_of(state).greedy_move(state, rng)
    return move


def canasta_random_move(state: State, rng: random.Random) -> CanastaMove:
    """:func:`random_move` in the Canasta games."""
    moves = canasta_legal_moves(state)
    # undo is listed only while melds are staged; the moves that end the turn come last
    if state.turn.staged and isinstance(moves[-1], _COMMITS):
        moves = [m for m in moves if type(m) is not Undo]
    return _pick(moves, rng)


def mayi_random_move(state: MayIState, rng: random.Random) -> MayIMove:
    """:func:`random_move` in May I? (it has no undo)."""
    return _pick(mayi_legal_moves(state), rng)


def _pick(moves: list[_M], rng: random.Random) -> _M:
    """``rng.choice(moves)``, inlined (the same draws): random playouts call it every move."""
    n = len(moves)
    if not n:
        raise IndexError("no legal move: the hand is over")
    k = n.bit_length()
    if type(rng) is _RANDOM:  # its C method called directly: no bound method a draw
        r = _GETRANDBITS(rng, k)
        while r >= n:
            r = _GETRANDBITS(rng, k)
    else:  # a subclass (SystemRandom) keeps its own
        r = rng.getrandbits(k)
        while r >= n:
            r = rng.getrandbits(k)
    return moves[r]


_RANDOM: Final = random.Random
_GETRANDBITS: Final = random.Random.getrandbits


def canasta_greedy_move(state: State, rng: random.Random) -> CanastaMove:
    """:func:`greedy_move` in the Canasta games."""
    moves = canasta_legal_moves(state)
    dead: set[tuple[object, ...]] = set()

    def ok(move: Move) -> bool:  # a meld action must leave a way to end the turn
        return not isinstance(move, _STAGING) or bool(
            _finishable(state, move, [_SEARCH_BUDGET], dead))

    return best_move(moves, lambda m: _score(state, m), rng, ok)


def expert_move(state: AnyState, rng: random.Random) -> Move:
    """The ``expert`` bot at its default budget (:mod:`engine.expert`)."""
    from engine.expert import expert_move as search  # engine.expert builds on this module

    return search(state, rng)


# A game's legal moves, the expert's preference of each, and whether it may play it.
Ranking: TypeAlias = tuple[list[_M], list[float], Callable[[_M], bool]]


def ranked_moves(state: AnyState, limit: int, per_kind: int) -> list[Move]:
    """Up to ``limit`` legal moves of ``state.awaited`` by greedy's preference, at most
    ``per_kind`` of each move type, the best of every type first: the expert's
    candidates. A Canasta meld action is left out when greedy's search finds no way
    to end the turn after it; ``undo`` only when nothing else is left."""
    moves, scores, ok = game_of(state).ranking(state)
    order = sorted(range(len(moves)), key=lambda i: -scores[i])  # ties: listing order
    kinds: dict[type, list[Move]] = {}
    for i in order:
        move = moves[i]
        bucket = kinds.setdefault(type(move), [])
        if len(bucket) < per_kind and not isinstance(move, Undo) and ok(move):
            bucket.append(move)
    ranked: list[Move] = []
    for rank in range(per_kind):  # the kinds in the order of their best move
        ranked += [b[rank] for b in kinds.values() if rank < len(b)]
    undo: list[Move] = [m for m in moves if isinstance(m, Undo)]
    return ranked[:limit] or undo[:1] or moves[:1]


def canasta_ranking(state: State) -> Ranking[CanastaMove]:
    """:func:`ranked_moves`' input in the Canasta games: a meld action is playable when
    greedy's search finds a way to end the turn after it."""
    moves = canasta_legal_moves(state)
    dead: set[tuple[object, ...]] = set()

    def ok(move: Move) -> bool:
        return not isinstance(move, _STAGING) or bool(
            _finishable(state, move, [_SEARCH_BUDGET], dead))

    return moves, [_score(state, m) for m in moves], ok


def best_move(moves: list[_M], score: Callable[[_M], float], rng: random.Random,
              ok: Callable[[_M], bool] = lambda m: True) -> _M:
    """The highest-scoring move that passes ``ok`` (ties in a random order)."""
    scored = sorted(((score(m), i) for i, m in enumerate(moves)), reverse=True)
    at = 0
    while at < len(scored):
        best = scored[at][0]
        tied = [i for s, i in scored if s == best]
        at += len(tied)
        rng.shuffle(tied)
        for i in tied:
            if ok(moves[i]):
                return moves[i]
    return rng.choice([m for m in moves if isinstance(m, Undo)] or moves)


BOTS: Final[dict[str, Bot]] = {
    "random": random_move,
    "greedy": greedy_move,
    "expert": expert_move,
}
LEVELS: Final[tuple[str, ...]] = tuple(BOTS)


def bot_rng(state: AnyState, seed: int) -> random.Random:
    """The random source of a suggestion: one stream per (seed, hand, ply)."""
    return random.Random(f"{seed}/{state.hand_no}/{state.ply}")


def suggest_move(state: AnyState, level: str = "greedy", seed: int = 0,
                 seat: int | None = None, budget: int | None = None,
                 interrupt: Callable[[], None] | None = None) -> Move:
    """A legal move for ``seat`` (default: ``state.awaited``) by the bot ``level``, the
    same for the same seed (and budget).

    ``budget`` is the ``expert``'s playouts (default and maximum in
    :mod:`engine.expert`; more is clamped), and ``interrupt`` is called between its
    rounds of playouts and may raise to abandon the search; the other levels, which
    take milliseconds, ignore both.

    The bot decides from what the seat may know only: it is handed
    :func:`engine.observation.redact` of the state, never the other hands, the
    stock or the seed, so it cannot peek (the same holds for every level).

    :raises BadInput: ``BAD_OPTION_VALUE`` for an unknown level or a budget below 1;
        ``BAD_SEAT`` for a seat that does not exist.
    :raises RuleViolation: ``HAND_OVER`` or ``GAME_OVER`` when nobody is to move;
        ``NOT_YOUR_TURN`` when ``seat`` may not move now.
    """
    bot = BOTS.get(level)
    if bot is None:
        raise BadInput(Reason.BAD_OPTION_VALUE,
                       f"unknown bot level {level!r}; known: {', '.join(LEVELS)}")
    from engine.expert import clamp_budget
    from engine.expert import expert_move as search

    playouts = clamp_budget(budget, state.rules.variant, state.rules.players)
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        over = state.phase is Phase.GAME_OVER
        raise RuleViolation(Reason.GAME_OVER if over else Reason.HAND_OVER,
                            "the game is over" if over else "the hand is over: deal the next one",
                            "CL-TURN-4")
    awaited = state.awaited
    if seat is None:
        seat = awaited
    elif not 0 <= seat < state.rules.players:
        raise BadInput(Reason.BAD_SEAT, f"there is no seat {seat}")
    if seat != awaited and not legal_moves_for(state, seat):
        raise RuleViolation(Reason.NOT_YOUR_TURN, f"seat {awaited} is to move, not seat {seat}",
                            "CL-TURN-2")
    view = redact(state, seat)
    view = game_of(view).to_move(view, seat)  # May I?: a later seat answering a buy window
    rng = bot_rng(state, seed)
    if bot is expert_move:
        return search(view, rng, playouts, interrupt)
    return bot(view, rng)


# --- the Canasta games ----------------------------------------------------------------


_SEARCH_BUDGET: Final = 48  # positions a turn-plan search may look at, per candidate move


def _finishable(state: State, move: Move, budget: list[int],
                dead: set[tuple[object, ...]]) -> bool | None:
    """Whether the turn can still end (discard, go out, end) after staging ``move``,
    without taking anything back: a depth-first search over further meld actions, best
    first by :func:`_score`. ``True``: a way was found; ``False``: there is none;
    ``None``: the budget ran out first. ``dead`` collects the positions with none.

    The search tries moves in the order the bot does, so a position the bot staged
    into because a way out was found is found finishable again on the next move:
    the bot never needs ``undo``.
    """
    after = canasta_apply(state, move)
    if after.awaited != state.awaited or after.phase is not Phase.MELD:
        return True
    seat = after.turn.seat
    key = (after.hands[seat], after.melds[after.team_of(seat)])
    if key in dead:
        return False
    nxt = canasta_legal_moves(after)
    if any(isinstance(m, _COMMITS) for m in nxt):
        return True
    children = sorted(((_score(after, m), -i, m) for i, m in enumerate(nxt)
                       if isinstance(m, _STAGING)), key=lambda t: (t[0], t[1]), reverse=True)
    ran_out = False
    for _, _, m in children:
        if budget[0] <= 0:
            return None
        budget[0] -= 1
        found = _finishable(after, m, budget, dead)
        if found:
            return True
        ran_out = ran_out or found is None
    if ran_out:
        return None
    dead.add(key)
    return False


def _score(state: State, move: Move) -> float:
    rules = state.rules
    values = rules.values
    seat = state.awaited
    if isinstance(move, GoOut):
        return 10_000
    if isinstance(move, Answer):
        team = state.team_of(state.turn.seat)
        ready = sum(1 for m in state.melds[team] if m.is_canasta) >= rules.canastas_to_go_out
        return 1 if move.yes == ready else 0
    if isinstance(move, TakePile):
        pile = state.pile
        gain = sum(values[c] for c in pile) + 15 * len(pile)
        return 100 + gain - 2 * len(move.cards) - 5 * sum(len(g) for g in move.extras)
    if isinstance(move, Draw):
        return 50
    if isinstance(move, Decline):
        return -50
    if isinstance(move, Meld | AddToMeld):
        return 200 + _meld_gain(state, move)
    if isinstance(move, Merge):
        return 150
    if isinstance(move, Discard):
        return -_keep_value(state, seat, move.card)
    if isinstance(move, EndHand):
        return -1
    if isinstance(move, Ask | Undo):
        return -10_000
    return 0.0  # a move kind this bot does not know: neutral


def _meld_gain(state: State, move: Meld | AddToMeld) -> float:
    values = state.rules.values
    wild = state.rules.wild
    cards = move.cards if isinstance(move, AddToMeld) else tuple(c for g in move.groups for c in g)
    gain = float(sum(values[c] for c in cards))
    team = state.team_of(state.turn.seat)
    if isinstance(move, AddToMeld):
        melds = state.melds[team]
        at = (find_label(melds, move.label) if move.label
              else next((i for i, m in enumerate(melds) if m.rank == move.rank), -1))
        meld = melds[at] if at >= 0 else None
        if meld is not None and meld.size < 7 <= meld.size + len(cards):
            gain += 300
    # keep wild cards for canastas rather than spreading them early
    gain -= 15 * sum(1 for c in cards if wild[c])
    left = len(state.hands[state.turn.seat]) - len(cards)
    return gain - (40 if left <= 2 else 0)


def _keep_value(state: State, seat: int, card: int) -> float:
    """How much it costs to discard ``card``: high for wilds and for cards that
    feed an opponent's meld, low for black threes and lone high cards."""
    rules = state.rules
    if IS_BLACK_THREE[card]:
        return 0
    if rules.wild[card]:
        return 500
    rank = RANK[card]
    team = state.team_of(seat)
    cost = 10.0 - rules.values[card] / 10
    hand = state.hands[seat]
    same = sum(1 for c in hand if RANK[c] == rank and not rules.wild[c])
    cost += 30 * (same - 1)
    for other, melds in enumerate(state.melds):
        if other != team and any(m.rank == rank for m in melds):
            cost += 200  # the next player could take the pile with it
    if any(m.rank == rank for m in state.melds[team]):
        cost += 40
    return cost


__all__ = ["BOTS", "LEVELS", "Bot", "bot_rng", "expert_move", "greedy_move", "random_move",
           "ranked_moves", "suggest_move"]
