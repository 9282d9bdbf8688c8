"""The meld phase of a turn: which meld actions may be staged now, and when the turn may
end (discard, go out, end), for the Canasta family.

A staged action is offered only while the turn can still end without ``undo``: the
side's minimum stays reachable (CL-MIN-8) or a concealed going out does (CL-MIN-9),
the hand keeps the cards it must (CL-MELD-11), black threes lead to going out
(CL-MELD-3). The checks run cheapest first; the exact searches are in engine/reach.py.
"""

from __future__ import annotations

from typing import Final

from engine.canasta_reasons import CanastaViolation
from engine.cards import RANK, THREE, Card
from engine.errors import Reason
from engine.hands import HandView, remove_cards
from engine.melds import (
    SEQ_RANK,
)
from engine.moves import (
    AddToMeld,
    CanastaMove,
    Discard,
    EndHand,
    GoOut,
    Meld,
    Move,
)
from engine.reach import (
    NaturalGroups,
    group_cap,
    groups_reach,
    natural_groups,
    reach_minimum,
    reach_out,
    reach_out_from,
)
from engine.rules import MeldValidation, PermissionYes, RuleSet
from engine.shapes import (
    card_count,
    cards_of,
    is_black_meld,
    meld_candidates,
    opening_sets,
    wild_cap,
)
from engine.state import MeldPile, Phase, State, minimum_of, partner_of
from engine.transitions import (
    apply_stage,
    bonus_due,
    counts_for_opening,
    find_meld,
    is_concealed,
    stage,
    staged_points,
)

# Refusals without a detail of the position are built once: the generators ask these
# checks for every candidate, and most candidates that fail, fail here.
_NO_PARTNER: Final = CanastaViolation(Reason.ASK_NOT_ALLOWED,
                            "there is no partner to ask: play without permission", "CL-P2-5")
_ASK_ONCE: Final = CanastaViolation(Reason.ASK_NOT_ALLOWED,
                          "you may ask only once, before melding or taking the pile", "CL-OUT-4")
_NOTHING_STAGED: Final = CanastaViolation(Reason.NOTHING_TO_UNDO,
                                           "no meld of this turn to take back", "CL-MIN-8")
_GOES_ON: Final = CanastaViolation(Reason.WRONG_PHASE, "the turn goes on: discard", "CL-EXH-2")
_NO_DISCARD: Final = CanastaViolation(Reason.WRONG_PHASE,
                            "after a red three as the last stock card there is no discard",
                            "CL-EXH-2")
_NOBODY_OUT: Final = CanastaViolation(Reason.MUST_KEEP_CARD,
                            "nobody goes out: the last card may not be discarded", "BO-OUT-1")
_MINIMUM_STAGED: Final = CanastaViolation(
    Reason.OPENING_MINIMUM_NOT_MET,
    "the melds of this turn do not reach the minimum: add or undo", "CL-MIN-8")
_LAST_CARD: Final = CanastaViolation(Reason.MUST_KEEP_CARD,
                           "discarding the last card is going out: use 'out'", "CL-DISC-5")
_LAY_FIRST: Final = CanastaViolation(Reason.MUST_KEEP_CARD,
                           "go out by melding all but at most one card first", "CL-OUT-1")
_OUT_REFUSED: Final = CanastaViolation(Reason.GO_OUT_REFUSED, "your partner said no", "CL-OUT-6")
_BLACK_STAGED: Final = CanastaViolation(Reason.BLACK_THREES_ONLY_GOING_OUT,
                              "black threes were melded: this turn must go out", "CL-MELD-3")
_MUST_GO_OUT: Final = CanastaViolation(Reason.MUST_GO_OUT,
                             "your partner said yes and you can go out: you must", "CL-OUT-5")
_BLACK_OUT: Final = {rule: CanastaViolation(Reason.BLACK_THREES_ONLY_GOING_OUT,
                                  "black threes are melded only when going out", rule)
              for rule in ("CL-MELD-3", "SA-B3-1")}
_BONUS_FIRST: Final = CanastaViolation(
    Reason.OPENING_MINIMUM_NOT_MET, "reach the minimum before completing the first canasta "
    "(its bonus cards end the undo)", "SV-BONUS-2")
