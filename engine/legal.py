"""The legal-move generator: every legal move of the awaited seat, canonical and sorted.

Melds are listed by *shape* (how many naturals, jokers and deuces), with the
concrete copies picked canonically (lowest card ids), so identical cards never
make two moves. The list is the single source of truth: :func:`engine.play.apply`
accepts exactly the moves listed here (after canonicalising the cards a client
chose), so "listed moves apply" and "unlisted moves are refused" hold by
construction.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import NamedTuple

from mypy_extensions import mypyc_attr

from engine.cards import ACE, CARDS, IS_BLACK_THREE, IS_RED_THREE, RANK, SUIT, THREE, Card
from engine.hands import HandView, remove_cards
from engine.mayi import legal as mayi_legal
from engine.mayi.state import AnyState, MayIState
from engine.melds import (
    SEQ_MAX,
    SEQ_MIN_RANK,
    SEQ_RANK,
    WILD_MAX,
    WILD_RANK,
    labels,
    new_sequences,
    repeats,
    seq_range,
    sequence_additions,
    targets,
    wild_sets,
)
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Group,
    Meld,
    Merge,
    Move,
    TakePile,
    Undo,
    canonical_group,
    joined_group,
)
from engine.rules import RuleSet
from engine.state import MeldPile, Phase, State, minimum_of, partner_of
from engine.transitions import (
    apply_stage,
    bonus_due,
    counts_for_opening,
    find_meld,
    is_concealed,
    stage,
    staged_points,
    take_pile,
)

NO_LIMIT = 10**6


def wild_cap(rules: RuleSet, naturals: int) -> int:
    """Most wild cards a group with this many naturals may hold (CL-MELD-1, SA-MELD-2)."""
    if rules.opt("wilds_not_exceed_naturals"):
        return min(rules.wild_limit, naturals)
    return rules.wild_limit


def closed_to_wilds(rules: RuleSet, meld: MeldPile) -> bool:
    """CL-CAN-3 (option) and SA-CAN-3: no wild card may join this canasta."""
    if not meld.is_canasta:
        return False
    return rules.canasta_closed_to_wilds or (
        meld.wilds == 0 and bool(rules.opt("natural_canasta_closed_to_wilds")))


def group_room(rules: RuleSet, meld: MeldPile) -> int:
    """Cards a group may still take (SV-CAN-1: none past seven)."""
    return rules.group_max - meld.size if rules.group_max else NO_LIMIT


def legal_moves(state: AnyState) -> list[Move]:
    """Every legal move of ``state.awaited``, in a deterministic order, without duplicates.

    Pure and cached on the (immutable) state.
    """
    if isinstance(state, MayIState):  # May I? is its own game: engine/mayi
        return mayi_legal.legal_moves(state)
    cached = state._legal
    if cached is not None:
        return list(cached)
    phase = state.phase
    if phase is Phase.DRAW or phase is Phase.DRAW_EXHAUSTED:
        moves = _draw_moves(state)
    elif phase is Phase.MELD:
        moves = _meld_phase_moves(state)
    elif phase is Phase.PERMISSION:
        moves = [Answer(True), Answer(False)]
    else:
        moves = []
    # one assignment of a finished tuple: a thread racing on the same state computes an
    # equal one, and neither can see a half-filled or doubled list
    object.__setattr__(state, "_legal", tuple(moves))
    return moves


def legal_moves_for(state: AnyState, seat: int) -> list[Move]:
    """The moves ``seat`` may make now: the awaited seat's list, in May I? the buy
    window's answers of a seat that may answer out of turn, and none otherwise."""
    if isinstance(state, MayIState):  # May I? is its own game: engine/mayi
        return mayi_legal.legal_moves_for(state, seat)
    return legal_moves(state) if seat == state.awaited and seat >= 0 else []


def is_legal(state: AnyState, move: Move) -> bool:
    """Whether a canonical move is in the legal list."""
    return move in legal_moves(state)


# --- draw phase ----------------------------------------------------------------


def _draw_moves(state: State) -> list[Move]:
    moves: list[Move] = []
    if state.phase is Phase.DRAW and state.stock:
        moves.append(Draw())
    takes = take_moves(state)
    moves.extend(takes)
    if state.phase is Phase.DRAW_EXHAUSTED and not compulsory_take(state, takes):
        moves.append(Decline())
    if can_ask(state):
        moves.append(Ask())
    return moves


def compulsory_take(state: State, takes: list[TakePile]) -> bool:
    """CL-EXH-4: with the stock empty, a pile whose top fits a meld must be taken."""
    if not takes or not state.rules.exhausted_take_compulsory:  # BO-END-3: optional
        return False
    team = state.team_of(state.turn.seat)
    if not state.opened[team] or pile_frozen_for_both(state):
        return False
    if state.rules.pile_pair_only:  # SA-END-3: the top card extends a meld by SA-PILE-3
        return any(not t.cards for t in takes)
    return find_meld(state.melds[team], RANK[state.pile[-1]]) is not None


def pile_frozen_for_both(state: State) -> bool:
    """CL-PILE-4: a wild card or a red three anywhere in the pile (black three by option)."""
    wild = state.rules.wild
    black = bool(state.rules.opt("black_three_freezes"))
    return any(wild[c] or IS_RED_THREE[c] or (black and IS_BLACK_THREE[c]) for c in state.pile)


