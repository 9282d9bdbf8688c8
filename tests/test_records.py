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
                if e.private and e.cards and e.seat == viewer:
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


def test_a_record_without_a_dealer_is_written_with_the_replays() -> None:
    """CL-SEAT-3: the last seat deals and seat 0 plays first by default; the written record
    names that dealer (it wrote ``dealer: -1``), for the host's view and a seat's."""
    text = HEAD4 + "hand 0\n0 draw\n"
    for viewer in (None, 0, -1):
        assert "\ndealer: 3\n" in records.write(text, viewer), viewer
