"""May I? (engine key ``may_i``): the scenarios of the rules file §5.10 (MI-Tn), and a test of
every other MI rule ID.

Every test names the scenario or rule in its name and the rule IDs it checks in its
docstring. Positions are written here in the May I? position notation (nothing is read
from the rules files at run time): a scenario fixes what matters and the notation fills
the other zones (``*N``, ``*``) from the cards left, in a fixed way.

Players P1..P4 of the scenarios are seats 0..3; play passes to the left (seat + 1).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from engine import (
    BadInput,
    Phase,
    Reason,
    RuleViolation,
    apply,
    legal_moves,
    new_game,
    next_deal,
    parse_move,
    rules_for,
)
from engine.cards import CARDS, CODES, parse_cards
from engine.mayi.moves import Buy, GoDown, LayOff, PassBuy
from engine.mayi.rules import NO_BUY_LIMIT
from engine.mayi.scoring import hand_points
from engine.mayi.state import MayIState
from engine.mayi.transitions import composition
from engine.mayi.views import buy_window, standing
from engine.moves import Discard, Draw, TakePile
from engine.notation import export_position, import_position
from engine.notation_lines import option_text
from engine.variants import catalogue
from engine.views import provisional_score, seat_view

# --- helpers ----------------------------------------------------------------------------


def position(
    *,
    hands: Mapping[int, str],
    players: int = 4,
    options: Mapping[str, object] | None = None,
    hand_no: int = 0,
    dealer: int | None = None,
    phase: str = "meld",
    turn: int = 0,
    drew: str | None = None,
    melds: Mapping[int, str] | None = None,
    pile: str | None = None,
    stock: str = "*",
    buys: Sequence[int] | None = None,
    scores: Sequence[int] | None = None,
    discarder: int | None = None,
    taken: str | None = None,
    extra: str = "",
) -> MayIState:
    """A position: the given hands (``*N`` allowed), melds per seat, the pile (bottom to
    top); the hands not given get ``*10``, the stock gets the rest unless given."""
    opts = "; ".join(f"{k}={option_text(v)}" for k, v in (options or {}).items()) or "-"
    lines = [
        "mayi-position 1",
        f"players: {players}",
        f"options: {opts}",
        f"hand: {hand_no}",
        f"dealer: {players - 1 if dealer is None else dealer}",
        f"phase: {phase}",
        f"turn: {turn}",
    ]
    if drew is not None:
        lines.append(f"drew: {drew}")
    if discarder is not None:
        lines.append(f"discarder: {discarder}")
    if taken is not None:
        lines.append(f"taken: {taken}")
    if buys is not None:
        lines.append("buys: " + " ".join(str(b) for b in buys))
    if scores is not None:
        lines.append("scores: " + " ".join(str(s) for s in scores))
    for seat, text in (melds or {}).items():
        lines.append(f"melds{seat}: {text}")
    for seat in range(players):
        lines.append(f"hand{seat}: {hands.get(seat, '*10')}")
    lines.append(f"pile: {pile if pile is not None else '*5'}")
    lines.append(f"stock: {stock}")
    text = "\n".join(lines) + "\n" + extra
    state = import_position(text)
    assert isinstance(state, MayIState)
    return state


def refused(state: MayIState, move: object, reason: Reason, rule: str = "",
            seat: int | None = None) -> RuleViolation:
    """Apply must refuse ``move`` with ``reason`` (and ``rule``), leaving the state as it was."""
    before = export_position(state)
    with pytest.raises(RuleViolation) as err:
        apply(state, move, seat)  # type: ignore[arg-type]
    assert err.value.reason is reason, str(err.value)
    if rule:
        assert err.value.rule == rule, str(err.value)
    assert export_position(state) == before
    return err.value


def texts(state: MayIState) -> list[str]:
    return [str(m) for m in legal_moves(state)]


def cards_of(state: MayIState) -> Counter[int]:
    total: Counter[int] = Counter(state.stock) + Counter(state.pile)
    for h in state.hands:
        total.update(h)
    for seat in state.melds:
        for m in seat:
            total.update(m.cards)
    return total


def hand(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


# --- §5.10 scenarios ---------------------------------------------------------------------

T1_HAND = "7S 7H 7D 7C KC KS KD 5C 5D 5H 9H"


def t1(options: Mapping[str, object] | None = None) -> MayIState:
    return position(hands={1: T1_HAND}, turn=1, options=options)


def test_MI_T1_two_sets_exactly() -> None:
    """MI-T1, MI-CON-1, MI-CON-2: deal 1 asks for exactly two sets of three."""
    state = t1()
    move = parse_move("down 7S 7H 7D / KC KS KD")
    assert str(move) == "down 7S 7H 7D / KS KD KC"
    assert move in legal_moves(state)
    after = apply(state, move)
    assert after.down[1] and [str(m) for m in after.melds[1]] == ["7S 7H 7D", "KS KD KC"]
    assert after.hands[1] == hand("7C 5C 5D 5H 9H")
    assert after.phase is Phase.MELD and after.turn.seat == 1  # still to discard


def test_MI_T1_four_card_set_refused_by_default() -> None:
    """MI-T1, MI-CON-2: a set of four is not the contract by default; it is with
    ``contract_exact_sizes=false``."""
    move = parse_move("down 7S 7H 7D 7C / KC KS KD")
    refused(t1(), move, Reason.CONTRACT_NOT_MET, "MI-CON-2")
    state = t1({"contract_exact_sizes": "false"})
    assert move in legal_moves(state)
    assert len(apply(state, move).hands[1]) == 4


def test_MI_T1_incomplete_contract_refused() -> None:
    """MI-T1, MI-CON-1: one set alone is not the contract."""
    refused(t1(), parse_move("down 7S 7H 7D"), Reason.CONTRACT_NOT_MET, "MI-CON-2")


def test_MI_T1_extra_meld_refused() -> None:
    """MI-T1, MI-CON-2: three sets is more than the contract of deal 1."""
    refused(t1(), parse_move("down 7S 7H 7D / KC KS KD / 5C 5D 5H"), Reason.CONTRACT_NOT_MET,
            "MI-CON-2")
    assert not any("5C" in t and "7S" in t and "KS" in t for t in texts(t1()))


T3_HAND = "3S 4S 5S 6S 7S 8S 9S TS JS QS 4S 5S 6S 7S"


def t3(options: Mapping[str, object] | None = None) -> MayIState:
    return position(hands={1: T3_HAND}, turn=1, hand_no=2, options=options)


def test_MI_T3_two_sequences() -> None:
    """MI-T3, MI-CON-1, MI-MELD-2: deal 3 asks for two sequences of four."""
    state = t3()
    move = parse_move("down 3S 4S 5S 6S / 9S TS JS QS")
    assert move in legal_moves(state)
    after = apply(state, move)
    assert [str(m) for m in after.melds[1]] == ["3S 4S 5S 6S", "9S TS JS QS"]


def test_MI_T3_contiguous_sequences_refused() -> None:
    """MI-T3, MI-CON-3: 3-6 and 7-10 of spades could be one sequence: refused by default,
    allowed with ``allow_contiguous_runs``."""
    move = parse_move("down 3S 4S 5S 6S / 7S 8S 9S TS")
    refused(t3(), move, Reason.CONTRACT_NOT_MET, "MI-CON-3")
    assert move in legal_moves(t3({"allow_contiguous_runs": True}))


def test_MI_T3_overlapping_sequences_from_two_packs() -> None:
    """MI-T3, MI-CON-3, MI-COMP-1: 3-6 and 4-7 of spades (second pack) are two sequences."""
    move = parse_move("down 3S 4S 5S 6S / 4S 5S 6S 7S")
    assert move in legal_moves(t3())
    after = apply(t3(), move)
    assert after.hands[1] == hand("7S 8S 9S TS JS QS")


def t5(options: Mapping[str, object] | None = None, buys: Sequence[int] | None = None
       ) -> MayIState:
    """P1 (seat 0) has just discarded 9H; P2 (seat 1) is in turn."""
    return position(hands={}, phase="draw", turn=1, discarder=0, pile="*6 9H", options=options,
                    buys=buys)


def test_MI_T5_buy_goes_to_the_nearest_in_rotation() -> None:
    """MI-T5, MI-BUY-1, MI-BUY-2, MI-BUY-3: P2 declines 9H; P3 and P4 both want it: P3, the
    nearest after P2, gets it with one penalty card and no discard; P2 then draws."""
    state = t5()
    assert texts(state) == ["take", "draw"]
    assert state.pile[-1] == parse_cards("9H")[0]
    window = apply(state, Draw())
    assert window.phase is Phase.BUY_WINDOW and window.turn.seat == 1
    assert window.awaited == 2 and window.turn.window == (2, 3)
    assert texts(window) == ["buy", "pass"]
    assert seat_view(window, 2).legal_moves == ("buy", "pass")
    assert seat_view(window, 3).legal_moves == ()  # P4 answers only if P3 passes
    refused(window, Buy(), Reason.NOT_YOUR_TURN, "MI-BUY-3", seat=3)
    top = window.stock[-1]
    bought = apply(window, Buy(), seat=2)
    assert len(bought.hands[2]) == 12 and Counter(bought.hands[2]) - Counter(window.hands[2]) \
        == Counter([parse_cards("9H")[0], top])
    assert bought.buys == (0, 0, 1, 0)
    # no discard by the buyer, no extra turn: P2 has drawn and plays on
    assert bought.phase is Phase.MELD and bought.turn.seat == 1 and bought.turn.drew == "stock"
    assert bought.hands[1] == tuple(sorted((*window.hands[1], window.stock[-2])))
    refused(bought, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-4", seat=3)


def test_MI_T5_discarder_may_not_buy() -> None:
    """MI-T5, MI-BUY-1: P1 may not buy his own 9H; the window never asks him."""
    window = apply(t5(), Draw())
    assert 0 not in window.turn.window
    refused(window, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-1", seat=0)
    refused(window, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-1", seat=1)  # the player in turn


def test_MI_T5_pass_moves_the_question_on() -> None:
    """MI-T5, MI-BUY-3: when P3 passes, P4 is asked; when all pass P2 draws."""
    window = apply(t5(), Draw())
    after = apply(window, PassBuy(), seat=2)
    assert after.awaited == 3 and after.turn.window == (3,)
    done = apply(after, PassBuy())
    assert done.phase is Phase.MELD and done.turn.seat == 1 and sum(done.buys) == 0
    assert done.pile[-1] == parse_cards("9H")[0]  # dead once covered (MI-TURN-3)


def test_MI_T5_first_call_priority_option() -> None:
    """MI-BUY-3, option ``buy_priority=first_call``: every seat in the window may answer, in
    any order; the first buy applied wins."""
    window = apply(t5({"buy_priority": "first_call"}), Draw())
    assert seat_view(window, 3).legal_moves == ("buy", "pass")
    assert seat_view(window, 2).legal_moves == ("buy", "pass")
    bought = apply(window, Buy(), seat=3)
    assert bought.buys == (0, 0, 0, 1) and len(bought.hands[3]) == 12


def test_MI_BUY_3_first_call_passes_in_any_order() -> None:
    """MI-BUY-3, option ``buy_priority=first_call``: a pass takes only the passing seat out of
    the window, whoever answers first; the discard stays offered to the others, and when
    all have passed the player in turn draws."""
    window = apply(t5({"buy_priority": "first_call"}), Draw())
    after = apply(window, PassBuy(), seat=3)
    assert after.phase is Phase.BUY_WINDOW and after.turn.window == (2,)
    view = buy_window(after)
    assert (view.offered, view.discarder, view.window) == ("9H", 0, (2,))
    assert seat_view(after, 3).legal_moves == ()
    refused(after, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-3", seat=3)
    done = apply(after, PassBuy(), seat=2)
    assert done.phase is Phase.MELD and done.turn.seat == 1 and sum(done.buys) == 0


def test_MI_T7_buy_limit() -> None:
    """MI-T7, MI-BUY-5: after three buys in the deal P3 may not buy again; with
    ``max_buys_per_deal=None`` he may."""
    window = apply(t5(buys=(0, 0, 3, 0)), Draw())
    assert window.turn.window == (3,)
    refused(window, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-5", seat=2)
    free = apply(t5({"max_buys_per_deal": None}, buys=(0, 0, 3, 0)), Draw())
    assert free.turn.window == (2, 3)
    assert apply(free, Buy(), seat=2).buys == (0, 0, 4, 0)


def t9(options: Mapping[str, object] | None = None) -> MayIState:
    return position(hands={2: "5S 5H 5D 8S 8H 8D 9D 2C 3C 4C JD"}, turn=2,
                    melds={1: "9S 9H 9C | KS KD KC"}, options=options)


def test_MI_T9_no_layoff_in_the_turn_of_going_down() -> None:
    """MI-T9, MI-OFF-1: P3 goes down and may not lay 9D off on P2's nines in the same turn;
    with ``layoff_same_turn=true`` he may."""
    down = apply(t9(), parse_move("down 5S 5H 5D / 8S 8H 8D"))
    layoff = parse_move("layoff 1:0 9D")
    assert layoff not in legal_moves(down)
    refused(down, layoff, Reason.LAYOFF_TOO_EARLY, "MI-OFF-1")
    down = apply(t9({"layoff_same_turn": True}), parse_move("down 5S 5H 5D / 8S 8H 8D"))
    assert layoff in legal_moves(down)
    after = apply(down, layoff)
    assert str(after.melds[1][0]) == "9S 9H 9D 9C"


def test_MI_T11_deal_scoring() -> None:
    """MI-T11, MI-SCORE-1, MI-COMP-2: P1 goes out; the others score their hands."""
    state = position(hands={0: "4C", 1: "AS KD 7C 2H", 2: "TS TS 9D", 3: "AH AD QC 5S 3D"},
                     melds={0: "7S 7H 7D | QS QH QD"}, turn=0, scores=(5, 10, 20, 30))
    assert [r.total for r in provisional_score(state)] == [4, 34, 29, 48]
    over = apply(state, Discard(parse_cards("4C")[0]))
    assert over.phase is Phase.HAND_OVER and over.result is not None
    assert over.result.went_out == 0
    assert [r.total for r in over.result.sides] == [0, 34, 29, 48]
    assert [r.in_hand for r in over.result.sides] == [0, 34, 29, 48]
    assert [r.cumulative for r in over.result.sides] == [5, 44, 49, 78]
    assert over.result.winner == -1 and not over.result.draw
    assert provisional_score(over) == over.result.sides
    assert seat_view(over, 2).result == over.result.sides  # the deal's result, public


def test_MI_SCORE_1_a_row_holds_the_deals_points_and_nothing_else() -> None:
    """MI-SCORE-1 (docs/rules-may-i.md, *Scoring and result*): a row's ``total`` and
    ``in_hand`` are the deal's penalty points and every other field is 0; May I? knows no
    concealed going out, so no result is concealed, in the last deal or before it."""
    for hand_no in (0, 4):
        state = position(hands={0: "4C", 1: "AS KD 7C 2H", 2: "TS TS 9D", 3: "AH AD QC 5S 3D"},
                         melds={0: "7S 7H 7D | QS QH QD | 2S 3S 4S 5S"}, turn=0,
                         hand_no=hand_no)
        over = apply(state, Discard(parse_cards("4C")[0]))
        assert over.result is not None and not over.result.concealed
        for row in over.result.sides:
            assert (row.base, row.natural_canastas, row.mixed_canastas, row.canasta_bonus,
                    row.going_out, row.red_threes, row.red_three_points,
                    row.penalties) == (0, 0, 0, 0, 0, 0, 0, 0)


def test_MI_SCORE_1_a_bots_standing_is_the_others_mean_less_its_own() -> None:
    """MI-SCORE-1 as a bot measures a position (engine.mayi.views.standing): the other
    players' mean penalty points less its own, from the hands as they stand (4, 34, 29,
    48 in MI-T11): seat 0 stands at (34 + 29 + 48) / 3 - 4 = 33."""
    state = position(hands={0: "4C", 1: "AS KD 7C 2H", 2: "TS TS 9D", 3: "AH AD QC 5S 3D"},
                     melds={0: "7S 7H 7D | QS QH QD"}, turn=0)
    assert standing(state, 0) == 33.0
    assert standing(state, 3) == (4 + 34 + 29) / 3 - 48


def test_MI_T13_first_turn_has_no_discard() -> None:
    """MI-T13, MI-TURN-1: the first player of a deal must draw from the stock."""
    state = new_game("may_i", 4, seed=13)
    assert not state.pile and texts(state) == ["draw"]
    refused(state, TakePile(), Reason.PILE_EMPTY, "MI-TURN-1")
    after = apply(state, Draw())
    assert len(after.hands[0]) == 11 and after.phase is Phase.MELD


def t15(**kw: object) -> MayIState:
    """P3 (seat 2) is in turn with an empty stock; P2 (seat 1) discarded the pile's top."""
    return position(hands={0: "*10", 1: "*10", 2: "*10", 3: "*10"}, phase="draw", turn=2,
                    discarder=1, pile="*", stock="-", **kw)  # type: ignore[arg-type]


