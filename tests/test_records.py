"""Game records (engine/records.py, docs/records.md): written from a played game, replayed.

Hypothesis plays hands of every variant (its seed and every move drawn), keeping the
record as a host does (``begin``, ``played``, ``dealt``). Properties: the written record
replays to the very state the game reached, reads back to the same text, and a tampered
move or score is refused naming it; a seat's record holds its own cards alone, a
spectator's none.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import records
from engine.bots import greedy_move
from engine.cards import CARDS, CODES
from engine.errors import BadInput, Reason, RuleViolation
from engine.events import EventKind, play
from engine.game import new_game, next_deal
from engine.legal import legal_moves
from engine.mayi.moves import GoDown, LayOff
from engine.mayi.state import AnyState
from engine.moves import Discard, Draw, Move, Undo, parse_move
from engine.notation import export_position, import_position
from engine.state import Phase
from service import cli
from tests.conftest import examples
from tests.test_properties_classic import OVER, SEEDS

Options = Mapping[str, object]

CONFIGS: list[tuple[str, int, Options]] = [
    ("classic", 4, {}), ("classic", 2, {}), ("classic", 3, {"p3_mode": "cutthroat"}),
    ("classic", 6, {}), ("classic", 5, {}), ("samba", 4, {}), ("bolivia", 4, {}),
    ("bolivia_sevens", 4, {}), ("may_i", 3, {}), ("may_i", 5, {}),
]
MAX_PLIES = 2500  # per hand: a drawn hand ends well within it
# hypothesis' simplest choice is the first: going down and laying off first ends May I?'s
# deals (uniform play may pass for ever, tests/test_properties_may_i.py), and so does drawing
# rather than taking back a discard; undo goes last
_ORDER = {GoDown: 0, LayOff: 1, Draw: 2, Undo: 4}
LONG = settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])


def draw_move(data: st.DataObject, moves: list[Move], ply: int) -> Move:
    ordered = sorted(moves, key=lambda m: _ORDER.get(type(m), 3))
    return data.draw(st.sampled_from(ordered), label=f"ply {ply}")


def _id(config: tuple[str, int, Options]) -> str:
    variant, players, options = config
    return f"{variant}-{players}" + ("-" + ",".join(f"{k}={v}" for k, v in options.items())
                                     if options else "")


def played_game(data: st.DataObject, variant: str, players: int, options: Options,
                hands: int = 2) -> tuple[records.Record, AnyState, list[AnyState]]:
    """A record kept as a host keeps it, the final state, and the state before each move."""
    state = new_game(variant, players, seed=data.draw(SEEDS, label="seed"), options=options)
    record = records.begin(state)
    before: list[AnyState] = []
    for hand in range(hands):
        for _ in range(MAX_PLIES):
            if state.phase in OVER:
                break
            done = play(state, draw_move(data, legal_moves(state), state.ply))
            before.append(state)
            record = records.played(record, done.seat, done.move)
            state = done.state
        if hand == hands - 1 or state.phase not in OVER or state.result is None or (
                state.result.winner >= 0 or state.result.draw):
            break
        state = next_deal(state)
        record = records.dealt(record)
    return record, state, before


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
@settings(LONG, max_examples=examples(2))
@given(data=st.data())
def test_a_written_record_replays_to_the_same_state(config: tuple[str, int, Options],
                                                    data: st.DataObject) -> None:
    record, final, before = played_game(data, *config)
    text = records.write(record)
    assert records.replay(text) == final
    assert records.write(records.parse(text)) == text  # the text reads back as written
    # checked against its end on the same replay: the same text, and only at that end
    assert records.write(record, None, ends_at=final) == text
    if before:  # the state before the last move is not where the record ends
        with pytest.raises(BadInput) as err:
            records.write(record, -1, ends_at=before[-1])
        assert err.value.reason is Reason.BAD_NOTATION
    if final.phase in OVER and final.result is not None:
        totals = " ".join(str(s.cumulative) for s in final.result.sides)
        assert f"\ntotals: {totals}\n" in text


def _move_lines(text: str) -> list[tuple[int, str]]:
    """(line index, line) of every move line of a record."""
    return [(i, ln) for i, ln in enumerate(text.splitlines()) if re.match(r"^\d+ ", ln)]


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
@settings(LONG, max_examples=examples(1))
@given(data=st.data())
def test_a_tampered_move_is_refused_naming_it(config: tuple[str, int, Options],
                                              data: st.DataObject) -> None:
    record, _, before = played_game(data, *config, hands=1)
    text = records.write(record)
    moves = _move_lines(text)
    k = data.draw(st.integers(0, len(moves) - 1), label="move")
    index, line = moves[k]
    state = before[k]
    seat = int(line.split()[0])
    held = set(state.hands[seat])
    card = next(c for c in CARDS if c not in held)  # a card the mover does not hold
    lines = text.splitlines()
    lines[index] = f"{seat} {Discard(card)}"
    with pytest.raises(RuleViolation) as info:
        records.replay("\n".join(lines) + "\n")
    assert f"move {k + 1} " in info.value.message
    assert f"line {index + 1}: '{seat} discard {CODES[card]}'" in info.value.message


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
@settings(LONG, max_examples=examples(1))
@given(data=st.data())
def test_a_tampered_score_is_refused_naming_it(config: tuple[str, int, Options],
                                               data: st.DataObject) -> None:
    record, final, _ = played_game(data, *config, hands=1)
    assert final.phase in OVER, "the drawn hand did not end"
    text = records.write(record)
    match = re.search(r"^(points|totals): (-?\d+)", text, re.M)
    assert match is not None
    name, first = match.group(1), int(match.group(2))
    wrong = text[:match.start(2)] + str(first + 5) + text[match.end(2):]
    with pytest.raises(BadInput) as info:
        records.replay(wrong)
    assert info.value.reason is Reason.BAD_NOTATION
    assert f"hand 0 (line {text[:match.start()].count(chr(10)) + 1}): the record says " \
           f"{name} {first + 5}" in info.value.message


NOTE = re.compile(r"\{([^}]*)\}")


@pytest.mark.parametrize("config", CONFIGS, ids=_id)
@settings(LONG, max_examples=examples(1))
@given(data=st.data())
def test_a_seats_record_holds_its_own_cards_alone(config: tuple[str, int, Options],
                                                  data: st.DataObject) -> None:
    """A seat's record shows the moves (public), its own dealt hand, draws and takes as its
    events showed them, and no card of another hand, the stock, the seed or the deck;
    the hands are shown once a hand is over (the count). A spectator's shows no card."""
    variant, players, options = config
    record, final, before = played_game(data, variant, players, options, hands=1)
    full = records.write(record)
    start = before[0] if before else final
    # the same hand, stopped mid-way: the record of a hand in play
    cut = data.draw(st.integers(0, len(before)), label="cut") if before else 0
    partial = records.Record(record.variant, record.players, record.options, (
        records.HandRecord(0, None, record.hands[0].moves[:cut]),), record.seed,
        record.dealer)
    over = cut == len(before) and final.phase in OVER
    for viewer in range(players):
        text = records.write(partial, viewer)
        assert not re.search(r"^(seed|deck|start):|^\|", text, re.M)
        expected = [f"dealt {viewer}: {' '.join(CODES[c] for c in start.hands[viewer]) or '-'}"]
        for state, ml in zip(before[:cut], record.hands[0].moves, strict=False):
            done = play(state, parse_move(ml.move), ml.seat)
            for e in done.events:
                if e.kind in (EventKind.CARDS_DRAWN, EventKind.PILE_TAKEN) and e.cards \
                        and e.seat == viewer:
                    verb = "took" if e.kind is EventKind.PILE_TAKEN else f"{viewer} drew"
                    expected.append(f"{verb} {' '.join(CODES[c] for c in e.cards)}")
        notes = [n for line in text.splitlines() for n in
                 (part.strip() for found in NOTE.findall(line) for part in found.split(";"))]
        shown_at_end = [n for n in notes if n.startswith("hands at the end")]
        assert notes[:len(notes) - len(shown_at_end)] == expected
        assert len(shown_at_end) == (1 if over else 0)
        # the moves are written for everyone, as played
        assert [ln.split("{")[0].strip() for _, ln in _move_lines(text)] == [
            ln.split("{")[0].strip() for _, ln in _move_lines(full)][:cut]
    public = records.write(partial, -1)
    assert "{" not in public and "view: public" in public
    with pytest.raises(BadInput) as info:
        records.replay(records.write(partial, 0))
    assert info.value.reason is Reason.BAD_NOTATION