def pile_blocked(state: State) -> bool:
    """CL-PILE-2/12: empty, or a wild card or black three on top."""
    if not state.pile:
        return True
    top = state.pile[-1]
    return state.rules.wild[top] or IS_BLACK_THREE[top] or IS_RED_THREE[top]


def take_companions(state: State) -> list[Group]:
    """Hand cards that may meld the top card, by the freeze rules (CL-PILE-6/7)."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    top = state.pile[-1]
    rank = RANK[top]
    hv = HandView(rules, state.hands[seat])
    naturals = hv.naturals.get(rank, [])
    existing = find_meld(state.melds[team], rank)
    frozen = not state.opened[team] or pile_frozen_for_both(state)
    base_nat = existing.naturals if existing else 0
    base_wild = existing.wilds if existing else 0
    closed = bool(existing and existing.is_natural_canasta
                  and rules.opt("natural_canasta_closed_to_wilds"))
    out: list[Group] = []
    for k in range(len(naturals) + 1):
        if frozen and k < 2:
            continue
        if existing is None and k == 0:
            continue
        cap = 0 if closed else wild_cap(rules, base_nat + 1 + k) - base_wild
        for w in hv.wild_picks(max(cap, 0)):
            if existing is None and k + 1 + len(w) < 3:
                continue
            out.append(canonical_group(tuple(naturals[:k]) + w))
    return out


def take_moves(state: State) -> list[TakePile]:
    """Every legal way to take the pile (decision table of CL-PILE)."""
    if pile_blocked(state):
        return []
    seat = state.turn.seat
    hand = state.hands[seat]
    if len(hand) == 1 and len(state.pile) == 1:  # CL-PILE-9
        return []
    rules = state.rules
    team = state.team_of(seat)
    top = state.pile[-1]
    values = rules.values
    need = 0 if state.opened[team] else minimum_of(state, state.turn.seat)
    moves: list[TakePile] = []
    bases = (pair_takes(state) if rules.pile_pair_only
             else [TakePile(comp) for comp in take_companions(state)])
    if not bases:
        return moves
    gained = sum(1 for c in state.pile[:-1] if not IS_RED_THREE[c])  # cards the take brings
    for base in bases:
        comp = base.cards
        points = values[top] + sum(map(values.__getitem__, comp))
        if points >= need:
            candidates = [base]
        else:
            rest = remove_cards(hand, comp)
            assert rest is not None
            candidates = [TakePile(comp, ex, base.target) for ex in
                          opening_sets(rules, rest, need - points, exclude=RANK[top])]
        for move in candidates:
            if _take_can_end_turn(state, move, gained):
                moves.append(move)
    return moves


def pair_takes(state: State) -> list[TakePile]:
    """SA-PILE-1..7: a natural pair (or more naturals, no wild card) melds the top card as
    a new group or onto an incomplete group of its rank; an unfrozen pile may also be
    taken by adding the top card alone to an incomplete group (``pile_extend_group``) or
    to an end of an open sequence. Never to a completed canasta (SA-PILE-5)."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    top = state.pile[-1]
    rank = RANK[top]
    melds = state.melds[team]
    wild = rules.wild
    # the hand's naturals of the top card's rank (threes are never naturals)
    naturals = [] if rank == THREE else [c for c in state.hands[seat]
                                         if RANK[c] == rank and not wild[c]]
    seq = SEQ_RANK + SUIT[top]
    # the labels are worked out only when a meld of the rank or a sequence of the suit is there
    found = list(targets(melds)) if any(m.rank in (rank, seq) for m in melds) else []
    groups = [(lab, m) for _, lab, m in found if m.rank == rank and not m.is_canasta]
    out: list[TakePile] = []
    for k in range(2, len(naturals) + 1):
        comp = tuple(naturals[:k])
        if not rules.group_max or k + 1 <= rules.group_max:
            out.append(TakePile(comp))
        out.extend(TakePile(comp, (), lab) for lab, m in groups
                   if k + 1 <= group_room(rules, m))
    if state.opened[team] and not pile_frozen_for_both(state):
        if rules.pile_extend_group:
            out.extend(TakePile((), (), lab) for lab, m in groups if group_room(rules, m) >= 1)
        for _, lab, m in found:
            if m.rank == seq and not m.is_canasta:
                low, high = seq_range(m)
                if rank in (low - 1, high + 1) and m.size < SEQ_MAX:
                    out.append(TakePile((), (), lab))
    return out


def _take_can_end_turn(state: State, move: TakePile, gained: int) -> bool:
    """Whether the turn can still end after this take (``gained``: the pile's cards that
    come to the hand)."""
    used = len(move.cards) + sum(len(g) for g in move.extras)
    if len(state.hands[state.turn.seat]) - used + gained >= 2:
        return True
    after = take_pile(state, move)
    return len(after.hands[state.turn.seat]) >= 2 or out_allowed(after)


