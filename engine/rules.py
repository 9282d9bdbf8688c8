"""The frozen rule set a game is played under.

A :class:`RuleSet` is plain data resolved once from a variant, a player count and
options; the engine core reads only this object, never the variant module. It
checks itself when built, so an impossible combination fails loudly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.options import OptionValue


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
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
    _opts: dict[str, OptionValue] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_opts", dict(self.options))
        seats = sorted(s for team in self.layout.teams for s in team)
        if seats != list(range(self.players)):
            raise ValueError("teams must cover every seat exactly once")
        for active in self.layout.rotation:
            if len(active) * self.hand_size >= 54 * self.packs:
                raise ValueError("not enough cards for the deal")
        if self.canastas_to_go_out < 1 or self.draw_count < 1:
            raise ValueError("canastas to go out and draw count must be positive")

    def opt(self, name: str) -> OptionValue:
        """The resolved value of a named option."""
        return self._opts[name]

    def minimum_for(self, cumulative: int) -> int:
        """The initial-meld minimum for a cumulative score (CL-MIN-1)."""
        for lowest, minimum in self.min_bands:
            if cumulative >= lowest:
                return minimum
        return self.min_bands[-1][1]

    def active_seats(self, hand_no: int) -> tuple[int, ...]:
        rot = self.layout.rotation
        return rot[hand_no % len(rot)]
