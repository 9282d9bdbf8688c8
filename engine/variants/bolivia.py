"""Bolivia, the seed version, for four players: rule data only (docs/rules-bolivia.md).

Samba's deck, deal, draw, groups, sequences and pile, plus melds of three to
seven wild cards (a bolivia at seven), the escalera (a seven-card sequence),
black-three sets of three or four at any time (+5 each, -200 each in a hand at
the end), no going out (nobody discards his last card), the deal ending when
the stock runs out, no going-out bonus, game to 15 000.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from engine.cards import IS_BLACK_THREE
from engine.options import (
    TARGET_SCORE,
    TIE_CHOICES,
    TIE_POLICY,
    OptionSpec,
    OptionValue,
    resolve_options,
)
from engine.rules import RuleSet
from engine.variants.classic import VALUES
from engine.variants.samba import BANDS, check_players, family_rules

NAME = "Bolivia"
NAME_RU = "Боливия"
MIN_PLAYERS, MAX_PLAYERS = 4, 4


def bolivia_options(bolivia_bonus: int) -> tuple[OptionSpec, ...]:
    """The ``bolivia.*`` options (shared with Bolivia with sevens, SV = BO + L12-L23)."""
    return (
        OptionSpec("bolivia.unlimited_wilds_in_groups", bool, False, "BO-WILD-1",
                   "a group may hold any number of wild cards (whiteknucklecards reading)"),
        OptionSpec("bolivia.allow_merge_groups", bool, True, "BO-MELD-2",
                   "a side may merge two of its groups of one rank"),
        OptionSpec("bolivia.black3_counts_for_initial", bool, False, "BO-INIT-2",
                   "melded black threes count toward (and make) the initial meld"),
        OptionSpec("bolivia.black3_penalty_additive", bool, False, "BO-B3-4",
                   "a black three in hand costs its 5 points on top of the penalty (-205)"),
        OptionSpec("bolivia.after_stock", str, "chain", "BO-END-3",
                   "after the stock: chain = each player in turn may take the pile until one "
                   "does not; single_chance = only the next player may",
                   choices=("chain", "single_chance")),
        OptionSpec("bolivia.forced_take_after_stock", bool, False, "BO-END-3",
                   "with the stock gone a pile whose top card extends a meld must be taken"),
        OptionSpec("bolivia.going_out", str, "none", "BO-OUT-1",
                   "none (seed): nobody goes out; hoyle: go out with two canastas, one of "
                   "them an escalera, for 200", choices=("none", "hoyle")),
        OptionSpec("bolivia.black3", str, "seed", "BO-B3-1",
                   "seed: sets of 3-4 at any time, -200 in hand; hoyle: melded only when "
                   "going out, -100 in hand", choices=("seed", "hoyle")),
        OptionSpec("bolivia.bolivia_bonus", int, bolivia_bonus, "BO-CAN-2",
                   "bonus for a bolivia (seven wild cards)"),
    )


OPTIONS: tuple[OptionSpec, ...] = bolivia_options(2500) + (
    OptionSpec(TARGET_SCORE, int, 15000, "BO-GAME-1",
               "score that ends the game: the deal in which a side reaches it is the last",
               minimum=1, aliases=("bolivia.target",)),
    OptionSpec(TIE_POLICY, str, "play_on", "BO-GAME-1",
               "equal totals at or above the target: play_on = another deal; draw = a drawn "
               "game", choices=TIE_CHOICES),
)


def hand_values(opts: Mapping[str, OptionValue | None],
                extra: Mapping[int, int] | None = None) -> tuple[int, ...]:
    """Card values in a hand at the end: black threes -200 (BO-B3-4) or -100 (hoyle),
    plus the card value with the additive option; ``extra`` overrides (SV-SEVEN-2)."""
    black = 100 if opts["bolivia.black3"] == "hoyle" else 200
    black += 5 if opts["bolivia.black3_penalty_additive"] else 0
    out = [black if IS_BLACK_THREE[c] else v for c, v in enumerate(VALUES)]
    for card, value in (extra or {}).items():
        out[card] = value
    return tuple(out)


def bolivia_rules(base: RuleSet, opts: Mapping[str, OptionValue | None]) -> RuleSet:
    """The rule data of BO over the Samba family base (BO-WILD, BO-B3, BO-OUT, BO-END)."""
    hoyle_out = opts["bolivia.going_out"] == "hoyle"
    return replace(
        base,
        wild_limit=18 if opts["bolivia.unlimited_wilds_in_groups"] else 2,
        merge_groups=bool(opts["bolivia.allow_merge_groups"]),
        wild_melds=True,
        black_threes_any_time=opts["bolivia.black3"] == "seed",
        black_threes_count=bool(opts["bolivia.black3_counts_for_initial"]),
        black_three_size_rule="BO-B3-2",
        exhausted_take_compulsory=bool(opts["bolivia.forced_take_after_stock"]),
        after_stock_single_chance=opts["bolivia.after_stock"] == "single_chance",
        last_red_three_plays_on=True,  # BO-END-2
        going_out=hoyle_out,
        out_needs_sequence=hoyle_out,  # BO-C1: one of the two canastas an escalera
        hand_values=hand_values(opts),
        canasta_names=(("sequence", "escalera"), ("wild", "bolivia")),  # BO-SEQ-2, BO-WILD-2
    )


def build(players: int, options: Mapping[str, object] | None = None) -> RuleSet:
    """The Bolivia rule set.

    :raises BadInput: ``BAD_PLAYER_COUNT``, ``UNKNOWN_OPTION`` or ``BAD_OPTION_VALUE``.
    """
    check_players("bolivia", players)
    opts = resolve_options(OPTIONS, options)
    # BO-INIT-1: Samba's table, 150 from 7000
    base = family_rules("bolivia", opts, int(opts[TARGET_SCORE] or 0), ((7000, 150),) + BANDS)
    return replace(
        bolivia_rules(base, opts),
        canasta_bonus=(("wild", int(opts["bolivia.bolivia_bonus"] or 0)),  # BO-CAN-2
                       ("sequence", 1500), ("natural", 500), ("mixed", 300)),
        red_three_table=((6, 1000),),  # BO-R3-2
    )
