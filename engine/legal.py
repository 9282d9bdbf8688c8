"""The legal-move generator: every legal move of the awaited seat, canonical and sorted.

Melds are listed by *shape* (how many naturals, jokers and deuces), with the
concrete copies picked canonically (lowest card ids), so identical cards never
make two moves. The list is the single source of truth: :func:`engine.play.apply`
accepts exactly the moves listed here (after canonicalising the cards a client
chose), so "listed moves apply" and "unlisted moves are refused" hold by
construction.
"""

from __future__ import annotations

from collections.abc import Iterator

from engine.cards import IS_BLACK_THREE, IS_RED_THREE, RANK, THREE, Card
from engine.hands import HandView, remove_cards
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
    Move,
    TakePile,
    Undo,
    canonical_group,
)
from engine.rules import RuleSet
from engine.state import MeldPile, Phase, State, minimum_of, partner_of
from engine.transitions import (
    apply_stage,
    find_meld,
    is_concealed,
    stage,
    staged_points,
    take_pile,
)


def wild_cap(rules: RuleSet, naturals: int) -> int:
    """Most wild cards a meld with this many naturals may hold (CL-MELD-1)."""
    if rules.opt("wilds_not_exceed_naturals"):
        return min(3, naturals)
    return 3


def legal_moves(state: State) -> list[Move]:
    """Every legal move of ``state.awaited``, in a deterministic order, without duplicates.

    Pure and cached on the (immutable) state.
    """
    if state._legal:
        return list(state._legal)
    phase = state.phase
    if phase is Phase.DRAW or phase is Phase.DRAW_EXHAUSTED:
        moves = _draw_moves(state)
    elif phase is Phase.MELD:
        moves = _meld_phase_moves(state)
    elif phase is Phase.PERMISSION:
        moves = [Answer(True), Answer(False)]
    else:
        moves = []
    state._legal.extend(moves)
    return moves


def is_legal(state: State, move: Move) -> bool:
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
    if not takes:
        return False
    team = state.team_of(state.turn.seat)
    if not state.opened[team] or pile_frozen_for_both(state):
        return False
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
    for comp in take_companions(state):
        points = values[top] + sum(values[c] for c in comp)
        if points >= need:
            candidates = [TakePile(comp)]
        else:
            rest = remove_cards(hand, comp)
            assert rest is not None
            candidates = [TakePile(comp, ex) for ex in
                          opening_sets(rules, rest, need - points, exclude=RANK[top])]
        for move in candidates:
            if _take_can_end_turn(state, move):
                moves.append(move)
    return moves


def _take_can_end_turn(state: State, move: TakePile) -> bool:
    used = len(move.cards) + sum(len(g) for g in move.extras)
    gained = sum(1 for c in state.pile[:-1] if not IS_RED_THREE[c])
    if len(state.hands[state.turn.seat]) - used + gained >= 2:
        return True
    return out_allowed(take_pile(state, move))


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

    def rec(i: int, hand_now: tuple[Card, ...], chosen: tuple[Group, ...],
            pts: tuple[int, ...], total: int) -> Iterator[tuple[Group, ...]]:
        if total >= deficit:
            if all(total - p < deficit for p in pts):
                yield chosen
            return
        if i == len(ranks):
            return
        yield from rec(i + 1, hand_now, chosen, pts, total)
        view = HandView(rules, hand_now)
        for g in new_group_shapes(rules, view, ranks[i]):
            left = remove_cards(hand_now, g)
            assert left is not None
            p = sum(values[c] for c in g)
            yield from rec(i + 1, left, chosen + (g,), pts + (p,), total + p)

    yield from rec(0, hand, (), (), 0)


def new_group_shapes(rules: RuleSet, hv: HandView, rank: int) -> list[Group]:
    """Canonical new melds of a natural rank that the hand can make (CL-MELD-1/2)."""
    naturals = hv.naturals.get(rank, [])
    out: list[Group] = []
    for k in range(2, len(naturals) + 1):
        for w in hv.wild_picks(wild_cap(rules, k)):
            if k + len(w) >= 3:
                out.append(canonical_group(tuple(naturals[:k]) + w))
    return out


def add_shapes(rules: RuleSet, hv: HandView, meld: MeldPile) -> list[Group]:
    """Canonical card sets that can join an existing meld (CL-MELD-6, CL-CAN-3)."""
    if meld.rank == THREE:
        room = int(rules.opt("black_three_meld_max")) - meld.size
        return [tuple(hv.black_threes[:k]) for k in range(1, min(room, len(hv.black_threes)) + 1)]
    naturals = hv.naturals.get(meld.rank, [])
    closed = meld.is_natural_canasta and bool(rules.opt("natural_canasta_closed_to_wilds"))
    out: list[Group] = []
    for k in range(len(naturals) + 1):
        cap = 0 if closed else wild_cap(rules, meld.naturals + k) - meld.wilds
        for w in hv.wild_picks(max(cap, 0)):
            if k + len(w) >= 1:
                out.append(canonical_group(tuple(naturals[:k]) + w))
    return out


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
    if state.opened[team] or not state.turn.staged:
        return True
    return staged_points(state) >= minimum_of(state, state.turn.seat)


def canastas(state: State) -> int:
    return sum(1 for m in state.melds[state.team_of(state.turn.seat)] if m.is_canasta)