_MINIMUM_LOST: Final = CanastaViolation(Reason.OPENING_MINIMUM_NOT_MET,
                              "the minimum count can no longer be reached this turn", "CL-MIN-8")


def ask_refusal(state: State) -> CanastaViolation | None:
    """CL-OUT-4: once per turn, before drawing or right after a stock draw; CL-P2-5: only
    with a partner."""
    rules = state.rules
    t = state.turn
    if partner_of(state, t.seat) < 0:
        return _NO_PARTNER
    if not rules.permission or t.asked:
        return _ASK_ONCE
    limit = rules.permission_asks_per_hand
    if limit and state.asks[t.seat] >= limit:
        return _ASK_ONCE
    if state.phase in (Phase.DRAW, Phase.DRAW_EXHAUSTED):
        return None
    if state.phase is Phase.MELD and t.drew == "stock" and not t.staged and not t.no_discard:
        return None
    return _ASK_ONCE


def undo_refusal(state: State) -> CanastaViolation | None:
    """CL-MIN-8: ``undo`` takes back the melds staged this turn, if any."""
    return None if state.turn.staged else _NOTHING_STAGED


def minimum_met(state: State) -> bool:
    """CL-MIN-8: an unopened side's staged melds reach its minimum."""
    team = state.team_of(state.turn.seat)
    rules = state.rules
    if state.opened[team] or not any(counts_for_opening(rules, m) for m in state.turn.staged):
        return True  # BO-INIT-2: black threes alone do not open
    return staged_points(state) >= minimum_of(state, state.turn.seat)


def canastas(state: State) -> int:
    return sum(1 for m in state.melds[state.team_of(state.turn.seat)] if m.is_canasta)


def out_allowed(state: State) -> bool:
    """May the active seat end the turn with an empty hand now (CL-OUT-1/6, CL-MIN-9)?"""
    t = state.turn
    rules = state.rules
    if not rules.going_out or t.answer == "no" or canastas(state) < rules.canastas_to_go_out:
        return False  # BO-OUT-1: nobody goes out
    if rules.out_needs_sequence and not _has_escalera(state.melds[state.team_of(t.seat)]):
        return False
    if minimum_met(state):
        return True
    return (t.drew == "stock" and not state.rules.concealed_requires_minimum
            and is_concealed(state))


def black_meld_staged(state: State) -> bool:
    """CL-MELD-3, SA-B3-1: black threes melded this turn oblige the player to go out."""
    staged = state.turn.staged
    if not staged or state.rules.black_threes_any_time:  # BO-B3-1: not in Bolivia
        return False
    return any(isinstance(m, Meld) and RANK[m.groups[0][0]] == THREE for m in staged)


def end_refusal(state: State, move: Discard | GoOut | EndHand) -> CanastaViolation | None:
    """The first rule that keeps this move from ending the turn, or ``None`` (CL-DISC-1/5,
    CL-EXH-2, BO-OUT-1, CL-MIN-8, CL-MELD-3, CL-OUT-1/5/6). Apart from the card being in
    the hand, the verdict does not depend on which card is discarded."""
    t = state.turn
    hand = state.hands[t.seat]
    rules = state.rules
    card = None if isinstance(move, EndHand) else move.card
    if card is not None and card not in hand:
        return CanastaViolation(Reason.CARDS_NOT_IN_HAND, f"{card} is not in the hand",
                                "CL-DISC-1")
    if isinstance(move, EndHand):
        if not (t.no_discard and hand):
            return _GOES_ON
        if not minimum_met(state):
            return _MINIMUM_STAGED
        return _BLACK_STAGED if black_meld_staged(state) else None
    if t.no_discard and (card is not None or hand):
        return _NO_DISCARD
    going_out = isinstance(move, GoOut)
    if not rules.going_out and (going_out or len(hand) <= 1):
        return _NOBODY_OUT
    out_ok = going_out and out_allowed(state)
    if not out_ok and not minimum_met(state):
        return _MINIMUM_STAGED
    if not going_out:
        if len(hand) <= 1:
            return _LAST_CARD
        if black_meld_staged(state):
            return _BLACK_STAGED
        if (t.answer == "yes" and rules.permission_yes is PermissionYes.STRICT
                and can_still_go_out(state)):
            return _MUST_GO_OUT
        return None
    if len(hand) != (0 if card is None else 1):
        return _LAY_FIRST
    if out_ok:
        return None
    if t.answer == "no":
        return _OUT_REFUSED
    if rules.out_needs_sequence and not _has_escalera(state.melds[state.team_of(t.seat)]):
        return _OUT_NEEDS_ESCALERA
    return _needs_canastas(rules.canastas_to_go_out, "CL-OUT-1")