def opening_sets(
    rules: RuleSet, hand: tuple[Card, ...], deficit: int, exclude: int = -1
) -> Iterator[tuple[Group, ...]]:
    """Sets of new melds worth at least ``deficit`` in which every meld is needed.

    Used for the extra melds of an initial take (CL-MIN-6) and for batch
    initial melds (CL-MIN-8): a meld that could be dropped while the minimum is
    still reached is not part of the opening (it can be laid afterwards).
    """
    hv = HandView(rules, hand)
    ranks = sorted(r for r, cs in hv.naturals.items() if len(cs) >= 2 and r != exclude)
    values = rules.values
    # one slot per rank (a group); for the family also one per suit (a sequence) and
    # one for a meld of wild cards (SA-SEQ-7, BO-WILD-4)
    # (in the order of their rank codes, the order canonicalize gives the extras)
    slots: list[Callable[[HandView], list[Group]]] = []
    if rules.black_threes_any_time and rules.black_threes_count:
        slots.append(lambda view: black_three_sets(rules, view))
    slots += [_group_slot(rules, r) for r in ranks]
    if rules.wild_melds:
        slots.append(lambda view: wild_sets(len(view.jokers), view.deuces, 3, WILD_MAX))
    if rules.sequences:
        slots += [_suit_slot(s) for s in range(4)]
    # a slot that offers nothing to the whole hand offers nothing to what is left of it
    slots = [slot for slot in slots if slot(hv)]

    def rec(i: int, view: HandView, chosen: tuple[Group, ...],
            pts: tuple[int, ...], total: int) -> Iterator[tuple[Group, ...]]:
        if total >= deficit:
            if all(total - p < deficit for p in pts):
                yield chosen
            return
        if i == len(slots):
            return
        yield from rec(i + 1, view, chosen, pts, total)  # the hand is unchanged: same view
        for g in slots[i](view):
            left = remove_cards(view.hand, g)
            assert left is not None
            p = sum(map(values.__getitem__, g))
            yield from rec(i + 1, HandView(rules, left), chosen + (g,), pts + (p,), total + p)

    yield from rec(0, hv, (), (), 0)


def _group_slot(rules: RuleSet, rank: int) -> Callable[[HandView], list[Group]]:
    return lambda view: new_group_shapes(rules, view, rank)


def _suit_slot(suit: int) -> Callable[[HandView], list[Group]]:
    return lambda view: new_sequences(view.naturals, suit)


def new_group_shapes(rules: RuleSet, hv: HandView, rank: int) -> list[Group]:
    """Canonical new melds of a natural rank that the hand can make (CL-MELD-1/2)."""
    naturals = hv.naturals.get(rank, [])
    top = rules.group_max or NO_LIMIT
    most = min(len(naturals), top)
    if not (hv.jokers or hv.deuces):  # naturals alone: three or more
        return [tuple(naturals[:k]) for k in range(3, most + 1)]
    out: list[Group] = []
    for k in range(2, most + 1):
        head = tuple(naturals[:k])
        picks = hv.wild_picks(min(wild_cap(rules, k), top - k))
        # a pair needs a wild card: the first pick is always the empty one
        for w in picks[1:] if k == 2 else picks:
            out.append(joined_group(head, w))
    return out


def black_three_sets(rules: RuleSet, hv: HandView) -> list[Group]:
    """New black-three melds of 3 to the maximum (CL-MELD-3, BO-B3-1)."""
    mx = int(rules.opt("black_three_meld_max"))
    return [tuple(hv.black_threes[:k]) for k in range(3, min(mx, len(hv.black_threes)) + 1)]


def add_shapes(rules: RuleSet, hv: HandView, meld: MeldPile) -> list[Group]:
    """Canonical card sets that can join an existing meld (CL-MELD-6, CL-CAN-3, SA-SEQ-5,
    BO-WILD-3, BO-B3-2, SV-CAN-1)."""
    rank = meld.rank
    if rank < WILD_RANK and rank != THREE:
        return _group_additions(rules, hv, meld)
    if rank == THREE:
        if rules.black_threes_any_time or not hv.black_threes:  # BO-B3-2: nothing added
            return []
        room = int(rules.opt("black_three_meld_max")) - meld.size
        return [tuple(hv.black_threes[:k]) for k in range(1, min(room, len(hv.black_threes)) + 1)]
    if rank >= SEQ_RANK:
        return sequence_additions(hv.naturals, meld)
    return wild_sets(len(hv.jokers), hv.deuces, 1, WILD_MAX - meld.size)


def _group_additions(rules: RuleSet, hv: HandView, meld: MeldPile) -> list[Group]:
    """Naturals of the group's rank, then wild cards up to the group's limit."""
    naturals = hv.naturals.get(meld.rank, [])
    if not (hv.jokers or hv.deuces) or closed_to_wilds(rules, meld):
        # most melds, most of the time: nothing, or naturals only
        if not naturals:
            return []
        return [tuple(naturals[:k])
                for k in range(1, min(len(naturals), group_room(rules, meld)) + 1)]
    room = group_room(rules, meld)
    out: list[Group] = []
    for k in range(min(len(naturals), room) + 1):
        cap = wild_cap(rules, meld.naturals + k) - meld.wilds
        picks = hv.wild_picks(max(min(cap, room - k), 0))
        if k:
            head = tuple(naturals[:k])
            for w in picks:
                out.append(joined_group(head, w))
        else:  # wild cards alone; the first pick is always the empty one
            out.extend(picks[1:])
    return out


