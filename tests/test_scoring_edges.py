"""Scoring edges the scenario tests leave open (engine/scoring.py), each written against a
mutant of the scoring that the other tests let through."""

from __future__ import annotations

from dataclasses import replace

from engine.cards import parse_card
from engine.scoring import cutthroat_results, game_winner, hand_sides
from engine.state import State, evolve
from engine.transitions import form_pair
from tests.test_scenarios_classic import _ts29, play, position


def _dealt_red_three(state: State, seat: int) -> State:
    """``state`` with a red three moved from the stock into the hand of ``seat``, a seat yet
    to begin its first turn (CL-R3-1: it lays the card only then)."""
    red = parse_card("3H")
    stock = list(state.stock)
    stock.remove(red)
    hands = list(state.hands)
    hands[seat] = tuple(sorted(hands[seat] + (red,)))
    pending = tuple(s == seat for s in range(len(hands)))
    return evolve(state, stock=tuple(stock), hands=tuple(hands), pending_red3=pending)


def test_CL_R3_red_three_left_in_an_unplayed_hand_scores_as_laid() -> None:
    """CL-R3-1, CL-SCORE-4 and docs/rules-classic.md (*Engine decisions*): a red three still
    in the hand of a seat that never had a turn when the hand ends is scored as laid,
    +100 for a side that has melded and -100 for one that has not."""
    bare = _dealt_red_three(position(hands={0: "5C", 1: "9S"}, melds={0: "K@0: KS KH KD"},
                                     red3={0: "3D"}), 1)
    sides = {s.team: s for s in hand_sides(bare, -1, False)}
    assert (sides[0].red_threes, sides[0].red_three_points) == (1, 100)  # 3D, laid
    assert (sides[1].red_threes, sides[1].red_three_points) == (1, -100)  # 3H, held; no meld
    melded = _dealt_red_three(position(hands={0: "5C", 1: "9S"},
                                       melds={0: "K@0: KS KH KD", 1: "Q@1: QS QH QD"}), 1)
    sides = {s.team: s for s in hand_sides(melded, -1, False)}
    assert (sides[1].red_threes, sides[1].red_three_points) == (1, 100)
    assert sides[1].total == sides[1].base + 100 - sides[1].in_hand


def test_CL_PEN_2_a_penalty_comes_off_the_hands_score() -> None:
    """CL-PEN-2, CL-OUT-5 (permission_yes=penalty, penalties=true), CL-SCORE-6: the 100 a
    "yes" not followed by going out costs is taken off the side's hand total (and so its
    cumulative score), not only recorded."""
    after = play(_ts29({"permission_yes": "penalty", "penalties": True}), "discard 5H")
    assert after.penalties == (100, 0)
    charged = hand_sides(after, -1, False)
    clear = hand_sides(evolve(after, penalties=(0, 0)), -1, False)
    assert charged[0].penalties == 100
    assert charged[0].total == clear[0].total - 100
    assert charged[0].cumulative == clear[0].cumulative - 100
    assert charged[1] == clear[1]


def test_CL_GAME_3_reaching_the_target_exactly_ends_the_game() -> None:
    """CL-GAME-1, CL-GAME-3 (docs/rules-classic.md: the game ends when a side *reaches* the
    target after a hand): a cumulative score equal to the target wins; one point short
    plays on."""
    state = position(hands={0: "5C"}, melds={0: "K@0: KS KH KD"})
    target = state.rules.target
    sides = hand_sides(state, -1, False)
    at = (replace(sides[0], cumulative=target), replace(sides[1], cumulative=target - 500))
    assert game_winner(state, at) == (0, False)
    short = (replace(sides[0], cumulative=target - 1), sides[1])
    assert game_winner(state, short) == (-1, False)


def test_CL_P3_2_a_pair_going_out_concealed_scores_200() -> None:
    """CL-P3-2, CL-SCORE-3: in cutthroat the pair's going-out bonus is the usual one, 200
    when the partner went out concealed, 100 otherwise, for both partners; never for the
    lone hand."""
    state = form_pair(position(
        players=3, options={"p3_mode": "cutthroat"}, phase="meld", turn=1, drew="stock",
        hands={0: "KH KD 2C 6S", 1: "5C 4D", 2: "8S 8C"},
        melds={0: "9@0: 9S 9C 9H", 1: "Q@1: QS QH QD QC QS QH 2D | 5@1: 5S 5H 5D"},
        pile="7C", opened=[1, 1, 0], melded=[1, 1, 1]), 0)
    for concealed, bonus in ((True, 200), (False, 100)):
        rows = {s.team: s for s in cutthroat_results(state, 1, concealed)}
        assert (rows[0].going_out, rows[1].going_out, rows[2].going_out) == (0, bonus, bonus)