def _has_escalera(melds: tuple[MeldPile, ...]) -> bool:
    """BO-C1 (going_out=hoyle): whether a side's melds hold a sequence canasta."""
    return any(m.rank >= SEQ_RANK and m.is_canasta for m in melds)


def can_still_go_out(state: State) -> bool:
    """Can meld actions from here end in a legal going out this turn (CL-OUT-1, CL-OUT-5)?

    Exact for the meld model: one card may be kept for a final discard; every
    other card must be laid, with the wild cards spread so that the side gets
    the canastas it needs.
    """
    t = state.turn
    if t.answer == "no":
        return False
    hand = state.hands[t.seat]
    if not hand:
        return out_allowed(state)
    if not state.rules.simple_melds:
        return reach_out(state)
    # Only a card that cannot be laid is worth keeping for the final discard:
    # a lone natural, a black three too many, or a wild card without room.
    hv = HandView(state.rules, hand)
    have = {m.rank for m in state.melds[state.team_of(t.seat)]}
    singles = [cs[0] for r, cs in hv.naturals.items() if len(cs) == 1 and r not in have]
    if len(singles) > 1:
        return False
    keep = singles or [c for c in (hv.black_threes[:1] + hv.jokers[:1] + hv.deuces[:1])]
    options: list[tuple[Card, ...]] = [] if singles else [hand]
    for c in keep:
        rest = remove_cards(hand, (c,))
        assert rest is not None
        options.append(rest)
    return any(_can_lay_all(state, rest) for rest in options)


def _can_lay_all(state: State, rest: tuple[Card, ...]) -> bool:
    rules = state.rules
    team = state.team_of(state.turn.seat)
    hv = HandView(rules, rest)
    melds = state.melds[team]
    mx = rules.black_three_meld_max
    black = find_meld(melds, THREE)
    b = len(hv.black_threes)
    if b and not ((black and black.size + b <= mx) or (not black and 3 <= b <= mx)):
        return False
    closed = rules.natural_canasta_closed_to_wilds
    sizes: list[tuple[int, int]] = []  # (size, wild room) per meld after laying naturals
    for m in melds:
        if m.rank == THREE:
            continue
        n = len(hv.naturals.get(m.rank, ()))
        room = 0 if closed and m.is_natural_canasta and n == 0 else (
            wild_cap(rules, m.naturals + n) - m.wilds)
        sizes.append((m.size + n, max(room, 0)))
    wilds = len(hv.jokers) + len(hv.deuces)
    have = {m.rank for m in melds}
    for rank, cs in hv.naturals.items():
        if rank in have:
            continue
        if len(cs) < 2:
            return False
        if len(cs) == 2:
            if wilds == 0:
                return False
            wilds -= 1
            sizes.append((3, wild_cap(rules, 2) - 1))
        else:
            sizes.append((len(cs), wild_cap(rules, len(cs))))
    if wilds > sum(room for _, room in sizes):
        return False
    count = 0
    spare = wilds
    for size, room in sorted(sizes, key=lambda sr: max(0, 7 - sr[0])):
        short = max(0, 7 - size)
        if short <= min(room, spare):
            spare -= short
            count += 1
    if count < rules.canastas_to_go_out:
        return False
    if state.opened[team]:
        return True
    values = rules.values
    points = staged_points(state) + sum(map(values.__getitem__, rest))
    exempt = (state.turn.drew == "stock" and not state.melded[state.turn.seat]
              and not rules.concealed_requires_minimum)
    return exempt or points >= minimum_of(state, state.turn.seat)