def merge_moves(rules: RuleSet, melds: tuple[MeldPile, ...],
                labs: list[str] | None = None) -> list[Merge]:
    """SA-MELD-6 / SV-CAN-2: two groups of a rank whose union keeps the wild limit (and the
    size cap); SA-SEQ-6 (option): two sequences of a suit that meet, seven cards at most.

    ``labs`` are the melds' labels when the caller has them.
    """
    if not (rules.merge_groups or rules.join_sequences) or len(
            {m.rank for m in melds}) == len(melds):
        return []  # no merging here, or no two melds of one rank code
    of_rank: dict[int, list[int]] = {}  # only melds of one rank code may merge
    for i, m in enumerate(melds):
        of_rank.setdefault(m.rank, []).append(i)
    out: list[Merge] = []
    seen: set[tuple[Group, Group]] = set()
    for i, a in enumerate(melds):
        for j in of_rank[a.rank]:
            b = melds[j]
            if j <= i or (a.cards, b.cards) in seen:
                continue
            seen.add((a.cards, b.cards))
            if _mergeable(rules, a, b):
                labs = labs or labels(melds)
                out.append(Merge(labs[i], labs[j]))
    return out


def _mergeable(rules: RuleSet, a: MeldPile, b: MeldPile) -> bool:
    if a.rank >= SEQ_RANK:
        if not rules.join_sequences:
            return False
        (alo, ahi), (blo, bhi) = seq_range(a), seq_range(b)
        return (ahi + 1 == blo or bhi + 1 == alo) and a.size + b.size <= SEQ_MAX
    if a.rank in (THREE, WILD_RANK) or not rules.merge_groups:
        return False
    if rules.group_max and a.size + b.size > rules.group_max:
        return False
    if (a.wilds and closed_to_wilds(rules, b)) or (b.wilds and closed_to_wilds(rules, a)):
        return False
    return a.wilds + b.wilds <= wild_cap(rules, a.naturals + b.naturals)


# --- the meld phase --------------------------------------------------------------


def can_ask(state: State) -> bool:
    """CL-OUT-4: once per turn, before drawing or right after a stock draw."""
    rules = state.rules
    t = state.turn
    if not rules.permission or t.asked or partner_of(state, t.seat) < 0:
        return False
    limit = int(rules.opt("permission_asks_per_hand"))
    if limit and state.asks[t.seat] >= limit:
        return False
    if state.phase in (Phase.DRAW, Phase.DRAW_EXHAUSTED):
        return True
    return state.phase is Phase.MELD and t.drew == "stock" and not t.staged and not t.no_discard


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
    if rules.out_needs_sequence and not any(
            m.rank >= SEQ_RANK and m.is_canasta for m in state.melds[state.team_of(t.seat)]):
        return False
    if minimum_met(state):
        return True
    return (t.drew == "stock" and not state.rules.opt("concealed_requires_minimum")
            and is_concealed(state))


def _black_meld_staged(state: State) -> bool:
    """CL-MELD-3, SA-B3-1: black threes melded this turn oblige the player to go out."""
    staged = state.turn.staged
    if not staged or state.rules.black_threes_any_time:  # BO-B3-1: not in Bolivia
        return False
    return any(isinstance(m, Meld) and RANK[m.groups[0][0]] == THREE for m in staged)


def discard_allowed(state: State) -> bool:
    """A turn-ending discard that keeps cards (CL-MIN-8, CL-MELD-3, CL-OUT-5)."""
    if state.turn.no_discard or len(state.hands[state.turn.seat]) < 2:
        return False
    if not minimum_met(state) or _black_meld_staged(state):
        return False
    if state.turn.answer == "yes" and state.rules.opt("permission_yes") == "strict":
        return not can_still_go_out(state)
    return True


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
        return _reach_out(state)
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
    mx = int(rules.opt("black_three_meld_max"))
    black = find_meld(melds, THREE)
    b = len(hv.black_threes)
    if b and not ((black and black.size + b <= mx) or (not black and 3 <= b <= mx)):
        return False
    closed = bool(rules.opt("natural_canasta_closed_to_wilds"))
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
              and not rules.opt("concealed_requires_minimum"))
    return exempt or points >= minimum_of(state, state.turn.seat)


# Moves are immutable values: the discard of each card type is built once.
_DISCARDS: tuple[Discard, ...] = tuple(Discard(c) for c in CARDS)


def _meld_phase_moves(state: State) -> list[Move]:
    """Meld actions, undo, ask, then the moves that end the turn, last (as
    :func:`engine.bots.random_move` expects)."""
    moves = meld_actions(state)
    t = state.turn
    hand = state.hands[t.seat]
    if t.staged:
        moves.append(Undo())
    if can_ask(state):
        moves.append(Ask())
    if not hand:
        if out_allowed(state):
            moves.append(GoOut())
    elif t.no_discard:
        if minimum_met(state) and not _black_meld_staged(state):
            moves.append(EndHand())
    elif len(hand) == 1:
        if out_allowed(state):
            moves.append(GoOut(hand[0]))
    elif discard_allowed(state):
        moves.extend(map(_DISCARDS.__getitem__, dict.fromkeys(hand)))
    return moves


