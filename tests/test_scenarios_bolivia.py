"""The Bolivia scenarios of the rules (BO-Tn), plus rule checks of our own.

Every test names the scenario or rule in its name and the rule IDs it checks in its
docstring. Seats: 0..3 = N, E, S, W; team 0 = N+S, team 1 = E+W.
"""

from __future__ import annotations

import pytest

from engine import (
    Phase,
    Reason,
    RuleViolation,
    State,
    apply,
    legal_moves,
    new_game,
    parse_move,
)
from engine.deck import composition
from engine.game import rules_for
from engine.moves import Decline, GoOut, TakePile
from engine.views import provisional_score
from tests.positions import cards, discards, listed, meld_cards, passes, play, position, refuse

BO = "bolivia"
ESCALERA = "5H 6H 7H 8H 9H TH JH"


def test_BO_T1_meld_of_wild_cards() -> None:
    """BO-T1; BO-WILD-2: three wild cards make a meld; two do not."""
    s = position(BO, hands={0: "JK 2C 2H 4C 6D 9S"}, melds={0: "K@0: KS KH KD"})
    s1 = play(s, "meld JK 2C 2H")
    assert cards("2C 2H JK") in meld_cards(s1, 0)
    assert s1.melds[0][-1].kind == "wild"
    refuse(s, "meld JK 2C", Reason.MELD_TOO_SMALL, "BO-WILD-2")


def test_BO_T3_wild_meld_takes_wild_cards_only_and_closes_as_bolivia() -> None:
    """BO-T3; BO-WILD-2, BO-WILD-3, BO-CAN-2: no natural joins a wild meld; seven wild
    cards are a bolivia (2500), closed."""
    s = position(BO, hands={0: "8C 2D 2C 2H 2S JK 4C 6D"}, melds={0: "W@0: JK 2S 2H"})
    refuse(s, "add W 8C", Reason.MIXED_RANKS, "BO-WILD-3")
    before = provisional_score(s)[0]
    s1 = play(s, "add W 2D 2C 2H 2S")
    bolivia = s1.melds[0][0]
    assert bolivia.size == 7 and bolivia.is_canasta and bolivia.kind == "wild"
    assert provisional_score(s1)[0].canasta_bonus - before.canasta_bonus == 2500
    refuse(s1, "add W JK", Reason.MELD_CLOSED, "BO-WILD-2")


def _bo_t5(options: dict[str, object] | None = None) -> State:
    return position(BO, options=options,
                    hands={0: "3S 3C 3C 3S QS QH QD 5H 5D 5C 9D 8C 4S KH AC"})


