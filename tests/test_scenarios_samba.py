"""The Samba scenarios of the rules (SA-Tn), plus rule checks of our own.

Every test names the scenario or rule in its name and the rule IDs it checks in its
docstring. Seats: 0..3 = N, E, S, W; team 0 = N+S, team 1 = E+W.
"""

from __future__ import annotations

import pytest

from engine import (
    BadInput,
    Phase,
    Reason,
    RuleViolation,
    State,
    apply,
    legal_moves,
    new_game,
    next_deal,
    parse_cards,
    parse_move,
    rules_for,
)
from engine.cards import rank_of_char
from engine.moves import TakePile
from engine.views import provisional_score, seat_view
from tests.positions import cards, discards, listed, meld_cards, passes, play, position, refuse

SA = "samba"
K_CANASTA = "KS KH KD KC KS KH KD"
SAMBA_H = "5H 6H 7H 8H 9H TH JH"


def test_SA_T1_pile_never_with_natural_and_wild() -> None:
    """SA-T1; SA-PILE-2: a natural and a wild card never take the pile, frozen or not;
    a natural pair does (SA-PILE-1)."""
    s = position(SA, phase="draw", hands={0: "9H 2C 9D 4C 6D JS QH"},
                 melds={0: "K@0: KS KH KD"}, pile="5C 9S")
    assert not seat_view(s, 0).sides[0].pile_frozen
    refuse(s, "take 9H 2C", Reason.PILE_NEEDS_PAIR, "SA-PILE-2")
    refuse(s, "take 9H", Reason.PILE_NEEDS_PAIR, "SA-PILE-1")
    s1 = play(s, "take 9H 9D")
    assert cards("9S 9H 9D") in meld_cards(s1, 0)
    assert s1.hands[0] == cards("2C 4C 6D JS QH 5C")


def test_SA_T3_pile_extends_incomplete_group_unless_frozen() -> None:
    """SA-T3; SA-PILE-3, SA-PILE-6: an unfrozen pile is taken by adding its top card
    alone to an incomplete group; a joker in the pile freezes it (a pair is needed)."""
    hand = {0: "4C 6D JS QH 8C"}
    s = position(SA, phase="draw", hands=hand, melds={0: "9@2: 9D 9D 9C 2S"}, pile="5C 9H")
    s1 = play(s, "take on 9")
    assert meld_cards(s1, 0) == [cards("9D 9D 9C 9H 2S")]
    assert s1.hands[0] == cards("4C 6D JS QH 8C 5C")
    frozen = position(SA, phase="draw", hands=hand, melds={0: "9@2: 9D 9D 9C 2S"},
                      pile="5C JK 7D 9H")
    assert seat_view(frozen, 0).pile_frozen
    refuse(frozen, "take on 9", Reason.PILE_FROZEN, "SA-PILE-6")


def test_SA_T5_at_most_two_wild_cards_in_a_group() -> None:
    """SA-T5; SA-MELD-2: three wild cards in a group are refused, two are fine."""
    s = position(SA, hands={0: "8S 8H 8D 2C 2S JK 4C 6D QH"}, melds={0: "K@0: KS KH KD"})
    refuse(s, "meld 8S 8H 8D 2C 2S JK", Reason.TOO_MANY_WILDS, "SA-MELD-2")
    s1 = play(s, "meld 8S 8H 8D 2C 2S")
    assert cards("8S 8H 8D 2C 2S") in meld_cards(s1, 0)
    refuse(s1, "add 8 JK", Reason.TOO_MANY_WILDS, "SA-MELD-2")


def test_SA_T7_samba_is_closed_at_seven() -> None:
    """SA-T7; SA-SEQ-5, SA-CAN-2: nothing joins a samba; a sixth-to-seventh card
    makes one, worth 1500."""
    s = position(SA, hands={0: "QH 4H 6C 9S 2D"},
                 melds={0: f"H:5-J@0: {SAMBA_H}"})
    refuse(s, "add H:5-J QH", Reason.MELD_CLOSED, "SA-SEQ-5")
    refuse(s, "add H:5-J 4H", Reason.MELD_CLOSED, "SA-SEQ-5")
    refuse(s, "add H:5-J 2D", Reason.MELD_CLOSED, "SA-SEQ-5")  # closed before any wild check
    t = position(SA, hands={0: "JH 4C 6C 9S 2D"}, melds={0: "H:5-T@0: 5H 6H 7H 8H 9H TH"})
    before = provisional_score(t)[0]
    t1 = play(t, "add H:5-T JH")
    samba = t1.melds[0][0]
    assert samba.is_canasta and samba.kind == "sequence"
    after = provisional_score(t1)[0]
    assert after.canasta_bonus - before.canasta_bonus == 1500
    assert after.base - before.base == 10