def meld_actions(state: State) -> list[Move]:
    """New melds and additions the active seat may lay now, each checked in full."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    hand = state.hands[seat]
    hv = HandView(rules, hand)
    melds = state.melds[team]
    batch = rules.opt("initial_meld_validation") == "batch"
    unopened = not state.opened[team] and not state.turn.staged
    candidates: list[Move] = []
    if batch and unopened:
        need = minimum_of(state, state.turn.seat)
        candidates.extend(Meld(gs) for gs in opening_sets(rules, hand, need))
    else:
        candidates.extend(meld_candidates(rules, hv, melds))
    facts = _turn_facts(state, hv)
    if facts.check_minimum or facts.black_staged:
        return [m for m in candidates if _meld_action_ok(state, m, facts)]
    # an opened side: an action that keeps two cards and lays no black threes is legal
    spare = len(hand) - 2
    return [m for m in candidates
            if (len(m.cards) <= spare if type(m) is AddToMeld else _keeps_two(rules, m, spare))
            or _meld_action_ok(state, m, facts)]


# (points, cards, rank) of new groups of a hand's naturals, richest first
NaturalGroups = tuple[tuple[int, int, int], ...]


@mypyc_attr(native_class=False)
class _TurnFacts(NamedTuple):
    """What every candidate's check asks of the turn, worked out once per list."""

    check_minimum: bool  # an unopened side under turn_total validation (CL-MIN-8)
    staged_counting: bool  # a staged action counts toward the opening (BO-INIT-2)
    need: int  # the side's minimum
    staged: int  # points staged this turn
    bonus: bool  # the first-canasta bonus is still due (SV-BONUS-1)
    black_staged: bool  # black threes melded this turn (CL-MELD-3)
    # (points, size, rank) of the hand's new groups of three naturals or more, richest
    # first (several groups per rank only; see _untouched_groups)
    groups: NaturalGroups = ()


def _turn_facts(state: State, hv: HandView) -> _TurnFacts:
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    black = _black_meld_staged(state)
    if state.opened[team] or rules.opt("initial_meld_validation") == "batch":
        return _TurnFacts(False, False, 0, 0, False, black)
    bonus = bonus_due(state, team)
    groups = _natural_groups(rules, hv, _group_cap(rules, bonus)) if rules.multi_groups else ()
    return _TurnFacts(True, any(counts_for_opening(rules, m) for m in state.turn.staged),
                      minimum_of(state, seat), staged_points(state), bonus, black, groups)


def meld_candidates(rules: RuleSet, hv: HandView, melds: tuple[MeldPile, ...]) -> list[Move]:
    """Every new meld, addition and merge a hand allows on a side's melds, before the
    checks of the turn (minimum, hand size): CL-MELD-1..6, SA-MELD-5/6, SA-SEQ,
    BO-WILD-2/3, BO-B3-1/2."""
    have = {m.rank for m in melds}
    out: list[Move] = []
    naturals = hv.naturals
    wilds = bool(hv.jokers or hv.deuces)
    fewest = 2 if wilds else 3  # a pair needs a wild card
    for rank in sorted(naturals):
        if len(naturals[rank]) >= fewest and (rank not in have or rules.multi_groups):
            out.extend([Meld((g,)) for g in new_group_shapes(rules, hv, rank)])
    if rules.sequences:
        out.extend([Meld((g,)) for g in new_sequences(naturals)])
    if rules.wild_melds and len(hv.jokers) + len(hv.deuces) >= 3:
        out.extend([Meld((g,)) for g in wild_sets(len(hv.jokers), hv.deuces, 3, WILD_MAX)])
    labs: list[str] | None = None  # worked out once an addition is found
    for i, m in enumerate(melds):
        if m.rank < WILD_RANK and m.rank != THREE and not wilds and m.rank not in naturals:
            continue  # a group takes naturals of its rank or wild cards: none in hand
        shapes = add_shapes(rules, hv, m)
        if shapes:
            labs = labs or labels(melds)
            if not repeats(melds, labs, i):
                label = labs[i]
                name = "" if len(label) == 1 and m.rank < WILD_RANK else label
                out.extend([AddToMeld(m.rank, g, name) for g in shapes])
    out.extend(merge_moves(rules, melds, labs))
    if hv.black_threes and (THREE not in have or rules.black_threes_any_time):
        out.extend([Meld((g,)) for g in black_three_sets(rules, hv)])
    return out


def _cards_of(move: Move) -> tuple[Card, ...]:
    if isinstance(move, Meld):
        groups = move.groups
        return groups[0] if len(groups) == 1 else tuple(c for g in groups for c in g)
    if isinstance(move, Merge):
        return ()
    assert isinstance(move, AddToMeld)
    return move.cards


def _card_count(move: Move) -> int:
    """How many hand cards a meld action lays (``len(_cards_of(move))`` without a copy)."""
    if isinstance(move, AddToMeld):
        return len(move.cards)
    if isinstance(move, Meld):
        return sum(map(len, move.groups))
    return 0


def _keeps_two(rules: RuleSet, move: Move, spare: int) -> bool:
    """The quick case of the hand-size check for a new meld or a merge: the action lays
    at most ``spare`` cards and is not a black-three meld."""
    return _card_count(move) <= spare and not _is_black_meld(rules, move)


