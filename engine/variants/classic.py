"""Classic (official) Canasta for 2 to 6 players: rule data only.

Player-count tables follow the rules' section 13: hand sizes, draws, canastas
needed to go out, targets, teams and the five- and six-player rotations.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.cards import ACE, EIGHT, IS_BLACK_THREE, JOKER_RANK, RANK, THREE, TWO
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

NAME = "Classic Canasta"
NAME_RU = "Классическая канаста"
MIN_PLAYERS, MAX_PLAYERS = 2, 6

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("upcard_black_three_stops", bool, False, "CL-DEAL-4",
               "a black three may stay as the first top card"),
    OptionSpec("red3_dealt_timing", str, "first_turn", "CL-R3-1",
               "when dealt red threes are laid and replaced",
               choices=("first_turn", "after_deal")),
    OptionSpec("wilds_not_exceed_naturals", bool, False, "CL-MELD-1",
               "a meld may never hold more wild cards than natural cards"),
    OptionSpec("natural_canasta_closed_to_wilds", bool, False, "CL-CAN-3",
               "no wild card may join a natural canasta"),
    OptionSpec("initial_meld_validation", str, "turn_total", "CL-MIN-8",
               "turn_total: staged melds checked at the end of melding; "
               "batch: the whole initial meld in one action",
               choices=("turn_total", "batch")),
    OptionSpec("concealed_requires_minimum", bool, False, "CL-MIN-9",
               "the minimum applies to a concealed going out too"),
    OptionSpec("concealed_forbid_layoffs", bool, False, "CL-OUT-10",
               "no additions to partner's melds in the concealed turn"),
    OptionSpec("concealed_forbid_pile", bool, False, "CL-OUT-10",
               "no concealed bonus after taking the pile"),
    OptionSpec("black_three_freezes", bool, False, "CL-PILE-4",
               "a black three turned up or discarded freezes the pile"),
    OptionSpec("permission_yes", str, "strict", "CL-OUT-5",
               "what a 'yes' obliges", choices=("strict", "penalty", "advisory")),
    OptionSpec("permission_asks_per_hand", int, 0, "CL-OUT-4",
               "limit of 'may I go out?' questions per player and hand (0 = unlimited, "
               "once per turn)"),
    OptionSpec("last_red_three_may_meld", bool, False, "CL-EXH-2",
               "after a red three as the last stock card the player may meld (not discard)"),
    OptionSpec("stock_empty_ends_hand", bool, False, "CL-EXH-4",
               "the hand ends when the stock is empty (no compulsory-take phase)"),
    OptionSpec("reveal_discard_pile", bool, False, "CL-INFO-4", "views show the whole pile"),
    OptionSpec(TIE_POLICY, str, "play_on", "CL-GAME-4",
               "an exact tie at or above the target", choices=TIE_CHOICES),
    OptionSpec("penalties", bool, False, "CL-PEN", "apply the official penalties"),
    OptionSpec("canastas_to_go_out", int, None, "CL-OUT-1",
               "canastas needed to go out (default by player count)", minimum=1),
    OptionSpec("p2_draw_count", int, 2, "CL-P2-2", "cards drawn from the stock with 2 players",
               minimum=1),
    OptionSpec("p3_mode", str, "basic", "CL-P3", "three-player form",
               choices=("basic", "cutthroat")),
    OptionSpec("p6_mode", str, "three_packs", "CL-P6-11", "six-player form",
               choices=("three_packs", "rotation")),
    OptionSpec("p6_teams", int, 2, "CL-P6-2",
               "six players with three packs: 2 teams of three or 3 teams of two", minimum=2,
               maximum=3),
    OptionSpec("p6_min150_threshold", int, 7500, "CL-P6-7",
               "cumulative score from which the minimum is 150 (six players, two teams)"),
    OptionSpec("black_three_meld_max", int, 4, "CL-P6-9",
               "largest black-three meld when going out (3 to 6)", minimum=3, maximum=6),
    OptionSpec(TARGET_SCORE, int, None, "CL-GAME-1",
               "score that ends the game (default by player count)", minimum=1),
)

BASE_BANDS = ((3000, 120), (1500, 90), (0, 50), (-(10**9), 15))


def card_values() -> tuple[int, ...]:
    """Point values of the 53 card types (CL-DECK-4); red threes have none."""
    values = []
    for c in range(53):
        r = RANK[c]
        if r == JOKER_RANK:
            values.append(50)
        elif r in (TWO, ACE):
            values.append(20)
        elif r >= EIGHT:
            values.append(10)
        elif r == THREE:
            values.append(5 if IS_BLACK_THREE[c] else 0)
        else:
            values.append(5)
    return tuple(values)


VALUES = card_values()
WILD = tuple(RANK[c] in (TWO, JOKER_RANK) for c in range(53))


def _layout(players: int, opts: Mapping[str, OptionValue | None]) -> Layout:
    if players == 2:
        return Layout(((0,), (1,)), ((0, 1),))
    if players == 3:
        return Layout(((0,), (1,), (2,)), ((0, 1, 2),))
    if players == 4:
        return Layout(((0, 2), (1, 3)), ((0, 1, 2, 3),))
    if players == 5:
        # CL-P5-1/2: seats 0 and 2 against 1, 3 and 4; pairs A+B, A+C, B+C in rotation.
        return Layout(((0, 2), (1, 3, 4)), ((0, 1, 2, 3), (0, 1, 2, 4), (0, 3, 2, 4)))
    if opts["p6_mode"] == "rotation":
        # CL-P6-11: one member of each team of three sits out each hand.
        return Layout(((0, 2, 4), (1, 3, 5)),
                      ((0, 1, 2, 3), (2, 3, 4, 5), (4, 5, 0, 1)))
    if opts["p6_teams"] == 3:
        return Layout(((0, 3), (1, 4), (2, 5)), ((0, 1, 2, 3, 4, 5),))
    return Layout(((0, 2, 4), (1, 3, 5)), ((0, 1, 2, 3, 4, 5),))


def build(players: int, options: Mapping[str, object] | None = None) -> RuleSet:
    """The classic rule set for a player count and options.

    :raises BadInput: ``BAD_PLAYER_COUNT``, ``UNKNOWN_OPTION`` or ``BAD_OPTION_VALUE``.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadInput(Reason.BAD_PLAYER_COUNT,
                       f"classic canasta is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    opts = resolve_options(OPTIONS, options)
    cutthroat = players == 3 and opts["p3_mode"] == "cutthroat"
    six_packs = players == 6 and opts["p6_mode"] == "three_packs"
    packs = 3 if six_packs else 2
    hand_size = {2: 15, 3: 13, 4: 11, 5: 11, 6: 13 if six_packs else 11}[players]
    draw = int(opts["p2_draw_count"] or 2) if players == 2 else (2 if cutthroat else 1)
    canastas = 2 if players == 2 or six_packs or cutthroat else 1
    layout = _layout(players, opts)
    target = 5000
    bands: tuple[tuple[int, int], ...] = BASE_BANDS
    if cutthroat:
        target = 7500
    elif six_packs:
        if len(layout.teams) == 2:
            target = 10000
            bands = ((int(opts["p6_min150_threshold"] or 7500), 150),) + BASE_BANDS
        else:
            target = 7500
    if opts["canastas_to_go_out"] is not None:
        canastas = int(opts["canastas_to_go_out"])
    if opts[TARGET_SCORE] is not None:
        target = int(opts[TARGET_SCORE])
    resolved = dict(opts)
    resolved["canastas_to_go_out"] = canastas
    resolved[TARGET_SCORE] = target
    return RuleSet(
        variant="classic",
        players=players,
        options=tuple(sorted((k, v) for k, v in resolved.items() if v is not None)),
        layout=layout,
        packs=packs,
        jokers=2 * packs,
        hand_size=hand_size,
        draw_count=draw,
        canastas_to_go_out=canastas,
        target=target,
        min_bands=bands,
        values=VALUES,
        wild=WILD,
        permission=players >= 4 or cutthroat,
        cutthroat=cutthroat,
        red_three_six_pack_scale=six_packs,
    )