def test_CL_P3_2_each_player_keeps_his_own_score_and_red_threes_count_minus_unmelded() -> None:
    """CL-P3-2, CL-SCORE-4, CL-SCORE-6: cutthroat scores are kept per player, so each row's
    cumulative adds the hand to that player's own score; a partner's red threes count
    minus while the pair has no meld."""
    state = form_pair(position(
        players=3, options={"p3_mode": "cutthroat"}, phase="meld", turn=0, drew="stock",
        scores=[1000, 2000, 3500], hands={0: "KH KD 2C 6S", 1: "5C 4D", 2: "8S 8C"},
        melds={0: "9@0: 9S 9C 9H"}, red3={1: "3H", 2: "3D 3H"}, pile="7C",
        opened=[1, 0, 0], melded=[1, 0, 0]), 0)
    rows = {s.team: s for s in cutthroat_results(state, -1, False)}
    assert [rows[s].cumulative for s in range(3)] == [
        score + rows[s].total for s, score in enumerate((1000, 2000, 3500))]
    assert (rows[1].red_three_points, rows[2].red_three_points) == (-100, -200)


def _cutthroat_pair(**zones: object) -> State:
    """A cutthroat hand (CL-P3-2) in which seat 0 is the lone hand and seats 1 and 2 the
    pair, from the zones a scenario fixes."""
    defaults: dict[str, object] = {
        "hands": {0: "KH KD 2C 6S", 1: "5C 4D", 2: "8S 8C"},
        "melds": {0: "9@0: 9S 9C 9H", 1: "5@1: 5S 5H 5D"}, "pile": "7C",
        "opened": [1, 1, 0], "melded": [1, 1, 0]}
    return form_pair(position(players=3, options={"p3_mode": "cutthroat"}, phase="meld",
                              turn=1, drew="stock", **{**defaults, **zones}), 0)  # type: ignore[arg-type]


def test_CL_P3_2_the_pair_earns_no_going_out_bonus_when_it_did_not_go_out() -> None:
    """CL-P3-2, CL-SCORE-3: the going-out bonus is the side's that went out: when the lone
    hand goes out the pair earns nothing for it (and the lone hand its 100), and a hand
    that ends with no one out pays no bonus at all. Every seat scores one row, in seat
    order."""
    state = _cutthroat_pair()
    lone_out = cutthroat_results(state, 0, False)
    assert [r.team for r in lone_out] == [0, 1, 2]
    assert [r.going_out for r in lone_out] == [100, 0, 0]
    # the pair: its 5s 15, minus 5C 4D (5 each) and 8S 8C (10 each) in hand
    assert lone_out[1].total == lone_out[2].total == 15 - 30
    assert [r.going_out for r in cutthroat_results(state, -1, False)] == [0, 0, 0]


def test_CL_P3_2_a_partners_red_three_still_in_hand_scores_as_laid() -> None:
    """CL-P3-2, CL-R3-1, CL-SCORE-4 and docs/rules-classic.md (*Engine decisions*): a red
    three still in the hand of a partner who never had a turn counts as laid, with the
    ones he laid: 3D laid and 3H in hand are two red threes, +200 for a pair with a meld."""
    state = _dealt_red_three(_cutthroat_pair(red3={2: "3D"}), 2)
    rows = cutthroat_results(state, -1, False)
    assert (rows[2].red_threes, rows[2].red_three_points) == (2, 200)
    assert (rows[1].red_threes, rows[1].red_three_points) == (0, 0)


def test_CL_P3_2_a_partner_with_all_four_red_threes_scores_800() -> None:
    """CL-P3-2, CL-SCORE-4: all four red threes of the two packs count 800 (not 4 x 100),
    plus for a pair with a meld and minus for one without."""
    rows = cutthroat_results(_cutthroat_pair(red3={1: "3H 3H 3D 3D"}), -1, False)
    assert (rows[1].red_threes, rows[1].red_three_points) == (4, 800)
    bare = _cutthroat_pair(red3={1: "3H 3H 3D 3D"}, melds={0: "9@0: 9S 9C 9H"},
                           opened=[1, 0, 0], melded=[1, 0, 0])
    assert cutthroat_results(bare, -1, False)[1].red_three_points == -800


def test_CL_P3_2_the_pairs_penalties_come_off_both_partners_totals() -> None:
    """CL-P3-2, CL-PEN-2, CL-SCORE-6: a penalty charged to the pair is taken off each
    partner's total, as the pair's hands are."""
    state = _cutthroat_pair()
    pair = state.side_of[1]
    charged = evolve(state, penalties=tuple(100 if t == pair else 0
                                            for t in range(len(state.penalties))))
    clear = cutthroat_results(state, -1, False)
    rows = cutthroat_results(charged, -1, False)
    for seat in (1, 2):
        assert rows[seat].penalties == 100
        assert rows[seat].total == clear[seat].total - 100
    assert rows[0] == clear[0]


def test_CL_P3_2_the_pairs_canastas_earn_500_natural_and_300_mixed() -> None:
    """CL-P3-2, CL-SCORE-2: the pair's canastas earn their bonus for both partners, 500
    for each natural one and 300 for each mixed one: two natural canastas are 1 000."""
    state = _cutthroat_pair(melds={0: "9@0: 9S 9C 9H", 1: "A@1: AS AH AD AC AS AH AD | "
                                                      "Q@1: QS QH QD QC QS QH QD"})
    rows = cutthroat_results(state, -1, False)
    for seat in (1, 2):
        assert (rows[seat].natural_canastas, rows[seat].mixed_canastas) == (2, 0)
        assert rows[seat].canasta_bonus == 1000
