"""Hand scoring (CL-SCORE-1..8) and the end-of-game test (CL-GAME-1..4)."""

from __future__ import annotations

from dataclasses import replace

from engine.cards import IS_RED_THREE
from engine.melds import CANASTA_KEYS, canasta_keys, canasta_kind
from engine.rules import RuleSet, TiePolicy
from engine.state import CanastaTally, HandResult, MeldPile, SideResult, State, evolve


def red_three_points(rules_six_pack: bool, count: int) -> int:
    """Value of a side's red threes before the sign (CL-SCORE-4, CL-P6-8)."""
    if rules_six_pack:
        return {5: 1000, 6: 1200}.get(count, 100 * count)
    return 800 if count == 4 else 100 * count


def canasta_bonus(rules: RuleSet, meld: MeldPile) -> int:
    """The bonus of one canasta from the variant's table (CL-SCORE-2, SA-CAN-1/2,
    BO-CAN-2, SV-CAN-3): its most specific key first (``natural:7``, then ``natural``)."""
    table = dict(rules.canasta_bonus)
    for key in canasta_keys(meld):
        if key in table:
            return table[key]
    return 0


def canasta_tallies(rules: RuleSet, melds: tuple[MeldPile, ...]) -> tuple[CanastaTally, ...]:
    """A side's canastas by kind, each kind's count and bonuses (:func:`canasta_bonus`), in
    the order natural, mixed, sequence, wild: what the score's canasta bonus is made of, named
    as the view names each canasta (a samba SA-SEQ-5, an escalera BO-SEQ-2, a bolivia BO-WILD-2;
    a sevens canasta SV-CAN-3 is a natural or mixed one, its bonus its own)."""
    found: dict[str, tuple[str, int, int]] = {}
    for m in melds:
        if m.is_canasta:
            key = canasta_keys(m)[1]
            _, count, bonus = found.get(key, ("", 0, 0))
            found[key] = (canasta_kind(m, rules.canasta_names), count + 1,
                          bonus + canasta_bonus(rules, m))
    return tuple(CanastaTally(*found[key]) for key in CANASTA_KEYS if key in found)


def canasta_counts(rules: RuleSet, melds: tuple[MeldPile, ...]) -> tuple[int, int,
                                                                         tuple[CanastaTally, ...]]:
    """A side's natural canastas (a samba and an escalera among them), its mixed ones (a
    bolivia among them) and its tallies by kind (CL-SCORE-2, CL-SCORE-8)."""
    natural = sum(1 for m in melds if m.is_natural_canasta)
    mixed = sum(1 for m in melds if m.is_canasta and not m.is_natural_canasta)
    return natural, mixed, canasta_tallies(rules, melds)


def red_three_value(rules: RuleSet, count: int) -> int:
    """A side's red threes before the sign (CL-SCORE-4, SA-R3-2, SV-R3-1)."""
    if rules.red_three_table:
        return dict(rules.red_three_table).get(count, 100 * count)
    return red_three_points(rules.red_three_six_pack_scale, count)


def red_threes_plus(rules: RuleSet, melds: tuple[MeldPile, ...]) -> bool:
    """Whether red threes count plus: any meld (CL-SCORE-4), enough canastas (SA-R3-3,
    BO-R3-2) or a canasta of a named kind (SV-R3-2)."""
    if rules.red_three_plus == "meld":
        return bool(melds)
    done = [m for m in melds if m.is_canasta]
    if rules.red_three_plus == "canastas":
        return len(done) >= rules.red_three_canastas
    return any(key in rules.red_three_kinds for m in done for key in canasta_keys(m))


def side_result(
    state: State, team: int, went_out: int, concealed: bool, melds: tuple[MeldPile, ...]
) -> SideResult:
    """One team's score from its melds, red threes, hands and penalties."""
    rules = state.rules
    values = rules.values
    seats = rules.layout.teams[team]
    base = sum(values[c] for m in melds for c in m.cards)
    natural, mixed, tallies = canasta_counts(rules, melds)
    bonus = sum(t.bonus for t in tallies)
    out_bonus = 0
    if went_out in seats:
        out_bonus = rules.concealed_bonus if concealed else rules.out_bonus
    # Red threes still in a hand (a seat that never had its first turn) count as laid.
    reds = sum(len(state.red3[s]) for s in seats) + sum(
        1 for s in seats for c in state.hands[s] if IS_RED_THREE[c]
    )
    r3 = red_three_value(rules, reds)
    if not red_threes_plus(rules, melds):
        r3 = -r3
    in_hand = sum(rules.hand_value(c) for s in seats for c in state.hands[s])
    penalties = state.penalties[team]
    total = base + bonus + out_bonus + r3 - in_hand - penalties
    return SideResult(
        team=team, base=base, natural_canastas=natural, mixed_canastas=mixed,
        canasta_bonus=bonus, going_out=out_bonus, red_threes=reds, red_three_points=r3,
        in_hand=in_hand, penalties=penalties, total=total,
        cumulative=state.scores[team] + total, canastas=tallies,
    )


