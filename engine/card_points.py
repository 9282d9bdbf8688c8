"""What each card of a game counts, in a meld and left in a hand: ListVariants' card points
(``VariantTable.card_points``), read from the rule set the engine scores by, so that a
client keeps no table of its own (it hard-coded classic's values for every game).

>>> from engine.variants import classic
>>> [(p.cards[0], p.meld, p.in_hand) for p in card_points(lambda o: classic.build(4, o),
...                                                      classic.OPTIONS, range(53))][:3]
[('JK', 50, 50), ('AS', 20, 20), ('KS', 10, 10)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from engine.cards import CARDS, CODES, IS_BLACK_THREE, IS_RED_THREE, RANK, SUIT, Card
from engine.errors import BadInput
from engine.mayi.rules import MayIRules
from engine.mayi.scoring import VALUES as MAY_I_VALUES
from engine.options import OptionSpec, OptionValue
from engine.rules import RuleSet

# (meld points, in-hand points, counts toward the minimum, a red three scored apart)
Facts = tuple[int, int, bool, bool]
Build = Callable[[Mapping[str, object]], RuleSet | MayIRules]


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class CardPoints:
    """Cards of a game that count alike (docs/api.md, *ListVariants*)."""

    cards: tuple[str, ...]  # their codes, highest rank first, suits S H D C
    meld: int  # each in a meld: the score's base (CL-DECK-4); 0 in May I? (MI-SCORE-1)
    in_hand: int  # each left in a hand at the hand's end (BO-B3-4, SV-SEVEN-2, MI-COMP-2)
    counts_toward_minimum: bool  # ``meld`` counts toward the initial meld (CL-MIN-3, BO-INIT-2)
    red_three: bool  # scored apart, as the side's red threes (CL-SCORE-4): meld, in_hand 0
    options: tuple[str, ...]  # the rule options that change any of the above


def card_facts(rules: RuleSet | MayIRules, card: Card) -> Facts:
    """What ``card`` counts under ``rules``, as the scoring and the initial-meld count read
    it (engine.scoring.side_result, engine.transitions.counts_for_opening)."""
    if isinstance(rules, MayIRules):  # only the cards left in a hand score (MI-SCORE-1)
        return 0, MAY_I_VALUES[card], False, False
    red = IS_RED_THREE[card]
    opening = not red and (rules.black_threes_count or not IS_BLACK_THREE[card])
    return rules.values[card], rules.hand_value(card), opening, red


def card_points(build: Build, specs: tuple[OptionSpec, ...],
                deck: Iterable[int]) -> tuple[CardPoints, ...]:
    """The cards of ``deck`` (types, any order) grouped by what they count with the default
    options (``build({})``), each card in one entry, entries in the order of their highest
    card (the joker, then aces down to deuces). An entry names the options of ``specs`` with
    which one of its cards counts otherwise (each other choice or truth value, an integer's
    bounds): a game dealt with one of them set may score those cards differently."""
    cards = sorted((CARDS[c] for c in set(deck)), key=lambda c: (-RANK[c], SUIT[c]))
    rules = build({})
    facts = {c: card_facts(rules, c) for c in cards}
    changed: dict[Card, list[str]] = {c: [] for c in cards}
    for spec in specs:
        for value in _other_values(spec):
            try:
                other = build({spec.name: value})
            except BadInput:  # a value this player count refuses
                continue
            for c in cards:
                if card_facts(other, c) != facts[c] and spec.name not in changed[c]:
                    changed[c].append(spec.name)
    groups: dict[tuple[Facts, tuple[str, ...]], list[str]] = {}
    for c in cards:
        groups.setdefault((facts[c], tuple(changed[c])), []).append(CODES[c])
    return tuple(CardPoints(tuple(codes), meld, in_hand, opening, red, options)
                 for ((meld, in_hand, opening, red), options), codes in groups.items())


def _other_values(spec: OptionSpec) -> list[OptionValue]:
    """The values of an option other than its default that may change a card's points."""
    if spec.kind is bool:
        return [not spec.default]
    values: list[OptionValue] = list(spec.choices)
    if spec.kind is int:
        values += [spec.minimum, spec.maximum]
    return [v for v in values if v != spec.default]