def meld_actions(state: State) -> list[CanastaMove]:
    """New melds and additions the active seat may lay now, each checked in full."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    hand = state.hands[seat]
    hv = HandView(rules, hand)
    melds = state.melds[team]
    batch = rules.initial_meld_validation is MeldValidation.BATCH
    unopened = not state.opened[team] and not state.turn.staged
    candidates: list[CanastaMove] = []
    if batch and unopened:
        need = minimum_of(state, state.turn.seat)
        candidates.extend(Meld(gs) for gs in opening_sets(rules, hand, need))
    else:
        candidates.extend(meld_candidates(rules, hv, melds))
    facts = turn_facts(state, hv)
    if facts.check_minimum or facts.black_staged:
        return [m for m in candidates if meld_context_refusal(state, m, facts, False) is None]
    # an opened side: an action that keeps two cards and lays no black threes is legal
    spare = len(hand) - 2
    return [m for m in candidates
            if (len(m.cards) <= spare if type(m) is AddToMeld else _keeps_two(rules, m, spare))
            or meld_context_refusal(state, m, facts, False) is None]


class TurnFacts:
    """What every candidate's check asks of the turn, worked out once per list.

    A native class (it never leaves the engine): each candidate's check reads its fields,
    a C field each where a named tuple's is a property call.
    """

    check_minimum: bool  # an unopened side under turn_total validation (CL-MIN-8)
    staged_counting: bool  # a staged action counts toward the opening (BO-INIT-2)
    need: int  # the side's minimum
    staged: int  # points staged this turn
    bonus: bool  # the first-canasta bonus is still due (SV-BONUS-1)
    black_staged: bool  # black threes melded this turn (CL-MELD-3)
    # (points, size, rank) of the hand's new groups of three naturals or more, richest
    # first (several groups per rank only; see _untouched_groups)
    groups: NaturalGroups

    def __init__(self, check_minimum: bool, staged_counting: bool, need: int, staged: int,
                 bonus: bool, black_staged: bool, groups: NaturalGroups = ()) -> None:
        self.check_minimum = check_minimum
        self.staged_counting = staged_counting
        self.need = need
        self.staged = staged
        self.bonus = bonus
        self.black_staged = black_staged
        self.groups = groups


def turn_facts(state: State, hv: HandView) -> TurnFacts:
    """The facts of the turn the meld checks share (``hv``: the active hand)."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    black = black_meld_staged(state)
    if state.opened[team] or rules.initial_meld_validation is MeldValidation.BATCH:
        return TurnFacts(False, False, 0, 0, False, black)
    bonus = bonus_due(state, team)
    groups = natural_groups(rules, hv, group_cap(rules, bonus)) if rules.multi_groups else ()
    return TurnFacts(True, any(counts_for_opening(rules, m) for m in state.turn.staged),
                      minimum_of(state, seat), staged_points(state), bonus, black, groups)


def _keeps_two(rules: RuleSet, move: Move, spare: int) -> bool:
    """The quick case of the hand-size check for a new meld or a merge: the action lays
    at most ``spare`` cards and is not a black-three meld."""
    return card_count(move) <= spare and not is_black_meld(rules, move)


def meld_context_refusal(state: State, move: Move, facts: TurnFacts,
                         explain: bool = True) -> CanastaViolation | None:
    """The turn's checks of a meld action of a legal shape: black threes lead to going out
    (CL-MELD-3, SA-B3-1), the hand keeps the cards it must (CL-MELD-11, CL-OUT-3/6,
    BO-OUT-2, BO-C1), the minimum stays reachable (CL-MIN-8, SV-BONUS-2).

    The generator asks only for the verdict (``explain=False``): a short hand is then
    refused without working out which going-out rule it misses."""
    seat = state.turn.seat
    left = len(state.hands[seat]) - card_count(move)
    rules = state.rules
    going_out = facts.black_staged or is_black_meld(rules, move)
    if left >= 2 and not going_out:
        return _minimum_refusal(state, move, facts) if facts.check_minimum else None
    after = stage(state, move)
    left = max(left, len(after.hands[seat]))  # SV-BONUS-2: the bonus cards
    if going_out and not _could_go_out(after):
        return _BLACK_OUT["CL-MELD-3" if rules.simple_melds else "SA-B3-1"]
    if left < (1 if state.turn.no_discard else 2):
        # one meld per action: a last card may stay if laying it still goes out
        # (the exact going-out search covers group melds only)
        groups_only = rules.going_out and not rules.sequences and not rules.wild_melds
        if not (out_allowed(after) or (left == 1 and groups_only and can_still_go_out(after))):
            return _keep_refusal(state, after) if explain else _KEEP_ONE
    return _minimum_refusal(state, move, facts) if facts.check_minimum else None