def _sa_t9(options: dict[str, object] | None = None) -> State:
    return position(SA, phase="draw", scores=(7200, 0), options=options,
                    hands={0: "AH AD JK KS KH 6H 7H 8H 4C 9D JC QS 5D"}, pile="TC 4D AS")


def test_SA_T9_initial_meld_150_from_7000() -> None:
    """SA-T9; SA-INIT-1, SA-PILE-9, SA-SEQ-7: at 7200 the minimum is 150; the top card,
    the pair and the melds shown count (60 + 70 + 20), the pile below does not."""
    s = _sa_t9()
    assert s.rules.minimum_for(7200) == 150
    s1 = play(s, "take AH AD / KS KH JK / 6H 7H 8H")
    assert {cards("AS AH AD"), cards("KS KH JK"), cards("6H 7H 8H")} <= set(meld_cards(s1, 0))
    assert s1.opened[0] and cards("TC 4D")[0] in s1.hands[0]
    refuse(s, "take AH AD / KS KH JK", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-6")
    strict = _sa_t9({"samba.min_7000": 160})
    assert strict.rules.minimum_for(7200) == 160
    refuse(strict, "take AH AD / KS KH JK / 6H 7H 8H",
           Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-6")


def test_SA_T11_black_threes_only_when_going_out() -> None:
    """SA-T11; SA-B3-1, SA-OUT-1/2: black threes are melded only as the last cards of a
    going out with two canastas."""
    s = position(SA, hands={0: "3S 3C 3C 9D 4C 6H"},
                 melds={0: f"K@0: {K_CANASTA} | H:5-J@2: {SAMBA_H}"})
    refuse(s, "meld 3S 3C 3C", Reason.BLACK_THREES_ONLY_GOING_OUT, "SA-B3-1")
    out = position(SA, hands={0: "3S 3C 3C"},
                   melds={0: f"K@0: {K_CANASTA} | H:5-J@2: {SAMBA_H}"})
    out1 = play(out, "meld 3S 3C 3C", "out")
    assert out1.phase is Phase.HAND_OVER
    assert out1.result is not None and out1.result.went_out == 0
    assert out1.result.sides[0].going_out == 200  # SA-OUT-3
    one = position(SA, hands={0: "3S 3C 3C"}, melds={0: f"K@0: {K_CANASTA}"})
    refuse(one, "meld 3S 3C 3C", Reason.BLACK_THREES_ONLY_GOING_OUT, "SA-B3-1")
    # a set of four has the right size: only the turn's going out is missing
    four = position(SA, hands={0: "3S 3S 3C 3C 2C 9D 4C 6H"},
                    melds={0: f"K@0: {K_CANASTA} | H:5-J@2: {SAMBA_H}"})
    refuse(four, "meld 3S 3S 3C 3C", Reason.BLACK_THREES_ONLY_GOING_OUT, "SA-B3-1")
    refuse(four, "meld 3S 3C 2C", Reason.TOO_MANY_WILDS, "SA-B3-1")  # never a wild card


def test_SA_B3_1_three_or_four_black_threes() -> None:
    """SA-B3-1: a going-out black-three meld has three or four cards: five or six are
    ``MELD_CLOSED``, citing Samba's rule (they cited Bolivia's BO-B3-2)."""
    melds = {0: f"K@0: {K_CANASTA} | H:5-J@2: {SAMBA_H}"}
    for hand in ("3S 3S 3S 3C 3C", "3S 3S 3S 3C 3C 3C"):
        s = position(SA, hands={0: hand}, melds=melds)
        refuse(s, "meld " + hand, Reason.MELD_CLOSED, "SA-B3-1")


def _reds(count_ns: int, canastas: int, options: dict[str, object] | None = None) -> State:
    melds = [f"K@0: {K_CANASTA}", f"H:5-J@2: {SAMBA_H}", "Q@0: QS QH QD"][:canastas]
    melds.append("9@0: 9S 9H 9D")
    reds = ["3H", "3D", "3H", "3D", "3H", "3D"][:count_ns]
    return position(SA, options=options, hands={0: "4C 6D"}, melds={0: " | ".join(melds)},
                    red3={0: " ".join(reds[:3]) or "-", 2: " ".join(reds[3:]) or "-"})


def test_SA_T13_red_threes_need_two_canastas() -> None:
    """SA-T13; SA-R3-2, SA-R3-3, SA-C1: six red threes are 1000, plus with two canastas
    and minus with fewer; five are 500, or 1000 with red3_set_size=5."""
    assert provisional_score(_reds(6, 1))[0].red_three_points == -1000
    assert provisional_score(_reds(6, 2))[0].red_three_points == 1000
    assert provisional_score(_reds(5, 2))[0].red_three_points == 500
    five = _reds(5, 2, {"samba.red3_set_size": "5"})
    assert provisional_score(five)[0].red_three_points == 1000
    brazil = _reds(6, 2, {"samba.red3_set_size": "brazil"})
    assert provisional_score(brazil)[0].red_three_points == 1200


def test_SA_T15_game_to_10000_higher_total_wins() -> None:
    """SA-T15; SA-GAME-1: NS 9800 + 350 = 10150, EW 9900 + 400 = 10300: the game is over
    and EW wins with the higher total."""
    ns = ("AS AH AD AC AS AH | KS KH KD KC KS KH | QS QH QD QC QS QH | JS JH JD JC JS JH"
          " | TS TH TD TC TS TH")
    ew = ("9S 9H 9D 9C 9S 9H | 8S 8H 8D 8C 8S 8H | AS AH AD AD AC AC | KS KH KD KD KC KC"
          " | QS QH QD QD QC QC | 5S 5H 5D 5C 5S 5H | 6S 6H 6D 6C")
    melds = {t: " | ".join(f"{g.split()[0][0]}@{t}: {g.strip()}" for g in text.split("|"))
             for t, text in ((0, ns), (1, ew))}
    s = position(SA, phase="draw_exhausted", turn=1, scores=(9800, 9900), melds=melds,
                 hands={0: "4D", 1: "4H", 2: "4C", 3: "4S"}, pile="*", stock=0)
    end = play(s, "decline")
    assert end.result is not None
    assert [x.total for x in end.result.sides] == [350, 400]
    assert [x.cumulative for x in end.result.sides] == [10150, 10300]
    assert end.phase is Phase.GAME_OVER and end.result.winner == 1


# --- rule checks of our own ----------------------------------------------------------


def test_SA_MELD_5_second_group_of_a_rank_and_merge() -> None:
    """SA-MELD-5, SA-MELD-6: a second group of a rank has the label K#2; two groups merge
    when the wild limit holds."""
    s = position(SA, hands={0: "KD KC 2C JK 9S 4C 6D"}, melds={0: "K@0: KS KH KD KS"})
    s1 = play(s, "meld KD KC 2C")
    assert meld_cards(s1, 0) == [cards("KS KS KH KD"), cards("KD KC 2C")]
    assert [v.label for v in seat_view(s1, 0).sides[0].melds] == ["K", "K#2"]
    assert listed(s1, "merge K K#2") and listed(s1, "add K#2 JK")
    s2 = play(s1, "merge K K#2")
    assert meld_cards(s2, 0) == [cards("KS KS KH KD KD KC 2C")] and s2.melds[0][0].is_canasta
    off = position(SA, options={"samba.allow_merge_groups": False},
                   hands={0: "KD KC 2C 9S 4C 6D"}, melds={0: "K@0: KS KH KD KS"})
    refuse(play(off, "meld KD KC 2C"), "merge K K#2", Reason.MERGE_NOT_ALLOWED, "SA-MELD-6")


def test_SA_SEQ_labels_add_at_both_ends_and_no_wild() -> None:
    """SA-SEQ-1/2/3/5: sequences 4..A of one suit, added to at either end, never with a
    wild card; an ace is high only."""
    s = position(SA, hands={0: "4S 8S 9S 2C QD KD AD 5C"}, melds={0: "S:5-7@0: 5S 6S 7S"})
    refuse(s, "add S:5-7 8S 2C", Reason.NOT_A_SEQUENCE, "SA-SEQ-5")
    refuse(s, "add S:5-7 9S", Reason.NOT_A_SEQUENCE, "SA-SEQ-5")
    s1 = play(s, "add S:5-7 4S 8S 9S")
    assert s1.melds[0][0].cards == cards("4S 5S 6S 7S 8S 9S")
    s2 = play(s1, "meld QD KD AD")
    assert [str(v.label) for v in seat_view(s2, 0).sides[0].melds] == ["S:4-9", "D:Q-A"]
    refuse(s, "meld 2C 4S 5C", Reason.NOT_A_SEQUENCE, "SA-SEQ-1")


def test_SA_PILE_4_5_no_pile_route_to_a_sequence_with_hand_cards_or_a_samba() -> None:
    """SA-PILE-3/4/5: the top card alone extends a sequence end; never with hand cards,
    never to a samba."""
    s = position(SA, phase="draw", hands={0: "9C 4H QD QS 7D"},
                 melds={0: "C:5-8@0: 5C 6C 7C 8C | H:5-J@2: " + SAMBA_H}, pile="4D 9C")
    takes = {str(m) for m in legal_moves(s) if isinstance(m, TakePile)}
    assert takes == {"take on C:5-8"}
    s1 = play(s, "take on C:5-8")
    assert cards("5C 6C 7C 8C 9C") in meld_cards(s1, 0)
    top4 = position(SA, phase="draw", hands={0: "9C 4D QD QS 7D"},
                    melds={0: "H:5-J@2: " + SAMBA_H}, pile="3C 6D 4H")
    refuse(top4, "take on H:5-J", Reason.MELD_CLOSED, "SA-PILE-5")


def test_SA_OUT_1_two_canastas_to_go_out() -> None:
    """SA-OUT-1, SA-OUT-4: with one canasta a player keeps a card; with two he goes out."""
    s = position(SA, hands={0: "QS QH QD 9D"}, melds={0: f"K@0: {K_CANASTA}"})
    refuse(s, "meld QS QH QD", Reason.GO_OUT_NEEDS_CANASTAS, "CL-OUT-3")
    t = position(SA, hands={0: "QS QH QD 9D"},
                 melds={0: f"K@0: {K_CANASTA} | H:5-J@2: {SAMBA_H}"})
    t1 = play(t, "meld QS QH QD", "out 9D")
    assert t1.result is not None and t1.result.sides[0].going_out == 200


def test_SA_DRAW_1_draw_two_discard_one() -> None:
    """SA-DRAW-1, SA-DEAL-2, SA-COMP-1: 162 cards, 15 each, draw two, discard one."""
    s = new_game(SA, 4, seed=5)
    assert sum(len(h) for h in s.hands) + sum(len(r) for r in s.red3) >= 60
    assert len(s.hands[0]) == 15
    s1 = play(s, "draw")
    assert len(s1.hands[0]) == 17
    s2 = play(s1, sorted(discards(s1))[0])
    assert len(s2.hands[0]) == 16 and s2.turn.seat == 1


def test_SA_options_are_validated() -> None:
    """Option registry (variants.md 6.1): unknown names and bad values are BadInput."""
    with pytest.raises(BadInput) as err:
        rules_for(SA, 4, {"samba.no_such_option": True})
    assert err.value.reason is Reason.UNKNOWN_OPTION
    with pytest.raises(BadInput) as err:
        rules_for(SA, 4, {"samba.red3_set_size": "7"})
    assert err.value.reason is Reason.BAD_OPTION_VALUE
    with pytest.raises(BadInput) as err:
        rules_for(SA, 3)
    assert err.value.reason is Reason.BAD_PLAYER_COUNT
    assert rules_for(SA, 4, {"samba.ask_partner": "true"}).permission


def test_SA_SEQ_2_a_run_through_a_three_is_not_a_sequence() -> None:
    """SA-SEQ-2: sequences run from the four to the ace, so ``meld 3S 4S 5S`` is refused
    as a sequence that cannot hold a three (not as black threes with wild cards)."""
    state = position("samba", hands={0: "3S 4S 5S 6S KH KD"}, drew="stock", opened=(1, 0))
    err = refuse(state, "meld 3S 4S 5S", Reason.NOT_A_SEQUENCE, "SA-SEQ-2")
    assert err.rule == "SA-SEQ-2"
    assert listed(state, "meld 4S 5S 6S")


def test_SA_OUT_5_a_yes_binds_when_a_sequence_goes_out() -> None:
    """SA-OUT-5, CL-OUT-5 (samba.ask_partner): after "yes", a discard that keeps cards is
    refused while the hand can still go out, here by a sequence and a last discard."""
    state = position(SA, hands={0: "5H 6H 7H 9D"}, options={"samba.ask_partner": True},
                     melds={0: "K@0: KS KH KD KC KS KH KD | A@2: AS AH AD AC AS AH AD"})
    state = play(state, "ask", "yes")
    refuse(state, "discard 9D", Reason.MUST_GO_OUT, "CL-OUT-5")
    end = play(state, "meld 5H 6H 7H", "out 9D")
    assert end.result is not None and end.result.went_out == 0


# --- rules no other test cites --------------------------------------------------------


def _refused(state: State, text: str) -> None:
    """The move is not listed and is refused, whatever the reason."""
    assert not listed(state, text), text
    with pytest.raises(RuleViolation):
        apply(state, parse_move(text))


def test_SA_COMP_2_3_values_and_four_players() -> None:
    """SA-COMP-1, SA-COMP-2, SA-COMP-3, SA-B3-3: classic card values, four players only; a
    black three left in a hand costs 5."""
    rules = rules_for(SA, 4)
    for code, value in {"JK": 50, "2C": 20, "AS": 20, "KS": 10, "8H": 10, "7D": 5,
                        "4C": 5, "3S": 5}.items():
        assert rules.hand_value(parse_cards(code)[0]) == value, code
    for players in (2, 3, 5, 6):
        with pytest.raises(BadInput) as err:
            rules_for(SA, players)
        assert err.value.reason is Reason.BAD_PLAYER_COUNT
    with_three = position(SA, hands={0: "3S 4C"}, melds={0: "K@0: KS KH KD"})
    without = position(SA, hands={0: "4C 5C"}, melds={0: "K@0: KS KH KD"})
    assert provisional_score(with_three)[0].in_hand - provisional_score(without)[0].in_hand == 0


def test_SA_TURN_1_SA_DEAL_1_dealers_left_starts_and_the_deal_moves_left() -> None:
    """SA-TURN-1, SA-DEAL-1: play starts left of the dealer; the next deal passes to the left."""
    for dealer in range(4):
        s = new_game(SA, 4, seed=4, dealer=dealer)
        assert s.turn.seat == (dealer + 1) % 4
    over = play(position(SA, phase="draw_exhausted", stock=0, pile="5D 9H",
                         hands={0: "4C 6D", 1: "QS"}, melds={0: "K@0: KS KH KD"},
                         red3={0: "3H 3D", 1: "3H 3D", 2: "3H 3D"}), "decline")
    assert over.phase is Phase.HAND_OVER
    nxt = next_deal(over)
    assert nxt.dealer == (over.dealer + 1) % 4 and nxt.turn.seat == (nxt.dealer + 1) % 4


def test_SA_DRAW_2_3_pile_replaces_the_draw_and_a_last_single_card() -> None:
    """SA-DRAW-2, SA-DRAW-3, SA-PILE-8: taking the pile takes no stock card (top melded first,
    the rest to the hand); with one stock card left that card alone is drawn."""
    s = position(SA, phase="draw", hands={0: "9H 9D 4C 6D"}, melds={0: "K@0: KS KH KD"},
                 pile="5C QD 9S")
    s1 = play(s, "take 9H 9D")
    assert s1.stock == s.stock and s1.pile == ()
    assert cards("9S 9H 9D") in meld_cards(s1, 0)
    assert s1.hands[0] == cards("4C 6D 5C QD")
    one = position(SA, phase="draw", hands={0: "4C 6D"}, melds={0: "K@0: KS KH KD"},
                   stock=1, stock_top="QC", red3={0: "3H 3D", 1: "3H 3D", 2: "3H 3D"})
    o1 = play(one, "draw")
    assert o1.hands[0] == cards("4C 6D QC") and o1.stock == () and o1.phase is Phase.MELD


def test_SA_DISC_1_2_SA_B3_2_what_a_discard_does() -> None:
    """SA-DISC-1, SA-DISC-2, SA-B3-2: any hand card may be discarded, even one just taken from
    the pile; a wild discard freezes the pile; a black three blocks only the next player."""
    s = position(SA, phase="draw", hands={0: "9H 9D 4C 2C 3S"}, melds={0: "K@0: KS KH KD"},
                 pile="QD 6C 9S")
    s1 = play(s, "take 9H 9D")
    assert "discard QD" in discards(s1) and "discard 6C" in discards(s1)
    wild = play(s1, "discard 2C")
    assert seat_view(wild, 1).pile_frozen
    black = play(position(SA, hands={0: "3S 4C 5D"}, melds={0: "K@0: KS KH KD"},
                          pile="QD 6C"), "discard 3S")
    assert not any(isinstance(m, TakePile) for m in legal_moves(black))
    refuse(black, "take", Reason.PILE_BLOCKED, "CL-PILE-2")
    assert not seat_view(black, 1).pile_frozen


def test_SA_MELD_1_3_4_7_what_a_group_is() -> None:
    """SA-MELD-1, SA-MELD-3, SA-MELD-4, SA-MELD-7: a group needs two naturals; wild cards never
    meld alone; threes join no group; no meld before the draw, none onto the opponents'."""
    s = position(SA, hands={0: "8S 8H 2C 2D JK 3S 3C 9C 4D 6C"}, melds={0: "K@0: KS KH KD",
                                                                      1: "9@1: 9S 9H 9D"})
    _refused(s, "meld 8S 2C 2D")
    _refused(s, "meld 2C 2D JK")
    _refused(s, "meld 3S 3C 2C")
    _refused(s, "add 9 9C")  # EW's nines
    assert listed(s, "meld 8S 8H 2C")
    d = position(SA, phase="draw", hands={0: "8S 8H 8D 4C 6D"}, melds={0: "K@0: KS KH KD"})
    _refused(d, "meld 8S 8H 8D")


def test_SA_CAN_1_5_canasta_kinds_on_the_final_contents() -> None:
    """SA-CAN-1, SA-CAN-5: a group of seven is a canasta, natural 500 or mixed 300, judged on
    what it holds; six cards earn nothing."""
    s = position(SA, hands={0: "QD QC 4C 6D"},
                 melds={0: "Q@0: QS QH QD QC QS 2C | K@2: KS KH KD KC KS KH"})
    assert provisional_score(s)[0].canasta_bonus == 0
    s1 = play(s, "add Q QD")
    assert provisional_score(s1)[0].canasta_bonus == 300
    t = position(SA, hands={0: "KD 4C 6D"},
                 melds={0: "K@2: KS KH KD KC KS KH"})
    assert provisional_score(play(t, "add K KD"))[0].canasta_bonus == 500


def test_SA_PILE_5_7_never_onto_a_canasta_never_a_blocked_top() -> None:
    """SA-PILE-5, SA-PILE-7, SA-PILE-1: the top card never goes onto a completed group
    canasta (a natural pair still starts a new group); a black three or a wild card on top
    blocks the pile."""
    s = position(SA, phase="draw", hands={0: "KD KC 4C 6D 9S"}, melds={0: f"K@0: {K_CANASTA}"},
                 pile="5C KH")
    takes = {str(m) for m in legal_moves(s) if isinstance(m, TakePile)}
    assert takes == {"take KD KC"}
    _refused(s, "take on K")
    for top in ("3C", "2S", "JK"):
        b = position(SA, phase="draw", hands={0: "KD KC 4C 6D 9S"},
                     melds={0: "K@0: KS KH KD"}, pile=f"5C KH {top}")
        assert not any(isinstance(m, TakePile) for m in legal_moves(b)), top
        refuse(b, "take KD KC", Reason.PILE_BLOCKED, "CL-PILE-2")


def test_SA_R3_1_drawn_red_three_replaced_pile_red_three_not() -> None:
    """SA-R3-1: a red three drawn is laid out and replaced; one from the pile is not."""
    s = position(SA, phase="draw", hands={0: "4C 6D"}, melds={0: "K@0: KS KH KD"},
                 stock_top="9C QH 3H")
    n = len(s.stock)
    s1 = play(s, "draw")
    assert s1.red3[0] == cards("3H") and s1.hands[0] == cards("4C 6D QH 9C")
    assert len(s1.stock) == n - 3
    t = position(SA, phase="draw", hands={0: "9H 9D 4C"}, melds={0: "K@0: KS KH KD"},
                 pile="3D 5C 9S")
    t1 = play(t, "take 9H 9D")
    assert t1.red3[0] == cards("3D") and t1.stock == t.stock
    assert t1.hands[0] == cards("4C 5C")


def _sa_exhausted(hand: str, melds: str) -> State:
    return position(SA, phase="draw_exhausted", stock=0, pile="5D 9H",
                    hands={0: hand, 1: "QS", 2: "4D"},
                    melds={0: melds}, red3={0: "3H 3D", 1: "3H 3D", 2: "3H 3D"})


def test_SA_END_3_4_take_after_the_stock() -> None:
    """SA-END-3, SA-END-4, SA-SCORE-1: with the stock gone the pile must be taken when its top
    extends an incomplete group of the side; a take with a pair is optional; declining ends
    the deal with no going-out bonus."""
    must = _sa_exhausted("4C 6D", "9@0: 9S 9C 9D")
    refuse(must, "decline", Reason.MUST_TAKE_PILE, "CL-EXH-4")
    m1 = play(must, "take on 9")
    assert cards("9S 9C 9D 9H") in meld_cards(m1, 0)
    may = _sa_exhausted("9S 9C 4C", "K@0: KS KH KD")
    assert listed(may, "take 9S 9C")
    end = play(may, "decline")
    assert end.phase is Phase.HAND_OVER and end.result is not None
    assert all(x.going_out == 0 for x in end.result.sides)
    ns = end.result.sides[0]
    assert (ns.base, ns.red_three_points, ns.in_hand) == (30, -400, 25 + 5)
    assert ns.total == ns.base + ns.canasta_bonus + ns.red_three_points - ns.in_hand


def test_SA_INIT_2_3_card_values_only_then_no_minimum() -> None:
    """SA-INIT-2, SA-INIT-3: a canasta's bonus does not count toward the minimum, several melds
    add up; once the side has opened no minimum applies."""
    hand = "4S 4S 4H 4H 4D 4D 4C 9S 9H 9C 6D 8C"
    s = position(SA, hands={0: hand})
    s1 = play(s, "meld 9S 9H 9C")
    refuse(s1, "discard 6D", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")  # 30 < 50
    s2 = play(s1, "meld 4S 4S 4H 4H 4D 4D 4C", "discard 6D")  # 30 + 35
    assert s2.opened[0]
    opened = position(SA, turn=2, hands={2: "5S 5H 5D 8C 9D"}, melds={0: "K@0: KS KH KD"})
    assert cards("5S 5H 5D") in meld_cards(play(opened, "meld 5S 5H 5D", "discard 8C"), 0)


def test_SA_SEQ_4_each_rank_once_in_a_sequence() -> None:
    """SA-SEQ-4, SA-SEQ-1: a run holds each rank once: a second 6S neither starts nor joins it."""
    s = position(SA, hands={0: "5S 6S 6S 7S 8S 4C 9D"}, melds={0: "K@0: KS KH KD"})
    _refused(s, "meld 5S 6S 6S 7S")
    s1 = play(s, "meld 5S 6S 7S")
    _refused(s1, "add S:5-7 6S")
    assert listed(s1, "add S:5-7 8S")


# --- refusals the mutation run found untested (each reason and rule ID exact) ----------


def test_SA_MELD_7_add_only_to_a_meld_of_ones_side() -> None:
    """SA-MELD-7: an addition goes only to the side's own melds (docs/errors.md
    ``NO_SUCH_MELD``): the opponents' nines are not a target, and a meld identical to an
    earlier one of the side is named by the first label only (``K``, never ``K#2``)."""
    s = position(SA, hands={0: "9C KC 4C 6D QH"},
                 melds={0: "K@0: KS KH KD", 1: "9@1: 9S 9H 9D"})
    refuse(s, "add 9 9C", Reason.NO_SUCH_MELD, "SA-MELD-7")
    twins = position(SA, hands={0: "KC 4C 6D QH"},
                     melds={0: "K@0: KS KH KD | K@2: KS KH KD"})
    refuse(twins, "add K#2 KC", Reason.NO_SUCH_MELD, "SA-MELD-7")
    assert listed(twins, "add K KC")


def test_SA_MELD_2_5_an_addition_checks_the_group_its_label_names() -> None:
    """SA-MELD-5, SA-MELD-2: with two king groups, ``add K#2`` is judged on the second:
    a joker onto its two deuces makes three wild cards (``TOO_MANY_WILDS``), though the
    first group, without wild cards, would take it (and does: listed, it passes every rule
    check, CL-TURN-3); a nine joins neither (SA-MELD-1)."""
    s = position(SA, hands={0: "JK 4C 6D QH 9S"},
                 melds={0: "K@0: KS KH KD | K@2: KS KC 2C 2D"})
    refuse(s, "add K#2 JK", Reason.TOO_MANY_WILDS, "SA-MELD-2")
    refuse(s, "add K 9S", Reason.MIXED_RANKS, "SA-MELD-1")
    assert passes(s, "add K JK")


def test_SA_INIT_2_one_meld_per_action() -> None:
    """SA-INIT-2 (docs/engine.md, *Staging and undo*): each ``meld`` lays one meld, so two
    groups in one action are refused with ``ONE_MELD_PER_ACTION``, each alone is listed."""
    s = position(SA, hands={0: "8S 8H 8D 9S 9H 9D 4C"}, melds={0: "K@0: KS KH KD"})
    refuse(s, "meld 8S 8H 8D / 9S 9H 9D", Reason.ONE_MELD_PER_ACTION, "SA-INIT-2")
    assert listed(s, "meld 8S 8H 8D") and listed(s, "meld 9S 9H 9D")


def test_SA_MELD_1_3_what_a_new_group_is_refused_for() -> None:
    """SA-MELD-1: a new group has three cards (``MELD_TOO_SMALL``) and two naturals
    (``MELD_NEEDS_NATURALS``); SA-MELD-3: wild cards never meld alone in Samba
    (``MELD_NEEDS_NATURALS``), where Bolivia has wild melds. Two wild cards and a second
    group of a rank (SA-MELD-2, SA-MELD-5) are listed and pass every rule check (CL-TURN-3)."""
    s = position(SA, hands={0: "8S 8H 2C 2D JK KC KC 4C 6D"}, melds={0: "K@0: KS KH KD"})
    refuse(s, "meld 8S 8H", Reason.MELD_TOO_SMALL, "SA-MELD-1")
    refuse(s, "meld 8S 2C 2D", Reason.MELD_NEEDS_NATURALS, "SA-MELD-1")
    refuse(s, "meld 2C 2D JK", Reason.MELD_NEEDS_NATURALS, "SA-MELD-3")
    for text in ("meld 8S 8H 2C 2D", "meld KC KC JK"):
        assert passes(s, text), text


def test_SA_SEQ_1_5_what_a_new_sequence_is_refused_for() -> None:
    """SA-SEQ-1: a sequence is three to seven consecutive naturals of one suit, no wild card
    (``NOT_A_SEQUENCE``, two cards ``MELD_TOO_SMALL``); SA-SEQ-5: eight are too many
    (``MELD_CLOSED``); three and seven are listed and pass every rule check (CL-TURN-3)."""
    s = position(SA, hands={0: "4S 5S 6S 7S 8S 9S TS JS 2C 4C"}, melds={0: "K@0: KS KH KD"})
    refuse(s, "meld 4S 5S 6S 7S 8S 9S TS JS", Reason.MELD_CLOSED, "SA-SEQ-5")
    refuse(s, "meld 4S 5S", Reason.MELD_TOO_SMALL, "SA-SEQ-1")
    refuse(s, "meld 4S 5S 2C", Reason.NOT_A_SEQUENCE, "SA-SEQ-1")
    refuse(s, "meld 4S 6S 7S", Reason.NOT_A_SEQUENCE, "SA-SEQ-1")
    refuse(s, "meld 4S 5S 4C", Reason.NOT_A_SEQUENCE, "SA-SEQ-1")
    for text in ("meld 4S 5S 6S", "meld 4S 5S 6S 7S 8S 9S TS"):
        assert passes(s, text), text


def test_SA_END_3_no_compulsory_take_onto_a_canasta() -> None:
    """SA-END-3, SA-PILE-5: after the stock the take is compulsory only when the top card
    extends a meld by itself; it never goes onto a completed canasta, so with a canasta of
    nines and a pair of nines in hand the take is optional and ``decline`` is listed."""
    s = _sa_exhausted("9S 9C 4C", "9@0: 9S 9S 9C 9C 9D 9D 9D")
    assert listed(s, "take 9S 9C") and not listed(s, "take on 9")
    assert listed(s, "decline")


def test_SA_CAN_3_no_wild_card_joins_a_canasta() -> None:
    """SA-CAN-3: no wild card joins a completed canasta (``NATURAL_CANASTA_CLOSED``)."""
    s = position(SA, hands={0: "2C 4C 6D 9S"}, melds={0: f"K@0: {K_CANASTA}"})
    refuse(s, "add K 2C", Reason.NATURAL_CANASTA_CLOSED, "SA-CAN-3")


@pytest.mark.parametrize("minimum", [150, 151])
def test_SA_INIT_1_staged_melds_against_an_odd_minimum(minimum: int) -> None:
    """SA-INIT-1 (samba.min_7000), CL-MIN-4, CL-MIN-8: the staged melds count their card
    values and nothing more, so 60 + 30 + 30 + 30 = 150 opens against 150, and a hand that
    holds no more than 150 starts no opening against 151."""
    s = position(SA, scores=(7000, 0), options={"samba.min_7000": minimum},
                 hands={0: "AS AH AD KS KH KD QS QH QD JS JH JD 9C 4D 5S"})
    assert s.rules.minimum_for(7000) == minimum
    if minimum == 151:
        refuse(s, "meld AS AH AD", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
        return
    s1 = play(s, "meld AS AH AD", "meld KS KH KD", "meld QS QH QD", "meld JS JH JD")
    assert play(s1, "discard 9C").opened[0]


def test_SA_PILE_1_a_pair_without_a_label_takes_the_pile_as_a_new_group() -> None:
    """SA-PILE-1, SA-MELD-5, CL-PILE-8: ``take 9C 9C`` melds the pair and the top card as a
    new group of nines beside the side's incomplete one; ``on 9`` puts them onto it."""
    s = position(SA, hands={0: "9C 9C 4S 5H 6D 7C 8S"}, phase="draw", pile="4D 9D",
                 melds={0: "K@0: KS KH KD | 9@0: 9S 9H 9D"})
    new = play(s, "take 9C 9C")
    assert sorted(meld_cards(new, 0)) == sorted(
        [cards("KS KH KD"), cards("9S 9H 9D"), cards("9C 9C 9D")])
    assert new.turn.created == (rank_of_char("9"),)
    onto = play(s, "take 9C 9C on 9")
    assert sorted(meld_cards(onto, 0)) == sorted([cards("KS KH KD"), cards("9S 9H 9D 9C 9C 9D")])