def test_MI_T15_reshuffle_for_a_draw() -> None:
    """MI-T15, MI-STOCK-1: the pile but its top card becomes the new stock, then P3 draws."""
    state = t15()
    top = state.pile[-1]
    window = apply(state, Draw())
    assert window.turn.window == (3, 0)
    after = apply(apply(window, PassBuy()), PassBuy())
    assert after.pile == (top,) and after.reshuffles == 1
    assert len(after.stock) == len(state.pile) - 2 and len(after.hands[2]) == 11
    assert cards_of(after) == composition()


def test_MI_T15_reshuffle_for_a_penalty_card() -> None:
    """MI-T15, MI-STOCK-1, MI-BUY-2: a buyer's penalty card comes from the rebuilt stock."""
    state = t15()
    window = apply(state, Draw())
    bought = apply(window, Buy())  # P4 buys: the discard, then a penalty card
    assert len(bought.hands[3]) == 12 and bought.reshuffles == 1
    assert bought.pile == (state.pile[-2],)  # the card under the bought discard stays on top
    assert len(bought.stock) == len(state.pile) - 2 - 1 - 1  # minus P3's draw
    assert len(bought.hands[2]) == 11 and cards_of(bought) == composition()


# --- components, deal, game -----------------------------------------------------------------


def test_MI_COMP_1_two_packs_no_jokers() -> None:
    """MI-COMP-1, MI-MELD-4: 104 cards, two of each, no joker; deuces are plain cards."""
    state = new_game("may_i", 4, seed=1)
    assert cards_of(state) == composition()
    assert sum(composition().values()) == 104 and 52 not in composition()
    refused(position(hands={1: "7S 7H 2C KS KD KC 4D 5D 6D 9H JC"}, turn=1),
            parse_move("down 7S 7H 2C / KS KD KC"), Reason.CONTRACT_NOT_MET, "MI-MELD-1")


