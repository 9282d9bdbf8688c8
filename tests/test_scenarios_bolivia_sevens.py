"""The scenarios of Bolivia with sevens (SV-Tn), plus rule checks of our own.

Every test names the scenario or rule in its name and the rule IDs it checks in its
docstring. Seats: 0..3 = N, E, S, W; team 0 = N+S, team 1 = E+W.
"""

from __future__ import annotations

import pytest

from engine import Phase, Reason, State, legal_moves, new_game, rules_for
from engine.moves import Undo
from engine.views import provisional_score
from tests.positions import cards, discards, listed, meld_cards, passes, play, position, refuse

SV = "bolivia_sevens"
ESCALERA = "5H 6H 7H 8H 9H TH JH"
NINES = "9S 9H 9D 9C 9S 9H 9D"


@pytest.mark.parametrize("variant", ["bolivia", SV])
def test_SV_T1_no_meld_past_seven_cards(variant: str) -> None:
    """SV-T1; SV-CAN-1, BO-CAN-1, SA-SEQ-5: a natural canasta takes an eighth card only in
    Bolivia; an escalera takes none in either."""
    s = position(variant, hands={0: "9C QH 4C 6D"},
                 melds={0: f"9@0: {NINES} | H:5-J@2: {ESCALERA}"})
    if variant == SV:
        refuse(s, "add 9 9C", Reason.MELD_CLOSED, "SV-CAN-1")
    else:
        assert meld_cards(play(s, "add 9 9C"), 0)[0] == cards(NINES + " 9C")
    refuse(s, "add H:5-J QH", Reason.MELD_CLOSED, "SA-SEQ-5")


def _sv_t3() -> State:
    return position(SV, turn=3, stock=6, stock_top="4C 5D 6S 8C 9D TS",
                    hands={3: "KD 9S 4H 6H JC QD", 0: "JS JD 5C 8H AS"},
                    melds={1: "K@1: KS KH KD KC KS KH | Q@3: QS QH QC"},
                    red3={0: "3H 3D", 1: "3H 3D", 2: "3H 3D"}, pile="*")


def test_SV_T3_bonus_with_fewer_than_eleven_cards_left() -> None:
    """SV-T3; SV-BONUS-1/2/4, BO-END-2/3: W completes the deal's first canasta with six
    stock cards left, takes those six, melds, discards; N may take the pile; the deal
    ends when the player in turn does not."""
    s = _sv_t3()
    s1 = play(s, "add K KD")
    assert s1.stock == () and len(s1.hands[3]) == 5 + 6
    assert cards("4C 5D 6S 8C 9D TS") == tuple(sorted(set(s1.hands[3]) - set(s.hands[3])))
    assert Undo() not in legal_moves(s1)  # SV-BONUS-2: the draw ends the undo
    s2 = play(s1, "add Q QD", "discard 9D")  # 9D was a bonus card
    assert cards("QS QH QD QC") in meld_cards(s2, 1)
    assert s2.phase is Phase.DRAW_EXHAUSTED and s2.turn.seat == 0
    end = play(s2, "decline")
    assert end.phase is Phase.HAND_OVER


def test_SV_T5_sevens_canastas() -> None:
    """SV-T5; SV-CAN-3: a natural sevens canasta earns 1500; a mixed one (five sevens, a
    deuce and a joker: 25 + 20 + 50 = 95 points) earns 1000."""
    ew = {1: f"9@1: {NINES}"}  # the deal's first canasta is EW's: no bonus cards
    nat = position(SV, hands={0: "7S 7H 7D 7C 7S 7H 7D 4C 6D"}, melds={0: "K@0: KS KH KD", **ew})
    before = provisional_score(nat)[0]
    n1 = play(nat, "meld 7S 7H 7D 7C 7S 7H 7D")
    assert provisional_score(n1)[0].canasta_bonus - before.canasta_bonus == 1500
    mix = position(SV, hands={0: "7S 7H 7D 7C 7S 2D JK 4C 6D"}, melds={0: "K@0: KS KH KD", **ew})
    m1 = play(mix, "meld 7S 7H 7D 7C 7S 2D JK")
    after = provisional_score(m1)[0]
    assert after.canasta_bonus - before.canasta_bonus == 1000
    assert after.base - before.base == 95