def test_BO_T5_black_threes_any_time_but_not_the_opening() -> None:
    """BO-T5; BO-B3-1, BO-INIT-2: black threes are laid at any time but do not open the
    side; 30 + 15 = 45 < 50 stays illegal; with black3_counts_for_initial 20 + 45 = 65."""
    s = _bo_t5()
    s1 = play(s, "meld 3S 3S 3C 3C")
    assert s1.melds[0][0].kind == "black_threes"
    s2 = play(s1, "discard 9D")
    assert not s2.opened[0]
    refuse(s1, "meld QS QH QD", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    counted = _bo_t5({"bolivia.black3_counts_for_initial": True})
    c1 = play(counted, "meld 3S 3S 3C 3C", "meld QS QH QD", "meld 5H 5D 5C")
    c2 = play(c1, "discard 9D")
    assert c2.opened[0]


def test_BO_T7_nobody_discards_or_melds_his_last_card() -> None:
    """BO-T7; BO-OUT-1, BO-OUT-2: one card may not be discarded; a meld must leave two
    cards (one to discard, one to keep)."""
    one = position(BO, hands={0: "9D"}, melds={0: "K@0: KS KH KD"})
    refuse(one, "discard 9D", Reason.MUST_KEEP_CARD, "BO-OUT-1")
    assert not any(isinstance(m, GoOut) for m in legal_moves(one))
    three = position(BO, hands={0: "QS QH QD"}, melds={0: "K@0: KS KH KD"})
    refuse(three, "meld QS QH QD", Reason.MUST_KEEP_CARD, "BO-OUT-2")
    four = position(BO, hands={0: "QS QH QD 9D"}, melds={0: "K@0: KS KH KD"})
    refuse(four, "meld QS QH QD", Reason.MUST_KEEP_CARD, "BO-OUT-2")
    five = position(BO, hands={0: "QS QH QD 9D 8C"}, melds={0: "K@0: KS KH KD"})
    assert discards(play(five, "meld QS QH QD")) == {"discard 9D", "discard 8C"}


def test_BO_OUT_2_canastas_do_not_let_a_meld_leave_one_card() -> None:
    """BO-OUT-1, BO-OUT-2: nobody goes out, even with two canastas and an escalera, so a
    meld that leaves one card is refused, and so is ``out``."""
    s = position(BO, hands={0: "QS QH QD 9D"},
                    melds={0: f"K@0: KS KH KD KC KS KH KD | H:5-J@2: {ESCALERA}"})
    refuse(s, "meld QS QH QD", Reason.MUST_KEEP_CARD, "BO-OUT-2")
    refuse(s, "out 9D", Reason.MUST_KEEP_CARD, "BO-OUT-1")


def _bo_t9(options: dict[str, object] | None = None) -> State:
    return position(
        BO, options=options, phase="draw", turn=1, stock=2, stock_top="4D 6S",
        hands={0: "9C JD QC 4H 5S", 1: "7C 9S JS QH KC", 2: "7D 7S 9H 9H AC AD",
               3: "TS JH 4C 8D 6H"},
        melds={0: "K@0: KS KH KD", 1: "Q@1: QS QD QC"},
        red3={0: "3H 3D", 1: "3H 3D", 2: "3H", 3: "3D"}, pile="*")


def test_BO_T9_stock_runs_out_last_discard_still_taken() -> None:
    """BO-T9; BO-END-1/2/3: E draws the last two cards and must discard; S may take that
    pile and must discard again; W does not take it and the deal ends. With
    after_stock=single_chance it ends after S's turn."""
    s = _bo_t9()
    s1 = play(s, "draw")
    assert s1.stock == () and s1.phase is Phase.MELD
    s2 = play(s1, "discard 7C")
    assert s2.phase is Phase.DRAW_EXHAUSTED and s2.turn.seat == 2
    s3 = play(s2, "take 7D 7S")
    assert cards("7C 7D 7S") in meld_cards(s3, 0)
    s4 = play(s3, "discard AC")
    assert s4.phase is Phase.DRAW_EXHAUSTED and s4.turn.seat == 3
    assert Decline() in legal_moves(s4)
    end = play(s4, "decline")
    assert end.phase is Phase.HAND_OVER and end.result is not None
    assert end.result.went_out == -1 and all(x.going_out == 0 for x in end.result.sides)
    single = play(_bo_t9({"bolivia.after_stock": "single_chance"}),
                  "draw", "discard 7C", "take 7D 7S", "discard AC")
    assert single.phase is Phase.HAND_OVER


def test_BO_T11_scoring_at_exhaustion() -> None:
    """BO-T11; BO-SCORE-1, BO-CAN-2, BO-R3-2, BO-B3-3/4: NS 4275, EW -55."""
    s = position(
        BO, phase="draw_exhausted", turn=0, stock=0, pile="*",
        hands={0: "KD 3S", 2: "4C", 1: "AS AH", 3: "8D 8C 2S"},
        melds={0: "3@0: 3S 3C 3C | Q@2: QS QH QD 2C | W@0: JK 2S 2H 2D 2C 2H 2D"
                  f" | H:5-J@2: {ESCALERA}",
               1: "4@1: 4S 4D 4H | 9@3: 9S 9H 9D 9C 9S 9H JK"},
        red3={0: "3H", 2: "3D", 1: "3H 3D", 3: "3H 3D"})
    end = play(s, "decline")
    assert end.result is not None
    ns, ew = end.result.sides
    assert (ns.base, ns.canasta_bonus, ns.red_three_points, ns.in_hand) == (290, 4000, 200, 215)
    assert ns.total == 4275
    assert (ew.base, ew.canasta_bonus, ew.red_three_points, ew.in_hand) == (125, 300, -400, 80)
    assert ew.total == -55


# --- rule checks of our own ----------------------------------------------------------


def test_BO_B3_2_black_three_sets_are_closed_and_two_are_allowed() -> None:
    """BO-B3-1/2/3: sets of three or four, nothing added, a second set allowed."""
    s = position(BO, hands={0: "3S 3S 3C 9D 8C 4H"}, melds={0: "3@0: 3C 3S 3C"})
    refuse(s, "add 3 3S", Reason.MELD_CLOSED, "BO-B3-2")
    s1 = play(s, "meld 3S 3S 3C")
    assert [m.kind for m in s1.melds[0]] == ["black_threes", "black_threes"]
    five = position(BO, hands={0: "3S 3S 3S 3C 3C 9D 8C"}, melds={0: "K@0: KS KH KD"})
    refuse(five, "meld 3S 3S 3S 3C 3C", Reason.MELD_CLOSED, "BO-B3-2")
    # BO-B3-1: three or four, no wild cards
    refuse(five, "meld 3S 3C", Reason.MELD_TOO_SMALL, "BO-B3-1")
    wild = position(BO, hands={0: "3S 3C 2D 9D 8C"}, melds={0: "K@0: KS KH KD"})
    refuse(wild, "meld 3S 3C 2D", Reason.TOO_MANY_WILDS, "BO-B3-1")


def test_BO_PILE_10_wild_top_blocks() -> None:
    """BO-PILE-10: a wild card on top blocks the pile."""
    s = position(BO, phase="draw", hands={0: "2C 2D 4C 9D"}, melds={0: "W@0: JK 2S 2H"},
                 pile="5D 2H")
    refuse(s, "take 2C 2D", Reason.PILE_BLOCKED, "CL-PILE-2")
    refuse(s, "take on W", Reason.PILE_BLOCKED, "CL-PILE-2")


def test_BO_C1_hoyle_going_out_needs_an_escalera() -> None:
    """BO-C1 (option going_out=hoyle): two canastas, one an escalera, then 200."""
    opts = {"bolivia.going_out": "hoyle"}
    no_seq = position(BO, options=opts, hands={0: "QS QH QD 9D"},
                      melds={0: "K@0: KS KH KD KC KS KH KD | A@2: AS AH AD AC AS AH AD"})
    refuse(no_seq, "meld QS QH QD", Reason.GO_OUT_NEEDS_CANASTAS, "BO-C1")
    ok = position(BO, options=opts, hands={0: "QS QH QD 9D"},
                  melds={0: f"K@0: KS KH KD KC KS KH KD | H:5-J@2: {ESCALERA}"})
    end = play(ok, "meld QS QH QD", "out 9D")
    assert end.result is not None and end.result.sides[0].going_out == 200


def test_BO_C1_going_out_by_the_last_discard_needs_an_escalera() -> None:
    """BO-C1 (going_out=hoyle): going out by the last card's discard with two canastas and
    no escalera is refused citing BO-C1, as the meld that would leave one card is; it said
    "going out needs 2 canasta(s)" (CL-OUT-1) to a side that had them."""
    opts = {"bolivia.going_out": "hoyle"}
    two = "K@0: KS KH KD KC KS KH KD | A@2: AS AH AD AC AS AH AD"
    err = refuse(position(BO, options=opts, hands={0: "9D"}, melds={0: two}), "out 9D",
                 Reason.GO_OUT_NEEDS_CANASTAS, "BO-C1")
    assert "escalera" in str(err)
    refuse(position(BO, options=opts, hands={0: "9D"}, melds={0: "K@0: KS KH KD KC KS KH KD"}),
           "out 9D", Reason.GO_OUT_NEEDS_CANASTAS, "BO-C1")


def test_BO_C1_the_escalera_must_be_a_canasta() -> None:
    """BO-C1 (going_out=hoyle): a sequence short of seven cards is no escalera; a spade
    escalera counts like any suit's."""
    opts = {"bolivia.going_out": "hoyle"}
    short = position(BO, options=opts, hands={0: "QS QH QD 9D"},
                        melds={0: "K@0: KS KH KD KC KS KH KD | A@2: AS AH AD AC AS AH AD"
                                  " | H:5-7@2: 5H 6H 7H"})
    refuse(short, "meld QS QH QD", Reason.GO_OUT_NEEDS_CANASTAS, "BO-C1")
    spades = position(BO, options=opts, hands={0: "QS QH QD 9D"},
                         melds={0: "K@0: KS KH KD KC KS KH KD | S:5-J@2: 5S 6S 7S 8S 9S TS JS"})
    end = play(spades, "meld QS QH QD", "out 9D")
    assert end.result is not None and end.result.sides[0].going_out == 200


def test_BO_WILD_1_option_unlimited_wilds() -> None:
    """BO-WILD-1, BO-C3: two wild cards per group, any number with the option."""
    hand = {0: "8S 8H 2C 2S JK 4C 6D 9S"}
    refuse(position(BO, hands=hand, melds={0: "K@0: KS KH KD"}), "meld 8S 8H 2C 2S JK",
           Reason.TOO_MANY_WILDS, "SA-MELD-2")
    free = position(BO, options={"bolivia.unlimited_wilds_in_groups": True}, hands=hand,
                    melds={0: "K@0: KS KH KD"})
    assert listed(free, "meld 8S 8H 2C 2S JK")


# --- rules no other test cites --------------------------------------------------------


def _refused(state: State, text: str) -> None:
    """The move is not listed and is refused, whatever the reason."""
    assert not listed(state, text), text
    with pytest.raises(RuleViolation):
        apply(state, parse_move(text))


def test_BO_DEAL_1_DRAW_1_2_deal_and_draws() -> None:
    """BO-COMP-1, BO-DEAL-1, BO-DRAW-1, BO-DRAW-2: 162 cards, 15 each, play left of the
    dealer; a stock draw takes two, then one discard; a last single card is drawn alone."""
    rules = rules_for(BO, 4)
    assert sum(composition(rules).values()) == 162
    s = new_game(BO, 4, seed=6)
    assert all(len(h) == 15 for h in s.hands) and s.turn.seat == (s.dealer + 1) % 4
    s1 = play(s, "draw")
    assert len(s1.hands[s.turn.seat]) == 17
    one = position(BO, phase="draw", hands={0: "4C 6D 9S"}, melds={0: "K@0: KS KH KD"},
                   stock=1, stock_top="QC", red3={0: "3H 3D", 1: "3H 3D", 2: "3H 3D"})
    o1 = play(one, "draw")
    assert o1.hands[0] == cards("4C 6D 9S QC") and o1.stock == ()


def test_BO_INIT_1_samba_table_with_150() -> None:
    """BO-INIT-1: Samba's minimum table, 150 from 7000 up."""
    rules = rules_for(BO, 4)
    table = {-5: 15, 0: 50, 1495: 50, 1500: 90, 2995: 90, 3000: 120, 6995: 120,
             7000: 150, 14000: 150}
    assert {k: rules.minimum_for(k) for k in table} == table


def test_BO_MELD_1_2_two_groups_of_a_rank_and_merging() -> None:
    """BO-MELD-1, BO-MELD-2, BO-WILD-1: a side may own two groups of one rank and merge them
    while the wild limit holds."""
    s = position(BO, hands={0: "KD KC 2C 9S 4C 6D"}, melds={0: "K@0: KS KH KD KS"})
    s1 = play(s, "meld KD KC 2C")
    assert meld_cards(s1, 0) == [cards("KS KS KH KD"), cards("KD KC 2C")]
    s2 = play(s1, "merge K K#2")
    assert meld_cards(s2, 0) == [cards("KS KS KH KD KD KC 2C")]
    off = position(BO, options={"bolivia.allow_merge_groups": False},
                   hands={0: "KD KC 2C 9S 4C 6D"}, melds={0: "K@0: KS KH KD KS"})
    _refused(play(off, "meld KD KC 2C"), "merge K K#2")


@pytest.mark.parametrize("variant", [BO, "bolivia_sevens"])
def test_BO_PILE_1_to_9_pile_as_in_samba(variant: str) -> None:
    """BO-PILE-1, BO-PILE-2, BO-PILE-3, BO-PILE-5, BO-PILE-6, BO-PILE-8: a natural pair takes
    the pile, a natural and a wild never; unfrozen, the top card alone extends an incomplete
    group, never a canasta; frozen, only the pair."""
    s = position(variant, phase="draw", hands={0: "9H 2C 9D 4C 6D JS"},
                 melds={0: "K@0: KS KH KD"}, pile="5C 9S")
    _refused(s, "take 9H 2C")
    s1 = play(s, "take 9H 9D")
    assert cards("9S 9H 9D") in meld_cards(s1, 0)
    assert s1.hands[0] == cards("2C 4C 6D JS 5C") and s1.stock == s.stock
    ext = position(variant, phase="draw", hands={0: "4C 6D JS"},
                   melds={0: "9@0: 9D 9C 9S | K@2: KS KH KD KC KS KH KD"}, pile="5C 9H")
    assert cards("9D 9C 9S 9H") in meld_cards(play(ext, "take on 9"), 0)
    onto = position(variant, phase="draw", hands={0: "4C 6D JS"},
                    melds={0: "K@2: KS KH KD KC KS KH KD"}, pile="5C KH")
    _refused(onto, "take on K")
    frozen = position(variant, phase="draw", hands={0: "4C 6D JS"},
                      melds={0: "9@0: 9D 9C 9S"}, pile="5C JK 7D 9H")
    refuse(frozen, "take on 9", Reason.PILE_FROZEN, "SA-PILE-6")
    unopened = position(variant, phase="draw", hands={0: "4C 6D JS 9C"}, pile="5C 9H")
    _refused(unopened, "take 9C")


def test_BO_PILE_9_unopened_side_counts_only_the_top_card() -> None:
    """BO-PILE-9, BO-PILE-4: an unopened side's take counts the top card, not the pile below."""
    s = position(BO, phase="draw", hands={0: "QS QH 5C 6D 8S 8H 8D"}, pile="AS AH AD QD")
    refuse(s, "take QS QH", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-6")  # 30 < 50
    s1 = play(s, "take QS QH / 8S 8H 8D")  # 30 + 30
    assert s1.opened[0] and s1.hands[0] == cards("5C 6D AS AH AD")


def test_BO_R3_1_drawn_red_three_replaced() -> None:
    """BO-R3-1: red threes drawn are laid out and replaced from the stock."""
    s = position(BO, phase="draw", hands={0: "4C 6D"}, melds={0: "K@0: KS KH KD"},
                 stock_top="9C QH 3D")
    s1 = play(s, "draw")
    assert s1.red3[0] == cards("3D") and s1.hands[0] == cards("4C 6D QH 9C")


def test_BO_SEQ_1_2_sequences_and_the_escalera() -> None:
    """BO-SEQ-1, BO-SEQ-2, BO-CAN-2: sequences as in Samba, never with a wild card; seven cards
    are an escalera (1500), closed."""
    s = position(BO, hands={0: "5H 6H 7H 8H 9H TH JH QH 2C 4C 6D"}, melds={0: "K@0: KS KH KD"})
    _refused(s, "meld 5H 6H 2C")
    before = provisional_score(s)[0].canasta_bonus
    s1 = play(s, "meld 5H 6H 7H 8H 9H TH JH")
    assert s1.melds[0][-1].kind == "sequence" and s1.melds[0][-1].is_canasta
    assert provisional_score(s1)[0].canasta_bonus - before == 1500
    refuse(s1, "add H:5-J QH", Reason.MELD_CLOSED, "SA-SEQ-5")


def test_BO_WILD_4_wild_meld_opens() -> None:
    """BO-WILD-4: a wild meld's card values count toward the initial meld (50 + 20 + 20)."""
    s = position(BO, hands={0: "JK 2C 2H 4C 6D 9S"})
    s1 = play(s, "meld JK 2C 2H", "discard 4C")
    assert s1.opened[0]
    low = position(BO, scores=(3000, 0), hands={0: "JK 2C 2H 4C 6D 9S"})
    refuse(low, "meld JK 2C 2H", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")  # 90 < 120


def test_BO_B3_5_discarded_black_three_blocks_the_next_player() -> None:
    """BO-B3-5, BO-PILE-7: a discarded black three stops the next player's take, and only while
    on top."""
    s = position(BO, hands={0: "3S 4C 5D"}, melds={0: "K@0: KS KH KD"}, pile="QD 6C")
    s1 = play(s, "discard 3S")
    assert not any(isinstance(m, TakePile) for m in legal_moves(s1))
    refuse(s1, "take", Reason.PILE_BLOCKED, "CL-PILE-2")
    covered = position(BO, phase="draw", hands={0: "6S 6H 4C"}, melds={0: "K@0: KS KH KD"},
                       pile="QD 3S 6C")
    assert listed(covered, "take 6S 6H")


def test_BO_END_4_no_going_out_bonus() -> None:
    """BO-END-4, BO-OUT-2: the deal ends by the stock; nobody scores a going-out bonus."""
    s = position(BO, phase="draw_exhausted", stock=0, pile="5D 9H", hands={0: "4C 6D", 1: "QS"},
                 melds={0: "K@0: KS KH KD KC KS KH KD | H:5-J@2: " + ESCALERA},
                 red3={0: "3H 3D", 1: "3H 3D", 2: "3H 3D"})
    end = play(s, "decline")
    assert end.result is not None and end.result.went_out == -1
    assert [x.going_out for x in end.result.sides] == [0, 0]
    assert end.result.sides[0].red_three_points == 400  # two canastas: plus


def test_BO_B3_1_hoyle_one_black_three_set_a_side() -> None:
    """BO-B3-1 (``bolivia.black3=hoyle``), SA-B3-1: black threes meld as in Samba, one set of
    three or four a side (engine/meld_checks.py) that only black threes join, up to four
    (BO-B3-2, docs/errors.md ``MELD_CLOSED``); a second set is refused with
    ``MELD_EXISTS`` where the seed rules list it and every rule check passes it (BO-B3-2,
    CL-TURN-3)."""
    hand, melds = {0: "3S 3S 3C 9D 8C 4H"}, {0: "3@0: 3C 3S 3C | K@0: KS KH KD"}
    s = position(BO, options={"bolivia.black3": "hoyle"}, hands=hand, melds=melds)
    refuse(s, "meld 3S 3S 3C", Reason.MELD_EXISTS, "SA-B3-1")
    # what joins the set: black threes only (SA-B3-1), up to four (BO-B3-2)
    refuse(s, "add 3 9D", Reason.MIXED_RANKS, "SA-B3-1")
    refuse(s, "add 3 3S 3S", Reason.MELD_CLOSED, "BO-B3-2")
    seed = position(BO, hands=hand, melds=melds)
    assert passes(seed, "meld 3S 3S 3C")


def test_BO_WILD_2_no_new_meld_past_seven_cards() -> None:
    """BO-WILD-2: a wild meld holds seven wild cards at most (seven are listed and pass every
    rule check, CL-TURN-3); SV-CAN-1: in Bolivia with
    sevens no new meld of any kind passes seven cards (``MELD_CLOSED`` both)."""
    wilds = "JK JK JK 2C 2C 2D 2D 2H"
    s = position(BO, hands={0: wilds + " 4C 6D"}, melds={0: "K@0: KS KH KD"})
    refuse(s, "meld " + wilds, Reason.MELD_CLOSED, "BO-WILD-2")
    assert passes(s, "meld JK JK JK 2C 2C 2D 2D")
    nines = "9S 9S 9H 9H 9D 9D 9C 9C"
    sv = position("bolivia_sevens", hands={0: nines + " 4C 6D"}, melds={0: "K@0: KS KH KD"})
    refuse(sv, "meld " + nines, Reason.MELD_CLOSED, "SV-CAN-1")


def test_BO_INIT_2_an_addition_counts_toward_the_opening() -> None:
    """BO-INIT-2, CL-MIN-4: only black threes stay out of the opening count; natural cards
    and wild cards added to a meld laid in the same turn count (30 + 10 + 20 = 60), and
    they open the side."""
    s = position(BO, hands={0: "KS KH KD KC 2C 9D 8C 4S"})
    s1 = play(s, "meld KS KH KD")
    refuse(s1, "discard 9D", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")  # 30 < 50
    s2 = play(s1, "add K KC 2C", "discard 9D")
    assert s2.opened[0] and s2.melded[0]
    assert meld_cards(s2, 0) == [cards("KS KH KD KC 2C")]