def _keep_refusal(state: State, after: State) -> CanastaViolation:
    """Why an action that leaves fewer cards than the turn needs cannot go out."""
    rules = state.rules
    team = state.team_of(state.turn.seat)
    if not rules.going_out:
        return _KEEP_TWO
    if rules.out_needs_sequence and not _has_escalera(after.melds[team]):
        return _NEEDS_ESCALERA
    if state.turn.answer == "no":
        return _REFUSED_KEEP
    if canastas(after) < rules.canastas_to_go_out:
        return _needs_canastas(rules.canastas_to_go_out, "CL-OUT-3")
    return _MINIMUM_LOST if not state.opened[team] else _KEEP_ONE


_KEEP_TWO: Final = CanastaViolation(Reason.MUST_KEEP_CARD, "nobody goes out: keep two cards "
                                     "to discard one and hold one", "BO-OUT-2")
_NEEDS_ESCALERA: Final = CanastaViolation(Reason.GO_OUT_NEEDS_CANASTAS,
                                           "going out needs two canastas, one of them an "
                                           "escalera: keep a card", "BO-C1")
_OUT_NEEDS_ESCALERA: Final = CanastaViolation(Reason.GO_OUT_NEEDS_CANASTAS,
                                               "going out needs two canastas, one of them "
                                               "an escalera", "BO-C1")
_REFUSED_KEEP: Final = CanastaViolation(Reason.GO_OUT_REFUSED,
                              "your partner said no: keep a card to discard", "CL-OUT-6")
_KEEP_ONE: Final = CanastaViolation(Reason.MUST_KEEP_CARD, "keep a card to discard", "CL-OUT-3")
_CANASTAS_NEEDED: Final[dict[tuple[int, str], CanastaViolation]] = {}


def _needs_canastas(count: int, rule: str) -> CanastaViolation:
    """GO_OUT_NEEDS_CANASTAS for ``count`` canastas, built once per count and rule."""
    found = _CANASTAS_NEEDED.get((count, rule))
    if found is None:
        found = _CANASTAS_NEEDED[(count, rule)] = CanastaViolation(
            Reason.GO_OUT_NEEDS_CANASTAS, f"going out needs {count} canasta(s)", rule)
    return found


def _could_go_out(state: State) -> bool:
    """After a black-three meld: canastas are there and the rest can all be laid off."""
    t = state.turn
    if t.answer == "no" or canastas(state) < state.rules.canastas_to_go_out:
        return False
    if not state.rules.simple_melds:  # SA-B3-1: the black threes are the last cards laid
        return len(state.hands[t.seat]) <= 1 and out_allowed(state)
    return can_still_go_out(state)


