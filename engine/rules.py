"""The frozen rule set a game is played under.

A :class:`RuleSet` is plain data resolved once from a variant, a player count and
options; the engine core reads only this object, never the variant module. It
checks itself when built, so an impossible combination fails loudly.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Final

from engine.options import OptionValue


class RedThreeTiming(StrEnum):
    """When dealt red threes are laid and replaced (CL-R3-1)."""

    FIRST_TURN = "first_turn"
    AFTER_DEAL = "after_deal"


class MeldValidation(StrEnum):
    """How an initial meld is checked against the minimum (CL-MIN-8)."""

    TURN_TOTAL = "turn_total"  # the staged melds, at the end of melding
    BATCH = "batch"  # the whole initial meld in one action


class PermissionYes(StrEnum):
    """What a partner's "yes" to "may I go out?" obliges (CL-OUT-5)."""

    STRICT = "strict"
    PENALTY = "penalty"
    ADVISORY = "advisory"


class TiePolicy(StrEnum):
    """An exact tie at or above the target (CL-GAME-4, SA-GAME-1, BO-GAME-1)."""

    PLAY_ON = "play_on"
    DRAW = "draw"


# Classic options that the shared core reads, with their classic defaults. Other
# variants fix them to these values unless their rule set names them. Each is also a
# typed field of RuleSet, set from ``options`` when the rule set is built.
CORE_DEFAULTS: Final[dict[str, OptionValue]] = {
    "upcard_black_three_stops": False,
    "red3_dealt_timing": "first_turn",
    "wilds_not_exceed_naturals": False,
    "natural_canasta_closed_to_wilds": False,
    "initial_meld_validation": "turn_total",
    "concealed_requires_minimum": False,
    "concealed_forbid_layoffs": False,
    "concealed_forbid_pile": False,
    "black_three_freezes": False,
    "permission_yes": "strict",
    "permission_asks_per_hand": 0,
    "last_red_three_may_meld": False,
    "stock_empty_ends_hand": False,
    "reveal_discard_pile": False,
    "tie_policy": "play_on",
    "penalties": False,
    "black_three_meld_max": 4,
}

# The on/off options among them.
_FLAGS: Final = ("upcard_black_three_stops", "wilds_not_exceed_naturals",
          "natural_canasta_closed_to_wilds", "concealed_requires_minimum",
          "concealed_forbid_layoffs", "concealed_forbid_pile", "black_three_freezes",
          "last_red_three_may_meld", "stock_empty_ends_hand", "reveal_discard_pile", "penalties")


@dataclass(frozen=True)
class Layout:
    """Who sits where and with whom, for one player count.

    ``teams`` are the scoring units (cumulative scores are kept per team).
    ``rotation`` lists, per hand (cycling), the seats that play that hand in
    clockwise order; a single entry means everyone plays every hand.
    """

    teams: tuple[tuple[int, ...], ...]
    rotation: tuple[tuple[int, ...], ...]
    seat_team: tuple[int, ...] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        owner = {s: i for i, team in enumerate(self.teams) for s in team}
        object.__setattr__(self, "seat_team", tuple(owner[s] for s in range(len(owner))))

    def team_of(self, seat: int) -> int:
        return self.seat_team[seat]

    def active(self, hand_no: int) -> tuple[int, ...]:
        """The seats that play hand ``hand_no``, in the order they play (``rotation``,
        cycling)."""
        return self.rotation[hand_no % len(self.rotation)]