class _Stop(Exception):
    pass


def test_an_interrupt_is_asked_every_64_moves_and_ends_the_replay() -> None:
    """A replay asks its ``interrupt`` before every ``INTERRUPT_EVERY`` moves, so a caller
    can stop a long one; what it raises ends the replay, and one that never raises leaves
    the text as it was."""
    state = new_game("classic", 4, seed=11)
    record = records.begin(state)
    greedy = random.Random(11)
    for _ in range(150):
        done = play(state, greedy_move(state, greedy))
        record, state = records.played(record, done.seat, done.move), done.state
        if state.phase in OVER:
            break
    moves = sum(len(h.moves) for h in record.hands)
    assert records.INTERRUPT_EVERY == 64  # docs/records.md
    assert moves > 2 * records.INTERRUPT_EVERY
    asked: list[int] = []
    text = records.write(record)
    assert records.write(record, interrupt=lambda: asked.append(1)) == text
    assert len(asked) == -(-moves // records.INTERRUPT_EVERY)
    assert records.replay(text, interrupt=lambda: asked.append(1)) == state

    def stop_at_the_second() -> None:
        asked.append(1)
        if len(asked) == 2:
            raise _Stop

    asked.clear()
    with pytest.raises(_Stop):
        records.write(record, ends_at=state, interrupt=stop_at_the_second)
    assert len(asked) == 2


def test_a_stacked_deal_and_a_position_start_replay() -> None:
    """A deal from a caller's deck is recorded with it; a state that no deal made (here a
    hand in play) starts its record from its position."""
    seeded = new_game("classic", 2, seed=3)
    deck = list(seeded.stock[::-1]) + [c for h in seeded.hands for c in h] + list(seeded.pile)
    stacked = new_game("classic", 2, seed=0, deck=[CODES[c] for c in deck])
    rec = records.begin(stacked, deck=deck)
    assert rec.seed == 0 and rec.hands[0].deck is not None and not rec.position
    assert records.replay(records.write(rec)) == stacked
    assert records.begin(stacked).position  # without the deck: the position
    mid = play(seeded, legal_moves(seeded)[0]).state
    rec = records.begin(mid)
    assert rec.position and rec.seed is None
    done = play(mid, legal_moves(mid)[0])
    rec = records.played(rec, done.seat, done.move)
    assert records.replay(records.write(rec)) == done.state


def test_a_next_deal_from_a_callers_deck_is_recorded_with_it() -> None:
    """A later hand dealt from a caller's deck (NextDeal with a deck) is written with that
    deck in the host's record, and the replay deals it again: not the seeded shuffle."""
    state = new_game("classic", 2, seed=3)
    record = records.begin(state)
    greedy = random.Random(3)
    while state.phase not in OVER:
        done = play(state, greedy_move(state, greedy))
        record, state = records.played(record, done.seat, done.move), done.state
    seeded = next_deal(state)
    deck = sorted(list(seeded.stock) + [c for h in seeded.hands for c in h] + list(seeded.pile))
    stacked = next_deal(state, deck)
    assert stacked != seeded
    record = records.dealt(record, deck)
    assert record.hands[-1].deck == tuple(deck)
    text = records.write(record)
    assert f"\nhand 1\ndeck: {' '.join(CODES[c] for c in deck)}\n" in text
    assert records.replay(text) == stacked
    assert "deck:" not in records.write(record, 0)  # a seat's record hides it


@pytest.mark.parametrize("seed", range(4))  # 3 to 5 hands, won by side 0 or side 1
def test_the_winner_line_names_the_winning_side_only_at_the_games_end(seed: int) -> None:
    """CL-GAME-3: a finished hand that does not end the game has points and totals but no
    winner; the last hand's 'winner:' names the side that won (side 0 as any other), and a
    record that says another winner is refused."""
    state = new_game("classic", 2, seed=seed)
    record = records.begin(state)
    greedy = random.Random(seed)
    while state.phase is not Phase.GAME_OVER:
        if state.phase is Phase.HAND_OVER:
            state = next_deal(state)
            record = records.dealt(record)
            continue
        done = play(state, greedy_move(state, greedy))
        record, state = records.played(record, done.seat, done.move), done.state
    assert state.result is not None
    text = records.write(record)
    winner = "draw" if state.result.winner < 0 else str(state.result.winner)
    assert text.count("\nwinner: ") == 1 and text.endswith(f"\nwinner: {winner}\n")
    assert text.count("\ntotals: ") == len(record.hands) > 1
    assert records.replay(text) == state
    other = "0" if winner != "0" else "1"
    with pytest.raises(BadInput) as info:
        records.replay(text.replace(f"\nwinner: {winner}\n", f"\nwinner: {other}\n"))
    assert f"the record says winner {other}, the replay gives {winner}" in info.value.message
    with pytest.raises(BadInput) as info:  # the game's end, written without its winner
        records.replay(text.replace(f"\nwinner: {winner}\n", "\n"))
    assert f"the record says winner -, the replay gives {winner}" in info.value.message


def test_a_position_start_in_a_later_hand_keeps_its_hand_number() -> None:
    """A record begun at a later hand's position (the service's ExportRecord of a match
    under way) numbers its first hand as that hand, so it replays (a record whose 'hand
    N' is not the replay's hand is refused)."""
    state = new_game("classic", 4, seed=11)
    greedy = random.Random(11)
    while state.phase not in OVER:
        state = play(state, greedy_move(state, greedy)).state
    later = next_deal(state)
    assert later.hand_no == 1
    rec = records.begin(later)
    assert rec.position and [h.number for h in rec.hands] == [1]
    done = play(later, legal_moves(later)[0])
    text = records.write(records.played(rec, done.seat, done.move))
    assert "\nhand 1\n" in text
    assert records.replay(text) == done.state


@pytest.mark.parametrize(("text", "says"), [
    ("", "a record starts with 'canasta-record 1'"),
    ("canasta-record 1\nvariant: classic\n", "a record names its 'variant' and 'players'"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\n",
     "a record holds at least one 'hand N'"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\ncolour: red\nhand 0\n",
     "unknown header line 'colour'"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: x\nhand 0\n",
     "seed must be a number"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\n0 draw {drew\n",
     "line 6: an annotation '{' is not closed"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 1\n",
     "hand 1 is hand 0 of the replay"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\npoints: 0 0\n",
     "hand 0 (line 6): the record scores it, but it is not over after its moves"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nhand 0\n0 draw\n",
     "the record has neither a seed nor a position"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\n0 draw }\n", "line 6: '}' closes no annotation"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\n0 draw\nhand 0\n", "line 5: a move before any 'hand N' line"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nseed: 2\nhand 0\n", "line 5: 'seed' is given twice"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\ndraw\n", "line 6: expected 'key: value', 'hand N' or 'SEAT MOVE', got 'draw'"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\n| stock -\n",
     "line 6: expected 'key: value', 'hand N' or 'SEAT MOVE', got '| stock -'"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0: 1\n", "unknown header line 'hand 0'"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\n0 draw\ndeck: AS\n", "line 7: a hand's deck comes before its moves"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\ncolour: red\n", "line 6: unknown line 'colour' in a hand"),
    # a start is a deal or a position, and 'start: position' comes with its '| ' lines
    ("canasta-record 1\nvariant: classic\nplayers: 4\nstart: elsewhere\nseed: 1\nhand 0\n",
     "'start: position' comes with the position's '| ' lines, and only with them"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nstart: position\nseed: 1\nhand 0\n",
     "'start: position' comes with the position's '| ' lines, and only with them"),
    # any one result line scores the hand
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\ntotals: 0 0\n",
     "hand 0 (line 6): the record scores it, but it is not over after its moves"),
    ("canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\n0 draw\nwinner: 0\n",
     "hand 0 (line 7): the record scores it, but it is not over after its moves"),
    # a seat's record names no seed; one that does still hides the hands it was not written for
    ("canasta-record 1\nvariant: classic\nplayers: 4\nview: 0\nseed: 1\nhand 0\n0 draw\n",
     "a record written for a seat or a spectator hides the deal"),
])
def test_a_malformed_record_is_refused(text: str, says: str) -> None:
    with pytest.raises(BadInput) as info:
        records.replay(text)
    assert info.value.reason is Reason.BAD_NOTATION
    assert says in info.value.message


def test_an_unparsable_move_names_its_line() -> None:
    text = "canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\n0 fly away\n"
    with pytest.raises(BadInput) as info:
        records.replay(text)
    assert info.value.reason is Reason.BAD_MOVE_SYNTAX
    assert "move 1 (hand 0, line 6: '0 fly away')" in info.value.message


def test_a_move_out_of_turn_is_refused_naming_it() -> None:
    """CL-TURN-2: seat 1 cannot draw on seat 0's turn, in a record as at the table."""
    text = "canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\nhand 0\n1 draw\n"
    with pytest.raises(RuleViolation) as info:
        records.replay(text)
    assert (info.value.reason, info.value.rule) == (Reason.NOT_YOUR_TURN, "CL-TURN-2")
    assert info.value.message.startswith("move 1 (hand 0, line 6: '1 draw'): ")


# --- canasta replay FILE ------------------------------------------------------------------


def _sample() -> str:
    state = new_game("classic", 4, seed=11)
    record = records.begin(state)
    for _ in range(12):
        done = play(state, legal_moves(state)[0])
        record = records.played(record, done.seat, done.move)
        state = done.state
    return records.write(record)


def test_canasta_replay_exit_codes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.txt"
    good.write_text(_sample())
    assert cli.main(["replay", str(good)]) == 0
    assert "ok: 1 hand(s), 12 moves" in capsys.readouterr().out
    lines = _sample().splitlines()
    index, line = _move_lines(_sample())[3]
    seat, move = line.split("{")[0].strip().split(None, 1)
    wrong = f"{(int(seat) + 1) % 4} {move}"  # another seat than the one to move (CL-TURN-2)
    lines[index] = wrong
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(lines) + "\n")
    assert cli.main(["replay", str(bad)]) == 1
    err = capsys.readouterr().err
    assert f"NOT_YOUR_TURN: move 4 (hand 0, line {index + 1}: '{wrong}')" in err
    assert cli.main(["replay", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert cli.main(["replay"]) == 2


HEAD4 = "canasta-record 1\nvariant: classic\nplayers: 4\nseed: 1\n"


def test_a_negative_dealer_is_refused() -> None:
    """``dealer: -7`` was accepted, replayed with the default dealer and written back."""
    with pytest.raises(BadInput) as info:
        records.replay(HEAD4 + "dealer: -7\nhand 0\n0 draw\n")
    assert info.value.reason is Reason.BAD_NOTATION
    assert "dealer" in info.value.message


def test_a_hand_dealt_before_the_last_one_is_over_is_refused_naming_it() -> None:
    """CL-TURN-4: the next hand is dealt only once a hand is over; a record that deals it
    sooner is refused with the engine's reason, naming the hand."""
    with pytest.raises(RuleViolation) as info:
        records.replay(HEAD4 + "hand 0\n0 draw\nhand 1\n")
    assert info.value.reason is Reason.HAND_NOT_OVER
    assert info.value.message.startswith("hand 1: ")


def test_an_interrupt_is_asked_before_the_first_move() -> None:
    """The first call of ``interrupt`` comes before the first move is replayed: what it
    raises ends even a one-move replay, before that move is checked."""
    def stop() -> None:
        raise _Stop

    with pytest.raises(_Stop):
        records.replay(HEAD4 + "hand 0\n1 draw\n", interrupt=stop)  # an illegal move
    asked: list[int] = []
    records.write(HEAD4 + "hand 0\n0 draw\n", interrupt=lambda: asked.append(1))
    assert asked == [1]


def test_the_players_names_are_written_and_read_back() -> None:
    """A record names its players (``names:``, docs/records.md) in every view, and reads
    them back as written."""
    names = ("Ann", "Bob", "Cy", "Di")
    rec = records.begin(new_game("classic", 4, seed=1), names=names)
    for viewer in (None, 0, -1):
        text = records.write(rec, viewer)
        assert "\nnames: Ann | Bob | Cy | Di\n" in text
        assert records.parse(text).names == names


def test_a_seats_record_of_a_position_start_names_no_dealer() -> None:
    """A record that starts from a position keeps its dealer in the position, which a
    seat's or the public record leaves out: no 'dealer:' line either (one of a deal
    start names the replay's dealer)."""
    seeded = new_game("classic", 2, seed=3)
    mid = play(seeded, legal_moves(seeded)[0]).state
    rec = records.begin(mid)
    assert rec.position
    for viewer in (0, 1, -1):
        text = records.write(rec, viewer)
        assert "dealer:" not in text and "start:" not in text and "| " not in text, viewer
    assert "\ndealer: 1\n" in records.write(records.begin(seeded), 0)


def test_a_header_line_may_end_in_spaces() -> None:
    text = HEAD4.replace("canasta-record 1\n", "canasta-record 1 \r\n") + "hand 0\n0 draw\n"
    assert records.replay(text).ply == 1


def test_a_taken_pile_is_noted_without_a_seat() -> None:
    """The host's note of a taken pile says what was taken ('{took ...}': the move's seat
    is the line's), unlike a drawn card's, which names the drawer ('{0 drew ...}')."""
    for seed in range(20):
        state = new_game("classic", 2, seed=seed)
        record = records.begin(state)
        greedy = random.Random(seed)
        took = False
        while state.phase not in OVER and not took:
            done = play(state, greedy_move(state, greedy))
            record, state = records.played(record, done.seat, done.move), done.state
            took = str(done.move).startswith("take")
        if took:
            last = records.write(record).splitlines()[-1]
            assert re.fullmatch(r"\d take .*\{took [^;]+(; \d drew .+)?\}", last), last
            return
    raise AssertionError("no pile taken in 20 games")


def test_a_record_dealt_by_seat_0_replays_with_that_dealer() -> None:
    """CL-SEAT-3: the seat after the dealer plays first, seat 0 a dealer like any other
    (not the default last seat): seat 1 draws first, and the record writes dealer 0."""
    text = HEAD4 + "dealer: 0\nhand 0\n1 draw\n"
    state = records.replay(text)
    assert (state.dealer, state.ply) == (0, 1)
    assert "\ndealer: 0\n" in records.write(text)


def test_a_record_without_a_dealer_is_written_with_the_replays() -> None:
    """CL-SEAT-3: the last seat deals and seat 0 plays first by default; the written record
    names that dealer (it wrote ``dealer: -1``), for the host's view and a seat's."""
    text = HEAD4 + "hand 0\n0 draw\n"
    for viewer in (None, 0, -1):
        assert "\ndealer: 3\n" in records.write(text, viewer), viewer


def _finished_hand(seed: int = 3) -> tuple[records.Record, AnyState]:
    """A two-handed classic hand played to its end by the greedy bot, with its record."""
    state = new_game("classic", 2, seed=seed)
    record = records.begin(state)
    greedy = random.Random(seed)
    while state.phase not in OVER:
        done = play(state, greedy_move(state, greedy))
        record, state = records.played(record, done.seat, done.move), done.state
    return record, state


def test_a_caller_that_knows_how_the_game_started_decides_its_records_start() -> None:
    """``by_deal`` (the service's, read from a snapshot's sealed header) decides the start
    without dealing again to compare: ``False`` records even a fresh deal by its position,
    ``True`` by its seed and dealer."""
    fresh = new_game("classic", 4, seed=5)
    by_position = records.begin(fresh, by_deal=False)
    assert by_position.seed is None and by_position.position
    assert records.replay(records.write(by_position)) == fresh
    by_seed = records.begin(fresh, by_deal=True)
    assert (by_seed.seed, by_seed.dealer, by_seed.position) == (5, fresh.dealer, "")


def test_a_position_no_deal_makes_is_recorded_from_its_position() -> None:
    """A fresh-looking position (hand 0, no move yet) whose seed no deal takes (seeds are
    unsigned, 0 to 2^64-1) or that a caller's deck did not deal starts its record from
    the position, without the deck."""
    text = ("canasta-position 1\nplayers: 4\nseed: -1\nred3_0: 3H 3D\nred3_1: 3H 3D\n"
            "hand0: *11\nhand1: *11\nhand2: *11\nhand3: *11\nstock: *\n")
    state = import_position(text)
    rec = records.begin(state)
    assert rec.position and rec.seed is None
    assert records.replay(records.write(rec)) == state
    assert records.parse(records.write(rec)).position == rec.position == export_position(state)
    seeded = new_game("classic", 2, seed=3)
    deck = list(seeded.stock[::-1]) + [c for h in seeded.hands for c in h] + list(seeded.pile)
    mid = play(seeded, legal_moves(seeded)[0]).state
    rec = records.begin(mid, deck=deck)
    assert rec.position and rec.hands[0].deck is None
    assert "deck:" not in records.write(rec)


def test_an_empty_deck_is_a_callers_deck_not_the_seeded_shuffle() -> None:
    """A next hand dealt from an empty deck is recorded with it, and its replay is
    refused as NextDeal refuses it (BAD_DECK), naming the hand: not dealt by the seed."""
    record, _ = _finished_hand()
    record = records.dealt(record, [])
    assert record.hands[-1].deck == ()
    with pytest.raises(BadInput) as info:
        records.write(record)
    assert info.value.reason is Reason.BAD_DECK and info.value.message.startswith("hand 1: ")


def test_a_refusal_names_no_line_for_a_move_that_was_not_read() -> None:
    """A record kept by a host (``played``) has no lines: an illegal move or a wrong
    result is named by its number and hand alone (CL-TURN-2)."""
    rec = records.played(records.begin(new_game("classic", 4, seed=1)), 1, "draw")
    with pytest.raises(RuleViolation) as info:
        records.write(rec)
    assert info.value.message.startswith("move 1 (hand 0: '1 draw'): ")
    record, state = _finished_hand()
    assert state.result is not None
    points = tuple(s.total for s in state.result.sides)
    wrong = (points[0] + 1, points[1])
    hand = record.hands[0]
    bad = records.Record(record.variant, record.players, record.options,
                         (records.HandRecord(hand.number, hand.deck, hand.moves, wrong),),
                         record.seed, record.dealer)
    with pytest.raises(BadInput) as err:
        records.replay(bad)
    assert err.value.message.startswith(f"hand 0: the record says points {wrong[0]} {wrong[1]},")


def test_a_result_names_its_first_line_and_may_leave_lines_out() -> None:
    """A hand that is not over refuses a result naming the first of its lines; a finished
    hand's result may give its points or its totals alone, each checked."""
    with pytest.raises(BadInput) as info:
        records.replay(HEAD4 + "hand 0\npoints: 1 2\ntotals: 3 4\n")
    assert info.value.message.startswith("hand 0 (line 6): the record scores it, but it is "
                                         "not over")
    record, state = _finished_hand()
    text = records.write(record)
    for line in ("points", "totals"):
        alone = re.sub(rf"\n{line}: [^\n]*", "", text)
        assert f"\n{line}:" not in alone and records.replay(alone) == state