def _is_black_meld(rules: RuleSet, move: Move) -> bool:
    """A black-three meld that obliges going out (CL-MELD-3, SA-B3-1)."""
    return (isinstance(move, Meld) and RANK[move.groups[0][0]] == THREE
            and not rules.black_threes_any_time)


def _meld_action_ok(state: State, move: Move, facts: _TurnFacts) -> bool:
    """Hand size (CL-MELD-11, CL-OUT-3, BO-OUT-1), black threes (CL-MELD-3),
    feasibility (CL-MIN-8)."""
    left = len(state.hands[state.turn.seat]) - _card_count(move)
    black = _is_black_meld(state.rules, move)
    if facts.check_minimum and not _minimum_reachable(state, move, facts):
        return False
    # once black threes are laid the turn must end in going out (CL-MELD-3)
    going_out = black or facts.black_staged
    if left >= 2 and not going_out:
        return True
    after = stage(state, move)
    left = max(left, len(after.hands[state.turn.seat]))  # SV-BONUS-2: the bonus cards
    if going_out and not _could_go_out(after):
        return False
    if left < (1 if state.turn.no_discard else 2):
        # one meld per action: a last card may stay if laying it still goes out
        # (the exact going-out search covers group melds only)
        rules = state.rules
        groups_only = rules.going_out and not rules.sequences and not rules.wild_melds
        return out_allowed(after) or (left == 1 and groups_only and can_still_go_out(after))
    return True


def _could_go_out(state: State) -> bool:
    """After a black-three meld: canastas are there and the rest can all be laid off."""
    t = state.turn
    if t.answer == "no" or canastas(state) < state.rules.canastas_to_go_out:
        return False
    if not state.rules.simple_melds:  # SA-B3-1: the black threes are the last cards laid
        return len(state.hands[t.seat]) <= 1 and out_allowed(state)
    return can_still_go_out(state)


def _minimum_reachable(state: State, move: Move, facts: _TurnFacts) -> bool:
    """CL-MIN-8 feasibility: can an unopened side (``facts.check_minimum``) still reach
    its minimum after this move?

    An optimistic bound (wild capacity and pairs completed by wilds), so no move
    that could lead to an opening is hidden; a dead end is left by ``undo``.
    """
    rules = state.rules
    team = state.team_of(state.turn.seat)
    counting = counts_for_opening(rules, move)
    if not counting and not facts.staged_counting:
        return True  # BO-INIT-2: black threes alone start no opening
    need = facts.need
    values = rules.values
    cards = _cards_of(move) if counting else ()
    have = facts.staged + sum(map(values.__getitem__, cards))
    if have >= need:
        return True
    if facts.groups and _untouched_groups(state, move, facts, need - have):
        return True
    left, melds = apply_stage(rules, state.turn.seat, state.hands[state.turn.seat],
                              state.melds[team], move)
    if facts.bonus and any(m.is_canasta for m in melds):
        return False  # SV-BONUS-2: the bonus draw makes the melds final: minimum first
    keep = 1 if state.turn.no_discard else 2
    if not rules.simple_melds:
        bonus = min(rules.first_canasta_bonus, len(state.stock)) if facts.bonus else -1
        return reach_minimum(rules, left, melds, need - have, keep, bonus)
    # the classic meld model: the optimistic bounds first (most staged melds fail or pass
    # there), then the exact searches, so that no listed move leads to a turn that only
    # `undo` can leave (CL-MIN-8, CL-MIN-9)
    concealed = _concealed_possible(state, left, melds)
    if have + _best_more(rules, HandView(rules, left), melds) >= need and reach_minimum(
            rules, left, melds, need - have, keep, -1):
        return True
    return concealed and _reach_out_from(rules, state.turn.seat, left, melds, 0)


def _untouched_groups(state: State, move: Move, facts: _TurnFacts, deficit: int) -> bool:
    """A quick sufficient test before the move is laid: new groups of the hand's
    naturals of ranks the move leaves alone (``facts.groups``) reach ``deficit`` while
    the cards the turn must keep stay, so :func:`reach_minimum` would say "yes".

    Each group is a listed new meld after the move (several groups per rank) and
    completes no canasta while a bonus is due; a move that might complete one itself
    is left to the full check.
    """
    size = _card_count(move)
    if facts.bonus and not (isinstance(move, Meld) and size < 7):
        return False
    room = len(state.hands[state.turn.seat]) - size - (1 if state.turn.no_discard else 2)
    return _groups_reach(facts.groups, deficit, room, {RANK[c] for c in _cards_of(move)})


def _concealed_possible(state: State, left: tuple[Card, ...], melds: tuple[MeldPile, ...]) -> bool:
    """An optimistic test that a concealed going out (CL-MIN-9, which needs no minimum)
    is still possible: the canastas going out needs (CL-OUT-1, CL-P2-3) can each be made, every
    wild card free for each, and at most one natural (the discard) is the only one of
    its rank with no meld to join, since a meld needs two naturals."""
    t = state.turn
    if state.melded[t.seat] or t.drew != "stock" or state.rules.opt("concealed_requires_minimum"):
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


# --- reachability search for the family's meld model ----------------------------------

