"""May I? views in the shared :class:`engine.views.SeatView` shape, and the buy window.

Mapping onto the Canasta-shaped view (fields May I? has no use for stay empty):

* ``sides``: one :class:`SideView` per player (``team`` = ``seat``), with ``score`` =
  his penalty total before this deal, ``opened`` = has gone down this deal, and
  his melds in laying order (the index used by ``layoff SEAT:INDEX``). A meld's
  ``rank`` is the rank character of a set (``"7"``) or the suit letter of a
  sequence (``"S"``); ``owner`` is the seat; ``wilds`` 0, ``canasta`` "", and
  ``label`` "" (moves name a meld by seat and index), ``kind`` "group" for a set and
  "sequence" for a run.
* ``pile``: the whole discard pile, bottom to top, for every seat (it is public,
  MI-TURN-3); ``pile_frozen`` is always false.
* ``legal_moves``: what this seat may do now — the awaited seat's list; while a buy
  window is open that is the candidate whose answer is due (and, with
  ``buy_priority=first_call``, every candidate still in the window).
* ``asked``/``answer``/``staged``: unused.

* ``contract`` and ``buys_left``: the deal's contract and each seat's buys left, public
  at a real table (the contract is announced, buys are made aloud), so in every view.

Other hands are sizes only; the stock is a count.
"""

from __future__ import annotations

from dataclasses import dataclass

from mypy_extensions import mypyc_attr

from engine.cards import CODES, RANK_CHARS, SUIT_CHARS
from engine.mayi.legal import legal_moves_for
from engine.mayi.rules import NO_BUY_LIMIT
from engine.mayi.scoring import score_rows
from engine.mayi.state import MayIState
from engine.mayi.table import TableMeld
from engine.rule_counts import rule_counts
from engine.state import Phase, SideResult
from engine.views import MeldView, SeatView, SideView, codes, seats_in_play


def meld_view(meld: TableMeld, owner: int) -> MeldView:
    label = SUIT_CHARS[meld.suit] if meld.is_run else RANK_CHARS[meld.rank]
    return MeldView(label, codes(meld.cards), owner, 0, "",
                    kind="sequence" if meld.is_run else "group")


def seat_view(state: MayIState, seat: int) -> SeatView:
    """The view of ``seat`` (``-1`` for a spectator who holds no cards)."""
    sides = tuple(
        SideView(team=s, seats=(s,), score=state.scores[s], minimum=0, opened=state.down[s],
                 pile_frozen=False,
                 melds=tuple(meld_view(m, s) for m in state.melds[s]), red_threes=())
        for s in range(state.rules.players))
    over = state.phase is Phase.HAND_OVER or state.phase is Phase.GAME_OVER
    result = state.result
    window = buy_window(state)
    counts = rule_counts(state.rules)
    return SeatView(
        seat=seat, variant=state.rules.variant, players=state.rules.players,
        hand_no=state.hand_no, dealer=state.dealer, phase=state.phase.value,
        turn_seat=state.turn.seat, awaited=state.awaited,
        hand=codes(state.hands[seat]) if seat >= 0 else (),
        hand_sizes=tuple(len(h) for h in state.hands),
        stock_size=len(state.stock), pile_size=len(state.pile),
        pile_top=CODES[state.pile[-1]] if state.pile else "",
        pile=codes(state.pile), pile_frozen=False,
        sides=sides, asked=False, answer="", staged=(),
        legal_moves=tuple(str(m) for m in legal_moves_for(state, seat)) if seat >= 0 else (),
        result=result.sides if result is not None and over else (),
        went_out=result.went_out if result is not None else -1,
        winner=result.winner if result is not None else -1,
        seat_red_threes=((),) * state.rules.players,  # no red threes in May I?
        contract=window.contract, buys_left=window.buys_left,
        upcards=codes(state.upcards),
        deals=state.rules.deals,  # MI-GAME-1: the schedule's deals; no target score
        seats_in_play=seats_in_play(state.rules.layout, state.hand_no),  # every seat
        draw_count=counts.draw_count,  # one card; no canastas, no wild cards
        canastas_to_go_out=counts.canastas_to_go_out,
        wild_limit=counts.wild_limit,
        meld_side=state.rules.layout.seat_team,  # each seat melds alone; no lone hand
    )


def provisional_score(state: MayIState) -> tuple[SideResult, ...]:
    """The deal's penalty points as things stand (the final rows once it is over)."""
    if state.result is not None:
        return state.result.sides
    return score_rows(state)


def standing(state: MayIState, seat: int) -> float:
    """How good ``state`` is for ``seat`` (a bot's measure): the other players' mean
    penalty points less its own."""
    own = 0.0
    others = 0.0
    rows = provisional_score(state)
    for row in rows:
        if row.team == seat:
            own = float(row.total)
        else:
            others += row.total
    return others / (len(rows) - 1) - own


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class BuyWindow:
    """The May I? specifics a host may show beside the shared view."""

    contract: tuple[int, int]  # (sets, sequences) of this deal
    deals: int  # deals in the game
    buys: tuple[int, ...]  # buys per seat this deal
    buys_left: tuple[int, ...]  # per seat; -1 = unlimited
    offered: str  # the discard offered (fresh top card) or ""
    discarder: int  # who discarded it (-1: the upcard or none)
    window: tuple[int, ...]  # seats still to answer, in priority order
    priority: str  # rotation | first_call


def buy_window(state: MayIState) -> BuyWindow:
    """The deal's contract, the buy counters and the state of the buy window."""
    t = state.turn
    cap = state.rules.buy_cap
    fresh = t.fresh and bool(state.pile) and state.phase in (Phase.DRAW, Phase.BUY_WINDOW)
    return BuyWindow(
        contract=state.rules.contract(state.hand_no), deals=state.rules.deals, buys=state.buys,
        buys_left=tuple(-1 if cap == NO_BUY_LIMIT else max(0, cap - b) for b in state.buys),
        offered=CODES[state.pile[-1]] if fresh else "",
        discarder=t.discarder if fresh else -1,
        window=t.window if state.phase is Phase.BUY_WINDOW else (),
        priority=state.rules.buy_priority.value,
    )
