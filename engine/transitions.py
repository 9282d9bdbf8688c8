"""State transitions, unchecked: each takes a state and returns the next one.

Legality is decided in :mod:`engine.legal`; :func:`engine.play.apply` only calls
these after the move has been found legal. Chance (the deal, stock draws and
red-three replacements) happens here, from the stock order held in the state.
"""

from __future__ import annotations

import random
from functools import lru_cache
from typing import TypeVar

from engine.cards import IS_BLACK_THREE, IS_RED_THREE, RANK, THREE, Card
from engine.deck import shuffled_deck
from engine.hands import add_cards, remove_cards
from engine.melds import find_label, first_of_rank, insert_meld, meld_rank, replace_meld
from engine.moves import AddToMeld, Group, Meld, Merge, Move, TakePile, canonical_group
from engine.rules import PermissionYes, RedThreeTiming, RuleSet
from engine.scoring import hand_result
from engine.state import KEEP, MeldPile, Phase, State, Turn, evolve, next_scores, successor

T = TypeVar("T")


def _set(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    return t[:i] + (v,) + t[i + 1:]


def group_rank(group: Group, wild: tuple[bool, ...]) -> int:
    """The rank a meld group belongs to: its naturals' rank (black threes: THREE)."""
    for c in group:
        if not wild[c]:
            return RANK[c]
    return -1


def make_meld(rules: RuleSet, rank: int, cards: tuple[Card, ...], owner: int) -> MeldPile:
    wild = rules.wild
    return MeldPile(rank, canonical_group(cards), owner, sum(1 for c in cards if wild[c]))


def put_meld(melds: tuple[MeldPile, ...], meld: MeldPile) -> tuple[MeldPile, ...]:
    """Insert or replace the meld of its rank, keeping melds ordered by rank."""
    rest = [m for m in melds if m.rank != meld.rank]
    rest.append(meld)
    rest.sort(key=lambda m: m.rank)
    return tuple(rest)


def find_meld(melds: tuple[MeldPile, ...], rank: int) -> MeldPile | None:
    for m in melds:
        if m.rank == rank:
            return m
    return None


# --- the deal -----------------------------------------------------------------


def deal(
    rules: RuleSet,
    seed: int,
    hand_no: int,
    dealer: int,
    scores: tuple[int, ...],
    deck: list[Card] | None = None,
) -> State:
    """Deal a hand (CL-DEAL-1..7): cards one at a time from the dealer's left, then the upcard."""
    active = rules.active_seats(hand_no)
    i = active.index(dealer)
    order = active[i + 1:] + active[: i + 1]
    cards = list(deck) if deck is not None else shuffled_deck(rules, random.Random(f"{seed}:{hand_no}"))
    n = rules.players
    hands: list[list[Card]] = [[] for _ in range(n)]
    dealt = len(order) * rules.hand_size
    for k in range(dealt):
        hands[order[k % len(order)]].append(cards[k])
    stock = list(reversed(cards[dealt:]))  # top card last
    pile = [stock.pop()]
    stops_on_black = rules.upcard_black_three_stops
    while stock and (
        rules.wild[pile[-1]] or IS_RED_THREE[pile[-1]]
        or (IS_BLACK_THREE[pile[-1]] and not stops_on_black)
    ):
        pile.append(stock.pop())  # CL-DEAL-4
    teams = len(rules.layout.teams)
    state = State(
        rules=rules, seed=seed, hand_no=hand_no, dealer=dealer, scores=scores, order=order,
        stock=tuple(stock), pile=tuple(pile), hands=tuple(tuple(sorted(h)) for h in hands),
        melds=((),) * teams, red3=((),) * n, opened=(False,) * teams, melded=(False,) * n,
        pending_red3=tuple(s in order for s in range(n)),  # nobody has had a turn
        asks=(0,) * n, penalties=(0,) * teams, phase=Phase.DRAW, turn=Turn(order[0]),
        side_of=rules.layout.seat_team, upcards=tuple(pile),
    )
    if rules.red3_dealt_timing is RedThreeTiming.AFTER_DEAL:
        for seat in order:
            state = lay_red_threes(state, seat)
            if state.phase is Phase.HAND_OVER or state.phase is Phase.GAME_OVER:
                return state
    return start_turn(state, order[0])


def lay_red_threes(state: State, seat: int) -> State:
    """Lay a seat's dealt red threes and replace each from the stock (CL-R3-1)."""
    hand = state.hands[seat]
    reds = [c for c in hand if IS_RED_THREE[c]]
    state = evolve(state, pending_red3=_set(state.pending_red3, seat, False))
    if not reds:
        return state
    keep = tuple(c for c in hand if not IS_RED_THREE[c])
    state = evolve(
        state,
        hands=_set(state.hands, seat, keep),
        red3=_set(state.red3, seat, state.red3[seat] + tuple(reds)),
    )
    return draw_cards(state, seat, len(reds))


def draw_cards(state: State, seat: int, count: int, turn: object = KEEP,
               phase: object = KEEP) -> State:
    """Take ``count`` cards from the stock, laying and replacing red threes (CL-R3-2).

    A red three that is the last stock card ends the hand (CL-EXH-2), or, under
    ``last_red_three_may_meld``, leaves the player to meld without a discard.
    ``turn`` and ``phase``, when given, are set in the same step.
    """
    stock = state.stock
    left = len(stock)  # the cards still in the stock: its top card is stock[left - 1]
    got: list[Card] = []
    reds: list[Card] = []
    last_red = False
    while count > 0 and left:
        left -= 1
        c = stock[left]
        if IS_RED_THREE[c]:
            reds.append(c)
            last_red = not left
        else:
            got.append(c)
            count -= 1
    state = successor(
        state,
        stock=stock[:left],
        hands=_set(state.hands, seat, add_cards(state.hands[seat], got)),
        red3=_set(state.red3, seat, state.red3[seat] + tuple(reds)),
        turn=turn, phase=phase,
    )
    if state.rules.last_red_three_plays_on:
        return _short_of_cards(state, seat)
    if last_red:
        if state.rules.last_red_three_may_meld and state.turn.seat == seat:
            return evolve(state, turn=evolve(state.turn, no_discard=True))
        return finish_hand(state, -1, False)
    return state


def _short_of_cards(state: State, seat: int) -> State:
    """BO-END-2: with the stock gone and under two cards after a draw, the player
    cannot keep a card after a discard; he may meld, then the hand ends (``end``)."""
    if (not state.stock and state.phase is Phase.MELD and state.turn.seat == seat
            and len(state.hands[seat]) < 2):
        return evolve(state, turn=evolve(state.turn, no_discard=True))
    return state


@lru_cache(maxsize=16)
def _new_turn(seat: int) -> Turn:
    """A seat's fresh turn record; an immutable value, so one per seat is shared (building
    a twelve-field frozen dataclass every turn is not free)."""
    return Turn(seat)


def start_turn(state: State, seat: int) -> State:
    """Begin a seat's turn: its dealt red threes first, then DRAW or DRAW_EXHAUSTED."""
    return _turn_begun(successor(state, turn=_new_turn(seat), phase=Phase.DRAW), seat)


def _turn_begun(state: State, seat: int) -> State:
    """:func:`start_turn` once the seat's fresh turn is set."""
    if state.pending_red3[seat]:
        state = lay_red_threes(state, seat)
        if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
            return state
        if state.turn.no_discard:  # the replacement emptied the stock on a red three
            return finish_hand(state, -1, False)
    if not state.stock:
        return evolve(state, phase=Phase.DRAW_EXHAUSTED)
    return state


# --- the draw ----------------------------------------------------------------


def draw_stock(state: State) -> State:
    return draw_cards(state, state.turn.seat, state.rules.draw_count,
                      turn=evolve(state.turn, drew="stock"), phase=Phase.MELD)


def take_pile(state: State, move: TakePile) -> State:
    """Meld the top card with the shown cards, lay the extras, take the rest (CL-PILE-8)."""
    rules = state.rules
    seat = state.turn.seat
    team = state.team_of(seat)
    top = state.pile[-1]
    rank = RANK[top]
    melds = state.melds[team]
    hand = remove_cards(state.hands[seat], move.cards + tuple(c for g in move.extras for c in g))
    assert hand is not None
    if move.target:
        at = find_label(melds, move.target)
    else:
        at = -1 if rules.multi_groups else first_of_rank(melds, rank)
    created: list[int] = []
    laid_off = False
    if at >= 0:
        existing = melds[at]
        melds = replace_meld(melds, at, make_meld(
            rules, existing.rank, existing.cards + move.cards + (top,), existing.owner))
        laid_off = existing.owner != seat
    else:
        melds = insert_meld(melds, make_meld(rules, rank, move.cards + (top,), seat))
        created.append(rank)
    for g in move.extras:
        r = meld_rank(rules, g)
        melds = insert_meld(melds, make_meld(rules, r, g, seat))
        created.append(r)
    if rules.cutthroat and state.lone < 0:  # CL-P3-2: the first taker plays alone
        state = form_pair(state, seat)
    rest = state.pile[:-1]
    reds = tuple(c for c in rest if IS_RED_THREE[c])  # CL-R3-3: no replacement
    hand = add_cards(hand, (c for c in rest if not IS_RED_THREE[c]))
    turn = evolve(state.turn, drew="pile", created=tuple(created), laid_off_on_partner=laid_off,
                  last_chance=rules.after_stock_single_chance and not state.stock)
    after = successor(
        state, pile=(), phase=Phase.MELD, turn=turn,
        hands=_set(state.hands, seat, hand),
        melds=_set(state.melds, team, melds),
        red3=_set(state.red3, seat, state.red3[seat] + reds),
        opened=_set(state.opened, team, True),
    )
    return first_canasta_bonus(state, after)


def bonus_due(state: State, team: int) -> bool:
    """SV-BONUS-1/3: the first-canasta bonus is still to be given (no canasta yet at the
    table, or on this side with ``bonus_per_side``)."""
    if not state.rules.first_canasta_bonus:
        return False
    scope = (team,) if state.rules.bonus_per_side else range(len(state.melds))
    return not any(m.is_canasta for t in scope for m in state.melds[t])


def first_canasta_bonus(before: State, after: State) -> State:
    """SV-BONUS-1/2/4/5: the first canasta of the deal draws the top stock cards.

    The draw cannot be taken back, so the turn's melds so far become final: the
    side counts as opened (an unopened side may complete the canasta only once its
    minimum is met, see :func:`engine.turn.meld_actions`).
    """
    seat = after.turn.seat
    team = after.team_of(seat)
    if not bonus_due(before, team) or not any(m.is_canasta for m in after.melds[team]):
        return after
    locked = evolve(
        after, turn=evolve(after.turn, staged=(), base_hand=(), base_melds=()),
        opened=_set(after.opened, team, True), melded=_set(after.melded, seat, True))
    return draw_cards(locked, seat, after.rules.first_canasta_bonus)


# --- melding -----------------------------------------------------------------


def apply_stage(
    rules: RuleSet, seat: int, hand: tuple[Card, ...], melds: tuple[MeldPile, ...], move: Move
) -> tuple[tuple[Card, ...], tuple[MeldPile, ...]]:
    """Lay a Meld, AddToMeld or Merge on a hand and a team's melds."""
    if isinstance(move, Meld):
        for g in move.groups:
            melds = insert_meld(melds, make_meld(rules, meld_rank(rules, g), g, seat))
        cards: tuple[Card, ...] = tuple(c for g in move.groups for c in g)
    elif isinstance(move, Merge):
        i, j = find_label(melds, move.first), find_label(melds, move.second)
        assert i >= 0 and j >= 0 and i != j
        a, b = melds[i], melds[j]
        melds = replace_meld(melds, i, make_meld(rules, a.rank, a.cards + b.cards, a.owner))
        return hand, melds[:j] + melds[j + 1:]
    else:
        assert isinstance(move, AddToMeld)
        at = find_label(melds, move.label) if move.label else first_of_rank(melds, move.rank)
        assert at >= 0
        m = melds[at]
        melds = replace_meld(melds, at, make_meld(rules, m.rank, m.cards + move.cards, m.owner))
        cards = move.cards
    left = remove_cards(hand, cards)
    assert left is not None
    return left, melds


def stage(state: State, move: Move) -> State:
    seat = state.turn.seat
    team = state.team_of(seat)
    t = state.turn
    if not t.staged:  # the first staged action records what undo returns to
        t = evolve(t, base_hand=state.hands[seat], base_melds=state.melds[team])
    hand, melds = apply_stage(state.rules, seat, state.hands[seat], state.melds[team], move)
    after = successor(
        state, turn=evolve(t, staged=t.staged + (move,)),
        hands=_set(state.hands, seat, hand),
        melds=_set(state.melds, team, melds),
    )
    return first_canasta_bonus(state, after)


def undo(state: State) -> State:
    """Take back the last staged meld action by replaying the others over the base."""
    t = state.turn
    seat, team = t.seat, state.team_of(t.seat)
    hand, melds = t.base_hand, t.base_melds
    for m in t.staged[:-1]:
        hand, melds = apply_stage(state.rules, seat, hand, melds, m)
    turn = evolve(t, staged=t.staged[:-1]) if len(t.staged) > 1 else evolve(
        t, staged=(), base_hand=(), base_melds=())
    return successor(
        state, turn=turn,
        hands=_set(state.hands, seat, hand),
        melds=_set(state.melds, team, melds),
    )


def counts_for_opening(rules: RuleSet, move: Move) -> bool:
    """Whether a meld action counts toward (and makes) the initial meld (BO-INIT-2)."""
    if isinstance(move, Merge):
        return False
    if rules.black_threes_count:
        return True
    if isinstance(move, Meld):
        return not all(IS_BLACK_THREE[c] for g in move.groups for c in g)
    return not (isinstance(move, AddToMeld) and move.rank == THREE)


def staged_points(state: State) -> int:
    """Card points laid this turn by meld actions (the initial-meld count, CL-MIN-3)."""
    rules = state.rules
    values = rules.values
    total = 0
    for m in state.turn.staged:
        if not counts_for_opening(rules, m):
            continue
        cards = [c for g in m.groups for c in g] if isinstance(m, Meld) else list(getattr(m, "cards", ()))
        total += sum(values[c] for c in cards)
    return total


def created_ranks(state: State) -> set[int]:
    """Ranks of the melds the active seat created this turn (take and staged)."""
    ranks = set(state.turn.created)
    for m in state.turn.staged:
        if isinstance(m, Meld):
            ranks.update(meld_rank(state.rules, g) for g in m.groups)
    return ranks


def is_concealed(state: State) -> bool:
    """Would emptying the hand now be a concealed going out (CL-OUT-10)?"""
    t = state.turn
    rules = state.rules
    if state.melded[t.seat] or not t.drew:
        return False
    if t.drew == "pile" and rules.concealed_forbid_pile:
        return False
    created = created_ranks(state)
    if rules.concealed_forbid_layoffs and (t.laid_off_on_partner or any(
        isinstance(m, AddToMeld) and m.rank not in created for m in t.staged
    )):
        return False
    team_melds = state.melds[state.team_of(t.seat)]
    return any(m.rank in created and m.is_canasta for m in team_melds)


# --- ending the turn and the hand ------------------------------------------------


def _commit(state: State, card: Card | None, turn: object = KEEP,
            phase: object = KEEP) -> State:
    """The turn's end: its melds become final, ``card`` (if any) goes from the hand to the
    pile, in one successor; with ``turn`` and ``phase`` the next turn begins in it too."""
    t = state.turn
    seat = t.seat
    team = state.team_of(seat)
    laid = bool(t.staged) or t.drew == "pile"
    opens = t.drew == "pile" or any(counts_for_opening(state.rules, m) for m in t.staged)
    hands, pile = state.hands, state.pile
    if card is not None:
        hand = remove_cards(hands[seat], (card,))
        assert hand is not None
        hands, pile = _set(hands, seat, hand), pile + (card,)
    penalties = state.penalties
    if (t.answer == "yes" and state.rules.penalties and hands[seat]
            and state.rules.permission_yes is not PermissionYes.ADVISORY):
        penalties = _set(penalties, team, penalties[team] + 100)  # CL-PEN-2
    return successor(
        state, hands=hands, pile=pile, penalties=penalties,
        turn=evolve(t, staged=(), base_hand=(), base_melds=()) if turn is KEEP else turn,
        phase=phase,
        opened=_set(state.opened, team, state.opened[team] or opens),
        melded=_set(state.melded, seat, state.melded[seat] or laid),
    )


def discard(state: State, card: Card) -> State:
    seat = state.turn.seat
    if not state.stock and (state.rules.stock_empty_ends_hand or state.rules.cutthroat
                            or state.turn.last_chance):
        return finish_hand(_commit(state, card), -1, False)
    order = state.order
    nxt = order[(order.index(seat) + 1) % len(order)]
    # the turn's end and the next turn's start in one successor (start_turn's first step)
    return _turn_begun(_commit(state, card, _new_turn(nxt), Phase.DRAW), nxt)


def form_pair(state: State, lone: int) -> State:
    """Cutthroat (CL-P3-2): the two others become partners and combine their melds."""
    rules = state.rules
    a, b = sorted(s for s in state.order if s != lone)
    sa, sb = state.side_of[a], state.side_of[b]
    merged = state.melds[sa]
    for m in state.melds[sb]:
        ex = find_meld(merged, m.rank)
        merged = put_meld(merged, m if ex is None else
                          make_meld(rules, m.rank, ex.cards + m.cards, ex.owner))
    return evolve(
        state, lone=lone,
        melds=_set(_set(state.melds, sa, merged), sb, ()),
        opened=_set(_set(state.opened, sa, state.opened[sa] or state.opened[sb]), sb, False),
        penalties=_set(_set(state.penalties, sa, state.penalties[sa] + state.penalties[sb]),
                       sb, 0),
        side_of=tuple(sa if s in (a, b) else state.side_of[s] for s in range(rules.players)),
    )


def go_out(state: State, card: Card | None) -> State:
    seat = state.turn.seat
    concealed = is_concealed(state)
    state = _commit(state, card)
    if state.rules.cutthroat and state.lone < 0:  # going out first makes the lone hand
        state = form_pair(state, seat)
    return finish_hand(state, seat, concealed)


def finish_hand(state: State, went_out: int, concealed: bool) -> State:
    """Score the hand and move to HAND_OVER, or GAME_OVER when the game is decided."""
    result = hand_result(state, went_out, concealed)
    over = result.winner >= 0 or result.draw
    return evolve(state, result=result, phase=Phase.GAME_OVER if over else Phase.HAND_OVER)


def ask(state: State) -> State:
    t = state.turn
    return evolve(
        state, phase=Phase.PERMISSION, turn=evolve(t, asked=True, asked_in=state.phase),
        asks=_set(state.asks, t.seat, state.asks[t.seat] + 1),
    )


def answer(state: State, yes: bool) -> State:
    t = state.turn
    return successor(state, phase=t.asked_in, turn=evolve(t, answer="yes" if yes else "no"))


def next_deal(state: State, deck: list[Card] | None = None) -> State:
    """The next hand of the match: dealer one seat on among that hand's players (CL-GAME-6)."""
    rules = state.rules
    hand_no = state.hand_no + 1
    active = rules.active_seats(hand_no)
    dealer = state.dealer
    for k in range(1, rules.players + 1):
        cand = (state.dealer + k) % rules.players
        if cand in active:
            dealer = cand
            break
    return deal(rules, state.seed, hand_no, dealer, next_scores(state), deck)
