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