REACH_BUDGET = 400  # positions searched before the answer is taken as "yes"
OUT_BUDGET = 60  # positions searched for a going out before the answer is taken as "no"
# How often a search's budget ran out and the verdict was the budget's, not the rules':
# tests of the legal lists check it stays 0 (tests/test_dead_ends.py).
BUDGET_RAN_OUT: dict[str, int] = {"reach": 0, "out": 0}


def reach_minimum(rules: RuleSet, hand: tuple[Card, ...], melds: tuple[MeldPile, ...],
                  deficit: int, keep: int, bonus: int) -> bool:
    """CL-MIN-8 for several groups per rank, sequences and wild melds: can meld actions
    lay at least ``deficit`` more points while keeping ``keep`` cards (or going out)?

    Quick sufficient tests first (most answers are a plain "yes"), then
    :func:`_reach_search`. ``bonus`` is the first-canasta bonus still due (-1: none):
    an action completing a canasta must then reach the minimum itself.
    """
    hv = HandView(rules, hand)
    room = len(hand) - keep
    top = _group_cap(rules, bonus >= 0)
    if _groups_reach(_natural_groups(rules, hv, top), deficit, room) or _one_group(
            rules, hv, {m.rank for m in melds}, deficit, room, top):
        return True
    return _reach_search(rules, hand, melds, deficit, keep, bonus)


@lru_cache(maxsize=4096)
def _reach_search(rules: RuleSet, hand: tuple[Card, ...], melds: tuple[MeldPile, ...],
                  deficit: int, keep: int, bonus: int) -> bool:
    """The search of :func:`reach_minimum`: depth first over the real meld actions,
    biggest first, pruned by an optimistic bound and memoised; exact unless the budget
    runs out (then "yes", so no opening is ever hidden).

    Its answer is "a way exists, or the positions without one are more than the
    budget", whatever the order of the search, so a sufficient test may answer first.
    """
    seen: set[tuple[tuple[Card, ...], tuple[MeldPile, ...]]] = set()
    budget = [REACH_BUDGET]
    values = rules.values

    def kept(left: int, after: tuple[MeldPile, ...]) -> bool:
        if left >= keep:
            return True
        return rules.going_out and _enough_canastas(rules, after)

    def rec(hand: tuple[Card, ...], melds: tuple[MeldPile, ...], deficit: int) -> bool:
        if deficit <= 0:
            return True
        if _upper(rules, hand, melds, keep) < deficit or (hand, melds) in seen:
            return False
        seen.add((hand, melds))
        budget[0] -= 1
        if budget[0] < 0:
            BUDGET_RAN_OUT["reach"] += 1
            return True
        scored = []
        for i, m in enumerate(meld_candidates(rules, HandView(rules, hand), melds)):
            if isinstance(m, Merge) or _is_black_meld(rules, m) or not counts_for_opening(rules, m):
                continue
            scored.append((-sum(map(values.__getitem__, _cards_of(m))), i, m))
        for neg, _, m in sorted(scored, key=lambda x: (x[0], x[1])):
            left, after = apply_stage(rules, -1, hand, melds, m)
            if bonus >= 0 and any(x.is_canasta for x in after):
                if -neg >= deficit and kept(len(left) + bonus, after):
                    return True
                continue
            if kept(len(left), after) and rec(left, after, deficit + neg):
                return True
        return False

    return rec(hand, melds, deficit)


def _group_cap(rules: RuleSet, bonus: bool) -> int:
    """The most cards a new group may take: six while the first-canasta bonus is due (no
    canasta then), else the size cap, if any."""
    return 6 if bonus else (rules.group_max or NO_LIMIT)


def _natural_groups(rules: RuleSet, hv: HandView, cap: int) -> NaturalGroups:
    """(points, cards, rank) of the new group each rank of three naturals or more makes
    (``cap`` cards at most), richest first."""
    values = rules.values
    return tuple(sorted(((sum(map(values.__getitem__, cs[:cap])), min(len(cs), cap), rank)
                         for rank, cs in hv.naturals.items() if len(cs) >= 3), reverse=True))


def _groups_reach(groups: NaturalGroups, deficit: int, room: int,
                  skip: set[int] | frozenset[int] = frozenset()) -> bool:
    """A quick sufficient test: ``groups`` (but those of the ranks in ``skip``), richest
    first while they fit, are worth ``deficit`` in at most ``room`` cards."""
    for points, cards, rank in groups:
        if rank not in skip and cards <= room:
            room -= cards
            deficit -= points
            if deficit <= 0:
                return True
    return False


def _one_group(rules: RuleSet, hv: HandView, have: set[int], deficit: int, room: int,
               top: int) -> bool:
    """A quick sufficient test: one new group of a rank, its naturals with the most
    valuable wild cards it may hold (``top`` cards at most), is worth ``deficit`` and
    takes at most ``room`` cards. Each such group is one of the listed new melds."""
    values = rules.values
    best = [0]  # best[w]: the points of the w most valuable wild cards
    for v in sorted((values[c] for c in hv.jokers + hv.deuces), reverse=True):
        best.append(best[-1] + v)
    for rank, cs in hv.naturals.items():
        if len(cs) < 2 or (rank in have and not rules.multi_groups):
            continue
        for k in range(2, min(len(cs), top, room) + 1):
            w = min(wild_cap(rules, k), top - k, room - k, len(best) - 1)
            if k + w >= 3 and sum(map(values.__getitem__, cs[:k])) + best[w] >= deficit:
                return True
    return False


