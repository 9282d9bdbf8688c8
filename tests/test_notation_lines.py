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
    """The ranks of the melds a turn's take created (``created:``, CL-OUT-10): a rank,
    ``W`` a wild meld, ``~S`` a sequence of a suit (the first suit, spades, too), read in
    either case and written in capitals. Bolivia has both kinds (BO-WILD-2, SA-SEQ-1)."""
    text = CANASTA.replace("players: 4", "variant: bolivia\nplayers: 4") + (
        "phase: meld\ndrew: pile\nopened: 1 0\ncreated: ~s ~D w k 5\n"
        f"melds0: {BOLIVIA_MELDS}\nstock: *\n")
    state = import_position(text)
    assert isinstance(state, State)
    assert state.turn.created == (SEQ_RANK, SEQ_RANK + 2, WILD_RANK, 11, 3)
    exported = export_position(state)
    assert "\ncreated: ~S ~D W K 5\n" in exported
    assert import_position(exported) == state


BOLIVIA_MELDS = ("5@0: 5H 5D 5C | K@0: KS KH 2D | W@0: 2C 2H JK | S:4-6@0: 4S 5S 6S"
                 " | D:7-9@0: 7D 8D 9D")


@pytest.mark.parametrize(("lines", "message"), [
    ("phase: draw\ncreated: K\n",
     "'created' and the take's flags come only with 'drew: pile': the take of the pile sets them"),
    ("phase: meld\ndrew: stock\ncreated: K\nmelds0: K@0: KS KH KD\n",
     "'created' and the take's flags come only with 'drew: pile': the take of the pile sets them"),
    ("phase: meld\ndrew: stock\nflags: 1 0\n",
     "'created' and the take's flags come only with 'drew: pile': the take of the pile sets them"),
    ("phase: meld\ndrew: stock\nflags: 0 0 1\n",
     "'created' and the take's flags come only with 'drew: pile': the take of the pile sets them"),
    ("phase: meld\ndrew: pile\ncreated: ~S\nmelds0: K@0: KS KH KD\n",
     "created: ~S names no meld of seat 0's side"),
    ("phase: meld\ndrew: pile\ncreated: W\nmelds0: K@0: KS KH KD\n",
     "created: W names no meld of seat 0's side"),
    ("phase: meld\ndrew: pile\ncreated: K 2\nmelds0: K@0: KS KH KD\n",
     "created: 2 names no meld of seat 0's side"),
    ("phase: meld\ndrew: pile\ncreated: Q\nmelds0: K@0: KS KH KD\nmelds1: Q@1: QS QH QD\n",
     "created: Q names no meld of seat 0's side"),
])
def test_created_melds_come_from_the_take_of_the_pile(lines: str, message: str) -> None:
    """CL-PILE-8, CL-OUT-10: only taking the pile creates melds in the turn's take (the
    ``created`` line, which decides a concealed going out) or lays off on a partner's
    meld (the first flag), each created rank a meld of the taker's side; classic has no
    sequences (``~S``) and no melds of wild cards (``W``). Read before, a classic position
    took ``created: ~S``, and ``created: K`` before any draw, which made a stock draw and
    a laid-off hand count as going out concealed on the partner's canasta of kings."""
    with pytest.raises(BadInput) as err:
        import_position(CANASTA + lines + "stock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message
    fine = import_position(CANASTA + "phase: meld\ndrew: pile\ncreated: K\nflags: 1 0\n"
                           "melds0: K@0: KS KH KD | Q@2: QS QH QD\nstock: *\n")
    assert isinstance(fine, State) and fine.turn.created == (11,)


@pytest.mark.parametrize(("variant", "meld"), [
    ("classic", "D:5-7@0: 5D 6D 7D"),  # classic has no sequences
    ("classic", "W@0: 2S 2H JK"),  # nor melds of wild cards
    ("samba", "W@0: 2S 2H JK"),  # nor has Samba (SA-MELD-3)
    ("classic", "2@0: 2S 2H JK"),
    ("classic", "Q@0: KS KH KD"),  # a group's naturals are of its rank (CL-MELD-1)
    ("classic", "K@0: KS KD 9S"),
    ("samba", "K@0: KS KD 9S"),
    ("classic", "3@0: 3S 3C 3D"),  # red threes are never melded (CL-R3-1)
    ("bolivia", "W@0: 2S 2H KS"),  # a wild meld holds no natural (BO-WILD-2)
    ("samba", "H:5-7@0: 5H 6S 7H"),  # a sequence is of one suit (SA-SEQ-1)
    ("samba", "H:5-7@0: 5S 6S 7S"),
    ("samba", "S:5-8@0: 5S 6S 8S"),  # consecutive
    ("samba", "S:5-8@0: 5S 6S 7S"),  # from its lowest to its highest card
    ("samba", "S:5-7@0: 5S 2S 7S"),  # without a wild card
    ("classic", "K#2@0: KS KH KD"),  # a label names no ordinal: the side's order does
    ("bolivia", "W#2@0: 2S 2H JK"),
])
def test_a_meld_is_what_its_label_says_in_its_game(variant: str, meld: str) -> None:
    """docs/notation.md: the label must match the cards, and names a kind of meld the
    game has. Read before, a classic side could hold a sequence or a meld of wild cards,
    a queen meld of kings or a meld of red threes, and list moves for them."""
    with pytest.raises(BadInput) as err:
        import_position(CANASTA.replace("players: 4", f"variant: {variant}\nplayers: 4")
                        + f"opened: 1 0\nmelds0: {meld}\nstock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == f"the cards do not make the meld {meld.partition('@')[0]!r}"


@pytest.mark.parametrize(("variant", "melds"), [
    ("classic", "melds0: k@0: KS KD JK\nmelds1: 3@1: 3S 3C 3C"),
    ("samba", "melds0: K@0: KS KD 2S | K@2: KH KH KC | s:5-7@2: 7S 5S 6S"),
    ("bolivia", "melds1: W@1: 2S 2H JK | H:9-Q@3: 9H TH JH QH"),
])
def test_a_meld_of_its_games_kind_reads_back(variant: str, melds: str) -> None:
    """The melds each game has, labels in either case: a group with wild cards, black
    threes, several groups of a rank and sequences (SA-SEQ-1), melds of wild cards
    (BO-WILD-2)."""
    state = import_position(CANASTA.replace("players: 4", f"variant: {variant}\nplayers: 4")
                            + f"opened: 1 1\n{melds}\nstock: *\n")
    assert sum(len(side) for side in state.melds) == melds.count("@")
    assert import_position(export_position(state)) == state


@pytest.mark.parametrize(("lines", "message"), [
    ("asked: 7 - draw\n", "asked '7' is not one of 0, 1"),
    ("asked: 1 maybe meld\nphase: meld\ndrew: stock\n",
     "the answer 'maybe' is not one of -, yes, no"),
    ("asked: 0 - draw meld\n", "line 'asked' needs 3 values"),
    ("asked: 1 -\n", "line 'asked' needs 3 values"),
    ("phase: meld\ndrew: deck\n", "drew 'deck' is not one of -, stock, pile"),
])
def test_the_turn_lines_hold_the_values_play_writes(lines: str, message: str) -> None:
    """docs/notation.md, CL-OUT-4: ``asked`` is a flag (0/1), an answer (``yes``, ``no``
    or ``-``) and the phase asked in; ``drew`` is ``stock``, ``pile`` or ``-``. Read
    before, ``asked: 7`` read as no question, and an answer ``maybe`` or a draw from the
    ``deck`` reached every view."""
    with pytest.raises(BadInput) as err:
        import_position(CANASTA + lines + "stock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message


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
    (CANASTA.replace("red3_1: 3H 3D", "red3_1: 3H").replace("hand0: *11", "hand0: *10 3D")
     + "pending_red3: 1 0 0 0\nstock: *\n",
     "seat 0 has begun its turn, so its red threes are laid (pending_red3 0)"),
])
def test_a_canasta_position_is_refused_for_what_play_never_leaves(text: str,
                                                                  message: str) -> None:
    """CL-SEAT-3: the dealer and the seat to play are seats of the table; CL-R3-1/2: a red
    three is laid at once, so only a seat yet to begin a turn holds one, and the seat in turn
    has begun its own (an imported seat in its meld phase could hold one, CL-MELD-4)."""
    with pytest.raises(BadInput) as err:
        import_position(text)
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message


@pytest.mark.parametrize(("code", "message"), [
    ("~SS", "bad position: unknown rank '~SS'"),
    ("~X", "bad position: unknown rank '~X'"),
    ("~", "bad position: unknown rank '~'"),
    ("X", "bad position: unknown rank 'X'"),
])
def test_a_created_code_is_a_rank_w_or_a_suits_sequence(code: str, message: str) -> None:
    """docs/notation.md: a ``created`` code is a rank, ``W`` or ``~`` and one suit letter;
    anything else is refused naming it (where sequences run: Bolivia, SA-SEQ-1)."""
    text = CANASTA.replace("players: 4", "variant: bolivia\nplayers: 4") + (
        f"phase: meld\ndrew: pile\nopened: 1 0\ncreated: {code}\n"
        f"melds0: {BOLIVIA_MELDS}\nstock: *\n")
    with pytest.raises(BadInput) as err:
        import_position(text)
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message


def test_a_sides_melds_read_in_rank_order_keeping_a_ranks_order() -> None:
    """A side's melds are kept in rank order, as play lays them (several groups of a rank,
    SA-MELD-5, in the order they were laid): a text that lists them in another order reads
    as the same side, and an empty melds line as none."""
    head = CANASTA.replace("players: 4", "variant: samba\nplayers: 4") + "opened: 1 0\n"
    ordered = import_position(head + "melds0: 5@0: 5S 5H 5D | K@2: KS KS KH | K@0: KD KD KC"
                              "\nstock: *\n")
    shuffled = import_position(head + "melds0: K@2: KS KS KH | 5@0: 5S 5H 5D | K@0: KD KD KC"
                               "\nstock: *\n")
    assert shuffled == ordered
    assert [m.owner for m in ordered.melds[0]] == [0, 2, 0]
    assert "\nmelds0: 5@0: 5S 5H 5D | K@2: KS KS KH | K@0: KD KD KC\n" in export_position(shuffled)
    empty = import_position(CANASTA + "melds0:\nmelds1:  \nstock: *\n")
    assert empty.melds == ((), ())


@pytest.mark.parametrize(("flags", "message"), [
    ("0 0 0 0", "line 'flags' needs 2 values"), ("1", "line 'flags' needs 2 values"),
    ("0 2", "line 'flags' takes 0 or 1 values"), ("0 0 2", "line 'flags' takes 0 or 1 values"),
])
def test_the_turn_flags_are_two_or_three_flags(flags: str, message: str) -> None:
    """docs/notation.md: ``flags`` holds two turn flags and an optional third."""
    with pytest.raises(BadInput) as err:
        import_position(CANASTA + f"phase: meld\ndrew: pile\nflags: {flags}\nstock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message


THREE = "canasta-position 1\nplayers: 3\nhand0: *13\nhand1: *13\nhand2: *13\n"


@pytest.mark.parametrize("head", [
    THREE,  # three players ask nobody (no permission, CL-P2-5)
    THREE.replace("players: 3", "players: 3\noptions: p3_mode=cutthroat"),  # nobody yet
    THREE.replace("players: 3", "players: 3\noptions: p3_mode=cutthroat") + (
        "lone: 0\nsides: 0 1 1\n"),  # the lone hand has no partner (CL-P3-2)
    CANASTA.replace("players: 4", "variant: samba\nplayers: 4"),  # Samba asks nobody
])
def test_only_a_seat_with_a_partner_asks_where_the_rules_let_it(head: str) -> None:
    """CL-P2-5, CL-OUT-4: a seat asks its partner only where the rules let it ask and it
    has one: not three-handed, not in cutthroat before the pair forms nor as the lone
    hand, not in Samba without ``samba.ask_partner``; with it, seat 0 asks seat 2."""
    with pytest.raises(BadInput) as err:
        import_position(head + "phase: permission\nasked: 1 - draw\nstock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == "seat 0 has nobody to ask (CL-P2-5)"
    asks = CANASTA.replace("players: 4", "variant: samba\nplayers: 4\noptions: "
                           "samba.ask_partner=true")
    state = import_position(asks + "phase: permission\nasked: 1 - draw\nstock: *\n")
    assert state.awaited == 2


def test_seat_0_going_out_holds_no_card() -> None:
    """CL-OUT-1: the seat that went out emptied its hand, seat 0 as any other."""
    with pytest.raises(BadInput) as err:
        import_position(CANASTA + OVER + "result: 0 0\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == "the seat that went out holds no card"


def test_a_drawn_match_is_over() -> None:
    """CL-GAME-4 (``tie_policy=draw``): a tie at the target decides the match as a draw,
    so its result comes with ``game_over``, not ``hand_over``."""
    text = ("canasta-position 1\nplayers: 4\noptions: tie_policy=draw\nscores: 5000 5000\n"
            "phase: game_over\nresult: -1 0\nstock: *\n")
    state = import_position(text)
    assert state.result is not None and state.result.draw and state.result.winner == -1
    with pytest.raises(BadInput) as err:
        import_position(text.replace("game_over", "hand_over"))
    assert err.value.message == "game_over is the phase of a result that decides the game"


STAGED = ("canasta-position 1\nplayers: 4\nphase: meld\ndrew: stock\nred3_0: 3H 3D\n"
          "red3_1: 3H 3D\nhand0: 5S 9D\nmelds0: K@0: KS KH KD KC | Q@2: QS QH QD\n"
          "staged: meld KS KH KD | add K KC\nbase_hand: KC KS 5S KH 9D KD\n"
          "base_melds: Q@2: QS QH QD\nhand1: *11\nhand2: *11\nhand3: *11\nstock: *\n")


def test_staged_melds_lead_from_the_base_to_the_hand_and_melds() -> None:
    """CL-MIN-8: the meld actions ``undo`` can take back, with the hand and the side's
    melds before them; the base hand is kept in card order, as play keeps hands."""
    state = import_position(STAGED)
    assert [str(m) for m in state.turn.staged] == ["meld KS KH KD", "add K KC"]
    text = export_position(state)
    assert "\nbase_hand: 5S 9D KS KH KD KC\nbase_melds: Q@2: QS QH QD\n" in text
    assert import_position(text) == state
    undone = apply(apply(state, parse_move("undo")), parse_move("undo"))
    assert not undone.turn.staged
    assert undone.hands[0] == state.turn.base_hand and undone.melds[0] == state.turn.base_melds


@pytest.mark.parametrize(("old", "new", "message"), [
    ("staged: meld KS KH KD | add K KC", "staged: meld KS KH KD | draw",
     "only meld, add and merge moves can be staged"),
    ("staged: meld KS KH KD | add K KC", "staged: meld KS KH KD | add J JC",
     "staged move add J JC does not apply"),
    ("base_hand: KC KS 5S KH 9D KD", "base_hand: KC KS 5S KH 9D KD 7S",  # the hand differs
     "the staged moves do not lead from the base to the current hand and melds"),
    ("base_melds: Q@2: QS QH QD", "base_melds: -",  # the melds differ
     "the staged moves do not lead from the base to the current hand and melds"),
])
def test_staged_melds_that_do_not_lead_to_the_position_are_refused(old: str, new: str,
                                                                   message: str) -> None:
    """CL-MIN-8: ``staged`` holds meld actions only (what ``undo`` takes back), and they
    lead from ``base_hand``/``base_melds`` to the turn seat's hand and its side's melds."""
    with pytest.raises(BadInput) as err:
        import_position(STAGED.replace(old, new))
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message


@pytest.mark.parametrize(("text", "message"), [
    ("", "a position starts with 'canasta-position 1'"),
    ("\n  \n", "a position starts with 'canasta-position 1'"),
    ("canasta-position 1\nhand0: *11\n", "the position lacks the line 'players'"),
    ("canasta-position 1\nplayers: 4\nscores: 0\nstock: *\n", "line 'scores' needs 2 values"),
    ("canasta-position 1\nplayers: 4\nscores: 0 0 0\nstock: *\n", "line 'scores' needs 2 values"),
    ("canasta-position 1\nplayers: 4\nscores: 0 x\nstock: *\n", "line 'scores' needs integers"),
    (CANASTA + "melds0: Z@0: KS KH KD\nstock: *\n", "bad position: cannot read meld label 'Z'"),
    (CANASTA.replace("hand0: *11", "hand0: ZZ") + "stock: *\n",
     "bad position: unknown card code 'ZZ'"),
    (STAGED.replace("staged: meld KS KH KD | add K KC", "staged: fly away"),
     "bad position: cannot read move 'fly away'"),
    (MAY_I.replace("hand0: *11", "hand0: ZZ") + "stock: *\n",
     "bad position: unknown card code 'ZZ'"),
])
def test_a_malformed_position_is_a_bad_notation(text: str, message: str) -> None:
    """docs/notation.md, *What the import checks*: a missing header or ``players`` line,
    a line with the wrong number of values or no integers, an unknown card code, an
    unreadable meld label or staged move: all ``BAD_NOTATION``, in either game. Read
    before, an unreadable meld label or staged move was ``BAD_MOVE_SYNTAX``, a move's
    reason, for a position."""
    with pytest.raises(BadInput) as err:
        import_position(text)
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message


@pytest.mark.parametrize("text", [
    CANASTA + "options: target_score\nstock: *\n",  # a ValueError of the reader
    MAY_I + "taken:\nstock: *\n",  # an IndexError
])
def test_any_error_reading_a_position_is_a_bad_notation(text: str) -> None:
    with pytest.raises(BadInput) as err:
        import_position(text)
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message.startswith("bad position: ")


def test_blank_lines_and_spaces_around_keys_and_values_are_ignored() -> None:
    """docs/notation.md, *Format*: blank lines are ignored, and so are spaces around keys
    and values."""
    text = "\n  canasta-position 1  \n\n players :  4 \n\n" + CANASTA.split("\n", 2)[2] + (
        "\n  stock :  * \n\n")
    assert import_position(text) == import_position(CANASTA + "stock: *\n")


def test_an_exported_position_writes_empty_zones_and_options_as_dashes() -> None:
    """docs/notation.md: an empty zone is ``-``, and so is an options line of defaults
    (the options that depend on the table, target and canastas, too); a boolean option
    is written ``true``/``false``, as the rules' options tables spell it."""
    text = export_position(new_game("classic", 4, seed=1))
    assert "\noptions: -\n" in text and "\nmelds0: -\n" in text and "\nred3_3: -\n" in text
    state = import_position(CANASTA + "pile: -\nstock: *\n")
    assert "\npile: -\n" in export_position(state)
    six = new_game("classic", 6, seed=1, options={"concealed_forbid_pile": True})
    assert "\noptions: concealed_forbid_pile=true\n" in export_position(six)
    may_i = export_position(new_game("may_i", 4, seed=1))
    assert "\noptions: -\n" in may_i and "\nwindow: -\n" in may_i


@pytest.mark.parametrize(("lines", "message"), [
    ("melds0: A@0: AS AS AS\nstock: *\n", "more copies than the deck holds: AS"),
    ("stock: *61\n", "not enough unplaced cards for 'stock'"),  # 60 remain
    ("stock: *59\n", "1 cards are not placed: use '*' for the stock or a hand"),
])
def test_the_fills_place_every_card_of_the_deck_once(lines: str, message: str) -> None:
    """CL-DECK-1: a position holds the game's 108 cards, each once: no more copies than
    the deck has, a fill of no more cards than remain, and none left over."""
    with pytest.raises(BadInput) as err:
        import_position(CANASTA + lines)
    assert err.value.reason is Reason.BAD_NOTATION
    assert err.value.message == message
    assert len(import_position(CANASTA + "stock: *60\n").stock) == 60


@pytest.mark.parametrize("line", ["fresh: 2", "went_down: 2", "laid_off: -1", "fresh: 0 1"])
def test_may_i_turn_flags_are_0_or_1(line: str) -> None:
    """docs/rules-may-i.md, the position's turn lines (MI-TURN-1): ``fresh``,
    ``went_down`` and ``laid_off`` are each one flag, 0 or 1; any other number was read as 0."""
    key = line.split(":")[0]
    with pytest.raises(BadInput) as err:
        import_position(MAY_I + f"pile: *1\n{line}\nstock: *\n")
    assert err.value.reason is Reason.BAD_NOTATION
    assert key in err.value.message


def test_may_i_turn_flags_read_back() -> None:
    """The same lines at 0 and 1 read as the flags they write (MI-TURN-1)."""
    stale = import_position(MAY_I + "pile: *1\nfresh: 0\nstock: *\n")
    live = import_position(MAY_I + "pile: *1\nfresh: 1\nstock: *\n")
    assert (stale.turn.fresh, live.turn.fresh) == (False, True)
    assert import_position(export_position(live)) == live
