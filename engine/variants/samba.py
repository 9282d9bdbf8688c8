"""Samba (Samba-Canasta) for four players: rule data only (docs/rules-samba.md).

Three packs and six jokers, 15 cards, draw two and discard one; groups with at
most two wild cards, several groups of a rank, suit sequences of three to seven
(a samba at seven, closed), the pile taken with a natural pair or by extending
a meld, two canastas to go out, 200 for going out, red threes plus with two
canastas, game to 10 000. :func:`family_rules` is the shared base of the
Samba family (Bolivia and Bolivia with sevens build on it).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from engine.errors import BadInput, Reason
from engine.options import (
    TARGET_SCORE,
    TIE_CHOICES,
    TIE_POLICY,
    OptionSpec,
    OptionValue,
    resolve_options,
)
from engine.rules import Layout, RuleSet
from engine.variants.classic import VALUES, WILD

NAME = "Samba"
NAME_RU = "Самба"
MIN_PLAYERS, MAX_PLAYERS = 4, 4

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("samba.allow_merge_groups", bool, True, "SA-MELD-6",
               "a side may merge two of its groups of one rank"),
    OptionSpec("samba.allow_join_sequences", bool, False, "SA-SEQ-6",
               "two sequences of a suit that meet may be joined (seven cards at most)"),
    OptionSpec("samba.min_7000", int, 150, "SA-INIT-1",
               "initial-meld minimum from a score of 7000 (150 seed, 160 Hoyle)"),
    OptionSpec("samba.red3_set_size", str, "6", "SA-R3-2",
               "all red threes: 6 = six count 1000; 5 = five or six count 1000; "
               "brazil = five 1000, six 1200", choices=("6", "5", "brazil")),
    OptionSpec("samba.concealed_out_bonus", int, 200, "SA-OUT-3",
               "bonus for going out concealed (200 = as a normal going out; 0 = none)"),
    OptionSpec("samba.pile_extend_group", bool, True, "SA-PILE-3",
               "an unfrozen pile may be taken by adding its top card to an incomplete group"),
    OptionSpec("samba.canasta_closed_at_7", bool, False, "SA-CAN-4",
               "no card at all joins a group canasta of seven"),
    OptionSpec("samba.red3_last_card_ends", bool, True, "SA-END-2",
               "a red three as the last stock card ends the deal (false: the turn goes on)"),
    OptionSpec("samba.ask_partner", bool, False, "SA-OUT-5",
               "ask partner's permission to go out (the answer binds)"),
    OptionSpec(TARGET_SCORE, int, 10000, "SA-GAME-1",
               "score that ends the game: the deal in which a side reaches it is the last",
               minimum=1, aliases=("samba.target",)),
    OptionSpec(TIE_POLICY, str, "play_on", "SA-GAME-1",
               "equal totals at or above the target: play_on = another deal; draw = a drawn "
               "game", choices=TIE_CHOICES),
)

LAYOUT = Layout(((0, 2), (1, 3)), ((0, 1, 2, 3),))  # SA-COMP-3: partners sit opposite
NEG = -(10**9)
# SA-INIT-1: negative 15, 0 50, 1500 90, 3000 120, 7000 150 (option 160)
BANDS = ((3000, 120), (1500, 90), (0, 50), (NEG, 15))
RED_THREE_SETS: dict[str, tuple[tuple[int, int], ...]] = {
    "6": ((6, 1000),), "5": ((5, 1000), (6, 1000)), "brazil": ((5, 1000), (6, 1200)),
}
# Classic options the shared core reads that the family fixes otherwise.
CORE = (("concealed_requires_minimum", True),  # SA-INIT-1: the first melding turn, always
        ("red3_dealt_timing", "after_deal"))  # SA-DEAL-4: laid out at the deal, in turn


def check_players(variant: str, players: int) -> None:
    """:raises BadInput: ``BAD_PLAYER_COUNT`` for anything but four players."""
    if players != 4:
        raise BadInput(Reason.BAD_PLAYER_COUNT,
                       f"{variant} is for four players in two partnerships, not {players}")


def family_rules(variant: str, opts: Mapping[str, OptionValue | None], target: int,
                 min_bands: tuple[tuple[int, int], ...]) -> RuleSet:
    """A Samba-family rule set: the common data (SA-COMP, SA-DEAL, SA-DRAW, SA-MELD,
    SA-SEQ, SA-PILE); each variant derives its own from it with ``replace``."""
    options = {k: v for k, v in opts.items() if v is not None}
    options.update(CORE)
    return RuleSet(
        variant=variant, players=4, options=tuple(sorted(options.items())), layout=LAYOUT,
        packs=3, jokers=6, hand_size=15, draw_count=2, canastas_to_go_out=2, target=target,
        min_bands=min_bands, values=VALUES, wild=WILD, permission=False,
        wild_limit=2, canasta_closed_to_wilds=True, multi_groups=True, sequences=True,
        pile_pair_only=True, out_bonus=200, concealed_bonus=200,
        red_three_plus="canastas", red_three_canastas=2,
        canasta_names=(("sequence", "samba"),),  # SA-SEQ-5
        black_three_size_rule="SA-B3-1",
    )


def build(players: int, options: Mapping[str, object] | None = None) -> RuleSet:
    """The Samba rule set.

    :raises BadInput: ``BAD_PLAYER_COUNT``, ``UNKNOWN_OPTION`` or ``BAD_OPTION_VALUE``.
    """
    check_players("samba", players)
    opts = resolve_options(OPTIONS, options)
    base = family_rules("samba", opts, int(opts[TARGET_SCORE] or 0),
                        ((7000, int(opts["samba.min_7000"] or 0)),) + BANDS)
    return replace(
        base,
        permission=bool(opts["samba.ask_partner"]),
        group_max=7 if opts["samba.canasta_closed_at_7"] else 0,
        merge_groups=bool(opts["samba.allow_merge_groups"]),
        join_sequences=bool(opts["samba.allow_join_sequences"]),
        pile_extend_group=bool(opts["samba.pile_extend_group"]),
        last_red_three_plays_on=not opts["samba.red3_last_card_ends"],
        concealed_bonus=int(opts["samba.concealed_out_bonus"] or 0),
        canasta_bonus=(("sequence", 1500), ("natural", 500), ("mixed", 300)),  # SA-CAN-1/2
        red_three_table=RED_THREE_SETS[str(opts["samba.red3_set_size"])],
    )