def test_MI_COMP_2_card_values() -> None:
    """MI-COMP-2: ace 15; K Q J 10 ten; 9..2 face value."""
    assert [hand_points(parse_cards(c)) for c in
            ("AS", "KH", "QD", "JC", "TS", "9S", "5H", "2D")] == [15, 10, 10, 10, 10, 9, 5, 2]


@pytest.mark.parametrize("players", [2, 6])
def test_MI_COMP_3_three_to_five_players(players: int) -> None:
    """MI-COMP-3: May I? is for three to five players."""
    with pytest.raises(BadInput) as err:
        new_game("may_i", players)
    assert err.value.reason is Reason.BAD_PLAYER_COUNT
    info = {v.id: v for v in catalogue()}["may_i"]
    assert (info.min_players, info.max_players) == (3, 5)


def test_MI_DEAL_1_dealer_and_rotation() -> None:
    """MI-DEAL-1: the first dealer is given (default: the last seat); the deal passes left."""
    state = new_game("may_i", 5, seed=2)
    assert state.dealer == 4 and state.turn.seat == 0
    state = new_game("may_i", 5, seed=2, dealer=1)
    assert state.dealer == 1 and state.awaited == 2
    over = position(hands={0: "4C"}, melds={0: "7S 7H 7D | QS QH QD"}, players=5, dealer=1,
                    turn=0)
    over = apply(over, Discard(parse_cards("4C")[0]))
    nxt = next_deal(over)
    assert nxt.dealer == 2 and nxt.turn.seat == 3 and nxt.hand_no == 1
    assert nxt.scores == tuple(r.cumulative for r in over.result.sides)  # type: ignore[union-attr]


def test_MI_DEAL_2_ten_cards_one_at_a_time_no_upcard() -> None:
    """MI-DEAL-2: ten each, one at a time from the dealer's left; no card turned up; the
    ``turn_upcard`` option starts the pile (a live discard with no discarder)."""
    deck = [CARDS[i % 52] for i in range(104)]
    state = new_game("may_i", 4, deck=deck, dealer=3)
    assert all(len(h) == 10 for h in state.hands) and not state.pile
    assert state.hands[0] == tuple(sorted(deck[0:40:4])) and state.hands[3] == \
        tuple(sorted(deck[3:40:4]))
    assert state.stock[-1] == deck[40] and len(state.stock) == 64
    up = new_game("may_i", 4, deck=deck, dealer=3, options={"turn_upcard": True})
    assert up.pile == (deck[40],) and texts(up) == ["take", "draw"]
    window = apply(up, Draw())
    assert window.turn.window == (1, 2, 3)  # nobody discarded the upcard


def test_MI_GAME_1_five_deals_and_schedules() -> None:
    """MI-GAME-1, §5.3: five deals by default with contracts 2 sets, set + sequence, 2
    sequences, 3 sets, 2 sets + sequence; ``classic7`` adds two deals with 12 cards in
    deals 5-7; a custom schedule is a list of contracts."""
    rules = rules_for("may_i", 4)
    assert rules.contracts == ((2, 0), (1, 1), (0, 2), (3, 0), (2, 1))  # type: ignore[attr-defined]
    seven = rules_for("may_i", 4, {"mayi.schedule": "classic7"})
    assert seven.contracts[5:] == ((1, 2), (0, 3))  # type: ignore[attr-defined]
    assert seven.hand_sizes == (10, 10, 10, 10, 12, 12, 12)  # type: ignore[attr-defined]
    custom = rules_for("may_i", 3, {"schedule": "rr,ss"})
    assert custom.contracts == ((0, 2), (2, 0))  # type: ignore[attr-defined]
    with pytest.raises(BadInput) as err:
        rules_for("may_i", 4, {"schedule": "sx"})
    assert err.value.reason is Reason.BAD_OPTION_VALUE


def test_MI_GAME_1_game_over_after_the_last_deal() -> None:
    """MI-GAME-1, MI-GAME-2: the fifth deal ends the game; no sixth deal."""
    state = position(hands={0: "4C", 1: "2C", 2: "3C", 3: "KD"}, hand_no=4, turn=0,
                     melds={0: "7S 7H 7D | QS QH QD | 2S 3S 4S 5S"}, scores=(50, 60, 70, 80))
    over = apply(state, Discard(parse_cards("4C")[0]))
    assert over.phase is Phase.GAME_OVER and over.result is not None
    assert over.result.winner == 0 and over.result.winners == (0,)  # type: ignore[attr-defined]
    with pytest.raises(RuleViolation) as err:
        next_deal(over)
    assert err.value.reason is Reason.GAME_OVER


