"""Cutthroat three-handed Canasta (option ``p3_mode=cutthroat``, rules CL-P3-2)."""

from __future__ import annotations

from engine import Phase, apply, legal_moves, parse_move
from engine.moves import Ask
from engine.notation import export_position, import_position
from engine.state import State
from engine.transitions import form_pair
from tests.test_scenarios_classic import listed, position

CUT = {"p3_mode": "cutthroat"}


def _three_hands() -> State:
    # Seat 0 can take the pile topped by 9H with 9S 9C (pile frozen against the unopened side)
    # and reach 50 with K K 2; seats 1 and 2 each hold a Q meld and a 5 meld of their own.
    return position(
        players=3, options=CUT, phase="draw", turn=0, scores=[0, 0, 0],
        hands={0: "9S 9C KH KD 2C 6S 7S 4D 5C TC JH 8S 8C",
               1: "AS AH 6D 6C 7D 7C 8D 4S 4H JS JD TS TD",
               2: "AD AC 6H 6H 7H 7H 8H 4C 4C JC JC TH TH"},
        melds={1: "Q@1: QS QH QD", 2: "Q@2: QS QH QD JK | 5@2: 5S 5H 5D"},
        pile="AS 9H", opened=[0, 1, 1], melded=[0, 1, 1])


def test_cutthroat_rule_set() -> None:
    """CL-P3-2: 13 cards, draw two, two canastas to go out, game 7 500."""
    state = _three_hands()
    rules = state.rules
    assert (rules.hand_size, rules.draw_count, rules.canastas_to_go_out, rules.target) == (
        13, 2, 2, 7500)


def test_first_taker_becomes_lone_hand_and_the_others_combine_melds() -> None:
    """CL-P3-2: the first player to take the pile is the lone hand; the other two become
    partners for the rest of the hand and combine their melds (same rank: one meld)."""
    state = _three_hands()
    assert state.lone == -1
    assert not any(isinstance(m, Ask) for m in legal_moves(state))  # no partner yet
    after = apply(state, parse_move("take 9S 9C / KH KD 2C"))
    assert after.lone == 0
    assert after.team_of(1) == after.team_of(2) != after.team_of(0)
    pair = after.melds[after.team_of(1)]
    queens = [m for m in pair if m.rank == 10][0]
    assert queens.size == 7 and queens.is_canasta  # 3 + 4 queens combined
    assert {m.rank for m in pair} == {10, 3}  # Q and 5
    assert after.opened[after.team_of(1)]


def test_the_lone_hand_and_the_new_sides_survive_the_notation() -> None:
    """CL-P3-2, docs/notation.md: once seat 0 (the first seat, too) is the lone hand, the
    position writes ``lone: 0`` and the seats' new sides, and reads back the same state."""
    state = _three_hands()
    assert "\nlone:" not in export_position(state) and "\nsides:" not in export_position(state)
    after = apply(state, parse_move("take 9S 9C / KH KD 2C"))
    text = export_position(after)
    assert "\nlone: 0\n" in text
    assert f"\nsides: {' '.join(str(after.team_of(s)) for s in range(3))}\n" in text
    back = import_position(text)
    assert back == after and back.lone == 0
    assert back.team_of(1) == back.team_of(2) != back.team_of(0)


def test_pair_partner_answers_may_i_go_out() -> None:
    """CL-P3-2 / CL-OUT-4: once the pair exists, a partner may ask the other (engine rule)."""
    state = apply(_three_hands(), parse_move("take 9S 9C / KH KD 2C"))
    state = apply(state, parse_move("discard 8S"))
    assert state.turn.seat == 1 and listed(state, "ask")
    asked = apply(state, parse_move("ask"))
    assert asked.phase is Phase.PERMISSION and asked.awaited == 2


def test_pair_scores_combined_total_plus_own_red_threes() -> None:
    """CL-P3-2 scoring: each partner scores the pair's melds, canastas and going out minus
    both their hands, plus or minus his own red threes; the lone hand scores alone."""
    state = position(
        players=3, options=CUT, phase="meld", turn=1, drew="stock",
        hands={0: "KH KD 2C 6S", 1: "5C 4D", 2: "8S 8C"},
        melds={0: "9@0: 9S 9C 9H", 1: "Q@1: QS QH QD QC QS QH 2D | 5@1: 5S 5H 5D | "
                                      "A@1: AS AH AD AC AS AH AD"},
        red3={1: "3H", 2: "3D 3H"}, pile="7C", opened=[1, 1, 0], melded=[1, 1, 1])
    state = form_pair(state, 0)  # seat 0 took the pile earlier in this hand
    done = apply(apply(state, parse_move("add 5 5C")), parse_move("out 4D"))
    assert done.phase in (Phase.HAND_OVER, Phase.GAME_OVER)
    sides = {s.team: s for s in done.result.sides}  # type: ignore[union-attr]
    # pair: Q mixed canasta 6*10+20 = 80, 5s 4*5 = 20, A natural canasta 7*20 = 140
    base = 80 + 20 + 140
    pair_total = base + 300 + 500 + 100 - (10 + 10)  # S still holds 8S 8C
    assert sides[1].total == pair_total + 100
    assert sides[2].total == pair_total + 200
    assert sides[1].in_hand == sides[2].in_hand == 20
    # the lone hand: its 9 meld (30) minus KH KD 2C 6S in hand (45); no red threes
    assert sides[0].total == 30 - 45


def test_the_lone_hand_stays_after_a_later_take() -> None:
    """CL-P3-2: only the first take of the pile makes the lone hand; a later take by one of
    the pair leaves the lone hand and the partners as they are."""
    state = apply(_three_hands(), parse_move("take 9S 9C / KH KD 2C"))
    state = apply(state, parse_move("discard 6S"))
    assert state.turn.seat == 1 and state.lone == 0
    sides = state.side_of
    later = apply(state, parse_move("take 6D 6C"))
    assert later.lone == 0 and later.side_of == sides
    assert later.team_of(1) == later.team_of(2) != later.team_of(0)
