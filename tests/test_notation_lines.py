"""The one reader of both games' position notations (engine/notation_lines.py, docs/notation.md)."""

from __future__ import annotations

import pytest

from engine import BadInput, Phase, Reason, apply, legal_moves
from engine.cards import parse_cards
from engine.game import new_game
from engine.melds import SEQ_RANK, WILD_RANK
from engine.moves import parse_move
from engine.notation import export_position, import_position
from engine.notation_lines import options_of
from engine.state import State

CANASTA = ("canasta-position 1\nplayers: 4\nred3_0: 3H 3D\nred3_1: 3H 3D\n"
           "hand0: *11\nhand1: *11\nhand2: *11\nhand3: *11\n")
MAY_I = "mayi-position 1\nplayers: 4\nhand0: *11\nhand1: *11\nhand2: *11\nhand3: *11\n"


@pytest.mark.parametrize("head", [CANASTA, MAY_I], ids=["canasta", "may_i"])
def test_a_fill_lies_under_the_cards_written_after_it(head: str) -> None:
    """``pile: *6 9H`` is six unplaced cards under a 9H, in either game, and the text
    exported from it reads back as the same position."""
    state = import_position(head + "pile: *6 9H\nstock: *\n")
    assert len(state.pile) == 7 and state.pile[-1] == parse_cards("9H")[0]
    assert import_position(export_position(state)) == state


@pytest.mark.parametrize("head", [CANASTA, MAY_I], ids=["canasta", "may_i"])
@pytest.mark.parametrize(("lines", "message"), [
    ("pile: *x\nstock: *\n", "bad fill count in 'pile'"),
    ("pile: *-2\nstock: *\n", "bad fill count in 'pile'"),
    ("pile: *1\npile: *1\nstock: *\n", "line 'pile' is given twice"),
    ("pile *1\nstock: *\n", "expected 'key: value', got 'pile *1'"),
    ("stock: *500\n", "not enough unplaced cards for 'stock'"),
])
def test_both_games_refuse_bad_lines_alike(head: str, lines: str, message: str) -> None:
    with pytest.raises(BadInput) as err:
        import_position(head + lines)
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message