def test_MI_GAME_1_the_deal_before_the_last_does_not_end_the_game() -> None:
    """MI-GAME-1: the fourth of five deals ends with a deal result only: the game goes
    on, with no winner named, even for the lowest total."""
    state = position(hands={0: "4C", 1: "2C", 2: "3C", 3: "KD"}, hand_no=3, turn=0,
                     melds={0: "7S 7H 7D | QS QH QD | 2S 3S 4S 5S"}, scores=(50, 60, 70, 80))
    over = apply(state, Discard(parse_cards("4C")[0]))
    assert over.phase is Phase.HAND_OVER and over.result is not None
    assert over.result.winner == -1 and not over.result.draw
    assert over.result.winners == ()  # type: ignore[attr-defined]


def test_MI_GAME_2_lowest_total_wins_ties_share() -> None:
    """MI-GAME-2: the lowest total wins; equal lowest totals share the win (``draw`` set,
    ``winner`` -1, ``winners`` lists them)."""
    state = position(hands={0: "4C", 1: "KC", 2: "QC", 3: "JC"}, hand_no=4, turn=0,
                     melds={0: "7S 7H 7D | QS QH QD | 2S 3S 4S 5S"}, scores=(110, 100, 200, 300))
    over = apply(state, Discard(parse_cards("4C")[0]))
    assert over.phase is Phase.GAME_OVER and over.result is not None
    assert [r.cumulative for r in over.result.sides] == [110, 110, 210, 310]
    assert over.result.winner == -1 and over.result.draw
    assert over.result.winners == (0, 1)  # type: ignore[attr-defined]
    assert seat_view(over, 1).winner == -1


# --- contracts and melds -----------------------------------------------------------------


def test_MI_CON_1_down_after_the_draw_from_own_hand() -> None:
    """MI-CON-1: going down is a meld-phase move with the player's own cards."""
    state = position(hands={1: T1_HAND}, turn=1, phase="draw", discarder=0)
    refused(state, parse_move("down 7S 7H 7D / KC KS KD"), Reason.WRONG_PHASE)
    refused(t1(), parse_move("down 7S 7H 7D / AC AS AD"), Reason.CARDS_NOT_IN_HAND, "MI-CON-1")


def test_MI_CON_2_listed_downs_meet_the_contract_exactly() -> None:
    """MI-CON-2: every listed way of going down has exactly the contract's melds and sizes,
    each once."""
    downs = [m for m in legal_moves(t1()) if isinstance(m, GoDown)]
    assert len(downs) == len(set(downs))
    # sevens: 4 ways to pick 3 of 7S 7H 7D 7C; fives: 5C 5D 5H; kings: KS KD KC
    assert len(downs) == 4 * 2 + 1
    for m in downs:
        assert len(m.groups) == 2 and all(len(g) == 3 for g in m.groups)


# the sets of three that 7S 7S 7H 7H 7D 7C make, and its splits into two sets
SEVENS = ["7S 7S 7H", "7S 7S 7D", "7S 7S 7C", "7S 7H 7H", "7S 7H 7D", "7S 7H 7C", "7S 7D 7C",
          "7H 7H 7D", "7H 7H 7C", "7H 7D 7C"]
SEVENS_TWICE = ["7S 7S 7H / 7H 7D 7C", "7S 7S 7D / 7H 7H 7C", "7S 7S 7C / 7H 7H 7D",
                "7S 7H 7H / 7S 7D 7C", "7S 7H 7D / 7S 7H 7C"]


def test_MI_CON_2_two_sets_of_one_rank() -> None:
    """MI-CON-2, MI-MELD-1, MI-COMP-1: six sevens from the two packs are two sets of the
    contract, each split once, after the ways with the fours (listed by the rank of the
    first set), and alone."""
    state = position(hands={1: "4S 4H 4D 7S 7S 7H 7H 7D 7C"}, turn=1)
    downs = [m for m in texts(state) if m.startswith("down")]
    assert downs == [f"down 4S 4H 4D / {s}" for s in SEVENS] + [f"down {p}"
                                                               for p in SEVENS_TWICE]
    after = apply(state, parse_move("down 7S 7H 7D / 7S 7H 7C"))
    assert after.hands[1] == hand("4S 4H 4D") and len(after.melds[1]) == 2
    alone = position(hands={1: "7S 7S 7H 7H 7D 7C 9D"}, turn=1)  # one rank, both sets
    assert [m for m in texts(alone) if m.startswith("down")] == [f"down {p}"
                                                                 for p in SEVENS_TWICE]


def test_MI_CON_2_three_sets_with_two_of_one_rank() -> None:
    """MI-CON-2, MI-MELD-1: deal 4 asks for three sets; six sevens give one or two of them,
    with the fours and the nines, each way once, in canonical order."""
    state = position(hands={1: "4S 4H 4D 7S 7S 7H 7H 7D 7C 9D 9C 9H KC"}, turn=1, hand_no=3)
    downs = [m for m in texts(state) if m.startswith("down")]
    assert downs == ([f"down 4S 4H 4D / {s} / 9H 9D 9C" for s in SEVENS]
                     + [f"down 4S 4H 4D / {p}" for p in SEVENS_TWICE]
                     + [f"down {p} / 9H 9D 9C" for p in SEVENS_TWICE])


def test_MI_CON_4_down_once_per_deal() -> None:
    """MI-CON-4: after going down no new melds, only lay-offs."""
    down = apply(t1(), parse_move("down 7S 7H 7D / KC KS KD"))
    assert not any(isinstance(m, GoDown) for m in legal_moves(down))
    refused(down, parse_move("down 5C 5D 5H / KC KS KD"), Reason.ALREADY_DOWN, "MI-CON-4")


def test_MI_MELD_1_set_suits_may_repeat() -> None:
    """MI-MELD-1: a set is three cards of a rank; suits are free and may repeat."""
    state = position(hands={1: "7S 7S 7H KS KD KC 4D 5D 6D 9H JC"}, turn=1)
    assert parse_move("down 7S 7S 7H / KS KD KC") in legal_moves(state)


def test_MI_MELD_2_sequence_one_suit_consecutive() -> None:
    """MI-MELD-2: a sequence is four consecutive cards of one suit."""
    state = position(hands={1: "3S 4S 5S 6H 9D TD JD QD 2C 2H 4C"}, turn=1, hand_no=2)
    refused(state, parse_move("down 3S 4S 5S 6H / 9D TD JD QD"), Reason.CONTRACT_NOT_MET,
            "MI-MELD-1")
    refused(state, parse_move("down 2C 3S 4S 5S / 9D TD JD QD"), Reason.CONTRACT_NOT_MET)


def test_MI_MELD_3_ace_high_low_and_round_the_corner() -> None:
    """MI-MELD-3: the ace is high and low; by default a sequence may go round the corner
    (Q K A 2); with ``ace_wrap=false`` only A-2-3-4 or J-Q-K-A."""
    hand_text = "QS KS AS 2S AH 2H 3H 4H JD QD KD AD 9C"
    corner = parse_move("down QS KS AS 2S / AH 2H 3H 4H")
    low_high = parse_move("down AH 2H 3H 4H / JD QD KD AD")
    state = position(hands={1: hand_text}, turn=1, hand_no=2)
    assert str(corner) == "down QS KS AS 2S / AH 2H 3H 4H"
    assert corner in legal_moves(state) and low_high in legal_moves(state)
    strict = position(hands={1: hand_text}, turn=1, hand_no=2, options={"ace_wrap": False})
    assert low_high in legal_moves(strict)
    refused(strict, corner, Reason.CONTRACT_NOT_MET, "MI-MELD-1")
    # lay-offs obey the same rule: K onto A 2 3 4 only with the wrap
    melds = {1: "AH 2H 3H 4H | 9S 9D 9C"}
    for wrap, fits in ((True, True), (False, False)):
        s = position(hands={1: "KH 5C"}, turn=1, melds=melds, options={"ace_wrap": wrap})
        assert (parse_move("layoff 1:0 KH") in legal_moves(s)) is fits


