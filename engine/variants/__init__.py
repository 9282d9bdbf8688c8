"""The variant registry: id -> module with NAME, OPTIONS, player range and ``build``,
and each table's facts (:func:`table_facts`) that ListVariants publishes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Protocol

from mypy_extensions import mypyc_attr

from engine.card_points import CardPoints, card_points
from engine.cards import CARDS, JOKER, Card
from engine.deck import composition
from engine.errors import BadInput, Reason
from engine.mayi import transitions as mayi_transitions
from engine.mayi.rules import MayIRules
from engine.options import OptionSpec
from engine.rule_counts import rule_counts
from engine.rules import RuleSet
from engine.variants import bolivia, bolivia_sevens, classic, may_i, samba


@mypyc_attr(native_class=False)
class VariantModule(Protocol):
    NAME: str
    NAME_RU: str
    MIN_PLAYERS: int
    MAX_PLAYERS: int
    OPTIONS: tuple[OptionSpec, ...]

    def build(self, players: int,
              options: Mapping[str, object] | None = None) -> RuleSet | MayIRules: ...


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class VariantInfo:
    id: str
    name: str
    name_ru: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]


# May I? builds its own rule set (engine.mayi.rules.MayIRules), not a Canasta RuleSet.
VARIANTS: dict[str, VariantModule] = {
    "classic": classic, "samba": samba, "bolivia": bolivia, "bolivia_sevens": bolivia_sevens,
    "may_i": may_i}
# Other names a variant is found by (not listed in the catalogue).
ALIASES: dict[str, str] = {"chile_provisional": "bolivia_sevens"}


def variant_module(variant: str) -> VariantModule:
    """:raises BadInput: ``UNKNOWN_VARIANT``."""
    found = VARIANTS.get(ALIASES.get(variant, variant))
    if found is None:
        raise BadInput(Reason.UNKNOWN_VARIANT,
                       f"unknown variant {variant!r}; known: {', '.join(sorted(VARIANTS))}")
    return found


def catalogue() -> list[VariantInfo]:
    return [VariantInfo(k, m.NAME, m.NAME_RU, m.MIN_PLAYERS, m.MAX_PLAYERS, m.OPTIONS)
            for k, m in VARIANTS.items()]


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class TableFacts:
    """One player count's table with the default options: what a client needs to write a
    position or a stacked deck without dealing a game to count its cards.

    Its ``draw_count``, ``canastas_to_go_out``, ``wild_limit``, ``target_score`` and
    ``deals`` are stated again by every :class:`~engine.views.SeatView`, there with the
    game's own options (the contract has both: a client reads the table before any deal).
    Both read them from the rule set, the counts through one function
    (:func:`~engine.rule_counts.rule_counts`)."""

    players: int
    packs: int  # packs of 52
    jokers: int
    cards: int
    hand_size: int  # dealt to each seat in play (May I?: in the first deal)
    draw_count: int  # cards a stock draw takes
    seats_in_play: tuple[tuple[int, ...], ...]  # per hand, cycling
    sides: tuple[tuple[int, ...], ...]  # the scoring teams
    hand_sizes: tuple[int, ...] = ()  # May I?: per deal of the schedule
    canastas_to_go_out: int = 0  # 0: no count of canastas lets a side go out (May I?, Bolivia)
    wild_limit: int = 0  # most wild cards in a group; 0: no wild cards (May I?)
    target_score: int = 0  # the score that ends the game; 0: none does (SV-GAME-1, May I?)
    deals: int = 0  # the deals that end the game (SV-GAME-1, MI-GAME-1); 0: a score does
    # what each card of the deck counts in a meld and left in a hand, every card once
    card_points: tuple[CardPoints, ...] = ()


@cache
def table_facts(variant: str, players: int) -> TableFacts:
    """The facts of a variant's table for ``players`` seats, default options.

    :raises BadInput: ``UNKNOWN_VARIANT`` or ``BAD_PLAYER_COUNT``.
    """
    module = variant_module(variant)
    rules = module.build(players)
    if isinstance(rules, MayIRules):
        deck: Counter[Card] = mayi_transitions.composition()
        hand, sizes, target = rules.hand_sizes[0], rules.hand_sizes, 0
    else:
        deck = composition(rules)
        hand, sizes, target = rules.hand_size, (), rules.target
    counts = rule_counts(rules)  # as each view states them, here with the default options
    return TableFacts(players=players, packs=deck[CARDS[0]], jokers=deck[JOKER],
                      cards=sum(deck.values()), hand_size=hand, draw_count=counts.draw_count,
                      seats_in_play=rules.layout.rotation, sides=rules.layout.teams,
                      hand_sizes=sizes, canastas_to_go_out=counts.canastas_to_go_out,
                      wild_limit=counts.wild_limit, target_score=target, deals=rules.deals,
                      card_points=card_points(lambda options: module.build(players, options),
                                              module.OPTIONS, deck))
