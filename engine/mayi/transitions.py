"""State changes of May I?: the deal, draws and reshuffles, the buy window, going down,
laying off, discarding and the end of a deal. Every function returns a new state
and trusts its move (legality is checked before, in :mod:`engine.mayi.play`).
"""

from __future__ import annotations

import random
from bisect import insort
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, TypeVar

from engine.cards import CARDS, Card
from engine.errors import BadInput, Reason
from engine.hands import remove_cards
from engine.mayi.melds import classify, contiguous, extend, run_ok
from engine.mayi.moves import GoDown, LayOff
from engine.mayi.rules import MayIRules
from engine.mayi.scoring import deal_result, game_over
from engine.mayi.state import MayIState, MayITurn
from engine.mayi.successor import BUY_WINDOW, DRAW, MELD, evolve, successor
from engine.mayi.table import TableMeld
from engine.state import Phase

T = TypeVar("T")

PACKS: Final = 2


def _set(t: tuple[T, ...], i: int, v: T) -> tuple[T, ...]:
    items = list(t)
    items[i] = v
    return tuple(items)


Hands = tuple[tuple[Card, ...], ...]


def _plus(hands: Hands, seat: int, card: Card) -> Hands:
    """The hands with ``card`` added to the (sorted) hand of ``seat``.

    Through lists, which compiled are direct calls: slicing and joining tuples made
    twice as many objects (callgrind: about 1.5 % of a random deal's instructions).
    """
    hand = list(hands[seat])
    insort(hand, card)
    out = list(hands)
    out[seat] = tuple(hand)
    return tuple(out)


def _minus(hands: Hands, seat: int, card: Card) -> Hands:
    """The hands without one ``card`` of the hand of ``seat`` (the caller knows it is there)."""
    hand = list(hands[seat])
    hand.remove(card)
    out = list(hands)
    out[seat] = tuple(hand)
    return tuple(out)


# _PASSED[n][seat]: the turn of the left-hand neighbour of ``seat`` (play passes to the
# left) once ``seat`` has discarded, at an n-player table
_PASSED: Final = {n: tuple(MayITurn((seat + 1) % n, "", True, seat) for seat in range(n))
           for n in range(3, 6)}
# _ROTATION[n][seat]: the other seats of an n-player table from the left of ``seat``
_ROTATION: Final = {n: tuple(tuple((seat + k) % n for k in range(1, n)) for seat in range(n))
             for n in range(3, 6)}


# A shared turn value per field values, for the turns built on every move: building a
# frozen dataclass is slow, and the C cache looks its (positional) arguments up directly.
_turn: Final = lru_cache(maxsize=None)(MayITurn)


def composition() -> Counter[Card]:
    """The 104 cards of the game: two of each of the 52 types (MI-COMP-1)."""
    return Counter({c: PACKS for c in CARDS[:52]})


def check_deck(deck: Sequence[Card]) -> None:
    """:raises BadInput: ``BAD_DECK`` unless the deck is exactly the game's 104 cards."""
    if Counter(deck) != composition():
        raise BadInput(Reason.BAD_DECK, "a stacked deck must hold exactly the 104 cards "
                                        "of two packs without jokers")


def shuffled_deck(seed: int, hand_no: int) -> list[Card]:
    """The deal's deck, index 0 on top: seeded with ``f"{seed}:{hand_no}"`` as every game."""
    deck = sorted(composition().elements())
    random.Random(f"{seed}:{hand_no}").shuffle(deck)
    return deck


# --- the deal -------------------------------------------------------------------


def deal(rules: MayIRules, seed: int, hand_no: int, dealer: int, scores: tuple[int, ...],
         deck: Sequence[Card] | None = None) -> MayIState:
    """Deal a hand: cards one at a time from the dealer's left (MI-DEAL-2), no upcard
    unless ``turn_upcard``; the dealer's left plays first."""
    n = rules.players
    order = tuple((dealer + 1 + k) % n for k in range(n))
    cards = list(deck) if deck is not None else shuffled_deck(seed, hand_no)
    size = rules.hand_sizes[hand_no]
    hands: list[list[Card]] = [[] for _ in range(n)]
    for k in range(n * size):
        hands[order[k % n]].append(cards[k])
    stock = list(reversed(cards[n * size:]))  # top card last
    pile: list[Card] = []
    upcard = rules.turn_upcard
    if upcard:
        pile.append(stock.pop())
    return MayIState(
        rules=rules, seed=seed, hand_no=hand_no, dealer=dealer, scores=scores, order=order,
        stock=tuple(stock), pile=tuple(pile), hands=tuple(tuple(sorted(h)) for h in hands),
        melds=((),) * n, down=(False,) * n, buys=(0,) * n, phase=Phase.DRAW,
        turn=MayITurn(order[0], "", upcard, -1), upcards=tuple(pile),
    )