def test_MI_MELD_4_no_wild_cards() -> None:
    """MI-MELD-4: deuces (and nothing else) stand in for other cards."""
    state = position(hands={1: "7S 7H 2S KS KD KC 4D 5D 6D 9H JC"}, turn=1)
    assert not any(isinstance(m, GoDown) for m in legal_moves(state))


# --- the turn -----------------------------------------------------------------------------


def test_MI_TURN_2_draw_one_discard_one() -> None:
    """MI-TURN-2: a turn draws one card (stock or fresh discard) and ends with one discard."""
    state = new_game("may_i", 3, seed=4)
    drawn = apply(state, Draw())
    assert len(drawn.hands[0]) == 11 and all(isinstance(m, (Discard, GoDown, LayOff))
                                             for m in legal_moves(drawn))
    card = drawn.hands[0][0]
    passed = apply(drawn, Discard(card))
    assert passed.turn.seat == 1 and passed.phase is Phase.DRAW and len(passed.hands[0]) == 10
    assert passed.pile == (card,) and texts(passed) == ["take", "draw"]
    took = apply(passed, TakePile())
    assert len(took.hands[1]) == 11 and not took.pile and took.turn.drew == "pile"
    refused(took, Draw(), Reason.WRONG_PHASE, "MI-TURN-2")


def test_MI_TURN_3_only_the_fresh_top_card() -> None:
    """MI-TURN-3: only the top card may be taken, only by the player in turn before he
    draws; the pile is public in every view."""
    state = t5()
    assert parse_move("take 9H") not in legal_moves(state)
    refused(state, parse_move("take 9H"), Reason.NOT_LISTED)
    view = seat_view(state, 3)
    assert view.pile == tuple(CODES[c] for c in state.pile) and view.pile_top == "9H"
    drawn = apply(apply(apply(state, Draw()), PassBuy()), PassBuy())
    assert drawn.phase is Phase.MELD
    refused(drawn, TakePile(), Reason.WRONG_PHASE, "MI-TURN-2")


def test_MI_TURN_4_taken_card_not_discarded() -> None:
    """MI-TURN-4: the card just taken from the pile may not be discarded this turn, nor an
    identical copy of it (cards are types); only when the hand holds nothing else, so that
    no turn can get stuck."""
    state = position(hands={1: "4C 5D 8S KD 2C 3H 6S 7D 9C TC"}, phase="draw", turn=1,
                     discarder=0, pile="*3 9H")
    took = apply(state, TakePile())
    nine = parse_cards("9H")[0]
    assert took.turn.taken == nine and Discard(nine) not in legal_moves(took)
    refused(took, Discard(nine), Reason.TAKEN_CARD_DISCARD, "MI-TURN-4")
    two = position(hands={1: "9H 5D 8S KD 2C 3H 6S 7D 9C TC"}, phase="draw", turn=1,
                   discarder=0, pile="*3 9H")
    assert Discard(nine) not in legal_moves(apply(two, TakePile()))
    last = position(hands={1: "9H"}, turn=1, drew="pile", taken="9H",
                    melds={1: "7S 7H 7D | QS QH QD"})
    assert texts(last) == ["discard 9H"]
    pair = position(hands={1: "9H 9H"}, turn=1, drew="pile", taken="9H",
                    melds={1: "7S 7H 7D | QS QH QD"})
    assert texts(pair) == ["discard 9H"]


def test_MI_TURN_2_moves_may_i_lacks_are_not_listed() -> None:
    """MI-TURN-2: a Canasta move May I? lacks (a meld, a ``take`` naming cards) is
    ``NOT_LISTED`` in any phase, not a move of another phase; a discard is of a card in the
    hand."""
    state = position(hands={1: "7S 7H 7D 9H 4C"}, turn=1)
    refused(state, parse_move("meld 7S 7H 7D"), Reason.NOT_LISTED, "MI-TURN-2")
    refused(state, parse_move("take 9H"), Reason.NOT_LISTED, "MI-TURN-2")
    refused(state, Discard(parse_cards("KC")[0]), Reason.CARDS_NOT_IN_HAND, "MI-TURN-2")


def test_MI_TURN_1_no_live_discard_no_take() -> None:
    """MI-TURN-1, MI-TURN-3: a pile whose top card is not a live discard (``fresh: 0``)
    offers nothing to take: only ``draw``."""
    state = position(hands={}, phase="draw", turn=1, pile="*6 9H", extra="fresh: 0\n")
    assert texts(state) == ["draw"]
    refused(state, TakePile(), Reason.PILE_EMPTY, "MI-TURN-1")


def test_MI_TURN_4_a_deuce_of_spades_is_not_barred() -> None:
    """MI-TURN-4: only the card just taken is barred: with none taken every card of the hand
    may go, and a taken card that is all the hand holds goes too (the first card type,
    2S, as much as any other)."""
    drew = position(hands={1: "2S 4C 9D"}, turn=1)
    assert {"discard 2S", "discard 4C", "discard 9D"} <= set(texts(drew))
    last = position(hands={1: "2S"}, turn=1, drew="pile", taken="2S",
                    melds={1: "7S 7H 7D | QS QH QD"})
    assert texts(last) == ["discard 2S"]


def test_MI_STOCK_2_no_card_even_after_reshuffle() -> None:
    """MI-STOCK-2, MI-BUY-7: the stock is empty and the pile is only the fresh discard:
    nobody can buy (no penalty card), and a draw ends the deal; all score their hands."""
    state = position(hands={0: "*35", 1: "*34", 2: "*34"}, players=3, phase="draw", turn=1,
                     discarder=0, pile="*1", stock="-")
    assert texts(state) == ["take", "draw"]
    over = apply(state, Draw())
    assert over.phase is Phase.HAND_OVER and over.result is not None
    assert over.result.went_out == -1
    assert [r.total for r in over.result.sides] == [hand_points(h) for h in state.hands]


def test_MI_STOCK_2_dead_deal_ends() -> None:
    """MI-STOCK-2, extended by the engine: when nobody can ever go out — everybody is down and no card
    off the table fits a meld — the deal ends when the turn passes; all score their hands."""
    melds = {0: "2S 2S 2H 2H 2D 2D 2C | 3S 3S 3H 3H 3D 3D 3C 3C",
             1: "4S 4S 4H 4H 4D 4D 4C 4C | 5S 5S 5H 5H 5D 5D 5C 5C",
             2: "6S 6S 6H 6H 6D 6D 6C 6C | 7S 7S 7H 7H 7D 7D 7C 7C"}
    state = position(hands={0: "2C 9S KD", 1: "*5", 2: "*5"}, players=3, turn=0,
                     melds=melds)
    after = apply(state, parse_move("layoff 0:0 2C"))
    assert after.phase is Phase.MELD  # he may still discard
    over = apply(after, Discard(parse_cards("9S")[0]))
    assert over.phase is Phase.HAND_OVER and over.result is not None
    assert over.result.went_out == -1
    # while a card off the table still fits, the deal goes on
    alive = position(hands={0: "2C 9S KD", 1: "*5", 2: "*5"}, players=3, turn=0,
                     melds=melds)
    assert apply(alive, Discard(parse_cards("9S")[0])).phase is Phase.DRAW


