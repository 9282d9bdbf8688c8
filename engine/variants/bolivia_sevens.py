"""Bolivia with sevens (variant C, provisional alias ``chile_provisional``): rule data
only (docs/rules-bolivia.md, *Bolivia with sevens*).

All of Bolivia, with the seed's lines L12-L23 over it: no meld past seven cards,
sevens canastas (natural 1500, mixed 1000), bolivia 2000, the top eleven stock
cards to whoever first lays or completes a canasta in the deal, -500 for each
seven held at the end, red threes plus only after a bolivia, an escalera or a
natural sevens canasta (all six 2000), the 60/100/140/180 minimum bands, and a
round of four deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from engine.cards import RANK, SEVEN
from engine.options import TIE_CHOICES, TIE_POLICY, OptionSpec, resolve_options
from engine.rules import RuleSet
from engine.variants.bolivia import bolivia_options, bolivia_rules, hand_values
from engine.variants.samba import NEG, check_players, family_rules

NAME = "Bolivia with sevens"
NAME_RU = "Боливия с семёрками"
MIN_PLAYERS, MAX_PLAYERS = 4, 4

OPTIONS: tuple[OptionSpec, ...] = bolivia_options(2000) + (
    OptionSpec("sv.escalera_bonus", int, 1500, "SV-CAN-3",
               "bonus for an escalera (not in the seed's list; Samba/Hoyle value)"),
    OptionSpec("sv.bonus_per_side", bool, False, "SV-BONUS-3",
               "each side's first canasta draws the eleven cards, not only the deal's first"),
    OptionSpec("sv.seven_penalty_additive", bool, False, "SV-SEVEN-2",
               "a seven in hand costs its 5 points on top of the 500 (-505)"),
    OptionSpec("sv.negative_minimum", int, 60, "SV-INIT-1",
               "initial-meld minimum with a negative score (60 seed, 15 classic)"),
    OptionSpec(TIE_POLICY, str, "draw", "SV-GAME-1",
               "equal totals after the fourth deal: draw = a drawn game; play_on = another "
               "deal", choices=TIE_CHOICES, aliases=("sv.tiebreak_extra_deal",),
               alias_from_bool=("play_on", "draw")),
)

BONUS_CARDS = 11  # SV-BONUS-1
DEALS = 4  # SV-GAME-1: a full round, each player deals once


def build(players: int, options: Mapping[str, object] | None = None) -> RuleSet:
    """The rule set of Bolivia with sevens.

    :raises BadInput: ``BAD_PLAYER_COUNT``, ``UNKNOWN_OPTION`` or ``BAD_OPTION_VALUE``.
    """
    check_players("bolivia_sevens", players)
    opts = resolve_options(OPTIONS, options)
    seven = 505 if opts["sv.seven_penalty_additive"] else 500
    negative = int(opts["sv.negative_minimum"] or 0)
    # SV-INIT-1: up to 3495 (negative too) 60; 3500 100; 7000 140; 10500 and more 180
    bands = ((10500, 180), (7000, 140), (3500, 100), (0, 60), (NEG, negative))
    extra = opts[TIE_POLICY] == "play_on"
    # no points target: the round of four deals decides (SV-GAME-1)
    base = bolivia_rules(family_rules("bolivia_sevens", opts, 0, bands), opts)
    return replace(
        base,
        hand_values=hand_values(opts, {c: seven for c in range(52) if RANK[c] == SEVEN}),
        deals=DEALS,
        tie_extra_deal=extra,
        group_max=7,  # SV-CAN-1: no meld of any kind past seven cards
        canasta_bonus=(  # SV-CAN-3
            ("wild", int(opts["bolivia.bolivia_bonus"] or 0)),
            ("natural:7", 1500), ("mixed:7", 1000),
            ("sequence", int(opts["sv.escalera_bonus"] or 0)),
            ("natural", 500), ("mixed", 300)),
        red_three_table=((6, 2000),),  # SV-R3-1
        red_three_plus="kinds", red_three_canastas=0,
        red_three_kinds=("wild", "sequence", "natural:7"),  # SV-R3-2
        first_canasta_bonus=BONUS_CARDS,
        bonus_per_side=bool(opts["sv.bonus_per_side"]),
    )
