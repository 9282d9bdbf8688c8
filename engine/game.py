"""Starting games and hands: the entry points a host calls besides ``apply``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import overload

from engine import transitions
from engine.canasta_reasons import CanastaViolation
from engine.cards import Card, parse_card
from engine.deck import check_deck
from engine.errors import BadInput, Reason
from engine.games import game_of
from engine.mayi import game as mayi_game
from engine.mayi.rules import MayIRules
from engine.mayi.state import AnyState, MayIState
from engine.rules import RuleSet
from engine.state import Phase, State
from engine.variants import variant_module


def rules_for(variant: str, players: int,
              options: Mapping[str, object] | None = None) -> RuleSet | MayIRules:
    """The validated rule set of a variant.

    :raises BadInput: unknown variant, bad player count, unknown option or value.
    """
    return variant_module(variant).build(players, options)


def _deck(rules: RuleSet, deck: Sequence[Card | str] | None) -> list[Card] | None:
    if deck is None:
        return None
    cards = [c if isinstance(c, Card) else parse_card(c) for c in deck]
    check_deck(rules, cards)
    return cards


def new_game(
    variant: str = "classic",
    players: int = 4,
    seed: int = 0,
    options: Mapping[str, object] | None = None,
    deck: Sequence[Card | str] | None = None,
    dealer: int | None = None,
) -> AnyState:
    """Deal the first hand of a new match.

    The same seed (or the same explicit ``deck``, index 0 on top) always deals
    the same game. By default the last seat deals, so seat 0 plays first.

    >>> s = new_game("classic", 4, seed=7)
    >>> len(s.hands[0]), s.awaited
    (11, 0)
    """
    if variant == "may_i":  # May I? is its own game: engine/mayi
        return mayi_game.new_game(players, seed, options, deck, dealer)
    rules = rules_for(variant, players, options)
    assert isinstance(rules, RuleSet)  # only may_i builds other rules, and it left above
    if not 0 <= seed < 2**64:
        raise BadInput(Reason.BAD_OPTION_VALUE, "seed must be an unsigned 64-bit integer")
    active = rules.active_seats(0)
    if dealer is None:
        dealer = active[-1]
    elif dealer not in active:
        raise BadInput(Reason.BAD_SEAT, f"seat {dealer} cannot deal the first hand")
    scores = (0,) * len(rules.layout.teams)
    return transitions.deal(rules, seed, 0, dealer, scores, _deck(rules, deck))


@overload
def next_deal(state: State, deck: Sequence[Card | str] | None = None) -> State: ...
@overload
def next_deal(state: MayIState, deck: Sequence[Card | str] | None = None) -> MayIState: ...


def next_deal(state: AnyState, deck: Sequence[Card | str] | None = None) -> AnyState:
    """The next hand of the match, after a hand is over (CL-GAME-6).

    :raises RuleViolation: ``HAND_NOT_OVER`` while the hand is played, ``GAME_OVER`` at the end.
    """
    dealt: AnyState = game_of(state).next_deal(state, deck)
    return dealt


def canasta_next_deal(state: State, deck: Sequence[Card | str] | None = None) -> State:
    """:func:`next_deal` of a Canasta-family state."""
    if state.phase is Phase.GAME_OVER:
        raise CanastaViolation(Reason.GAME_OVER, "the game is over", "CL-GAME-3")
    if state.phase is not Phase.HAND_OVER:
        raise CanastaViolation(Reason.HAND_NOT_OVER, "the hand is still being played", "CL-TURN-4")
    return transitions.next_deal(state, _deck(state.rules, deck))