@pytest.mark.parametrize(("run", "off", "options", "ends"), [
    ("AH 2H 3H 4H", "", {}, False),  # KH fits below the ace, round the corner
    ("AH 2H 3H 4H", "", {"ace_wrap": False}, True),  # not without it
    ("4H 5H 6H 7H", "", {"ace_wrap": False}, False),  # 8H fits above
    ("3D 4D 5D 6D", "", {}, True),  # 2D and 7D are on the table
    ("2D 3D 4D 5D", "", {}, False),  # AD fits below the deuce
    ("JD QD KD AD", "", {}, False),  # TD fits below (2D above is on the table)
    ("AH 2H 3H 4H", "7C", {"ace_wrap": False}, False),  # 7C fits the sevens
])
def test_MI_STOCK_2_dead_deal_with_a_sequence(run: str, off: str,
                                              options: Mapping[str, object], ends: bool) -> None:
    """MI-STOCK-2, extended by the engine, MI-OFF-3, MI-MELD-3: everybody is down, every two to
    seven is on the table (in sets, and a sequence) but ``off``: the deal ends when the
    lay-off's turn passes unless a card off the table fits a meld."""
    rest = Counter({card: 2 for r in "234567" for card in parse_cards(f"{r}S {r}H {r}D {r}C")})
    rest.subtract(parse_cards(f"{run} 2C {off}"))  # 2C: the card laid off

    def sets(ranks: str) -> str:
        return " | ".join(" ".join(CODES[c] for c in sorted(rest.elements()) if CODES[c][0] == r)
                          for r in ranks)

    state = position(hands={0: f"2C 9S KD {off}", 1: "*5", 2: "*5"}, players=3, turn=0,
                     melds={0: sets("234"), 1: sets("567"), 2: run}, options=options)
    after = apply(apply(state, parse_move("layoff 0:0 2C")), parse_move("discard 9S"))
    assert after.phase is (Phase.HAND_OVER if ends else Phase.DRAW)
    assert (after.result is not None and after.result.went_out == -1) is ends


def _all_eight(ranks: str) -> str:
    """Sets of all eight cards of each rank of ``ranks`` (both packs), as melds text."""
    return " | ".join(" ".join(f"{r}{s} {r}{s}" for s in "SHDC") for r in ranks)


def test_MI_STOCK_2_dead_deal_with_a_player_not_down() -> None:
    """MI-STOCK-2, extended by the engine (rules file: a deal that can no longer end): seat 2
    is not down; every five to ace is on the table, so the twos, threes and fours off it
    fit no meld. They still make deal 1's two sets: the deal goes on; they hold no
    sequence of deal 3: nobody can ever go out, and the deal ends when the turn passes."""
    melds = {0: "5S 5S 5H 5H 5D 5D 5C | " + _all_eight("6789"), 1: _all_eight("TJQKA")}

    def lay_off_and_discard(hand_no: int) -> MayIState:
        state = position(hands={0: "5C 2S 2H", 1: "*5", 2: "*5"}, players=3, turn=0,
                         melds=melds, hand_no=hand_no)
        return apply(apply(state, parse_move("layoff 0:0 5C")), parse_move("discard 2S"))

    alive = lay_off_and_discard(0)
    assert alive.phase is Phase.DRAW and alive.result is None
    over = lay_off_and_discard(2)
    assert over.phase is Phase.HAND_OVER and over.result is not None
    assert over.result.went_out == -1 and texts(over) == []


# --- buying -------------------------------------------------------------------------------