@dataclass(frozen=True)
class RuleSet:
    """Every parameter the engine needs, resolved and validated."""

    variant: str
    players: int
    options: tuple[tuple[str, OptionValue], ...]
    layout: Layout
    packs: int
    jokers: int
    hand_size: int
    draw_count: int
    canastas_to_go_out: int
    target: int
    # (lowest cumulative score, minimum count), highest band first
    min_bands: tuple[tuple[int, int], ...]
    values: tuple[int, ...]
    wild: tuple[bool, ...]
    permission: bool
    cutthroat: bool = False
    red_three_six_pack_scale: bool = False
    # --- the Canasta family beyond classic; every default is classic behaviour ---
    wild_limit: int = 3  # most wild cards in a group (CL-MELD-1: 3; SA-MELD-2: 2)
    group_max: int = 0  # largest group, 0 = no limit (SV-CAN-1)
    canasta_closed_to_wilds: bool = False  # no wild card joins any completed canasta (SA-CAN-3)
    multi_groups: bool = False  # several groups of one rank per side (SA-MELD-5)
    merge_groups: bool = False  # two groups of one rank may be merged (SA-MELD-6)
    sequences: bool = False  # suit sequences 4..A of 3 to 7 cards, no wild card (SA-SEQ)
    join_sequences: bool = False  # two sequences may be joined (SA-SEQ-6)
    wild_melds: bool = False  # melds of 3 to 7 wild cards only (BO-WILD-2)
    black_threes_any_time: bool = False  # closed sets of 3..max at any time (BO-B3-1/2)
    black_threes_count: bool = True  # melded black threes count toward the initial meld
    # the rule that bounds a black-three meld's size, cited when one grows past it: classic's
    # option (CL-P6-9), Samba's three or four (SA-B3-1), Bolivia's sets (BO-B3-2); a rule ID
    black_three_size_rule: str = field(default="CL-P6-9", compare=False)
    pile_pair_only: bool = False  # the pile needs a natural pair, or extends a meld (SA-PILE)
    pile_extend_group: bool = True  # ... and may extend an incomplete group (SA-PILE-3)
    exhausted_take_compulsory: bool = True  # CL-EXH-4, SA-END-3; BO-END-3: optional
    after_stock_single_chance: bool = False  # BO-END-3 single_chance
    last_red_three_plays_on: bool = False  # a last-card red three ends nothing (BO-END-2)
    going_out: bool = True  # BO-OUT-1: nobody goes out
    out_needs_sequence: bool = False  # going out needs a sequence canasta (BO-C1 hoyle)
    out_bonus: int = 100
    concealed_bonus: int = 200
    # bonus per canasta key, most specific first: "natural:7", "natural", "mixed",
    # "sequence", "wild" (see engine.melds.canasta_keys)
    canasta_bonus: tuple[tuple[str, int], ...] = (("natural", 500), ("mixed", 300))
    # the game's own names of its canasta kinds beyond natural and mixed, by canasta key: a
    # samba (SA-SEQ-5), an escalera (BO-SEQ-2), a bolivia (BO-WILD-2); a name, not a rule
    canasta_names: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    red_three_table: tuple[tuple[int, int], ...] = ()  # count -> points; () = classic
    red_three_plus: str = "meld"  # "meld" | "canastas" | "kinds": when red threes count plus
    red_three_canastas: int = 0  # canastas needed with "canastas"
    red_three_kinds: tuple[str, ...] = ()  # canasta keys of which one is needed with "kinds"
    hand_values: tuple[int, ...] = ()  # values of cards left in a hand; () = ``values``
    first_canasta_bonus: int = 0  # stock cards to the deal's first canasta (SV-BONUS-1)
    bonus_per_side: bool = False  # ... once per side instead of once per deal (SV-BONUS-3)
    deals: int = 0  # a match of this many deals, 0 = play to the target (SV-GAME-1)
    tie_extra_deal: bool = False  # a tie after the last deal plays another deal
    # --- the options of CORE_DEFAULTS, typed: set from ``options`` (never passed;
    # CORE_DEFAULTS holds their defaults) ---
    upcard_black_three_stops: bool = field(init=False, compare=False)
    red3_dealt_timing: RedThreeTiming = field(init=False, compare=False)
    wilds_not_exceed_naturals: bool = field(init=False, compare=False)
    natural_canasta_closed_to_wilds: bool = field(init=False, compare=False)
    initial_meld_validation: MeldValidation = field(init=False, compare=False)
    concealed_requires_minimum: bool = field(init=False, compare=False)
    concealed_forbid_layoffs: bool = field(init=False, compare=False)
    concealed_forbid_pile: bool = field(init=False, compare=False)
    black_three_freezes: bool = field(init=False, compare=False)
    permission_yes: PermissionYes = field(init=False, compare=False)
    permission_asks_per_hand: int = field(init=False, compare=False)
    last_red_three_may_meld: bool = field(init=False, compare=False)
    stock_empty_ends_hand: bool = field(init=False, compare=False)
    reveal_discard_pile: bool = field(init=False, compare=False)
    tie_policy: TiePolicy = field(init=False, compare=False)
    penalties: bool = field(init=False, compare=False)
    black_three_meld_max: int = field(init=False, compare=False)
    _hash: int = field(default=0, init=False, compare=False, repr=False)
    # the game that plays these rules (engine/games.py): a field, not a property, since
    # the facade reads it on every call
    game: str = field(default="canasta", init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        # compiled, a native class sets no default of a field outside __init__
        object.__setattr__(self, "game", "canasta")
        self._set_options()
        # a rule set keys the engine's memoized searches: hash its fields once, not per lookup
        object.__setattr__(self, "_hash", hash(tuple(
            getattr(self, f.name) for f in fields(self) if f.compare)))
        seats = sorted(s for team in self.layout.teams for s in team)
        if seats != list(range(self.players)):
            raise ValueError("teams must cover every seat exactly once")
        for active in self.layout.rotation:
            if len(active) * self.hand_size >= 54 * self.packs:
                raise ValueError("not enough cards for the deal")
        if self.canastas_to_go_out < 1 or self.draw_count < 1:
            raise ValueError("canastas to go out and draw count must be positive")
        self._check_family()

    def _set_options(self) -> None:
        """The typed option fields from ``options`` (CORE_DEFAULTS for those not named)."""
        given = {**CORE_DEFAULTS, **{k: v for k, v in self.options if v is not None}}
        for name in _FLAGS:
            object.__setattr__(self, name, bool(given[name]))
        object.__setattr__(self, "red3_dealt_timing",
                           RedThreeTiming(str(given["red3_dealt_timing"])))
        object.__setattr__(self, "initial_meld_validation",
                           MeldValidation(str(given["initial_meld_validation"])))
        object.__setattr__(self, "permission_yes", PermissionYes(str(given["permission_yes"])))
        object.__setattr__(self, "tie_policy", TiePolicy(str(given["tie_policy"])))
        object.__setattr__(self, "permission_asks_per_hand",
                           int(given["permission_asks_per_hand"] or 0))
        object.__setattr__(self, "black_three_meld_max", int(given["black_three_meld_max"] or 0))

    def _check_family(self) -> None:
        if self.wild_limit < 0 or self.first_canasta_bonus < 0 or self.deals < 0:
            raise ValueError("wild limit, bonus cards and deals cannot be negative")
        if self.group_max and self.group_max < 7:
            raise ValueError("a group must be able to become a canasta (group_max >= 7)")
        if self.red_three_plus not in ("meld", "canastas", "kinds"):
            raise ValueError(f"unknown red-three rule {self.red_three_plus!r}")
        if (self.red_three_plus == "kinds") != bool(self.red_three_kinds):
            raise ValueError("red_three_kinds go with red_three_plus='kinds' only")
        if self.hand_values and len(self.hand_values) != len(self.values):
            raise ValueError("hand_values needs one value per card type")
        if self.merge_groups and not self.multi_groups:
            raise ValueError("merging groups needs several groups of one rank")
        if self.join_sequences and not self.sequences:
            raise ValueError("joining sequences needs sequences")
        if self.pile_extend_group is False and not self.pile_pair_only:
            raise ValueError("pile_extend_group=false needs the pair-only pile rule")
        if self.out_needs_sequence and not (self.going_out and self.sequences):
            raise ValueError("a sequence to go out needs going out and sequences")
        if self.tie_extra_deal and not self.deals:
            raise ValueError("an extra deal on a tie needs a fixed number of deals")

    def __hash__(self) -> int:
        return self._hash

    @property
    def simple_melds(self) -> bool:
        """One group per rank and nothing else: the classic meld model."""
        return not (self.multi_groups or self.sequences or self.wild_melds)

    def hand_value(self, card: int) -> int:
        """What a card left in a hand costs at the end of a hand (BO-B3-4, SV-SEVEN-2)."""
        return (self.hand_values or self.values)[card]

    def minimum_for(self, cumulative: int) -> int:
        """The initial-meld minimum for a cumulative score (CL-MIN-1)."""
        for lowest, minimum in self.min_bands:
            if cumulative >= lowest:
                return minimum
        return self.min_bands[-1][1]

    def active_seats(self, hand_no: int) -> tuple[int, ...]:
        return self.layout.active(hand_no)
