"""No staged dead end: no listed move leads to a turn that only ``undo`` can leave (CL-MIN-8).

CL-MIN-8 offers a staged meld only while the side's minimum can still be reached;
CL-MIN-9 lets a concealed going out skip the minimum. The check is exact (a small
search, engine/legal.py), so after any listed move the seat still has a move other
than ``undo``, and no search ran out of budget deciding it.
"""

from __future__ import annotations

import random

import pytest

from engine import BadInput, Phase, Reason, apply, legal_moves, new_game
from engine.bots import greedy_move, random_move
from engine.bounds import check_reachable
from engine.moves import Undo
from engine.notation import export_position, import_position
from engine.reach import BUDGET_RAN_OUT
from engine.state import State, evolve
from tests.positions import listed

POSITIONS = 20_000  # per Canasta variant
# cumulative scores the sides start from: every band of the minimum (CL-MIN-1/2)
SCORE_BANDS = (0, 1500, 3000, 4000, 6000, -100)

# found by random play on the engine before the fix: team 1 at 6000 (minimum 120) has
# staged QS QC QC (30); `meld 7S 7D 2H 2D 2C` (70) was listed, after which 8S 8S 8D AD
# cannot make the last 20 and keep two cards, so only `undo` was left
UNOPENED_AT_120 = """canasta-position 1
players: 4
seed: 3161676967
ply: 23
scores: -100 6000
phase: meld
turn: 3
drew: stock
stock: JH JD 7S 9H 2C 6H 7H JK 9C TC 3S 6C 3C QD AC KD 6S KC 5S 2H 2S 7C KC 9D TS 4S 8D 5C \
AS JS TD AC 5H 9H 6H 6D 4C KH TD 7C 8H JS 6S 9D 9C AD 5C QH 6C 3S KS 6D
pile: QH 3C KD QD TC QS JC
hand0: 4D 4C 5D 7D JC KH
hand1: 4S 4H 4D 5S 7H 9S TS JD AS JK JK
hand2: 4H 5H 5D 9S TH TH JH KS
hand3: 2H 2D 2C 7S 7D 8S 8S 8D AD
melds0: 8@0: 8H 8C 8C 2S 2D | A@2: AH AH JK
melds1: Q@3: QS QC QC
red3_0: 3H
red3_3: 3D 3H 3D
opened: 1 0
melded: 1 0 1 0
asks: 1 1 0 1
staged: meld QS QC QC
base_hand: 2H 2D 2C 7S 7D 8S 8S 8D QS QC QC AD
base_melds: -
""".replace("\\\n", "")


def test_CL_MIN_8_no_staged_meld_that_only_undo_can_leave() -> None:
    """CL-MIN-8: a staged meld is offered only while the minimum can still be reached."""
    state = import_position(UNOPENED_AT_120)
    assert not listed(state, "meld 7S 7D 2H 2D 2C")
    for move in legal_moves(state):  # what is listed leaves more than `undo`
        nxt = apply(state, move)
        if nxt.awaited == state.awaited and not isinstance(move, Undo):
            assert not _dead(nxt), str(move)


def _dead(state: State) -> bool:
    return state.phase is Phase.MELD and all(isinstance(m, Undo) for m in legal_moves(state))


@pytest.mark.parametrize(("variant", "players"), [
    ("classic", 4), ("classic", 2), ("samba", 4), ("bolivia", 4), ("bolivia_sevens", 4)])
def test_no_listed_move_leads_to_a_dead_end(variant: str, players: int) -> None:
    """Over 20,000 positions of random and greedy play from every minimum band, every
    listed move (``undo`` aside) that keeps the turn leaves a move other than ``undo``."""
    rng = random.Random(1)  # this walk met 50 dead ends in classic before the fix
    before = dict(BUDGET_RAN_OUT)
    seen = staged_checked = 0
    while seen < POSITIONS:
        state = new_game(variant, players, seed=rng.getrandbits(32))
        assert isinstance(state, State)
        state = evolve(state, scores=tuple(rng.choice(SCORE_BANDS)
                                           for _ in state.rules.layout.teams))
        for _ in range(400):
            if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                break
            seen += 1
            for move in legal_moves(state):
                if isinstance(move, Undo):
                    continue
                nxt = apply(state, move)
                if nxt.awaited == state.awaited:
                    staged_checked += 1
                    assert not _dead(nxt), (variant, str(move), state)
            bot = random_move if rng.random() < 0.7 else greedy_move
            state = apply(state, bot(state, rng))
    assert staged_checked > POSITIONS  # most positions list moves that keep the turn
    assert before == BUDGET_RAN_OUT, "a search budget decided a legal list"


# the turn's lines of a Canasta position, and values each may take in a text
TURN_LINES = {
    "phase": ("draw", "draw_exhausted", "meld", "permission", "buy_window", "hand_over",
              "game_over"),
    "drew": ("-", "stock", "pile"),
    "asked": tuple(f"{a} {b} {c}" for a in "01" for b in ("-", "yes", "no")
                   for c in ("draw", "draw_exhausted", "meld", "hand_over", "game_over")),
    "flags": ("0 0 0", "1 0 0", "0 1 0", "0 0 1"),
    "turn": ("0", "1", "2", "3"),
}


@pytest.mark.parametrize(("variant", "players"), [
    ("classic", 4), ("classic", 3), ("classic", 2), ("samba", 4), ("bolivia", 4),
    ("bolivia_sevens", 4)])
def test_a_position_import_accepts_is_not_a_dead_end(variant: str, players: int) -> None:
    """A position text with one to three of its turn lines changed is refused, as the
    ImportPosition RPC refuses (``BAD_NOTATION`` from the reader,
    ``POSITION_OUT_OF_BOUNDS`` from :func:`engine.bounds.check_reachable`), or it awaits
    a seat with a move, or it is a hand over with its result; so is the position after
    each of its first moves (CL-TURN-1, CL-OUT-4, CL-GAME-3). Before the reader checked
    the phase against the turn, this walk read positions in May I?'s buy window and a
    3-player game waiting for the answer of a partner nobody has. (Before the bounds
    checked for a move, a wider walk of this kind, 16,000 texts, also read a 2-player
    seat in the meld phase holding one card: tests/service/test_worst_cases.py.)"""
    rng = random.Random(2)
    read = 0
    for _ in range(12):
        state = new_game(variant, players, seed=rng.getrandbits(32))
        for _ in range(rng.randrange(60)):
            if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
                break
            state = apply(state, random_move(state, rng))
        lines = export_position(state).splitlines()
        for _ in range(60):
            changed = list(lines)
            for key in rng.sample(sorted(TURN_LINES), rng.randint(1, 3)):
                at = next(i for i, line in enumerate(changed) if line.startswith(f"{key}:"))
                changed[at] = f"{key}: {rng.choice(TURN_LINES[key])}"
            text = "\n".join(changed)
            try:
                position = import_position(text)
                check_reachable(position)
            except BadInput as err:
                assert err.reason in (Reason.BAD_NOTATION, Reason.POSITION_OUT_OF_BOUNDS), err
                continue
            read += 1
            assert _playable(position), text
            for move in legal_moves(position)[:20]:
                assert _playable(apply(position, move)), (str(move), text)
    assert read > 12 * 5  # the unchanged and the consistent texts are read


def _playable(state: State) -> bool:
    if state.phase in (Phase.HAND_OVER, Phase.GAME_OVER):
        return state.result is not None
    return state.awaited >= 0 and bool(legal_moves(state))
