"""May I? options (rules file §6.1, ``mayi.*``), contracts (§5.3) and the rule set.

Option names drop the ``mayi.`` prefix of the rules file; the prefix (and
``opt.``) is accepted and removed. Every name is checked, every value parsed:
nothing is ignored silently.

``schedule`` is ``zioncheck5`` (default: the five deals of §5.3), ``classic7``
(adds deal 6, one set and two sequences, and deal 7, three sequences) or a
custom list of contracts, one per deal, separated by commas, each written with
``s`` for a set and ``r`` for a sequence: ``ss,sr,rr,sss,ssr`` is ``zioncheck5``.

>>> rules = build(4, {"mayi.schedule": "ss,rr", "max_buys_per_deal": "none"})
>>> rules.contracts, rules.buy_cap == NO_BUY_LIMIT
(((2, 0), (0, 2)), True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

from engine.errors import BadInput, BadOption, Reason
from engine.options import OptionSpec, OptionValue
from engine.rules import Layout

VARIANT: Final = "may_i"
MIN_PLAYERS: Final = 3
MAX_PLAYERS: Final = 5

MayIOption = OptionValue | None
Contract = tuple[int, int]  # (sets, sequences)

SCHEDULES: Final[dict[str, str]] = {
    "zioncheck5": "ss,sr,rr,sss,ssr",
    "classic7": "ss,sr,rr,sss,ssr,srr,rrr",
}
# max_buys_per_deal without a limit: ``none`` as the notation writes it, or ``unlimited``;
# its spec lists them (choices), so a host's field knows it takes words as well as digits
_NONE_WORDS: Final = ("none", "unlimited")

OPTIONS: Final[tuple[OptionSpec, ...]] = (
    OptionSpec("schedule", str, "zioncheck5", "MI-GAME-1",
               "contracts of the deals: zioncheck5 (five deals), classic7 (seven deals, 12 "
               "cards in deals 5-7) or a custom list such as 'ss,sr,rr' (s = set, r = sequence)",
               choices=("zioncheck5", "classic7")),
    OptionSpec("contract_exact_sizes", bool, True, "MI-CON-2",
               "contract sets have exactly 3 cards and sequences exactly 4 (false: at least)"),
    OptionSpec("allow_contiguous_runs", bool, False, "MI-CON-3",
               "two contract sequences of one suit may join end to end"),
    OptionSpec("ace_wrap", bool, True, "MI-MELD-3",
               "sequences may go round the corner (Q K A 2); false: the ace only at an end"),
    OptionSpec("buy_penalty_cards", int, 1, "MI-BUY-2",
               "stock cards a buyer takes as a penalty with the discard (1 or 2)", minimum=1,
               maximum=2),
    OptionSpec("buy_priority", str, "rotation", "MI-BUY-3",
               "who gets a discard several players want: rotation (nearest after the player "
               "in turn) or first_call (the first buy applied)",
               choices=("rotation", "first_call")),
    OptionSpec("max_buys_per_deal", int, 3, "MI-BUY-5",
               "buys per player and deal; none (or unlimited) = no limit", choices=_NONE_WORDS),
    OptionSpec("down_players_may_buy", bool, True, "MI-BUY-6",
               "a player who has gone down may still buy"),
    OptionSpec("layoff_same_turn", bool, False, "MI-OFF-1",
               "lay off already in the turn of going down"),
    OptionSpec("out_requires_discard", bool, False, "MI-OUT-1",
               "going out needs a final discard (no emptying the hand by melding)"),
    OptionSpec("turn_upcard", bool, False, "MI-DEAL-2",
               "turn up the first stock card to start the pile (it may be taken or bought)"),
)

_SPECS: Final = {s.name: s for s in OPTIONS}
NO_BUY_LIMIT: Final = 1 << 30  # buy_cap with max_buys_per_deal=none


class BuyPriority(StrEnum):
    """Who gets a discard several players want to buy (MI-BUY-3)."""

    ROTATION = "rotation"  # the nearest after the player in turn
    FIRST_CALL = "first_call"  # the first buy applied


@dataclass(frozen=True)
class MayIRules:
    """The resolved rules of a May I? game (a RuleSet-like object for hosts).

    ``layout`` has one scoring unit per player (everybody plays for himself).
    """

    variant: str
    players: int
    options: tuple[tuple[str, MayIOption], ...]
    layout: Layout
    contracts: tuple[Contract, ...]
    hand_sizes: tuple[int, ...]  # cards dealt, per deal
    # every option that play reads, typed (set from ``options``, never passed)
    wrap: bool = field(default=True, init=False, compare=False, repr=False)
    exact: bool = field(default=True, init=False, compare=False, repr=False)
    penalty: int = field(default=1, init=False, compare=False, repr=False)
    buy_cap: int = field(default=3, init=False, compare=False, repr=False)  # NO_BUY_LIMIT: none
    buy_priority: BuyPriority = field(default=BuyPriority.ROTATION, init=False, compare=False,
                                      repr=False)
    turn_upcard: bool = field(default=False, init=False, compare=False, repr=False)
    # the game that plays these rules (engine/games.py): a field, not a property, since
    # the facade reads it on every call
    game: str = field(default="may_i", init=False, compare=False, repr=False)
    down_may_buy: bool = field(default=True, init=False, compare=False, repr=False)
    same_turn_layoff: bool = field(default=False, init=False, compare=False, repr=False)
    keep_one: bool = field(default=False, init=False, compare=False, repr=False)
    joinable: bool = field(default=False, init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        opts = dict(self.options)
        if len(self.contracts) != len(self.hand_sizes) or not self.contracts:
            raise ValueError("one hand size per contract")
        limit = opts["max_buys_per_deal"]
        for name, value in (
            ("wrap", bool(opts["ace_wrap"])),
            ("exact", bool(opts["contract_exact_sizes"])),
            ("penalty", int(opts["buy_penalty_cards"] or 1)),
            ("buy_cap", NO_BUY_LIMIT if limit is None else int(limit)),
            ("buy_priority", BuyPriority(str(opts["buy_priority"]))),
            ("turn_upcard", bool(opts["turn_upcard"])),
            ("down_may_buy", bool(opts["down_players_may_buy"])),
            ("same_turn_layoff", bool(opts["layoff_same_turn"])),
            ("keep_one", bool(opts["out_requires_discard"])),
            ("joinable", bool(opts["allow_contiguous_runs"])),
            # compiled, a native class sets no default of a field outside __init__
            ("game", "may_i"),
        ):
            object.__setattr__(self, name, value)

    @property
    def deals(self) -> int:
        """Deals in a game (MI-GAME-1)."""
        return len(self.contracts)

    def contract(self, hand_no: int) -> Contract:
        return self.contracts[hand_no]

    def contract_cards(self, hand_no: int) -> int:
        """The fewest cards that make deal ``hand_no``'s contract (MI-CON-2)."""
        return fewest_cards(self.contracts[hand_no])


