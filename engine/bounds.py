"""What play can produce: the bounds the service's ImportPosition keeps.

A position text can describe states no game reaches, and some of them make every
answer huge: a May I? hand of 83 cards lists 9,335 ways to go down (1 MB of JSON).
``engine.notation.import_position`` reads any consistent text (hand-written test
positions need that); the ImportPosition RPC also calls :func:`check_reachable`,
which refuses what play cannot produce, with ``POSITION_OUT_OF_BOUNDS``:

* May I? (MI-BUY-2, MI-BUY-5, MI-DEAL-2): a hand holds at most the cards dealt in
  this deal, the one card of the turn's draw, and ``1 + buy_penalty_cards`` for each
  buy its seat made in this deal; a seat's buys are at most ``max_buys_per_deal``.
  With no buy limit (``max_buys_per_deal=none``) play can grow a hand to most of the
  deck; ImportPosition then accepts at most :data:`UNLIMITED_BUYS_ACCEPTED` buys per
  seat (the default limit): a service limit, not a rule, and longer hands arise only in
  play (docs/operations.md, *Worst cases*).
* The Canasta games: every zone is already bounded by the deck (the notation checks
  every card once). Even a hand of nearly the whole deck lists about 1,300 moves
  (130 KB of JSON), under the documented worst case, so no tighter bound is needed.
* Every game: its numbers stay within what play makes and the API carries (32-bit
  integers): a score or a hand's penalty points within :data:`SCORE_LIMIT` either side of
  zero, a hand number up to :data:`HAND_LIMIT`. Service limits, not rules: play keeps far
  inside them (every integer option is at most a million, engine/options.py). So do the
  counts play adds one to (the moves of the hand, a seat's questions, May I?'s
  reshuffles), 0 to :data:`COUNT_LIMIT`: a move count of 4,300 nines was read, and the
  move after it failed as INTERNAL (its successor has a digit more than Python writes).
  The seed is not bounded: no view or answer shows it, and a position's seed beyond 64
  bits plays on (its snapshot's length tells only how far its text passes the 20
  characters the seal pads every seed to, docs/security.md).
* Every game: a hand that is not over awaits a seat with a legal move, as play always
  leaves it (the dead-end tests hold play to that), and one whose only move is to ask
  its partner still has a move after the answer. The notation reader checks the turn's
  lines against the phase; this catches the rest, for one a Canasta hand of one card in
  the meld phase with nothing staged, which can neither meld nor discard. It runs after
  the bounds above, so it never lists the moves of a hand play cannot hold.
"""

from __future__ import annotations

from typing import Any

from engine.errors import BadInput, Reason
from engine.games import Game, game_of
from engine.mayi.state import AnyState, MayIState
from engine.moves import Ask
from engine.state import Phase, State

UNLIMITED_BUYS_ACCEPTED = 3  # buys per seat an imported May I? position may claim, no limit
NO_BUY_LIMIT = 1 << 30  # MayIRules.buy_cap of max_buys_per_deal=none
SCORE_LIMIT = 1 << 30  # an imported score or penalty total, either sign (a service limit)
HAND_LIMIT = 1_000_000  # an imported hand number (a service limit)
COUNT_LIMIT = 1 << 30  # an imported count of moves, questions or reshuffles (a service limit)


def check_reachable(state: AnyState) -> None:
    """Refuse a state play cannot produce (see the module's docstring).

    :raises BadInput: ``POSITION_OUT_OF_BOUNDS``, naming the seat and the bound, or the
        phase nobody can move in.
    """
    _check_numbers(state)
    game = game_of(state)
    game.check_reachable(state)
    if state.phase is Phase.HAND_OVER or state.phase is Phase.GAME_OVER:
        return
    if _stuck(game, state):
        raise BadInput(Reason.POSITION_OUT_OF_BOUNDS,
                       f"nobody can move in this {state.phase.value} phase: play never "
                       "leaves a turn so")


def _check_numbers(state: AnyState) -> None:
    """The scores, hand number and move count of the module's docstring (a game's own
    numbers are its ``check_reachable``'s)."""
    if not 0 <= state.hand_no <= HAND_LIMIT:
        raise BadInput(Reason.POSITION_OUT_OF_BOUNDS,
                       f"hand {state.hand_no}: a position holds hands 0 to {HAND_LIMIT}")
    _within("score", state.scores)
    _counts("move count (ply)", (state.ply,))


def _counts(what: str, values: tuple[int, ...]) -> None:
    for value in values:
        if not 0 <= value <= COUNT_LIMIT:
            raise BadInput(Reason.POSITION_OUT_OF_BOUNDS,
                           f"a {what} of {value}: a position holds 0 to {COUNT_LIMIT}")


def _within(what: str, values: tuple[int, ...]) -> None:
    for value in values:
        if abs(value) > SCORE_LIMIT:
            raise BadInput(Reason.POSITION_OUT_OF_BOUNDS,
                           f"a {what} of {value}: a position holds at most {SCORE_LIMIT} "
                           "either side of zero")


def _stuck(game: Game[Any, Any], state: AnyState) -> bool:
    """Whether nobody can move in ``state``, or its seat's only move is a question after
    whose answer it cannot move (a partnered Canasta seat holding one card in the meld
    phase: it may ask, and then has nothing to do)."""
    moves = game.legal_moves(state) if state.awaited >= 0 else []
    if not moves:
        return True
    if any(type(m) is not Ask for m in moves):
        return False
    asked = game.apply(state, moves[0], None)
    return any(not game.legal_moves(game.apply(asked, answer, None))
               for answer in game.legal_moves(asked))


def canasta_check_reachable(state: State) -> None:
    """The Canasta games: the deck bounds every zone already (the notation checks it);
    the hand's penalty points as the scores, its questions as the move count."""
    _within("penalty total", state.penalties)
    _counts("question count", state.asks)


def mayi_hand_bound(state: MayIState, seat: int) -> int:
    """The most cards ``seat`` can hold in this deal of ``state`` (MI-BUY-2, MI-DEAL-2)."""
    rules = state.rules
    return rules.hand_sizes[state.hand_no] + 1 + state.buys[seat] * (1 + rules.penalty)


def mayi_check_reachable(state: MayIState) -> None:
    """May I?: the hands and buys of the module's docstring, its reshuffles as the move
    count."""
    _counts("reshuffle count", (state.reshuffles,))
    limit = state.rules.buy_cap
    cap = UNLIMITED_BUYS_ACCEPTED if limit >= NO_BUY_LIMIT else limit
    for seat, buys in enumerate(state.buys):
        if buys > cap:
            raise BadInput(Reason.POSITION_OUT_OF_BOUNDS,
                           f"seat {seat} claims {buys} buys in this deal; at most {cap}")
        most = mayi_hand_bound(state, seat)
        if len(state.hands[seat]) > most:
            raise BadInput(Reason.POSITION_OUT_OF_BOUNDS,
                           f"seat {seat} holds {len(state.hands[seat])} cards; with {buys} "
                           f"buys this deal it can hold at most {most}")