def _enough_canastas(rules: RuleSet, melds: tuple[MeldPile, ...]) -> bool:
    if sum(1 for m in melds if m.is_canasta) < rules.canastas_to_go_out:
        return False
    return not rules.out_needs_sequence or any(m.rank >= SEQ_RANK and m.is_canasta for m in melds)


def _upper(rules: RuleSet, hand: tuple[Card, ...], melds: tuple[MeldPile, ...], keep: int) -> int:
    """An optimistic bound on the points a hand can still meld: every card that fits some
    meld on its own counts, the most valuable first, as many as may leave the hand."""
    usable = _usable(rules, hand, melds)
    most = len(hand) if rules.going_out else len(hand) - keep
    return sum(sorted(usable, reverse=True)[:max(most, 0)])


def _usable(rules: RuleSet, hand: tuple[Card, ...], melds: tuple[MeldPile, ...]) -> list[int]:
    """The values of the cards of a hand that could each join some meld."""
    hv = HandView(rules, hand)
    values = rules.values
    wilds = hv.jokers + hv.deuces
    open_groups = {m.rank for m in melds
                   if m.rank < WILD_RANK and m.rank != THREE and group_room(rules, m) > 0}
    in_sequences: dict[int, set[int]] = {}
    for m in melds:
        if m.rank >= SEQ_RANK and m.size < SEQ_MAX:
            low, high = seq_range(m)
            in_sequences.setdefault(m.rank - SEQ_RANK, set()).update(range(low, high + 1))
    usable: list[int] = []
    pairs = False
    for rank, cs in hv.naturals.items():
        n = len(cs)
        pairs = pairs or n >= 2
        if n >= 3 or (n == 2 and wilds) or rank in open_groups:
            usable.extend(values[c] for c in cs)
        elif rules.sequences:
            usable.extend(values[c] for c in cs if _may_run(hv, c, in_sequences))
    if wilds and (open_groups or pairs or (rules.wild_melds and (
            len(wilds) >= 3 or any(m.rank == WILD_RANK and m.size < WILD_MAX for m in melds)))):
        usable.extend(values[c] for c in wilds)
    if rules.black_threes_any_time and rules.black_threes_count and len(hv.black_threes) >= 3:
        usable.extend(values[c] for c in hv.black_threes)
    return usable


def _may_run(hv: HandView, card: Card, in_sequences: dict[int, set[int]]) -> bool:
    """Could this natural be part of a sequence of three (with hand cards or a sequence)?"""
    suit = SUIT[card]
    have = {RANK[c] for cs in hv.naturals.values() for c in cs if SUIT[c] == suit}
    have |= in_sequences.get(suit, set())
    low = high = RANK[card]
    while low - 1 >= SEQ_MIN_RANK and low - 1 in have:
        low -= 1
    while high + 1 <= ACE and high + 1 in have:
        high += 1
    return high - low >= 2


def _reach_out(state: State) -> bool:
    """CL-OUT-5 for the family: can meld actions from here lay all but at most one card,
    with the canastas going out needs? A bounded search; "no" when the budget runs out
    (the player may then discard)."""
    seat = state.turn.seat
    team = state.team_of(seat)
    need = 0 if state.opened[team] else minimum_of(state, seat) - staged_points(state)
    return _reach_out_from(state.rules, seat, state.hands[seat], state.melds[team], need)


def _reach_out_from(rules: RuleSet, seat: int, hand: tuple[Card, ...],
                    melds: tuple[MeldPile, ...], need: int) -> bool:
    """Can meld actions lay all of ``hand`` but at most one card, worth ``need`` points
    or more, with the canastas going out needs (see :func:`_reach_out`)?"""
    seen: set[tuple[tuple[Card, ...], tuple[MeldPile, ...]]] = set()
    budget = [OUT_BUDGET]
    values = rules.values

    def done(hand: tuple[Card, ...], melds: tuple[MeldPile, ...], pts: int) -> bool:
        return len(hand) <= 1 and pts >= need and _enough_canastas(rules, melds)

    def rec(hand: tuple[Card, ...], melds: tuple[MeldPile, ...], pts: int) -> bool:
        if done(hand, melds, pts):
            return True
        if (hand, melds) in seen:
            return False
        if budget[0] <= 0:
            BUDGET_RAN_OUT["out"] += 1
            return False
        black = len(HandView(rules, hand).black_threes)
        if len(hand) - len(_usable(rules, hand, melds)) - (black if black >= 3 else 0) > 1:
            return False  # more than one card that fits nowhere (a black-three set aside)
        seen.add((hand, melds))
        budget[0] -= 1
        for m in meld_candidates(rules, HandView(rules, hand), melds):
            left, after = apply_stage(rules, seat, hand, melds, m)
            gain = sum(map(values.__getitem__, _cards_of(m))) if counts_for_opening(rules, m) else 0
            if (len(left) < 2 or _is_black_meld(rules, m)) and not done(left, after, pts + gain):
                continue
            if rec(left, after, pts + gain):
                return True
        return False

    return rec(hand, melds, 0)