def next_deal(state: MayIState, deck: Sequence[Card] | None = None) -> MayIState:
    """The next deal: the deal passes to the left (MI-DEAL-1), totals carried over."""
    assert state.result is not None
    scores = tuple(r.cumulative for r in state.result.sides)
    dealer = (state.dealer + 1) % state.rules.players
    return deal(state.rules, state.seed, state.hand_no + 1, dealer, scores, deck)


# --- drawing and the stock -------------------------------------------------------


def supply(state: MayIState, taking_top: bool = False) -> int:
    """Cards the stock can still give, counting a reshuffle of the pile (MI-STOCK-1).

    :param taking_top: the pile's top card is about to be bought (it is not reshuffled,
        and neither is the card that becomes the top).
    """
    pile = len(state.pile) - (1 if taking_top else 0)
    return len(state.stock) + max(0, pile - 1)


def draw_cards(state: MayIState, seat: int, count: int) -> MayIState:
    """``seat`` takes ``count`` cards from the stock. An empty stock is first rebuilt from
    the pile without its top card, shuffled (MI-STOCK-1). The caller checked :func:`supply`."""
    if count <= len(state.stock):  # the common case: no reshuffle
        got = state.stock[len(state.stock) - count:]
        hand = tuple(sorted(state.hands[seat] + got))
        return evolve(state, stock=state.stock[:len(state.stock) - count],
                      hands=_set(state.hands, seat, hand))
    stock = list(state.stock)
    pile = state.pile
    reshuffles = state.reshuffles
    drawn: list[Card] = []
    for _ in range(count):
        if not stock:
            under = list(pile[:-1])
            random.Random(f"{state.seed}:{state.hand_no}:reshuffle:{reshuffles}").shuffle(under)
            stock, pile = under, pile[-1:]
            reshuffles += 1
        drawn.append(stock.pop())
    hand = tuple(sorted(state.hands[seat] + tuple(drawn)))
    return evolve(state, stock=tuple(stock), pile=pile, reshuffles=reshuffles,
                  hands=_set(state.hands, seat, hand))


def turn_draw(state: MayIState) -> MayIState:
    """The player in turn draws the top stock card; with none to be had even after a
    reshuffle the deal ends and everybody scores his hand (MI-STOCK-2)."""
    t = state.turn
    seat = t.seat
    turn = _turn(seat, "stock", False, t.discarder)
    stock = state.stock
    if stock:  # the common case: one copy
        return successor(state, stock=stock[:-1], hands=_plus(state.hands, seat, stock[-1]),
                         phase=MELD, turn=turn)
    if supply(state) == 0:
        return end_deal(evolve(state, turn=MayITurn(seat, "", False, t.discarder)), -1)
    state = draw_cards(state, seat, 1)
    return evolve(state, phase=Phase.MELD, turn=turn)


def take(state: MayIState) -> MayIState:
    """The player in turn takes the fresh discard as his draw (MI-BUY-1, MI-TURN-2)."""
    t = state.turn
    pile = state.pile
    card = pile[-1]
    return successor(state, pile=pile[:-1], hands=_plus(state.hands, t.seat, card), phase=MELD,
                     turn=_turn(t.seat, "pile", False, t.discarder, (), card))


# --- buying ------------------------------------------------------------------------


