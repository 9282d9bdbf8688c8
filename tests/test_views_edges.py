"""A view edge the view tests leave open (engine/views.py), written against a mutant that the
other tests let through."""

from __future__ import annotations

from engine.cards import CODES
from engine.views import seat_view
from tests.test_scenarios_classic import position


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
