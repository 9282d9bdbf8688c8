"""Legal moves of May I?: every move of the awaited seat, canonical, finite and sorted.

``draw`` phase: ``take`` (when a fresh discard lies on the pile) and ``draw``.
``buy_window`` phase: ``buy`` and ``pass`` for the seat whose answer is due.
``meld`` phase: every discard (by card id), then every distinct way of going down with
the contract (not yet down) or every single-card lay-off (down).

Going down is listed in full: each distinct multiset of melds that meets the
contract exactly (card types, so identical cards never give two moves). With the
default exact sizes a set is a sub-multiset of 3 of one rank and a run a window of
4 ranks of one suit, so the list stays in the tens even for bought-up hands; with
``contract_exact_sizes=false`` longer pieces multiply it, but it stays bounded by
the hand (nothing is capped or dropped). Lay-offs are one card per move, so their
number is at most two per run plus the hand's cards of each set rank.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Final, cast

from engine.cards import CARDS, Card
from engine.mayi.checks import (
    barred_discard,
    down_turn_refusal,
    keep_card_refusal,
    layoff_turn_refusal,
    take_refusal,
)
from engine.mayi.melds import (
    contiguous,
    extend,
    make_run,
    make_set,
    meld_key,
    run_ok,
)
from engine.mayi.moves import Buy, GoDown, LayOff, MayIMove, PassBuy
from engine.mayi.rules import BuyPriority, MayIRules
from engine.mayi.state import MayIState, TableFits
from engine.mayi.successor import BUY_WINDOW, DRAW, MELD
from engine.mayi.table import TableMeld
from engine.moves import Discard, Draw, TakePile

_CARDS_OF: Final = attrgetter("cards")
_TAKE: Final = TakePile()
_DRAW: Final = Draw()
_BUY: Final = Buy()
_PASS: Final = PassBuy()


def legal_moves(state: MayIState) -> list[MayIMove]:
    """Every legal move of ``state.awaited`` in a fixed order (cached on the state).

    >>> from engine.game import new_game
    >>> [str(m) for m in legal_moves(new_game("may_i", 4, seed=1))]
    ['draw']
    """
    cached = cast("tuple[MayIMove, ...] | None", state._legal)  # what this function stored
    if cached is not None:
        return list(cached)
    phase = state.phase
    moves: list[MayIMove]
    if phase is DRAW:
        moves = [_TAKE, _DRAW] if take_refusal(state) is None else [_DRAW]
    elif phase is BUY_WINDOW:
        moves = [_BUY, _PASS]
    elif phase is MELD:  # discards, then going down (not yet down) or lay-offs (down)
        moves = discard_moves(state)
        moves += down_moves(state) if down_turn_refusal(state) is None else layoff_moves(state)
    else:
        moves = []
    object.__setattr__(state, "_legal", tuple(moves))  # once, whole (engine.legal)
    return moves


def legal_moves_for(state: MayIState, seat: int) -> list[MayIMove]:
    """The moves ``seat`` may make now. The awaited seat's list, or, with
    ``buy_priority=first_call``, ``buy``/``pass`` for every seat still in the window."""
    if seat == state.awaited and seat >= 0:
        return legal_moves(state)
    if may_answer_window(state, seat):
        return [_BUY, _PASS]
    return []


def may_answer_window(state: MayIState, seat: int) -> bool:
    """Whether ``seat`` may answer the open buy window now (MI-BUY-3)."""
    if state.phase is not BUY_WINDOW or seat not in state.turn.window:
        return False
    return seat == state.turn.window[0] or state.rules.buy_priority is BuyPriority.FIRST_CALL


# --- going down ------------------------------------------------------------------------


def _counts(hand: tuple[Card, ...]) -> list[int]:
    counts = [0] * 52
    for c in hand:
        i: int = c  # a plain int: compiled, a machine index
        counts[i] += 1
    return counts


_SETS: Final[dict[tuple[int, tuple[int, ...], bool], tuple[TableMeld, ...]]] = {}
_RUNS: Final[dict[tuple[int, int, int], TableMeld]] = {}


def _rank_sets(rank: int, have: tuple[int, ...], exact: bool) -> tuple[TableMeld, ...]:
    """The distinct sets of one rank from suit counts ``have`` (cached: 81 shapes a rank)."""
    key = (rank, have, exact)
    found = _SETS.get(key)
    if found is None:
        total = sum(have)
        sizes = (3,) if exact else tuple(range(3, total + 1))
        base = rank * 4
        melds = []
        for a in range(have[0] + 1):
            for b in range(have[1] + 1):
                for c in range(have[2] + 1):
                    for d in range(have[3] + 1):
                        if a + b + c + d in sizes:
                            cards = ((base,) * a + (base + 1,) * b + (base + 2,) * c
                                     + (base + 3,) * d)
                            melds.append(make_set([CARDS[x] for x in cards]))
        found = _SETS[key] = tuple(sorted(melds, key=meld_key))
    return found


def _run(suit: int, start: int, length: int) -> TableMeld:
    key = (suit, start, length)
    found = _RUNS.get(key)
    if found is None:
        found = _RUNS[key] = make_run(suit, start, length)
    return found


def run_candidates(rules: MayIRules, counts: list[int]) -> list[TableMeld]:
    """Every distinct run the hand can lay (4 cards, or 4..13 without exact sizes), in
    canonical order."""
    out: list[TableMeld] = []
    wrap = rules.wrap
    lengths = (4,) if rules.exact else tuple(range(4, 14))
    for suit in range(4):
        present = [counts[r * 4 + suit] > 0 for r in range(13)]
        if sum(present) < 4:
            continue
        for start in range(13):
            for n in lengths:
                if n == 13 and start:
                    continue
                if not all(present[(start + i) % 13] for i in range(n)):
                    break  # longer runs from this start lack the same card
                if run_ok(start, n, wrap):
                    out.append(_run(suit, start, n))
    out.sort(key=meld_key)
    return out


def _rank_groups(hand: tuple[Card, ...]) -> list[tuple[Card, ...]]:
    """The cards of each rank that the (sorted) hand holds three or more of, by rank."""
    groups = []
    start = 0
    rank = -1
    for i, c in enumerate(hand):
        card: int = c  # a plain int: compiled, the shift is a machine one
        if card >> 2 != rank:
            if i - start >= 3:
                groups.append(hand[start:i])
            start, rank = i, card >> 2
    if len(hand) - start >= 3:
        groups.append(hand[start:])
    return groups


def _has_window(rules: MayIRules, hand: tuple[Card, ...]) -> bool:
    """A quick necessary test for a sequence (no allocation of candidates): a four-rank
    window in some suit."""
    masks = [0, 0, 0, 0]
    for c in hand:
        card: int = c
        masks[card & 3] |= 1 << (card >> 2)
    for m in masks:
        if m:
            # ranks 2..A are bits 0..12; the ace also sits below the deuce (bit -1)
            m2 = (m << 1) | (m >> 12) | ((m << 14) if rules.wrap else 0)
            if m2 & (m2 >> 1) & (m2 >> 2) & (m2 >> 3):
                return True
    return False


_PAIRS: Final[dict[tuple[int, tuple[int, ...], bool], tuple[tuple[TableMeld, TableMeld], ...]]] = {}


def _rank_pairs(rank: int, have: tuple[int, ...], exact: bool
                ) -> tuple[tuple[TableMeld, TableMeld], ...]:
    """Two sets of one rank at once (cached; three would need nine cards of a rank)."""
    key = (rank, have, exact)
    found = _PAIRS.get(key)
    if found is None:
        singles = _rank_sets(rank, have, exact)
        pairs = []
        for i, a in enumerate(singles):
            for b in singles[i:]:
                if all((a.cards + b.cards).count(c) <= have[c & 3] for c in set(a.cards + b.cards)):
                    pairs.append((a, b))
        found = _PAIRS[key] = tuple(pairs)
    return found


# the sets of one rank as choices of one set, and its pairs of sets
RankOptions = tuple[tuple[tuple[TableMeld], ...], tuple[tuple[TableMeld, TableMeld], ...]]
_OPTIONS: Final[dict[tuple[tuple[Card, ...], bool], RankOptions]] = {}


def _rank_options(cards: tuple[Card, ...], exact: bool) -> RankOptions:
    """The distinct sets, and pairs of sets, that the cards of one rank make (cached by
    the cards: 81 suit shapes a rank)."""
    key = (cards, exact)
    found = _OPTIONS.get(key)
    if found is None:
        rank = cards[0] >> 2
        have = tuple(cards.count(CARDS[rank * 4 + suit]) for suit in range(4))
        found = _OPTIONS[key] = (tuple((m,) for m in _rank_sets(rank, have, exact)),
                                 _rank_pairs(rank, have, exact) if len(cards) >= 6 else ())
    return found


def _set_choices(options: list[RankOptions], first: int, need: int
                 ) -> list[tuple[TableMeld, ...]]:
    """Every distinct choice of ``need`` sets from the ranks ``options[first:]``, groups in
    canonical order: by the rank of the first set, its singles before its pairs, then
    the choices of the other sets from the later ranks. (Loops rather than
    comprehensions: most lists here are empty or short.)"""
    out: list[tuple[TableMeld, ...]] = []
    if need == 1:
        for ones, _ in options[first:]:
            out += ones
        return out
    # a rank gives at most two sets, so the first one comes early enough for the rest
    for i in range(first, len(options) - (need - 1) // 2):
        ones, pairs = options[i]
        rest = _set_choices(options, i + 1, need - 1)
        if rest:
            for one in ones:
                for others in rest:
                    out.append(one + others)
        if pairs:
            rest = _set_choices(options, i + 1, need - 2) if need > 2 else [()]
            for pair in pairs:
                for others in rest:
                    out.append(pair + others)
    return out


def contract_melds(rules: MayIRules, hand_no: int,
                   hand: tuple[Card, ...]) -> list[tuple[TableMeld, ...]]:
    """Every distinct meld combination that meets the deal's contract from ``hand``
    (MI-CON-1..3), each once, groups in canonical order (sets, then runs)."""
    need_sets, need_runs = rules.contracts[hand_no]
    size = len(hand)
    if 3 * need_sets + 4 * need_runs > size:
        return []
    set_choices: list[tuple[TableMeld, ...]] = [()]
    if need_sets:
        groups = _rank_groups(hand)
        # each group makes a set: count only when there are too few groups (six of a rank)
        if len(groups) < need_sets and sum([len(g) // 3 for g in groups]) < need_sets:
            return []
        if need_runs and not _has_window(rules, hand):
            return []
        exact = rules.exact
        set_choices = _set_choices([_rank_options(g, exact) for g in groups], 0, need_sets)
    elif need_runs and not _has_window(rules, hand):
        return []
    if not need_runs:
        if rules.keep_one:
            return [c for c in set_choices
                    if keep_card_refusal(rules, size - sum(len(m.cards) for m in c)) is None]
        return set_choices
    joinable = rules.joinable
    wrap = rules.wrap
    counts = _counts(hand)
    found: list[tuple[TableMeld, ...]] = []

    def pick(runs: list[TableMeld], first: int, left: int, acc: tuple[TableMeld, ...],
             used: int) -> None:
        if left == 0:
            if keep_card_refusal(rules, size - used) is None:
                found.append(acc)
            return
        for i in range(first, len(runs)):
            run = runs[i]
            cards = run.cards
            if not joinable and any(contiguous(run, m, wrap) for m in acc if m.suit >= 0):
                continue
            for c in cards:
                counts[c] -= 1
            if all(counts[c] >= 0 for c in cards):
                pick(runs, i, left - 1, acc + (run,), used + len(cards))
            for c in cards:
                counts[c] += 1

    for sets in set_choices:
        for m in sets:
            for c in m.cards:
                counts[c] -= 1
        pick(run_candidates(rules, counts), 0, need_runs, sets, sum(len(m.cards) for m in sets))
        for m in sets:
            for c in m.cards:
                counts[c] += 1
    return found


def down_moves(state: MayIState) -> list[GoDown]:
    """Every way of going down (MI-CON-1..3), by construction (:func:`contract_melds`),
    for a seat that may go down (MI-CON-4: the caller checked)."""
    found = contract_melds(state.rules, state.hand_no, state.hands[state.turn.seat])
    if not found:  # the common case: no comprehension to run
        return []
    # candidates are in canonical order and picked in order: the groups already are
    return [GoDown(tuple(map(_CARDS_OF, melds))) for melds in found]


# --- laying off and discarding --------------------------------------------------------------


_LAYOFFS: Final[dict[tuple[int, int, int], LayOff]] = {}


def _layoff(owner: int, index: int, card: int) -> LayOff:
    """A shared LayOff value (building frozen dataclasses is the slow part here)."""
    key = (owner, index, card)
    found = _LAYOFFS.get(key)
    if found is None:
        found = _LAYOFFS[key] = LayOff(owner, index, CARDS[card])
    return found


def _meld_fits(meld: TableMeld, wrap: bool) -> list[int]:
    """The card types ``meld`` takes, by id: any card of a set's rank, the next card at
    either end of a run (none for a full run)."""
    if meld.suit < 0:
        base = meld.rank * 4
        return [base, base + 1, base + 2, base + 3]
    if len(meld.cards) >= 13:
        return []
    lo = ((meld.start - 1) % 13) * 4 + meld.suit
    hi = ((meld.start + len(meld.cards)) % 13) * 4 + meld.suit
    return [c for c in sorted({lo, hi}) if extend(meld, CARDS[c], wrap) is not None]


def table_fits(state: MayIState) -> TableFits:
    """Per card type that the table takes, its lay-offs in listing order (by seat, meld
    and card id). The table changes only when someone goes down or lays off, so this
    is cached on the state and handed down to its successors."""
    melds, rules = state.melds, state.rules
    cached = state._fits
    if cached is not None and cached[0] is melds and cached[1] is rules:
        return cached[2]
    fits: dict[int, tuple[LayOff, ...]] = {}
    for owner, seat_melds in enumerate(melds):
        for i, meld in enumerate(seat_melds):
            for c in _meld_fits(meld, rules.wrap):
                fits[c] = (*fits.get(c, ()), _layoff(owner, i, c))
    object.__setattr__(state, "_fits", (melds, rules, fits))
    return fits


_LISTING: Final = attrgetter("seat", "meld", "card")  # the order of the lay-offs listed


def layoff_moves(state: MayIState) -> list[MayIMove]:
    """The lay-offs of the player in turn (MI-OFF-1..3, MI-OUT-1), by seat, meld and card."""
    if layoff_turn_refusal(state) is not None:
        return []
    hand = state.hands[state.turn.seat]
    if keep_card_refusal(state.rules, len(hand) - 1) is not None:
        return []
    fits = table_fits(state)
    moves: list[MayIMove] = []
    found = 0
    last = -1
    for c in hand:  # the hand is sorted: each type once
        i: int = c
        if i != last:
            last = i
            fit = fits.get(c)
            if fit is not None:
                moves += fit
                found += 1
    if found > 1:
        moves.sort(key=_LISTING)
    return moves


_DISCARDS: Final = tuple(Discard(c) for c in CARDS[:52])


def discard_moves(state: MayIState) -> list[MayIMove]:
    """One discard per card type held, by id, but the barred one (MI-TURN-4:
    :func:`engine.mayi.checks.barred_discard`)."""
    turn = state.turn
    hand = state.hands[turn.seat]
    skip = barred_discard(turn, hand)
    moves: list[MayIMove] = []
    last = -1
    for c in hand:  # the hand is sorted: each type once, in id order
        i: int = c  # a plain int: compiled, the comparisons below are machine ones
        if i != last:
            last = i
            if i != skip:
                moves.append(_DISCARDS[i])
    return moves