def buy_refusal(state: MayIState, seat: int) -> tuple[str, str] | None:
    """Why ``seat`` may not buy the fresh discard now: (rule ID, message), or ``None``.

    Only the eligibility of the seat itself (MI-BUY-1/5/6/7); the window and the
    priority are the caller's business.
    """
    t = state.turn
    rules = state.rules
    if not 0 <= seat < rules.players:
        return "MI-BUY-1", f"there is no seat {seat}"
    if seat == t.seat:
        return "MI-BUY-1", "the player in turn takes the discard as his draw, he does not buy it"
    if seat == t.discarder:
        return "MI-BUY-1", "nobody may buy his own discard"
    if state.buys[seat] >= rules.buy_cap:
        return "MI-BUY-5", f"seat {seat} has used his {rules.buy_cap} buys of this deal"
    if state.down[seat] and not rules.down_may_buy:
        return "MI-BUY-6", "a player who has gone down may not buy"
    if supply(state, taking_top=True) < rules.penalty:
        return "MI-BUY-7", "no penalty card can be supplied"
    return None


def buyers(state: MayIState) -> tuple[int, ...]:
    """The eligible buyers of the fresh discard in priority order: rotation order from
    the left of the player in turn (MI-BUY-3), without him and the discarder."""
    rules = state.rules
    penalty = rules.penalty
    if len(state.stock) < penalty and supply(state, taking_top=True) < penalty:
        return ()  # MI-BUY-7
    t = state.turn
    discarder = t.discarder
    cap = rules.buy_cap
    buys = state.buys
    down = () if rules.down_may_buy else state.down
    found: list[int] = []  # a loop: a comprehension costs more for three or four seats
    for s in _ROTATION[rules.players][t.seat]:
        if s != discarder and buys[s] < cap and not (down and down[s]):
            found.append(s)
    return tuple(found)


def decline_and_draw(state: MayIState) -> MayIState:
    """``draw`` by the player in turn: a fresh discard is declined and offered for
    buying (the window opens when someone is eligible), then he draws from the stock."""
    t = state.turn
    if t.fresh and state.pile:
        window = buyers(state)
        if window:
            return successor(state, phase=BUY_WINDOW,
                             turn=_turn(t.seat, "", True, t.discarder, window))
    return turn_draw(state)


def buy(state: MayIState, seat: int) -> MayIState:
    """``seat`` buys the discard: it and the penalty card(s) go to his hand, he does not
    discard; the window closes (one buy per discard, MI-BUY-2/4) and the player in turn
    draws from the stock."""
    card = state.pile[-1]
    state = evolve(state, pile=state.pile[:-1],
                   hands=_plus(state.hands, seat, card),
                   buys=_set(state.buys, seat, state.buys[seat] + 1))
    state = draw_cards(state, seat, state.rules.penalty)
    return turn_draw(state)


def pass_buy(state: MayIState, seat: int) -> MayIState:
    """``seat`` does not buy; when nobody is left to ask, the player in turn draws."""
    t = state.turn
    # the seat first in the window answers, unless buy_priority=first_call
    window = t.window[1:] if t.window[0] == seat else tuple([s for s in t.window if s != seat])
    if window:
        return successor(state, turn=_turn(t.seat, "", True, t.discarder, window))
    return turn_draw(state)


# --- melding and the end of the turn ----------------------------------------------------


def go_down(state: MayIState, move: GoDown) -> MayIState:
    """Lay the contract down (MI-CON-1); an empty hand goes out at once (MI-OUT-1)."""
    t = state.turn
    seat = t.seat
    wrap = state.rules.wrap
    laid: list[TableMeld] = []
    for g in move.groups:
        meld = classify(g, wrap)
        assert meld is not None
        laid.append(meld)
    hand = remove_cards(state.hands[seat], [c for g in move.groups for c in g])
    assert hand is not None
    state = evolve(state, hands=_set(state.hands, seat, hand),
                   melds=_set(state.melds, seat, state.melds[seat] + tuple(laid)),
                   down=_set(state.down, seat, True),
                   turn=MayITurn(seat, t.drew, False, t.discarder, (), t.taken, True,
                                 t.laid_off))
    return end_deal(state, seat) if not hand else state


