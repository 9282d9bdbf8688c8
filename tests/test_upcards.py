"""The cards turned up at the deal (CL-DEAL-4, SA-DEAL-3): the state keeps them for the
whole hand, every view shows them, positions and snapshots carry them, and snapshots
written before the field existed still open."""

from __future__ import annotations

import json

import pytest

from engine import BadInput, Reason, new_game
from engine.cards import CODES
from engine.cards import parse_cards as cards
from engine.codec import decode_state, encode_state
from engine.deck import ordered_deck
from engine.game import rules_for
from engine.notation import export_position, import_position
from engine.state import State
from engine.transitions import evolve
from engine.views import seat_view, seat_views


def _stacked(variant: str) -> State:
    """A deal whose first turned cards are a joker and a deuce, covered (wild cards), then
    a seven that stays."""
    rules = rules_for(variant, 4)
    deck = ordered_deck(rules)
    for c in cards("JK 2C 7H"):
        deck.remove(c)
    dealt = 4 * rules.hand_size
    deck[dealt:dealt] = list(cards("JK 2C 7H"))
    state = new_game(variant, 4, deck=deck)
    assert isinstance(state, State)
    return state


@pytest.mark.parametrize("variant", ["classic", "samba", "bolivia", "bolivia_sevens"])
def test_upcards_are_kept_and_shown(variant: str) -> None:
    """CL-DEAL-4, SA-DEAL-3: the wild cards turned up are covered; all three cards turned
    are the deal's upcards, in every seat's view and the spectator's, and stay after the
    pile is gone."""
    state = _stacked(variant)
    assert state.upcards == cards("JK 2C 7H") == state.pile[:3]
    assert {seat_view(state, s).upcards for s in range(-1, 4)} == {("JK", "2C", "7H")}
    assert all(v.upcards == ("JK", "2C", "7H") for v in seat_views(state))
    later = evolve(state, pile=())
    assert seat_view(later, -1).upcards == ("JK", "2C", "7H")


def test_upcards_travel_in_positions_and_snapshots() -> None:
    """A position writes them (`upcards:`) and reads them back; a snapshot too; a snapshot
    encoded before the field existed (one field fewer) opens with none."""
    state = _stacked("classic")
    text = export_position(state)
    assert "upcards: JK 2C 7H" in text
    assert import_position(text) == state
    assert decode_state(encode_state(state)) == state
    fmt, name, body = json.loads(encode_state(state))
    older = json.dumps([fmt, name, body[:-1]]).encode()
    assert decode_state(older) == evolve(state, upcards=())
    with pytest.raises(BadInput) as err:
        import_position(text.replace("upcards: JK 2C 7H", "upcards: JK JK JK JK JK JK JK 1X"))
    assert err.value.reason in (Reason.BAD_CARD, Reason.BAD_NOTATION)


def test_may_i_shows_its_upcard() -> None:
    """MI-DEAL-2: no card is turned up unless turn_upcard; then the views show the one card
    turned, positions and snapshots carry it, and a joker is refused as one."""
    plain = new_game("may_i", 4, seed=3)
    assert plain.upcards == () and seat_view(plain, -1).upcards == ()
    state = new_game("may_i", 4, seed=3, options={"turn_upcard": True})
    assert len(state.upcards) == 1 and state.upcards == state.pile
    assert {seat_view(state, s).upcards for s in range(-1, 4)} \
        == {tuple(CODES[c] for c in state.upcards)}
    text = export_position(state)
    assert import_position(text) == state and decode_state(encode_state(state)) == state
    up = CODES[state.upcards[0]]
    with pytest.raises(BadInput) as err:
        import_position(text.replace(f"upcards: {up}", "upcards: JK"))
    assert err.value.reason is Reason.BAD_NOTATION


def test_a_shuffled_deal_turns_up_its_pile() -> None:
    """CL-DEAL-4: whatever the shuffle, the upcards are the pile as dealt."""
    for seed in range(20):
        state = new_game("classic", 4, seed=seed)
        assert isinstance(state, State)
        assert state.upcards == state.pile[:len(state.upcards)] and state.upcards