def _minimum_refusal(state: State, move: Move, facts: TurnFacts) -> CanastaViolation | None:
    """CL-MIN-8 feasibility: can an unopened side (``facts.check_minimum``) still reach
    its minimum after this move? SV-BONUS-2: not by completing the first canasta first.

    An optimistic bound (wild capacity and pairs completed by wilds), so no move
    that could lead to an opening is hidden; a dead end is left by ``undo``.
    """
    rules = state.rules
    team = state.team_of(state.turn.seat)
    counting = counts_for_opening(rules, move)
    if not counting and not facts.staged_counting:
        return None  # BO-INIT-2: black threes alone start no opening
    need = facts.need
    values = rules.values
    cards = cards_of(move) if counting else ()
    have = facts.staged + sum(map(values.__getitem__, cards))
    if have >= need:
        return None
    if facts.groups and _untouched_groups(state, move, facts, need - have):
        return None
    left, melds = apply_stage(rules, state.turn.seat, state.hands[state.turn.seat],
                              state.melds[team], move)
    if facts.bonus and any(m.is_canasta for m in melds):
        return _BONUS_FIRST  # the bonus draw makes the melds final: minimum first
    keep = 1 if state.turn.no_discard else 2
    if not rules.simple_melds:
        bonus = min(rules.first_canasta_bonus, len(state.stock)) if facts.bonus else -1
        return None if reach_minimum(rules, left, melds, need - have, keep, bonus) else (
            _MINIMUM_LOST)
    # the classic meld model: the optimistic bounds first (most staged melds fail or pass
    # there), then the exact searches, so that no listed move leads to a turn that only
    # `undo` can leave (CL-MIN-8, CL-MIN-9)
    concealed = _concealed_possible(state, left, melds)
    if have + _best_more(rules, HandView(rules, left), melds) >= need and reach_minimum(
            rules, left, melds, need - have, keep, -1):
        return None
    if concealed and reach_out_from(rules, state.turn.seat, left, melds, 0):
        return None
    return _MINIMUM_LOST


def _untouched_groups(state: State, move: Move, facts: TurnFacts, deficit: int) -> bool:
    """A quick sufficient test before the move is laid: new groups of the hand's
    naturals of ranks the move leaves alone (``facts.groups``) reach ``deficit`` while
    the cards the turn must keep stay, so :func:`reach_minimum` would say "yes".

    Each group is a listed new meld after the move (several groups per rank) and
    completes no canasta while a bonus is due; a move that might complete one itself
    is left to the full check.
    """
    size = card_count(move)
    if facts.bonus and not (isinstance(move, Meld) and size < 7):
        return False
    room = len(state.hands[state.turn.seat]) - size - (1 if state.turn.no_discard else 2)
    return groups_reach(facts.groups, deficit, room, {RANK[c] for c in cards_of(move)})


def _concealed_possible(state: State, left: tuple[Card, ...], melds: tuple[MeldPile, ...]) -> bool:
    """An optimistic test that a concealed going out (CL-MIN-9, which needs no minimum)
    is still possible: the canastas going out needs (CL-OUT-1, CL-P2-3) can each be made, every
    wild card free for each, and at most one natural (the discard) is the only one of
    its rank with no meld to join, since a meld needs two naturals."""
    t = state.turn
    if state.melded[t.seat] or t.drew != "stock" or state.rules.concealed_requires_minimum:
        return False
    hv = HandView(state.rules, left)
    ranks = {m.rank for m in melds}
    if sum(1 for rank, cs in hv.naturals.items() if len(cs) == 1 and rank not in ranks) > 1:
        return False
    wilds = len(hv.jokers) + len(hv.deuces)
    possible = sum(1 for m in melds
                   if m.size + len(hv.naturals.get(m.rank, ())) + min(wilds, max(0, 3 - m.wilds))
                   >= 7)
    possible += sum(1 for rank, cs in hv.naturals.items()
                    if rank not in ranks and len(cs) >= 4 and len(cs) + min(3, wilds) >= 7)
    return possible >= state.rules.canastas_to_go_out


def _best_more(rules: RuleSet, hv: HandView, melds: tuple[MeldPile, ...]) -> int:
    values = rules.values
    ranks = {m.rank for m in melds}
    cap = sum(max(0, 3 - m.wilds) for m in melds if m.rank != THREE)
    points = 0
    pairs: list[int] = []
    for rank, cs in hv.naturals.items():
        p = sum(map(values.__getitem__, cs))
        if rank in ranks or len(cs) >= 3:
            points += p
            cap += 0 if rank in ranks else 3
        elif len(cs) == 2:
            pairs.append(p)
    wilds = sorted((values[c] for c in hv.jokers + hv.deuces), reverse=True)
    pairs.sort(reverse=True)
    used = min(len(wilds), len(pairs))
    points += sum(pairs[:used])
    cap += 3 * used
    return points + sum(wilds[: min(len(wilds), cap)])