def fewest_cards(contract: Contract) -> int:
    """The fewest cards that make ``contract``: three a set, four a sequence (MI-CON-2)."""
    sets, runs = contract
    return 3 * sets + 4 * runs


def parse_schedule(raw: object) -> str:
    """A schedule name, or a custom list as written (``ss,sr,rr``: no spaces, lower case,
    each deal's sets before its sequences), so a schedule has one text; a list or tuple of
    deals (an engine caller's) is that list joined by commas.

    :raises BadOption: ``BAD_OPTION_VALUE``.
    """
    text = ",".join(str(p) for p in raw) if isinstance(raw, (list, tuple)) else str(raw)
    if text in SCHEDULES:
        return text
    deals = text.split(",")
    if not 1 <= len(deals) <= 12 or any(not d or d != _deal_text(d) for d in deals):
        raise BadOption("schedule",
                        f"option schedule must be zioncheck5, classic7 or a list such as "
                        f"'ss,sr,rr' (s = set, r = sequence, a deal's sets first, 1 to 12 "
                        f"deals, no spaces), not {raw!r}")
    for d in deals:
        if fewest_cards((d.count("s"), d.count("r"))) > 12:
            raise BadOption("schedule", f"contract {d!r} needs more than 12 cards")
    return text


def _deal_text(deal: str) -> str:
    """A deal's contract as the schedule writes it: its sets, then its sequences."""
    return "s" * deal.count("s") + "r" * deal.count("r")


def contracts_of(schedule: str) -> tuple[tuple[Contract, ...], tuple[int, ...]]:
    """Contracts and cards dealt per deal (MI-DEAL-2, §5.3; Hoyle's 12 cards in classic7 5-7)."""
    text = SCHEDULES.get(schedule, schedule)
    contracts = tuple((d.count("s"), d.count("r")) for d in text.split(","))
    if schedule == "classic7":
        sizes = tuple(10 if i < 4 else 12 for i in range(len(contracts)))
    else:
        sizes = tuple(10 if fewest_cards(c) <= 10 else 12 for c in contracts)
    return contracts, sizes


def _parse(name: str, raw: object) -> MayIOption:
    if name == "schedule":
        return parse_schedule(raw)
    if name == "max_buys_per_deal" and (raw is None or raw in _NONE_WORDS):
        return None
    return _SPECS[name].parse(raw)


def resolve(given: Mapping[str, object] | None) -> dict[str, MayIOption]:
    """Defaults overlaid with the given options.

    :raises BadInput: ``UNKNOWN_OPTION`` or ``BAD_OPTION_VALUE``.
    """
    values: dict[str, MayIOption] = {s.name: s.default for s in OPTIONS}
    for raw_name, raw in (given or {}).items():
        name = str(raw_name).strip().removeprefix("opt.").removeprefix("mayi.")
        if name not in _SPECS:
            raise BadInput(Reason.UNKNOWN_OPTION, f"unknown option {raw_name!r} of may_i")
        values[name] = _parse(name, raw)
    return values


def build(players: int, options: Mapping[str, object] | None = None) -> MayIRules:
    """The May I? rules for a player count and options.

    :raises BadInput: ``BAD_PLAYER_COUNT``, ``UNKNOWN_OPTION`` or ``BAD_OPTION_VALUE``.
    """
    if isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise BadInput(Reason.BAD_PLAYER_COUNT,
                       f"may_i is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    opts = resolve(options)
    contracts, sizes = contracts_of(str(opts["schedule"]))
    seats = tuple(range(players))
    return MayIRules(
        variant=VARIANT, players=players, options=tuple(sorted(opts.items())),
        layout=Layout(tuple((s,) for s in seats), (seats,)),
        contracts=contracts, hand_sizes=sizes,
    )