def lay_off(state: MayIState, move: LayOff) -> MayIState:
    """Lay one card off (MI-OFF-2/3); an empty hand goes out at once (MI-OUT-1)."""
    seat = state.turn.seat
    old = state.melds[move.seat][move.meld]
    meld = extend(old, move.card, state.rules.wrap)
    assert meld is not None
    hands = _minus(state.hands, seat, move.card)
    t = state.turn
    melds = _set(state.melds, move.seat, _set(state.melds[move.seat], move.meld, meld))
    turn = MayITurn(seat, t.drew, False, t.discarder, (), t.taken, t.went_down, True)
    fits = state._fits
    if old.suit < 0 and fits is not None and fits[0] is state.melds:
        # a set takes every card of its rank at any size: the table's fits stay valid
        state = successor(state, hands=hands, melds=melds, turn=turn,
                          fits=(melds, fits[1], fits[2]))
    else:  # the old fits name the old melds: engine.mayi.legal.table_fits works them out again
        state = successor(state, hands=hands, melds=melds, turn=turn)
    return end_deal(state, seat) if not hands[seat] else state


def discard(state: MayIState, card: Card) -> MayIState:
    """Discard and pass the turn; the last card goes out (MI-OUT-1)."""
    t = state.turn
    seat = t.seat
    hands = _minus(state.hands, seat, card)
    pile = state.pile + (card,)
    if not hands[seat]:
        return end_deal(successor(state, hands=hands, pile=pile), seat)
    state = successor(state, hands=hands, pile=pile, phase=DRAW, turn=_PASSED[len(hands)][seat])
    # only a change on the table can make the deal dead (MI-STOCK-2, extended)
    return end_deal(state, -1) if (t.went_down or t.laid_off) and dead(state) else state


def end_deal(state: MayIState, went_out: int) -> MayIState:
    """Score the deal (MI-SCORE-1); the last deal of the schedule ends the game."""
    result = deal_result(state, went_out)
    return evolve(state, result=result,
                  phase=Phase.GAME_OVER if game_over(result) else Phase.HAND_OVER)


# --- a deal that can no longer end ---------------------------------------------------------


def dead(state: MayIState) -> bool:
    """Whether nobody can ever go out (the engine extends MI-STOCK-2): no card off the table
    fits a meld on it, and nobody who has not gone down could make the contract from
    all the cards off the table. Then nothing on the table can change, and every turn
    draws before it discards, so no hand can empty: the deal ends and every player
    scores his hand, as in MI-STOCK-2. Checked when a turn that went down or laid off
    passes (nothing else changes the table or who is down).
    """
    rules = state.rules
    off = [PACKS] * 52
    for melds in state.melds:
        for m in melds:
            for c in m.cards:
                card: int = c  # a plain int: compiled, a machine index
                off[card] -= 1
    wrap = rules.wrap
    for melds in state.melds:
        for m in melds:
            if not m.is_run:
                if any(off[m.rank * 4:m.rank * 4 + 4]):
                    return False
            elif m.length < 13:
                hi = ((m.start + m.length) % 13) * 4 + m.suit
                lo = ((m.start - 1) % 13) * 4 + m.suit
                if (off[hi] and run_ok(m.start, m.length + 1, wrap)) or \
                        (off[lo] and run_ok((m.start - 1) % 13, m.length + 1, wrap)):
                    return False
    if all(state.down):
        return True
    return not contract_possible(rules, state.hand_no, off)


def contract_possible(rules: MayIRules, hand_no: int, counts: list[int]) -> bool:
    """Whether the deal's contract (at its smallest sizes) can be formed from ``counts``."""
    need_sets, need_runs = rules.contract(hand_no)
    wrap = rules.wrap
    joinable = rules.joinable
    windows = [(suit, start) for suit in range(4) for start in range(13)
               if run_ok(start, 4, wrap)
               and all(counts[((start + i) % 13) * 4 + suit] for i in range(4))]
    chosen: list[TableMeld] = []

    def sets_ok() -> bool:
        return sum(sum(counts[r * 4:r * 4 + 4]) // 3 for r in range(13)) >= need_sets

    def pick(first: int, left: int) -> bool:
        if left == 0:
            return sets_ok()
        for i in range(first, len(windows)):
            suit, start = windows[i]
            cards = [((start + k) % 13) * 4 + suit for k in range(4)]
            if any(counts[c] == 0 for c in cards):
                continue
            run = TableMeld(tuple(CARDS[c] for c in cards), suit=suit, start=start)
            if not joinable and any(contiguous(run, m, wrap) for m in chosen):
                continue
            for c in cards:
                counts[c] -= 1
            chosen.append(run)
            found = pick(i, left - 1)
            chosen.pop()
            for c in cards:
                counts[c] += 1
            if found:
                return True
        return False

    return pick(0, need_runs)
