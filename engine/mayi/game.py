"""Starting May I? games and deals (called through ``engine.new_game`` / ``next_deal``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engine.cards import Card, parse_card
from engine.errors import BadInput, Reason
from engine.mayi import transitions as tr
from engine.mayi.reasons import MayIViolation
from engine.mayi.rules import build
from engine.mayi.state import MayIState
from engine.state import Phase


def _deck(deck: Sequence[Card | str] | None) -> list[Card] | None:
    if deck is None:
        return None
    cards = [c if isinstance(c, Card) else parse_card(c) for c in deck]
    tr.check_deck(cards)
    return cards


def new_game(players: int = 4, seed: int = 0, options: Mapping[str, object] | None = None,
             deck: Sequence[Card | str] | None = None, dealer: int | None = None) -> MayIState:
    """Deal the first deal of a May I? game.

    The same seed (or the same explicit 104-card ``deck``, index 0 on top) always
    deals the same game. By default the last seat deals, so seat 0 plays first
    (the rules draw the first dealer by lot, MI-DEAL-1: pass ``dealer`` to set it).

    >>> s = new_game(4, seed=7)
    >>> len(s.hands[0]), len(s.stock), s.awaited
    (10, 64, 0)

    :raises BadInput: bad player count, option, seed, dealer or deck.
    """
    rules = build(players, options)
    if isinstance(seed, bool) or not 0 <= seed < 2**64:
        raise BadInput(Reason.BAD_OPTION_VALUE, "seed must be an unsigned 64-bit integer")
    if dealer is None:
        dealer = players - 1
    elif not 0 <= dealer < players:
        raise BadInput(Reason.BAD_SEAT, f"seat {dealer} cannot deal: there is no such seat")
    return tr.deal(rules, seed, 0, dealer, (0,) * players, _deck(deck))


def next_deal(state: MayIState, deck: Sequence[Card | str] | None = None) -> MayIState:
    """The next deal of the game (MI-DEAL-1, MI-GAME-1).

    :raises RuleViolation: ``HAND_NOT_OVER`` while the deal is played, ``GAME_OVER`` at the end.
    """
    if state.phase is Phase.GAME_OVER:
        raise MayIViolation(Reason.GAME_OVER, "the game is over", "MI-GAME-1")
    if state.phase is not Phase.HAND_OVER:
        raise MayIViolation(Reason.HAND_NOT_OVER, "the deal is still being played", "MI-OUT-2")
    return tr.next_deal(state, _deck(deck))