@pytest.mark.parametrize(("head", "lines", "message"), [
    (CANASTA, "phase: buy_window\n",
     "phase 'buy_window' is not one of draw, draw_exhausted, meld, permission, hand_over, "
     "game_over"),
    (MAY_I, "phase: permission\n",
     "phase 'permission' is not one of draw, meld, buy_window, hand_over, game_over"),
    (CANASTA, "phase: permission\nasked: 1 - game_over\n",
     "asked in phase 'game_over' is not one of draw, draw_exhausted, meld"),
    (CANASTA, "phase: permission\nasked: 0 - draw\n",
     "the permission phase is exactly the wait for an asked partner's answer"),
    (CANASTA, "phase: draw\nasked: 1 - draw\n",
     "the permission phase is exactly the wait for an asked partner's answer"),
    (CANASTA, "phase: draw\nasked: 0 yes draw\n",
     "the permission phase is exactly the wait for an asked partner's answer"),
    (CANASTA, "phase: meld\n", "the meld phase comes after a draw: name it in 'drew'"),
    (CANASTA, "phase: permission\nasked: 1 - meld\n",
     "the meld phase comes after a draw: name it in 'drew'"),
    (CANASTA, "phase: draw\ndrew: stock\n", "the draw phase comes before the draw"),
    (CANASTA, "phase: draw_exhausted\ndrew: pile\n",
     "the draw_exhausted phase comes before the draw"),
    ("canasta-position 1\nplayers: 3\nhand0: *13\nhand1: *13\nhand2: *13\n",
     "phase: permission\nasked: 1 - draw\n", "seat 0 has nobody to ask (CL-P2-5)"),
    (CANASTA, "phase: game_over\n", "a result line comes exactly with a hand that is over"),
    (CANASTA, "phase: meld\ndrew: stock\nresult: 0 0\n",
     "a result line comes exactly with a hand that is over"),
    (CANASTA, "phase: game_over\nresult: 0 0\n",
     "game_over is the phase of a result that decides the game"),
])
def test_a_position_is_in_a_phase_of_its_own_game(head: str, lines: str, message: str) -> None:
    """Each game's positions hold only that game's phases, as play leaves them: no buy
    window in the Canasta family and no permission phase in May I? (MI-BUY-1); a seat
    asks only a partner (CL-P2-5), who is waited for, and answers, only after an ask
    made while drawing or melding (CL-OUT-4); the meld phase comes after the turn's draw
    and the draw phases before it (CL-TURN-1); a hand is over exactly when it has a
    result, and the game exactly when that result decides it (CL-GAME-3). Read before,
    such a text opened a game nobody could move in (a meld phase with no draw left a
    one-card hand nothing to do), or one that an answer ended without a result."""
    with pytest.raises(BadInput) as err:
        import_position(head + lines + "stock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message


def test_an_asked_partner_answers_back_into_the_asking_phase() -> None:
    """CL-OUT-4: the permission phase read from a text returns, on the answer, to the
    phase the ask was made in."""
    state = import_position(CANASTA + "phase: permission\nasked: 1 - meld\ndrew: stock\nstock: *\n")
    assert state.awaited == 2 and [str(m) for m in legal_moves(state)] == ["yes", "no"]
    assert apply(state, parse_move("no")).phase is Phase.MELD


OVER = "phase: hand_over\nstock: *\n"


@pytest.mark.parametrize(("result", "message"), [
    ("4 0", "the seat that went out is -1 (nobody) or 0 to 3, not 4"),
    ("-2 0", "the seat that went out is -1 (nobody) or 0 to 3, not -2"),
    ("2147483648 0", "the seat that went out is -1 (nobody) or 0 to 3, not 2147483648"),
    ("1 0", "the seat that went out holds no card"),
    ("0 2", "the result's concealed flag is 0, or 1 for a seat that went out"),
    ("-1 1", "the result's concealed flag is 0, or 1 for a seat that went out"),
])
def test_a_canasta_result_names_a_seat_that_went_out_with_no_card(result: str,
                                                                   message: str) -> None:
    """CL-TURN-4, CL-OUT-1, CL-OUT-10: a hand ends with a seat going out, its hand empty,
    or with nobody (-1); only a seat that went out goes out concealed. Read before, a seat
    beyond the table was accepted (2^31 made every answer with a view INTERNAL), as were
    a seat holding cards and a concealed hand nobody went out of."""
    head = CANASTA.replace("hand0: *11", "hand0: -")
    with pytest.raises(BadInput) as err:
        import_position(head + OVER + f"result: {result}\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message
    for fine in ("0 0", "0 1", "-1 0"):
        state = import_position(head + OVER + f"result: {fine}\n")
        assert state.result is not None and export_position(state).endswith(f"result: {fine}\n")


@pytest.mark.parametrize("meld", ["K@0:", "3@1:  ", "H:5-7@0:", "K@0: KS KH KD | Q@0:"])
def test_a_canasta_meld_holds_cards(meld: str) -> None:
    """Play never leaves a meld without cards (CL-MELD-1). Read before, ``K@0:`` made a
    meld of none, which exported as ``K@0: -``, a text that no longer read back."""
    with pytest.raises(BadInput) as err:
        import_position(CANASTA + f"melds0: {meld}\nstock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message.startswith("the meld ") and "holds no card" in err.value.message


def test_the_created_line_reads_rank_codes_in_either_case() -> None:
    """The ranks of the melds a turn created (``created:``, CL-OUT-4's "this turn"): a rank,
    ``W`` a wild meld, ``~S`` a sequence of a suit (the first suit, spades, too), read in
    either case and written in capitals."""
    text = CANASTA.replace("players: 4", "variant: samba\nplayers: 4") + (
        "phase: meld\ndrew: stock\ncreated: ~s ~D w k 5\nstock: *\n")
    state = import_position(text)
    assert isinstance(state, State)
    assert state.turn.created == (SEQ_RANK, SEQ_RANK + 2, WILD_RANK, 11, 3)
    exported = export_position(state)
    assert "\ncreated: ~S ~D W K 5\n" in exported
    assert import_position(exported) == state


@pytest.mark.parametrize(("flags", "written"), [("0 0", "0 0"), ("1 1", "1 1"),
                                                ("0 0 0", "0 0"), ("0 1 1", "0 1 1")])
def test_the_third_turn_flag_is_written_only_when_set(flags: str, written: str) -> None:
    """docs/notation.md: ``flags`` holds two turn flags, and a third ``1`` only when the
    pile was taken with the stock gone (BO-END-3's last chance); read back alike."""
    state = import_position(CANASTA + f"phase: meld\ndrew: pile\nflags: {flags}\nstock: *\n")
    text = export_position(state)
    assert f"\nflags: {written}\n" in text
    assert import_position(text) == state


@pytest.mark.parametrize(("text", "options"), [
    ("-", {}), ("", {}), (" - ", {}),
    ("target_score=1500,pairs=2", {"target_score": "1500", "pairs": "2"}),
    ("turn_upcard=true; max_buys_per_deal=none",
     {"turn_upcard": "true", "max_buys_per_deal": "none"}),
    # a custom May I? schedule holds commas: ';' separates the options, or it is the one
    ("schedule=ss,sr,rr; turn_upcard=true", {"schedule": "ss,sr,rr", "turn_upcard": "true"}),
    ("schedule=ss,sr,rr", {"schedule": "ss,sr,rr"}),
    ("a=1;b=2,c=3", {"a": "1", "b": "2,c=3"}),
    (" schedule = ss,sr ;", {"schedule": "ss,sr"}),
])
def test_an_options_line_reads_in_either_games_form(text: str, options: dict[str, str]) -> None:
    """docs/records.md: options as the position notation writes them, ','-separated in the
    Canasta family and ';'-separated in May I? (whose schedule holds commas); '-' is none."""
    assert options_of(text) == options


@pytest.mark.parametrize("text", ["target_score", "a=1; b", "schedule=ss,sr; x"])
def test_an_option_without_a_value_is_refused(text: str) -> None:
    with pytest.raises(BadInput) as err:
        options_of(text)
    assert err.value.reason is Reason.BAD_NOTATION
    assert "an option is 'name=value'" in err.value.message


def test_a_may_i_option_of_no_limit_survives_the_notation() -> None:
    """MI options: ``max_buys_per_deal=none`` (no limit) is written as ``none`` and read back."""
    state = new_game("may_i", 4, seed=1, options={"max_buys_per_deal": "none",
                                                  "schedule": "ss,sr,rr"})
    text = export_position(state)
    assert "max_buys_per_deal=none" in text and "schedule=ss,sr,rr" in text
    assert import_position(text) == state


@pytest.mark.parametrize(("text", "message"), [
    (CANASTA + "dealer: 4\nstock: *\n", "seat 4 is not playing this hand"),
    (CANASTA + "turn: 7\nstock: *\n", "seat 7 is not playing this hand"),
    (CANASTA.replace("red3_1: 3H 3D", "red3_1: 3H").replace("hand0: *11", "hand0: *10 3D")
     + "stock: *\n", "hand0 holds a red three, which only a seat yet to begin a turn "
                     "(pending_red3) holds"),
])
def test_a_canasta_position_is_refused_for_what_play_never_leaves(text: str,
                                                                  message: str) -> None:
    """CL-SEAT-3: the dealer and the seat to play are seats of the table; CL-R3-1/2: a red
    three is laid at once, so only a seat yet to begin a turn holds one."""
    with pytest.raises(BadInput) as err:
        import_position(text)
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message
