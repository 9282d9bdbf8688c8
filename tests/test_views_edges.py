"""View edges the view tests leave open (engine/views.py, engine/mayi/views.py), each
written against a mutant that the other tests let through."""

from __future__ import annotations

from engine import Phase, apply
from engine.cards import CODES, parse_cards
from engine.moves import Discard
from engine.state import State
from engine.views import seat_view
from tests.test_scenarios_classic import K_CANASTA, play, position
from tests.test_scenarios_may_i import position as may_i_position


def test_CL_INFO_4_the_pile_below_its_top_is_shown_only_with_reveal_discard_pile() -> None:
    """CL-INFO-4 (option ``reveal_discard_pile``, default false): a view shows the pile's top
    card and size; the cards below it are in ``pile`` only when the option is on."""
    for reveal in (False, True):
        state = position(hands={0: "5C 6D"}, pile="7C 8H 9S", phase="draw",
                         options={"reveal_discard_pile": reveal})
        for seat in (-1, 0, 1):
            view = seat_view(state, seat)
            assert (view.pile_top, view.pile_size) == ("9S", 3)
            assert view.pile == (tuple(CODES[c] for c in state.pile) if reveal else ())


def _sc_1(scores: tuple[int, int] = (1000, 200)) -> State:
    """SC-1's position (tests/test_scenarios_classic.py): S to go out with 4D; N-S hold a
    natural canasta of kings, aces and fives, E-W a mixed canasta of queens and eights."""
    return position(
        turn=2, hands={0: "7C JK", 1: "9H 9D 4S", 2: "4D", 3: "AS 2H 3S"},
        melds={0: f"K@2: {K_CANASTA} | A@2: AS AH AD | 5@0: 5S 5H 5D 2C",
               1: "Q@1: QS QH QD QC QS 2D JK | 8@3: 8S 8H 8D"},
        red3={0: "3H", 1: "3D"}, scores=scores)


def test_CL_CAN_2_a_meld_view_names_its_canasta_natural_mixed_or_none() -> None:
    """CL-CAN-1, CL-CAN-2: each meld's view says whether it is a canasta and which: a
    natural one (no wild card), a mixed one, or none ("") for a meld of fewer cards."""
    for seat in (-1, 0, 1):
        ns, ew = seat_view(_sc_1(), seat).sides
        assert {m.rank: m.canasta for m in ns.melds} == {"K": "natural", "A": "", "5": ""}
        assert {m.rank: m.canasta for m in ew.melds} == {"Q": "mixed", "8": ""}


def test_CL_PILE_8_a_taken_pile_shows_no_top_card() -> None:
    """CL-PILE-8, CL-INFO-4: taking the discard pile takes all of it, so every view then
    shows an empty pile: size 0 and no top card (``pile_top`` "", read as none)."""
    state = position(hands={0: "6C 7D 9S QS QH 5C 5D 8H"}, phase="draw",
                     melds={0: "J@2: JS JH JC"}, pile="4H JD")
    taken = play(state, "take")
    for seat in (-1, 0, 1):
        view = seat_view(taken, seat)
        assert (view.pile_top, view.pile_size, view.pile) == ("", 0, ())


def test_CL_GAME_3_the_view_shows_the_result_who_went_out_and_the_winner() -> None:
    """CL-SCORE-1..6, CL-GAME-1, CL-GAME-3: while a hand is played no view has a result
    (``went_out`` and ``winner`` -1); once S goes out every view shows the sides' scores,
    S as the seat that went out and, the target reached, N-S as the winner. SC-1's hand
    with N-S 4500 up."""
    state = _sc_1(scores=(4500, 200))
    for seat in range(-1, 4):
        view = seat_view(state, seat)
        assert (view.result, view.went_out, view.winner) == ((), -1, -1)
    over = play(state, "out 4D")
    assert over.phase is Phase.GAME_OVER and over.result is not None
    assert [side.cumulative for side in over.result.sides] == [5310, 680]
    for seat in range(-1, 4):
        view = seat_view(over, seat)
        assert (view.result, view.went_out, view.winner) == (over.result.sides, 2, 0)


def test_MI_GAME_2_the_may_i_view_shows_the_result_who_went_out_and_the_winner() -> None:
    """MI-SCORE-1, MI-GAME-1, MI-GAME-2: the same in May I?: no result while the last deal
    is played; once P1 goes out every view shows the deal's rows, P1 as the seat that went
    out and, with the lowest total after the fifth deal, as the winner."""
    state = may_i_position(hands={0: "4C", 1: "2C", 2: "3C", 3: "KD"}, hand_no=4, turn=0,
                           melds={0: "7S 7H 7D | QS QH QD | 2S 3S 4S 5S"},
                           scores=(50, 60, 70, 80))
    for seat in range(-1, 4):
        view = seat_view(state, seat)
        assert (view.result, view.went_out, view.winner) == ((), -1, -1)
    over = apply(state, Discard(parse_cards("4C")[0]))
    assert over.phase is Phase.GAME_OVER and over.result is not None
    for seat in range(-1, 4):
        view = seat_view(over, seat)
        assert (view.result, view.went_out, view.winner) == (over.result.sides, 0, 0)