def out_allowed(state: State) -> bool:
    """May the active seat end the turn with an empty hand now (CL-OUT-1/6, CL-MIN-9)?"""
    t = state.turn
    if t.answer == "no" or canastas(state) < state.rules.canastas_to_go_out:
        return False
    if minimum_met(state):
        return True
    return (t.drew == "stock" and not state.rules.opt("concealed_requires_minimum")
            and is_concealed(state))


def _black_meld_staged(state: State) -> bool:
    return any(isinstance(m, Meld) and RANK[m.groups[0][0]] == THREE for m in state.turn.staged)


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
    points = staged_points(state) + sum(values[c] for c in rest)
    exempt = (state.turn.drew == "stock" and not state.melded[state.turn.seat]
              and not rules.opt("concealed_requires_minimum"))
    return exempt or points >= minimum_of(state, state.turn.seat)


def _meld_phase_moves(state: State) -> list[Move]:
    moves: list[Move] = list(meld_actions(state))
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
        seen: set[Card] = set()
        for c in hand:
            if c not in seen:
                seen.add(c)
                moves.append(Discard(c))
    return moves


def meld_actions(state: State) -> list[Move]:
    """New melds and additions the active seat may lay now, each checked in full."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    hand = state.hands[seat]
    hv = HandView(rules, hand)
    melds = state.melds[team]
    have = {m.rank for m in melds}
    batch = rules.opt("initial_meld_validation") == "batch"
    unopened = not state.opened[team] and not state.turn.staged
    candidates: list[Move] = []
    if batch and unopened:
        need = minimum_of(state, state.turn.seat)
        candidates.extend(Meld(gs) for gs in opening_sets(rules, hand, need))
    else:
        for rank in sorted(hv.naturals):
            if rank not in have:
                candidates.extend(Meld((g,)) for g in new_group_shapes(rules, hv, rank))
        for m in melds:
            candidates.extend(AddToMeld(m.rank, g) for g in add_shapes(rules, hv, m))
        if THREE not in have:
            mx = int(rules.opt("black_three_meld_max"))
            candidates.extend(Meld((tuple(hv.black_threes[:k]),))
                              for k in range(3, min(mx, len(hv.black_threes)) + 1))
    return [m for m in candidates if _meld_action_ok(state, m)]


def _cards_of(move: Move) -> tuple[Card, ...]:
    if isinstance(move, Meld):
        return tuple(c for g in move.groups for c in g)
    assert isinstance(move, AddToMeld)
    return move.cards


def _meld_action_ok(state: State, move: Move) -> bool:
    """Hand size (CL-MELD-11, CL-OUT-3), black threes (CL-MELD-3), feasibility (CL-MIN-8)."""
    left = len(state.hands[state.turn.seat]) - len(_cards_of(move))
    black = isinstance(move, Meld) and RANK[move.groups[0][0]] == THREE
    if not _minimum_reachable(state, move):
        return False
    if left >= 2 and not black:
        return True
    after = stage(state, move)
    if black and not _could_go_out(after):
        return False
    if left < (1 if state.turn.no_discard else 2):
        return out_allowed(after)
    return True


def _could_go_out(state: State) -> bool:
    """After a black-three meld: canastas are there and the rest can all be laid off."""
    t = state.turn
    if t.answer == "no" or canastas(state) < state.rules.canastas_to_go_out:
        return False
    return can_still_go_out(state)


def _minimum_reachable(state: State, move: Move) -> bool:
    """CL-MIN-8 feasibility: can an unopened side still reach its minimum after this move?

    An optimistic bound (wild capacity and pairs completed by wilds), so no move
    that could lead to an opening is hidden; a dead end is left by ``undo``.
    """
    rules = state.rules
    team = state.team_of(state.turn.seat)
    if state.opened[team] or rules.opt("initial_meld_validation") == "batch":
        return True
    need = minimum_of(state, state.turn.seat)
    values = rules.values
    cards = _cards_of(move)
    have = staged_points(state) + sum(values[c] for c in cards)
    if have >= need:
        return True
    left, melds = apply_stage(rules, state.turn.seat, state.hands[state.turn.seat],
                              state.melds[team], move)
    if _concealed_possible(state, left, melds):
        return True
    return have + _best_more(rules, HandView(rules, left), melds) >= need


def _concealed_possible(state: State, left: tuple[Card, ...], melds: tuple[MeldPile, ...]) -> bool:
    t = state.turn
    if state.melded[t.seat] or t.drew != "stock" or state.rules.opt("concealed_requires_minimum"):
        return False
    hv = HandView(state.rules, left)
    wilds = len(hv.jokers) + len(hv.deuces)
    for m in melds:
        if m.size + len(hv.naturals.get(m.rank, ())) + min(wilds, max(0, 3 - m.wilds)) >= 7:
            return True
    return any(len(cs) >= 4 and len(cs) + min(3, wilds) >= 7 for cs in hv.naturals.values())


def _best_more(rules: RuleSet, hv: HandView, melds: tuple[MeldPile, ...]) -> int:
    values = rules.values
    ranks = {m.rank for m in melds}
    cap = sum(max(0, 3 - m.wilds) for m in melds if m.rank != THREE)
    points = 0
    pairs: list[int] = []
    for rank, cs in hv.naturals.items():
        p = sum(values[c] for c in cs)
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