@pytest.mark.parametrize(("score", "need"), [
    (3495, 60), (3500, 100), (6995, 100), (7000, 140), (10495, 140), (10500, 180), (-120, 60)])
def test_SV_T7_initial_meld_bands(score: int, need: int) -> None:
    """SV-T7; SV-INIT-1: 60 up to 3495 (negative too), 100, 140, then 180 from 10500."""
    s = position(SV, scores=(score, 0), hands={0: "9S 9H 9D 8C 8D 8H 4S 6D JC QH"})
    assert s.rules.minimum_for(score) == need
    if need == 60:
        done = play(s, "meld 9S 9H 9D", "meld 8C 8D 8H", "discard 4S")
        assert done.opened[0]
    else:
        refuse(s, "meld 9S 9H 9D", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")


def test_SV_T7_negative_minimum_option() -> None:
    """SV-INIT-1 option sv.negative_minimum: 15 with a negative score."""
    assert rules_for(SV, 4, {"sv.negative_minimum": 15}).minimum_for(-120) == 15
    assert rules_for(SV, 4, {"sv.negative_minimum": 15}).minimum_for(0) == 60


NS_4100 = ("W@0: JK JK JK 2S 2H 2D 2C | H:5-J@2: " + ESCALERA
           + " | A@0: AS AH AD AC AS AH | K@0: KS KH KD KC KS KH | Q@2: QS QH QD QC QS QH"
           + " | J@2: JS JH JD JC JS JH | 6@0: 6S 6H 6D 6C 6S")
EW_400 = ("9@1: 9S 9H 9D 9C 9S 9H | 8@1: 8S 8H 8D 8C 8S 8H | T@1: TS TH TD TC TS TH"
          " | 7@3: 7S 7H 7D 7C 7S 7H | A@3: AS AH AD AD AC AC | K@3: KS KH KD KD KC KC"
          " | 4@1: 4S 4H 4D 4C")


def _last_deal(hand_no: int, scores: tuple[int, int],
               options: dict[str, object] | None = None) -> State:
    return position(SV, options=options, phase="draw_exhausted", turn=0, stock=0, pile="*",
                    hand_no=hand_no, scores=scores, melds={0: NS_4100, 1: EW_400},
                    hands={0: "4D", 1: "4S", 2: "4C", 3: "4H"})


def test_SV_T9_four_deals_higher_total_wins() -> None:
    """SV-T9; SV-GAME-1: NS 2990 + 1200 - 300 + 4100 = 7990, EW 1775 + 3300 + 2500 + 400
    = 7975: after the fourth deal NS win by 15."""
    end = play(_last_deal(3, (2990 + 1200 - 300, 1775 + 3300 + 2500)), "decline")
    assert end.result is not None
    assert [x.total for x in end.result.sides] == [4100, 400]
    assert [x.cumulative for x in end.result.sides] == [7990, 7975]
    assert end.phase is Phase.GAME_OVER and end.result.winner == 0
    assert not end.result.draw  # a sole leader wins: no draw
    third = play(_last_deal(2, (3890, 7575)), "decline")
    assert third.phase is Phase.HAND_OVER and third.result is not None
    assert third.result.winner == -1  # no target: only the fourth deal decides


def test_SV_GAME_1_tie_is_a_draw_or_another_deal() -> None:
    """SV-GAME-1, option sv.tiebreak_extra_deal: equal totals after four deals."""
    tie = play(_last_deal(3, (0, 3700)), "decline")
    assert tie.phase is Phase.GAME_OVER and tie.result is not None and tie.result.draw
    more = play(_last_deal(3, (0, 3700), {"sv.tiebreak_extra_deal": True}), "decline")
    assert more.phase is Phase.HAND_OVER and more.result is not None
    assert not more.result.draw and more.result.winner == -1


def test_SV_T11_last_card_is_never_discarded() -> None:
    """SV-T11; BO-OUT-1: as in Bolivia, nobody discards his only card."""
    s = position(SV, hands={0: "9D"}, melds={0: "K@0: KS KH KD"})
    refuse(s, "discard 9D", Reason.MUST_KEEP_CARD, "BO-OUT-1")


# --- rule checks of our own ----------------------------------------------------------


def _bonus_position(options: dict[str, object] | None = None, opened: bool = True) -> State:
    melds = {0: "K@0: KS KH KD KC KS KH"} if opened else {}
    return position(SV, options=options, hands={0: "KD 9S 9H 9D 5C 6D 7S"}, melds=melds,
                    stock_top="4C 5D 6S 8C 9C TS JD QS AC 4D 5S")


def test_SV_BONUS_1_first_canasta_draws_eleven_meldable_at_once() -> None:
    """SV-BONUS-1/2/3: the deal's first canasta draws the top eleven stock cards, which may
    be melded in the same turn; the next canasta draws nothing."""
    s = _bonus_position()
    stock = len(s.stock)
    s1 = play(s, "add K KD")
    assert len(s1.stock) == stock - 11 and len(s1.hands[0]) == 6 + 11
    s2 = play(s1, "meld 9S 9H 9D 9C")  # 9C is a bonus card
    assert len(s2.stock) == stock - 11
    other = play(s2, "discard 5C")
    assert other.turn.seat == 1


def test_SV_BONUS_2_unopened_side_needs_its_minimum_first() -> None:
    """SV-BONUS-2 (engine reading): the bonus draw cannot be undone, so an unopened side
    completes the first canasta only once the turn's melds reach its minimum."""
    s = position(SV, hands={0: "4S 4H 4D 4C 4S 4H 4D 9S 9H 9D 6C 8D"})
    refuse(s, "meld 4S 4H 4D 4C 4S 4H 4D", Reason.OPENING_MINIMUM_NOT_MET, "SV-BONUS-2")  # 35 < 60
    s1 = play(s, "meld 9S 9H 9D")  # 30
    s2 = play(s1, "meld 4S 4H 4D 4C 4S 4H 4D")  # 65 >= 60: the bonus comes
    assert s2.opened[0] and len(s2.hands[0]) == 2 + 11 and Undo() not in legal_moves(s2)


def test_SV_BONUS_3_once_per_deal_or_per_side() -> None:
    """SV-BONUS-3, option sv.bonus_per_side: after EW's canasta NS get nothing, unless
    each side's first canasta is rewarded."""
    for per_side, gained in ((False, 0), (True, 11)):
        s = position(SV, options={"sv.bonus_per_side": per_side},
                     hands={0: "KD 9S 9H 9D 5C 6D 7S"},
                     melds={0: "K@0: KS KH KD KC KS KH", 1: f"9@1: {NINES}"})
        s1 = play(s, "add K KD")
        assert len(s1.hands[0]) == 6 + gained


def test_SV_SEVEN_2_sevens_and_black_threes_in_hand() -> None:
    """SV-SEVEN-2, BO-B3-4: each seven in hand costs 500 (505 additive), each black three
    200."""
    s = position(SV, hands={0: "7S 7H 3S 4C"}, melds={0: "K@0: KS KH KD"})
    assert provisional_score(s)[0].in_hand == 500 + 500 + 200 + 5 + 15 * 0 + _rest(s)
    t = position(SV, options={"sv.seven_penalty_additive": True}, hands={0: "7S 7H 3S 4C"},
                 melds={0: "K@0: KS KH KD"})
    assert provisional_score(t)[0].in_hand == 505 + 505 + 200 + 5 + _rest(t)


def _rest(state: State) -> int:
    """What partner S's hand costs."""
    return sum(state.rules.hand_value(c) for c in state.hands[2])


def test_SV_R3_2_red_threes_need_a_bolivia_escalera_or_natural_sevens() -> None:
    """SV-R3-1/2: red threes are plus only with a bolivia, an escalera or a natural
    sevens canasta; all six are 2000."""
    reds = {0: "3H 3D 3H", 2: "3D 3H 3D"}
    plain = position(SV, hands={0: "4C 6D"}, red3=reds,
                     melds={0: f"9@0: {NINES} | K@2: KS KH KD KC KS KH KD"})
    assert provisional_score(plain)[0].red_three_points == -2000
    for good in (f"H:5-J@0: {ESCALERA}", "7@0: 7S 7H 7D 7C 7S 7H 7D",
                 "W@0: JK JK 2S 2H 2D 2C 2S"):
        s = position(SV, hands={0: "4C 6D"}, red3=reds, melds={0: good})
        assert provisional_score(s)[0].red_three_points == 2000
    mixed7 = position(SV, hands={0: "4C 6D"}, red3=reds, melds={0: "7@0: 7S 7H 7D 7C 7S 7H JK"})
    assert provisional_score(mixed7)[0].red_three_points == -2000


def test_SV_alias_and_deal() -> None:
    """Variant C's provisional alias deals the same game (section 1.2)."""
    a = new_game("chile_provisional", 4, seed=9)
    b = new_game(SV, 4, seed=9)
    assert a == b and a.rules.variant == SV
    assert discards(play(b, "draw"))


@pytest.mark.parametrize("card", ["9C", "2C", "JK"])
def test_SV_CAN_1_nothing_joins_a_seven_card_canasta(card: str) -> None:
    """SV-CAN-1: no card of any kind joins a meld of seven, a wild card included; the
    refusal names the seven-card limit, not the natural canasta's closure (SA-CAN-3)."""
    state = position("bolivia_sevens", hands={0: "9C 2C 5D 6D JK"}, drew="stock",
                     opened=(1, 0), melds={0: "9@0: 9S 9H 9D 9C 9S 9H 9D"})
    err = refuse(state, f"add 9 {card}", Reason.MELD_CLOSED, "SV-CAN-1")
    assert err.rule == "SV-CAN-1"


# --- rules no other test cites --------------------------------------------------------


def test_SV_BONUS_5_red_three_among_the_bonus_cards_is_replaced() -> None:
    """SV-BONUS-5, SV-BONUS-1: a red three among the eleven bonus cards is laid out and
    replaced from the stock like any stock draw."""
    s = position(SV, hands={0: "KD 9S 9H 9D 5C 6D 7S"}, melds={0: "K@0: KS KH KD KC KS KH"},
                 stock_top="5S 4C 5D 6S 8C 9C TS JD QS AC 3H 4D")
    n = len(s.stock)
    s1 = play(s, "add K KD")
    assert s1.red3[0] == cards("3H")
    gained = sorted(set(s1.hands[0]) - set(s.hands[0]))
    assert len(s1.hands[0]) == 6 + 11 and len(s1.stock) == n - 12
    assert cards("5S")[0] in s1.hands[0] and not any(c in cards("3H") for c in gained)


def test_SV_BONUS_6_two_canastas_in_one_turn_one_bonus() -> None:
    """SV-BONUS-6: completing two canastas in one turn draws the eleven cards once, at the
    first completion."""
    s = position(SV, hands={0: "KD QD 9S 5C 6D 7S 8H"},
                 melds={0: "K@0: KS KH KD KC KS KH | Q@2: QS QH QD QC QS QH"})
    n = len(s.stock)
    s1 = play(s, "add K KD")
    assert len(s1.stock) == n - 11
    s2 = play(s1, "add Q QD")
    assert len(s2.stock) == n - 11 and len(s2.hands[0]) == 7 - 2 + 11


def test_SV_CAN_2_merge_only_up_to_seven_cards() -> None:
    """SV-CAN-2: two groups merge only into at most seven cards with at most two wilds."""
    s = position(SV, hands={0: "KD KC 2C 9S 4C 6D"}, melds={0: "K@0: KS KH KD KS"})
    s1 = play(s, "meld KD KC 2C")
    assert listed(s1, "merge K K#2")  # 4 + 3 = 7
    t = position(SV, hands={0: "KD KC 2C 9S 4C 6D"}, melds={0: "K@0: KS KH KD KS KH"})
    t1 = play(t, "meld KD KC 2C")  # 5 + 3 = 8
    assert not listed(t1, "merge K K#2")
    refuse(t1, "merge K K#2", Reason.MERGE_NOT_ALLOWED, "SV-CAN-2")
    w = position(SV, hands={0: "KD KC 2C 9S 4C 6D"}, melds={0: "K@0: KS KH 2D JK"})
    w1 = play(w, "meld KD KC 2C")  # three wild cards: the wild limit (SA-MELD-6)
    refuse(w1, "merge K K#2", Reason.MERGE_NOT_ALLOWED, "SA-MELD-6")


def test_SV_SEVEN_1_sevens_are_ordinary_cards() -> None:
    """SV-SEVEN-1: sevens may be discarded, melded and used to take the pile."""
    s = position(SV, phase="draw", hands={0: "7S 7H 7D 4C 6D"}, melds={0: "K@0: KS KH KD"},
                 pile="5C 7C")
    s1 = play(s, "take 7S 7H")
    assert cards("7S 7H 7C") in meld_cards(s1, 0)
    assert "discard 7D" in discards(s1)
    t = position(SV, hands={0: "7S 7H 7D 4C 6D"}, melds={0: "K@0: KS KH KD"})
    assert cards("7S 7H 7D") in meld_cards(play(t, "meld 7S 7H 7D"), 0)


def test_SV_CAN_1_a_natural_pair_takes_the_pile_into_no_group_past_seven() -> None:
    """SV-CAN-1, SA-PILE-1: the naturals shown with the top card make a group of seven at
    most; seven naturals and the top card (eight) are refused and not listed."""
    s = position(SV, phase="draw", hands={0: f"{NINES} 4C 6D QH"}, pile="5C 9C",
                 melds={0: "K@2: KS KH KD"})
    refuse(s, f"take {NINES}", Reason.MELD_CLOSED, "SV-CAN-1")
    assert passes(s, "take 9S 9H 9D 9C 9S 9H")


def test_SV_BONUS_2_the_bonus_draw_makes_the_player_melded() -> None:
    """SV-BONUS-2, CL-OUT-10 a: the bonus draw makes the turn's melds final, so a player who
    completes the partner's canasta and then only discards has melded in the hand."""
    s = position(SV, hands={0: "KD 9S 9H 9D 5C 6D 7S"}, melds={0: "K@2: KS KH KD KC KS KH"},
                 stock_top="4C 5D 6S 8C 9C TS JD QS AC 4D 5S")
    assert not s.melded[0]
    s1 = play(s, "add K KD")
    assert len(s1.hands[0]) == 6 + 11 and s1.turn.staged == ()
    assert play(s1, "discard 5C").melded == (True, False, True, False)


def test_SV_BONUS_4_a_bonus_that_empties_the_stock_leaves_the_next_player_his_chance() -> None:
    """SV-BONUS-4, BO-END-2/3 (bolivia.after_stock=single_chance): the pile taken while the
    stock still holds cards is no last chance, even when its canasta's bonus draws the
    stock empty; after the discard the next player may take the pile."""
    s = position(SV, options={"bolivia.after_stock": "single_chance"}, phase="draw",
                 hands={0: "KS KH 9S 9H 5C 6D 4S"}, melds={0: "K@0: KS KH KD KC"},
                 pile="4D KD", stock=5, red3={0: "3H 3D", 1: "3H 3D", 2: "3H", 3: "3D"})
    s1 = play(s, "take KS KH on K")
    assert s1.stock == () and len(s1.hands[0]) == 6 + 5 and not s1.turn.last_chance
    s2 = play(s1, "discard 5C")
    assert s2.phase is Phase.DRAW_EXHAUSTED and s2.turn.seat == 1