def test_MI_BUY_1_player_in_turn_has_the_free_right() -> None:
    """MI-BUY-1: the player in turn takes the discard as his draw; nobody may buy before he
    declines it, and he never buys, in his meld phase neither."""
    state = t5()
    refused(state, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-1", seat=2)
    refused(state, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-1")
    took = apply(state, TakePile())
    assert parse_cards("9H")[0] in took.hands[1] and took.turn.drew == "pile"
    assert took.phase is Phase.MELD and sum(took.buys) == 0
    # a buy outside a window is BUY_NOT_ALLOWED (docs/rules-may-i.md), the player in turn's
    # too: it was WRONG_PHASE (MI-TURN-2) for him, BUY_NOT_ALLOWED for every other seat
    refused(took, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-1")
    refused(took, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-4", seat=2)


def test_MI_BUY_2_penalty_cards_option() -> None:
    """MI-BUY-2: the buyer takes the discard and one stock card (two with
    ``buy_penalty_cards=2``)."""
    window = apply(t5({"buy_penalty_cards": 2}), Draw())
    bought = apply(window, Buy())
    assert len(bought.hands[2]) == 13 and bought.turn.seat == 1
    with pytest.raises(BadInput):
        rules_for("may_i", 4, {"buy_penalty_cards": 3})


def test_MI_BUY_4_one_buy_per_discard() -> None:
    """MI-BUY-4: one buy per discard; the window closes once the player in turn has drawn."""
    window = apply(t5(), Draw())
    bought = apply(window, Buy())
    assert bought.phase is Phase.MELD and buy_window(bought).window == ()
    refused(bought, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-4", seat=3)
    refused(bought, PassBuy(), Reason.NOT_YOUR_TURN, seat=3)


def test_MI_BUY_3_answers_out_of_order() -> None:
    """MI-BUY-3: in a rotation window a candidate who answers before his turn is
    ``NOT_YOUR_TURN`` (MI-BUY-3); a seat outside the window, or any other move, is simply not
    the awaited seat (MI-TURN-2); a candidate who has passed may not buy this discard."""
    window = apply(t5(), Draw())
    assert window.turn.window == (2, 3)
    refused(window, PassBuy(), Reason.NOT_YOUR_TURN, "MI-BUY-3", seat=3)
    refused(window, PassBuy(), Reason.NOT_YOUR_TURN, "MI-TURN-2", seat=0)
    refused(window, Discard(window.hands[3][0]), Reason.NOT_YOUR_TURN, "MI-TURN-2", seat=3)
    passed = apply(window, PassBuy(), seat=2)
    refused(passed, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-3", seat=2)


def test_MI_BUY_4_nothing_offered_before_the_first_discard() -> None:
    """MI-BUY-4: on the first turn of a deal no discard is offered for buying."""
    state = new_game("may_i", 4, seed=3)
    assert not state.pile
    refused(state, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-4", seat=2)


def test_MI_BUY_6_down_players_may_buy_option() -> None:
    """MI-BUY-6: a player who has gone down may buy; with ``down_players_may_buy=false`` not."""
    melds = {2: "7S 7H 7D | QS QH QD"}
    state = position(hands={2: "*4"}, phase="draw", turn=1, discarder=0, pile="*6 9H",
                     melds=melds)
    assert apply(state, Draw()).turn.window == (2, 3)
    strict = position(hands={2: "*4"}, phase="draw", turn=1, discarder=0, pile="*6 9H",
                      melds=melds, options={"down_players_may_buy": False})
    window = apply(strict, Draw())
    assert window.turn.window == (3,)
    refused(window, Buy(), Reason.BUY_NOT_ALLOWED, "MI-BUY-6", seat=2)


def test_MI_BUY_7_no_penalty_card_no_buy() -> None:
    """MI-BUY-7: with the stock empty and only one card under the discard (it stays as the
    top), no penalty card exists: no window opens, the player in turn draws that card."""
    state = position(hands={0: "*34", 1: "*35", 2: "*33"}, players=3, phase="draw", turn=1,
                     discarder=0, pile="*2", stock="-")
    after = apply(state, Draw())
    assert after.phase is Phase.MELD and after.reshuffles == 1 and len(after.hands[1]) == 36


def test_MI_BUY_7_exactly_the_penalty_cards_left() -> None:
    """MI-BUY-7, MI-STOCK-1, MI-STOCK-2: with the stock empty, the two cards under the
    discard make a stock of one: one penalty card can be supplied, so the window opens and
    P3 buys; the player in turn then finds no card and the deal ends. Two penalty cards
    need one card more under the discard."""
    def declined(pile: int, penalty: int) -> MayIState:
        state = position(hands={0: "*34", 1: "*34", 2: f"*{36 - pile}"}, players=3,
                         phase="draw", turn=1, discarder=0, pile=f"*{pile}", stock="-",
                         options={"buy_penalty_cards": penalty})
        return apply(state, Draw())

    window = declined(3, 1)
    assert window.phase is Phase.BUY_WINDOW and window.turn.window == (2,)
    bought = apply(window, Buy())
    assert len(bought.hands[2]) == 35 and bought.reshuffles == 1
    assert bought.phase is Phase.HAND_OVER and bought.result is not None
    assert bought.result.went_out == -1
    assert declined(3, 2).phase is Phase.MELD
    assert declined(4, 2).turn.window == (2,)


def test_MI_BUY_window_view_for_hosts() -> None:
    """MI-BUY-3: the window is visible: awaited seat, window order, the offered card."""
    window = apply(t5(), Draw())
    info = buy_window(window)
    assert info.offered == "9H" and info.discarder == 0 and info.window == (2, 3)
    assert info.buys_left == (3, 3, 3, 3) and info.priority == "rotation"
    views = [seat_view(window, s) for s in range(4)]
    assert all(v.awaited == 2 and v.phase == "buy_window" and v.turn_seat == 1 for v in views)


def test_MI_BUY_5_buys_left_and_a_closed_window_for_hosts() -> None:
    """MI-BUY-5, MI-BUY-3: each seat's buys left count down from ``max_buys_per_deal`` (3)
    to 0, -1 for no limit, in every view; once the window has closed nothing is offered
    (no card, discarder -1, no seats to answer)."""
    bought = apply(apply(t5(), Draw()), Buy())  # P3 (seat 2) buys 9H
    info = buy_window(bought)
    assert info.buys_left == (3, 3, 2, 3)
    assert (info.offered, info.discarder, info.window) == ("", -1, ())
    assert seat_view(bought, 0).buys_left == (3, 3, 2, 3)
    assert buy_window(t5(buys=(0, 0, 3, 1))).buys_left == (3, 3, 0, 2)
    assert buy_window(t5({"max_buys_per_deal": "none"})).buys_left == (-1, -1, -1, -1)


# --- laying off and going out ----------------------------------------------------------------


def test_MI_OFF_1_only_after_going_down() -> None:
    """MI-OFF-1: only a player who has gone down lays off."""
    state = position(hands={1: "9D 4C 5C"}, turn=1, melds={2: "9S 9H 9C | KS KD KC"})
    assert not any(isinstance(m, LayOff) for m in legal_moves(state))
    refused(state, parse_move("layoff 2:0 9D"), Reason.NOT_GONE_DOWN, "MI-OFF-1")


def test_MI_OFF_2_on_any_players_melds() -> None:
    """MI-OFF-2: lay-offs go on one's own melds and on other players'."""
    state = position(hands={1: "9D KH 4C"}, turn=1,
                     melds={1: "KS KD KC | 5S 5D 5C", 2: "9S 9H 9C | 2S 3S 4S 5S"})
    moves = texts(state)
    assert "layoff 2:0 9D" in moves and "layoff 1:0 KH" in moves
    refused(state, parse_move("layoff 3:0 9D"), Reason.NO_SUCH_MELD, "MI-OFF-2")


def test_MI_OFF_3_what_fits() -> None:
    """MI-OFF-3: a set takes any card of its rank; a sequence the next card of its suit at
    either end."""
    state = position(hands={1: "9D 9D AS 6S 7S 2H"}, turn=1,
                     melds={1: "KS KD KC | 5S 5D 5C", 2: "9S 9H 9C | 2S 3S 4S 5S"})
    layoffs = {m for m in texts(state) if m.startswith("layoff")}
    assert layoffs == {"layoff 2:0 9D", "layoff 2:1 AS", "layoff 2:1 6S"}
    refused(state, parse_move("layoff 2:1 7S"), Reason.CARD_DOES_NOT_FIT, "MI-OFF-3")
    refused(state, parse_move("layoff 2:1 2H"), Reason.CARD_DOES_NOT_FIT, "MI-OFF-3")
    longer = apply(apply(state, parse_move("layoff 2:1 6S")), parse_move("layoff 2:1 7S"))
    assert str(longer.melds[2][1]) == "2S 3S 4S 5S 6S 7S"


def test_MI_OFF_3_a_sequence_grows_to_the_whole_suit() -> None:
    """MI-OFF-3: a twelve-card sequence takes its thirteenth card (the ace fits both ends:
    one lay-off), a thirteen-card one takes nothing; a diamond sequence its next diamond.
    Lay-offs are listed by seat and meld, then card (AH on seat 1 before 8D on seat 2)."""
    state = position(hands={1: "AH AH 8D 4C"}, turn=1,
                     melds={1: "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH", 2: "4D 5D 6D 7D"})
    assert [m for m in texts(state) if m.startswith("layoff")] == ["layoff 1:0 AH",
                                                                    "layoff 2:0 8D"]
    full = apply(state, parse_move("layoff 1:0 AH"))
    assert full.melds[1][0].length == 13
    assert [m for m in texts(full) if m.startswith("layoff")] == ["layoff 2:0 8D"]
    refused(full, parse_move("layoff 1:0 AH"), Reason.CARD_DOES_NOT_FIT, "MI-OFF-3")


def test_MI_OFF_3_a_sequence_ending_in_the_ace_takes_the_deuce() -> None:
    """MI-OFF-3, MI-MELD-3: a sequence that ends in the ace takes the deuce round the corner
    (2S, the lowest card id, is listed like any other); with ``ace_wrap=false`` only its
    low end takes a card."""
    melds = {1: "JS QS KS AS"}
    state = position(hands={1: "2S TS 4C"}, turn=1, melds=melds)
    assert [m for m in texts(state) if m.startswith("layoff")] == ["layoff 1:0 2S",
                                                                    "layoff 1:0 TS"]
    assert str(apply(state, parse_move("layoff 1:0 2S")).melds[1][0]) == "JS QS KS AS 2S"
    strict = position(hands={1: "2S TS 4C"}, turn=1, melds=melds, options={"ace_wrap": False})
    assert [m for m in texts(strict) if m.startswith("layoff")] == ["layoff 1:0 TS"]
    refused(strict, parse_move("layoff 1:0 2S"), Reason.CARD_DOES_NOT_FIT, "MI-OFF-3")


def test_MI_OUT_1_going_out_with_no_card_left() -> None:
    """MI-OUT-1: the last card leaving the hand ends the deal — by a lay-off too (no discard
    needed); with ``out_requires_discard=true`` the last card must be discarded."""
    melds = {1: "KS KD KC | 5S 5D 5C"}
    state = position(hands={1: "KH"}, turn=1, melds=melds)
    over = apply(state, parse_move("layoff 1:0 KH"))
    assert over.phase is Phase.HAND_OVER and over.result is not None
    assert over.result.went_out == 1
    strict = position(hands={1: "KH"}, turn=1, melds=melds,
                      options={"out_requires_discard": True})
    assert texts(strict) == ["discard KH"]
    refused(strict, parse_move("layoff 1:0 KH"), Reason.MUST_KEEP_CARD, "MI-OUT-1")
    down = position(hands={1: "7S 7H 7D KS KD KC"}, turn=1)
    assert apply(down, parse_move("down 7S 7H 7D / KS KD KC")).phase is Phase.HAND_OVER
    runs = position(hands={1: "3S 4S 5S 6S 9S TS JS QS"}, turn=1, hand_no=2)
    # the whole hand, listed once too
    assert [m for m in texts(runs) if m.startswith("down")] == ["down 3S 4S 5S 6S / 9S TS JS QS"]
    assert apply(runs, parse_move("down 3S 4S 5S 6S / 9S TS JS QS")).phase is Phase.HAND_OVER
    keep = position(hands={1: "7S 7H 7D KS KD KC"}, turn=1,
                    options={"out_requires_discard": True})
    refused(keep, parse_move("down 7S 7H 7D / KS KD KC"), Reason.MUST_KEEP_CARD, "MI-OUT-1")


def test_MI_OFF_2_no_such_seat_or_meld() -> None:
    """MI-OFF-2, MI-OFF-3: a lay-off names a meld on the table — a seat and meld index out of
    range either way is ``NO_SUCH_MELD``; on seat 0's melds a card that does not fit is
    ``CARD_DOES_NOT_FIT``, and the card must be in the hand."""
    state = position(hands={1: "9D KH 4C"}, turn=1,
                     melds={0: "QS QH QD | 4D 5D 6D 7D", 1: "KS KD KC | 5S 5D 5C",
                            2: "9S 9H 9C | 2S 3S 4S 5S", 3: "9S 9H 9C"})
    nine = parse_cards("9D")[0]
    for move in (LayOff(4, 0, nine), LayOff(-1, 0, nine), LayOff(2, -1, nine),
                 LayOff(2, 2, nine)):
        refused(state, move, Reason.NO_SUCH_MELD, "MI-OFF-2")
    refused(state, parse_move("layoff 0:0 9D"), Reason.CARD_DOES_NOT_FIT, "MI-OFF-3")
    refused(state, parse_move("layoff 2:0 9C"), Reason.CARDS_NOT_IN_HAND, "MI-OFF-3")


def test_MI_OUT_1_keeping_a_card_is_the_only_limit() -> None:
    """MI-OUT-1 with ``out_requires_discard=true``: going down that keeps a card is legal;
    a down that would empty the hand is refused for that rule alone (MI-OUT-1), its
    sequences being a valid contract (MI-CON-3: 3-6 and 9-Q are two; 3-6 and 7-10 are
    one, allowed with ``allow_contiguous_runs``)."""
    strict = {"out_requires_discard": True}
    keep = position(hands={1: "7S 7H 7D KS KD KC 4C"}, turn=1, options=strict)
    assert "down 7S 7H 7D / KS KD KC" in texts(keep)
    two = position(hands={1: "3S 4S 5S 6S 9S TS JS QS"}, turn=1, hand_no=2, options=strict)
    refused(two, parse_move("down 3S 4S 5S 6S / 9S TS JS QS"), Reason.MUST_KEEP_CARD,
            "MI-OUT-1")
    joined = position(hands={1: "3S 4S 5S 6S 7S 8S 9S TS"}, turn=1, hand_no=2,
                      options={**strict, "allow_contiguous_runs": True})
    refused(joined, parse_move("down 3S 4S 5S 6S / 7S 8S 9S TS"), Reason.MUST_KEEP_CARD,
            "MI-OUT-1")


def test_MI_OUT_2_deal_five_down_and_out_in_one_turn() -> None:
    """MI-OUT-2: in deal 5 a ready ten-card contract goes down with 10 of 11 cards and the
    last card is discarded: out in the same turn, the deal ends at once."""
    state = position(hands={2: "5S 5H 5D 9C 9D 9H 3S 4S 5S 6S KC"}, turn=2, hand_no=4)
    down = apply(state, parse_move("down 5S 5H 5D / 9D 9H 9C / 3S 4S 5S 6S"))
    assert down.hands[2] == hand("KC") and texts(down) == ["discard KC"]
    over = apply(down, parse_move("discard KC"))
    assert over.phase is Phase.GAME_OVER and over.result is not None
    assert over.result.went_out == 2 and over.result.sides[2].total == 0


# --- options, registry, facade ---------------------------------------------------------------


def test_MI_options_named_and_validated() -> None:
    """§6.1: every ``mayi.*`` option exists under its name without the prefix; the prefix is
    accepted; unknown names and bad values are refused."""
    info = {v.id: v for v in catalogue()}["may_i"]
    assert {o.name for o in info.options} == {
        "schedule", "contract_exact_sizes", "allow_contiguous_runs", "ace_wrap",
        "buy_penalty_cards", "buy_priority", "max_buys_per_deal", "down_players_may_buy",
        "layoff_same_turn", "out_requires_discard", "turn_upcard"}
    rules = rules_for("may_i", 4, {"mayi.ace_wrap": "false", "max_buys_per_deal": "unlimited"})
    assert rules.wrap is False and rules.buy_cap == NO_BUY_LIMIT
    for bad, reason in (({"mayi.nope": 1}, Reason.UNKNOWN_OPTION),
                        ({"buy_priority": "loudest"}, Reason.BAD_OPTION_VALUE),
                        ({"ace_wrap": "maybe"}, Reason.BAD_OPTION_VALUE),
                        ({"max_buys_per_deal": -1}, Reason.BAD_OPTION_VALUE)):
        with pytest.raises(BadInput) as err:
            new_game("may_i", 4, options=bad)
        assert err.value.reason is reason


def test_MI_moves_text_round_trip() -> None:
    """Move texts round-trip through ``engine.parse_move`` (canonical cards and groups)."""
    for text in ("take", "draw", "buy", "pass", "discard 9H", "layoff 2:1 9D",
                 "down 7S 7H 7D / KS KD KC", "down QS KS AS 2S / 3H 4H 5H 6H"):
        move = parse_move(text)
        assert str(move) == text and parse_move(str(move)) == move
    assert str(parse_move("down 2s as ks qs / 7d 7s 7h")) == "down 7S 7H 7D / QS KS AS 2S"


def test_MI_views_follow_the_shared_shape() -> None:
    """Views: one side per player with his melds; own hand only; the whole pile public."""
    state = position(hands={1: "9D KH 4C"}, turn=1,
                     melds={1: "KS KD KC | 5S 5D 5C", 2: "9S 9H 9C | 2S 3S 4S 5S"})
    view = seat_view(state, 2)
    assert [s.team for s in view.sides] == [0, 1, 2, 3]
    assert [m.cards for m in view.sides[2].melds] == [("9S", "9H", "9C"), ("2S", "3S", "4S", "5S")]
    assert [m.rank for m in view.sides[2].melds] == ["9", "S"]
    # May I? melds have no wild count, canasta or label; a set is a group, a run a sequence
    assert [(m.wilds, m.canasta, m.label, m.kind) for m in view.sides[2].melds] == [
        (0, "", "", "group"), (0, "", "", "sequence")]
    assert not view.pile_frozen and not any(s.pile_frozen for s in view.sides)  # MI-TURN-3
    # no minimum, no permission question, no staging in May I?: those fields stay empty
    assert [s.minimum for s in view.sides] == [0, 0, 0, 0]
    assert (view.asked, view.answer, view.staged) == (False, "", ())
    assert seat_view(new_game("may_i", 4, seed=13), 0).pile_top == ""  # no pile yet
    assert view.sides[2].opened and not view.sides[0].opened
    assert len(view.hand) == 10 and view.legal_moves == () and view.hand_sizes[1] == 3
    assert len(view.pile) == view.pile_size == 5
    assert seat_view(state, 1).legal_moves == tuple(texts(state))
    assert seat_view(state, -1).hand == ()


def test_MI_notation_reads_both_headers() -> None:
    """Positions: the May I? notation round-trips; a Canasta-style text that says
    ``variant: may_i`` (comma-separated options, labelled melds) is read as well."""
    state = position(hands={1: "9D KH 4C"}, turn=1, melds={2: "9S 9H 9C | 2S 3S 4S 5S"},
                     options={"ace_wrap": False, "schedule": "ss,rr"})
    text = export_position(state)
    assert text.startswith("mayi-position 1\n") and "schedule=ss,rr" in text
    assert import_position(text) == state
    other = import_position("canasta-position 1\nvariant: may_i\nplayers: 3\n"
                            "options: ace_wrap=false,turn_upcard=true\nphase: meld\n"
                            "melds1: 9@1: 9S 9H 9C\nhand0: *10\nhand1: *7\nhand2: *10\n"
                            "pile: *3\nstock: *\n")
    assert isinstance(other, MayIState) and other.down == (False, True, False)
    assert other.rules.turn_upcard is True and other.turn.drew == "stock"
    with pytest.raises(BadInput) as err:
        import_position("mayi-position 1\nplayers: 4\nhand0: 7S 7S 7S\nstock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