def hand_sides(state: State, went_out: int, concealed: bool) -> tuple[SideResult, ...]:
    """Every scoring team's result for the hand as it stands."""
    if by_seat(state):
        return cutthroat_results(state, went_out, concealed)
    return tuple(
        side_result(state, t, went_out, concealed, state.melds[t])
        for t in range(len(state.rules.layout.teams))
    )


def by_seat(state: State) -> bool:
    """Whether the score has a row per seat (CL-P3-2: the cutthroat pair is formed), not
    per team."""
    return state.rules.cutthroat and state.lone >= 0


def with_tallies(state: State) -> State:
    """``state`` with its hand result's canastas by kind, which a snapshot sealed before
    ``SideResult.canastas`` existed opens without (the field's default, none): a row
    counting canastas gets the tallies of the melds it scored (still on the table at the
    hand's end), so that such a hand's score says them and its record replays to it."""
    result = state.result
    if result is None or all(r.canastas or not r.natural_canastas + r.mixed_canastas
                             for r in result.sides):
        return state
    sides = tuple(r if r.canastas else replace(r, canastas=canasta_tallies(
        state.rules, state.melds[state.side_of[r.team] if by_seat(state) else r.team]))
        for r in result.sides)
    return evolve(state, result=replace(result, sides=sides))


def hand_result(state: State, went_out: int, concealed: bool) -> HandResult:
    """Score every team and decide whether the game is over."""
    sides = hand_sides(state, went_out, concealed)
    winner, draw = game_winner(state, sides)
    return HandResult(went_out=went_out, concealed=concealed, sides=sides,
                      winner=winner, draw=draw)


def game_winner(state: State, sides: tuple[SideResult, ...]) -> tuple[int, bool]:
    """(winning team or -1, drawn) once the target is reached (CL-GAME-3/4), or after
    the match's last deal (SV-GAME-1: the higher total wins; a tie is a draw or, by
    option, another deal)."""
    best = max(s.cumulative for s in sides)
    rules = state.rules
    if rules.deals:
        if state.hand_no + 1 < rules.deals:
            return -1, False
        leaders = [s.team for s in sides if s.cumulative == best]
        if len(leaders) == 1:
            return leaders[0], False
        return -1, rules.tie_policy is TiePolicy.DRAW
    if best < state.rules.target:
        return -1, False
    leaders = [s.team for s in sides if s.cumulative == best]
    if len(leaders) == 1:
        return leaders[0], False
    return -1, state.rules.tie_policy is TiePolicy.DRAW


def cutthroat_results(state: State, went_out: int, concealed: bool) -> tuple[SideResult, ...]:
    """CL-P3-2: the lone hand scores alone; each partner scores the pair's total
    (melds, canastas, going out, minus both hands) plus or minus his own red threes."""
    rules = state.rules
    values = rules.values
    out: list[SideResult] = []
    for seat in range(rules.players):
        side = state.side_of[seat]
        if seat == state.lone:
            out.append(side_result(state, seat, went_out, concealed, state.melds[side]))
            continue
        melds = state.melds[side]
        members = [s for s in range(rules.players) if state.side_of[s] == side]
        base = sum(values[c] for m in melds for c in m.cards)
        natural, mixed, tallies = canasta_counts(rules, melds)
        bonus = sum(t.bonus for t in tallies)
        out_bonus = (200 if concealed else 100) if went_out in members else 0
        reds = len(state.red3[seat]) + sum(1 for c in state.hands[seat] if IS_RED_THREE[c])
        r3 = red_three_points(False, reds) * (1 if melds else -1)
        in_hand = sum(values[c] for s in members for c in state.hands[s])
        penalties = state.penalties[side]
        total = base + bonus + out_bonus + r3 - in_hand - penalties
        out.append(SideResult(
            team=seat, base=base, natural_canastas=natural, mixed_canastas=mixed,
            canasta_bonus=bonus, going_out=out_bonus, red_threes=reds, red_three_points=r3,
            in_hand=in_hand, penalties=penalties, total=total,
            cumulative=state.scores[seat] + total, canastas=tallies))
    return tuple(out)
