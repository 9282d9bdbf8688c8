"""The scenarios of section 15 of the classic rules (TS-xx, SC-x), plus rule checks of our own.

Every test names the scenario in its name and the rule IDs it checks in its docstring.
Positions are written here in the engine's position notation (nothing is read from the
rules files at run time): a scenario fixes only what matters and :func:`position` fills
the rest of the deck in a fixed way (red threes at the bottom of the stock, never in a
hand that the test did not write).

Seats for four players: 0..3 = N, E, S, W; team 0 = N+S, team 1 = E+W.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from engine import (
    Phase,
    Reason,
    RuleViolation,
    State,
    apply,
    canonicalize,
    is_legal,
    legal_moves,
    new_game,
    next_deal,
    parse_move,
    rules_for,
)
from engine.cards import CODES, IS_RED_THREE, RANK, Card, parse_cards, rank_of_char
from engine.deck import composition
from engine.events import EventKind, move_events
from engine.legal import legal_moves_for
from engine.moves import Answer, Discard, GoOut, Meld, TakePile
from engine.notation import export_position, import_position
from engine.state import MeldPile, SideResult
from engine.views import provisional_score, seat_view
from tests.conftest import all_cards
from tests.positions import passes, refuse

# --- helpers ----------------------------------------------------------------------


def _fmt(cards: Sequence[int]) -> str:
    return " ".join(CODES[c] for c in cards) or "-"


def _meld_cards(text: str) -> list[Card]:
    out: list[Card] = []
    for part in text.split("|"):
        if part.strip() and part.strip() != "-":
            out.extend(parse_cards(part.partition(":")[2]))
    return out


def _meld_owners(text: str) -> set[int]:
    owners = set()
    for part in text.split("|"):
        head = part.partition(":")[0]
        if "@" in head:
            owners.add(int(head.partition("@")[2]))
    return owners


def position(
    *,
    hands: Mapping[int, str],
    players: int = 4,
    options: Mapping[str, object] | None = None,
    scores: Sequence[int] | None = None,
    phase: str = "meld",
    turn: int = 0,
    drew: str | None = None,
    dealer: int | None = None,
    melds: Mapping[int, str] | None = None,
    red3: Mapping[int, str] | None = None,
    pile: str = "",
    stock: int | None = None,
    stock_top: str = "",
    opened: Sequence[int] | None = None,
    melded: Sequence[int] | None = None,
) -> State:
    """A position from the zones a scenario fixes; everything else is filled in.

    ``hands`` maps seats to their exact hands; other seats get a full hand of plain
    (non red three) cards. ``stock`` is the stock size (default: every card left over;
    with a size, the cards left over go to the last seat whose hand is not given).
    ``stock_top`` is written bottom to top and ends on the top card. Red threes that
    the scenario does not place go to the bottom of the stock, never into a hand.
    """
    rules = rules_for("classic", players, options)
    teams = len(rules.layout.teams)
    melds = dict(melds or {})
    red3 = dict(red3 or {})
    placed: Counter[Card] = Counter()
    for text in (*hands.values(), *red3.values(), pile, stock_top):
        placed.update(parse_cards(text))
    for text in melds.values():
        placed.update(_meld_cards(text))
    deck = composition(rules)
    assert not placed - deck, f"more copies than the deck holds: {placed - deck}"
    pool = deck - placed
    reds = sorted(c for c in pool.elements() if IS_RED_THREE[c])
    plain = sorted(c for c in pool.elements() if not IS_RED_THREE[c])
    random.Random(7).shuffle(plain)
    free_seats = [s for s in range(players) if s not in hands]
    sink = free_seats[-1] if stock is not None and free_seats else None
    hand_text: dict[int, str] = dict(hands)
    for s in free_seats:
        if s != sink:
            hand_text[s] = _fmt(plain[: rules.hand_size])
            plain = plain[rules.hand_size:]
    rest = reds + plain
    top = list(parse_cards(stock_top))
    if stock is None:
        stock_cards = rest + top
        rest = []
    else:
        bottom = stock - len(top)
        assert bottom >= 0
        stock_cards = rest[:bottom] + top
        rest = rest[bottom:]
    if rest:
        assert sink is not None, "no hand left to take the remaining cards"
        assert not any(IS_RED_THREE[c] for c in rest), "place the red threes explicitly"
        hand_text[sink] = _fmt(rest)
    owners: set[int] = set()
    for text in melds.values():
        owners |= _meld_owners(text)
    if opened is None:
        opened = [1 if melds.get(t, "-").strip() not in ("", "-") else 0 for t in range(teams)]
    if melded is None:
        melded = [1 if s in owners else 0 for s in range(players)]
    opts = ",".join(
        f"{k}={(str(v).lower() if isinstance(v, bool) else v)}" for k, v in (options or {}).items()
    )
    lines = [
        "canasta-position 1", "variant: classic", f"players: {players}",
        f"options: {opts or '-'}", "seed: 0",
    ]
    if dealer is not None:
        lines.append(f"dealer: {dealer}")
    lines += [
        f"scores: {' '.join(str(s) for s in (scores or [0] * teams))}",
        f"phase: {phase}",
        f"turn: {turn}",
        f"drew: {drew or ('stock' if phase == 'meld' else '-')}",
        f"stock: {_fmt(stock_cards)}",
        f"pile: {pile or '-'}",
    ]
    lines += [f"hand{s}: {hand_text[s] or '-'}" for s in range(players)]
    lines += [f"melds{t}: {melds.get(t, '-')}" for t in range(teams)]
    lines += [f"red3_{s}: {red3.get(s, '-')}" for s in range(players)]
    lines += [f"opened: {' '.join(str(int(v)) for v in opened)}",
              f"melded: {' '.join(str(int(v)) for v in melded)}"]
    state = import_position("\n".join(lines) + "\n")
    assert all_cards(state) == deck
    return state


def listed(state: State, text: str) -> bool:
    """Whether the move (canonicalised) is in the legal list."""
    try:
        move = canonicalize(state, parse_move(text))
    except RuleViolation:
        return False
    return move in legal_moves(state)


def play(state: State, *texts: str, seat: int | None = None) -> State:
    """Apply moves that must be legal (listed, then accepted)."""
    for text in texts:
        assert listed(state, text), (text, [str(m) for m in legal_moves(state)])
        state = apply(state, parse_move(text), seat=seat)
    return state


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def meld_of(state: State, team: int, rank: str) -> MeldPile:
    r = rank_of_char(rank)
    found = [m for m in state.melds[team] if m.rank == r]
    assert found, f"team {team} has no {rank} meld"
    return found[0]


def meld_is(state: State, team: int, rank: str, text: str) -> bool:
    return tuple(sorted(meld_of(state, team, rank).cards)) == cards(text)


def discards(state: State) -> set[str]:
    return {str(m) for m in legal_moves(state) if isinstance(m, Discard)}


def breakdown(side: SideResult) -> tuple[int, int, int, int, int, int]:
    """(base, canasta bonus, going out, red threes, cards in hand, total)."""
    return (side.base, side.canasta_bonus, side.going_out, side.red_three_points,
            side.in_hand, side.total)


K_CANASTA = "KS KH KD KC KS KH KD"


# --- 15.1 position / action scenarios ----------------------------------------------


def _ts01(options: Mapping[str, object] | None = None) -> State:
    return position(hands={0: "KS KH KD 7C 7D JK QS QH 9S 4H 4C 6D"}, options=options)


def test_TS_01_initial_meld_below_minimum_turn_total() -> None:
    """TS-01; CL-MIN-1, CL-MIN-3, CL-MIN-8: 30 < 50 cannot be committed; staging is allowed."""
    s = _ts01()
    assert s.rules.minimum_for(s.scores[0]) == 50
    s1 = play(s, "meld KS KH KD")  # the minimum is still reachable: staging is offered
    assert not discards(s1)
    refuse(s1, "discard 9S", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    refuse(s1, "discard 4H", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    back = play(s1, "undo")
    assert back.hands[0] == s.hands[0] and back.melds == s.melds
    s2 = play(s1, "meld QS QH JK")  # 30 + 70 = 100 >= 50
    s3 = play(s2, "discard 9S")
    assert s3.opened == (True, False)
    assert s3.melded[0]
    assert meld_is(s3, 0, "K", "KS KH KD") and meld_is(s3, 0, "Q", "QS QH JK")


def test_TS_01_initial_meld_below_minimum_batch() -> None:
    """TS-01; CL-MIN-1, CL-MIN-3, CL-MIN-8 (batch): the 30-point meld itself is refused."""
    s = _ts01({"initial_meld_validation": "batch"})
    refuse(s, "meld KS KH KD", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    refuse(s, "meld KH KD KS", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    s1 = play(s, "meld KS KH KD JK")  # 80 >= 50 in one action
    assert "discard 9S" in discards(s1)


def test_TS_03_negative_score_minimum_15() -> None:
    """TS-03; CL-MIN-1: at -350 the minimum is 15 and 4-4-4 (15) opens; at 0 it does not."""
    hand = "4H 4C 4S 5D 6D 7S 9C JH QD KH AS TD"
    s = position(hands={0: hand}, scores=(-350, 0))
    assert s.rules.minimum_for(-350) == 15
    s1 = play(s, "meld 4H 4C 4S", "discard 5D")
    assert s1.opened[0]
    assert meld_is(s1, 0, "4", "4S 4H 4C")
    # the same action with NS at 0: no completion reaches 50, so the meld is refused
    z = position(hands={0: hand}, scores=(0, 0))
    refuse(z, "meld 4H 4C 4S", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    # ... and when 50 is still reachable it may be staged, but not committed
    z2 = position(hands={0: "4H 4C 4S 5D 6D 7S 9C JH QD KH KS JK"}, scores=(0, 0))
    z3 = play(z2, "meld 4H 4C 4S")
    assert not discards(z3)
    refuse(z3, "discard 5D", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    # batch mode: at -350 the action is legal, at 0 refused
    b = position(hands={0: hand}, scores=(-350, 0), options={"initial_meld_validation": "batch"})
    assert "discard 5D" in discards(play(b, "meld 4H 4C 4S"))
    b0 = position(hands={0: hand}, scores=(0, 0), options={"initial_meld_validation": "batch"})
    refuse(b0, "meld 4H 4C 4S", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")


def test_TS_05a_120_band_two_melds_130_legal() -> None:
    """TS-05 (a); CL-MIN-1, CL-MIN-4: at 3000 the minimum is 120; 60 + 70 = 130 opens."""
    hand = "AS AH AD 8S 8H JK 5D 6C 7S 9C JH QD"
    s = position(hands={0: hand}, scores=(3000, 0))
    assert s.rules.minimum_for(3000) == 120
    s1 = play(s, "meld AS AH AD")
    assert not discards(s1)
    s2 = play(s1, "meld 8S 8H JK", "discard 5D")
    assert s2.opened[0]
    b = position(hands={0: hand}, scores=(3000, 0), options={"initial_meld_validation": "batch"})
    b1 = play(b, "meld AS AH AD / 8S 8H JK")
    assert meld_is(b1, 0, "A", "AS AH AD") and meld_is(b1, 0, "8", "8S 8H JK")
    play(b1, "discard 5D")


def test_TS_05b_120_band_two_melds_100_illegal() -> None:
    """TS-05 (b); CL-MIN-1, CL-MIN-4, CL-MIN-8: 60 + 40 = 100 < 120 cannot be committed."""
    # with kings in hand the minimum stays reachable: both melds stage, the discard is refused
    s = position(hands={0: "AS AH AD 8S 8H 2C KS KH KD 5D 6C 7S"}, scores=(3000, 0))
    s1 = play(s, "meld AS AH AD", "meld 8S 8H 2C")
    assert not discards(s1)
    refuse(s1, "discard 5D", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    assert discards(play(s1, "meld KS KH KD"))  # 130: now it may end
    # with nothing else to meld, 100 is the most: the first meld is already refused
    t = position(hands={0: "AS AH AD 8S 8H 2C 5D 6C 7S 9C JH QD"}, scores=(3000, 0))
    refuse(t, "meld AS AH AD", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    b = position(hands={0: "AS AH AD 8S 8H 2C 5D 6C 7S 9C JH QD"}, scores=(3000, 0),
                 options={"initial_meld_validation": "batch"})
    refuse(b, "meld AS AH AD / 8S 8H 2C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")


def _ts07() -> State:
    return position(hands={0: "9S 9C KH KD 2C 6S 7S 4D 5C TC JH"}, phase="draw",
                    pile="AS AH AD 9H", stock=40)


def test_TS_07_pile_initial_meld_counts_only_top_card() -> None:
    """TS-07; CL-MIN-6, CL-MIN-7, CL-PILE-3, CL-PILE-6, CL-PILE-8: only the top card counts."""
    s = _ts07()
    assert len(s.stock) == 40
    # (a) 9H + 9S + 9C = 30 < 50: the aces below do not count
    refuse(s, "take 9S 9C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-6")
    # (c) a natural pair is required against an unopened side
    refuse(s, "take 9S 2C", Reason.PILE_FROZEN, "CL-PILE-6")
    # (b) with K-K-2 shown: 30 + 40 = 70
    s1 = play(s, "take 9S 9C / KH KD 2C")
    assert meld_is(s1, 0, "9", "9H 9S 9C") and meld_is(s1, 0, "K", "KH KD 2C")
    assert s1.hands[0] == cards("6S 7S 4D 5C TC JH AS AH AD")
    assert s1.pile == () and len(s1.stock) == 40
    assert s1.phase is Phase.MELD and s1.opened[0]
    # the aces from the pile may now be melded with no minimum (CL-MIN-7)
    s2 = play(s1, "meld AS AH AD", "discard 4D")
    assert meld_is(s2, 0, "A", "AS AH AD")


def test_TS_09_natural_pair_takes_frozen_pile_which_unfreezes() -> None:
    """TS-09; CL-PILE-4, CL-PILE-5, CL-PILE-6: a natural pair takes a frozen pile."""
    s = position(hands={0: "8C 8S QS QC 9D 6S 4H JD TC 5H"}, phase="draw",
                 melds={0: "K@2: KS KH KD"}, pile="7C 2S 5D 8D")
    assert seat_view(s, 0).pile_frozen  # the deuce freezes it for both sides
    refuse(s, "take 8C 2S", Reason.CARDS_NOT_IN_HAND, "CL-TURN-3")
    s1 = play(s, "take 8C 8S")
    assert meld_is(s1, 0, "K", "KS KH KD") and meld_is(s1, 0, "8", "8D 8C 8S")
    assert s1.hands[0] == cards("QS QC 9D 6S 4H JD TC 5H 7C 2S 5D")
    assert s1.pile == ()
    s2 = play(s1, "discard 6S")
    assert s2.pile == cards("6S")
    view = seat_view(s2, 0)
    assert not view.pile_frozen and not view.sides[0].pile_frozen


def test_TS_11_adding_top_card_to_existing_meld() -> None:
    """TS-11; CL-PILE-7c: an unfrozen pile is taken by adding its top card to the side's meld."""
    s = position(hands={0: "6C 7D 9S QS QH 5C 5D 8H"}, phase="draw",
                 melds={0: "J@2: JS JH JC"}, pile="4H JD")
    s1 = play(s, "take")
    assert meld_is(s1, 0, "J", "JS JH JD JC")
    assert s1.hands[0] == cards("6C 7D 9S QS QH 5C 5D 8H 4H")
    assert s1.pile == ()


def test_TS_13_black_three_on_top_blocks_the_pile() -> None:
    """TS-13; CL-PILE-2: a black three on top blocks every take; N must draw."""
    s = position(hands={0: "9D 9H 5C 6D 7S JH QD"}, phase="draw",
                 melds={0: "9@2: 9S 9H 9C"}, pile="9S 3C")
    assert not any(isinstance(m, TakePile) for m in legal_moves(s))
    for text in ("take", "take 9D 9H", "take 9D"):
        refuse(s, text, Reason.PILE_BLOCKED, "CL-PILE-2")
    assert listed(s, "draw")


def test_TS_15_unopened_side_no_wild_in_pile() -> None:
    """TS-15; CL-PILE-3, CL-PILE-6, CL-MIN-6: natural pair needed, and the minimum."""
    a = position(hands={0: "TS JK AS AH 2D 7C 8C 9C 4S 6D QH"}, phase="draw", pile="5S TD")
    refuse(a, "take TS JK", Reason.PILE_FROZEN, "CL-PILE-6")
    b = position(hands={0: "TS TC AS AH 2D 7C 8C 9C 4S 6D QH"}, phase="draw", pile="5S TD")
    refuse(b, "take TS TC", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-6")
    b1 = play(b, "take TS TC / AS AH 2D")
    assert meld_is(b1, 0, "T", "TS TD TC") and meld_is(b1, 0, "A", "AS AH 2D")
    assert b1.hands[0] == cards("7C 8C 9C 4S 6D QH 5S")
    assert b1.opened[0]


def test_TS_17_second_meld_of_same_rank() -> None:
    """TS-17; CL-MELD-5, CL-MELD-6: no second 7 meld; the cards are added instead."""
    s = position(hands={0: "7C 7S 2D KS QD 9H 5C"}, melds={0: "7@2: 7S 7H 7D"})
    refuse(s, "meld 7C 7S 2D", Reason.MELD_EXISTS, "CL-MELD-5")
    s1 = play(s, "add 7 7C 7S 2D")
    m = meld_of(s1, 0, "7")
    assert tuple(sorted(m.cards)) == cards("7S 7H 7D 7C 7S 2D")
    assert m.size == 6 and m.wilds == 1
    assert s1.hands[0] == cards("KS QD 9H 5C")


def test_TS_19_three_wild_limit() -> None:
    """TS-19; CL-MELD-1, CL-MELD-6, CL-CAN-1, CL-CAN-2: a fourth wild is refused; 9C makes a
    mixed canasta."""
    s = position(hands={0: "2H 9C 5C 6D 7S"}, melds={0: "9@2: 9S 9H 9D JK 2C 2S"})
    refuse(s, "add 9 2H", Reason.TOO_MANY_WILDS, "CL-MELD-1")
    s1 = play(s, "add 9 9C")
    m = meld_of(s1, 0, "9")
    assert m.size == 7 and m.is_canasta and not m.is_natural_canasta
    side = provisional_score(s1)[0]
    assert (side.natural_canastas, side.mixed_canastas, side.canasta_bonus) == (0, 1, 300)


def test_TS_21_wild_cards_alone() -> None:
    """TS-21; CL-MELD-2: wild cards are never melded alone."""
    s = position(hands={0: "2C 2D JK 5C 6D 9S"}, melds={0: "K@2: KS KH KD"})
    refuse(s, "meld 2C 2D JK", Reason.MELD_NEEDS_NATURALS, "CL-MELD-2")
    # also for an unopened side
    u = position(hands={0: "2C 2D JK 5C 6D 9S"})
    refuse(u, "meld 2C 2D JK", Reason.MELD_NEEDS_NATURALS, "CL-MELD-2")


def _ts23() -> State:
    return position(hands={0: "3S 3C 3S KC"},
                    melds={0: f"K@2: {K_CANASTA} | 6@2: 6S 6H 6D"})


def test_TS_23_black_threes_when_going_out() -> None:
    """TS-23; CL-MELD-3, CL-OUT-1, CL-OUT-2, CL-OUT-14: black threes melded in the going-out
    turn, without or with a final discard."""
    s = _ts23()
    s1 = play(s, "meld 3S 3C 3S")
    assert meld_is(s1, 0, "3", "3S 3S 3C")
    # the black-three meld obliges going out: no turn-ending discard that keeps cards
    s2 = play(s1, "add K KC", "out")
    assert s2.phase is Phase.HAND_OVER
    assert s2.result is not None and s2.result.went_out == 0
    assert s2.hands[0] == () and meld_of(s2, 0, "K").size == 8
    # also legal: black threes, then the last card as the discard
    s3 = play(s1, "out KC")
    assert s3.phase is Phase.HAND_OVER and s3.pile[-1] == parse_cards("KC")[0]
    assert s3.result is not None and s3.result.sides[0].going_out == 100


def test_TS_23_black_threes_oblige_going_out() -> None:
    """TS-23; CL-MELD-3, CL-OUT-5: once black threes are melded, a discard that keeps a card
    is refused; going out is there. Before them the player, who did not ask, may discard."""
    s = position(hands={0: "3S 3C 3S 6C 6C"}, melds={0: f"K@2: {K_CANASTA} | 6@2: 6S 6H 6D"})
    s1 = play(s, "meld 3S 3C 3S")
    assert passes(s, "discard 6C")  # no question asked: no duty to go out (CL-OUT-5)
    refuse(s1, "discard 6C", Reason.BLACK_THREES_ONLY_GOING_OUT, "CL-MELD-3")
    assert not discards(s1)
    end = play(s1, "add 6 6C", "out 6C")
    assert end.result is not None and end.result.went_out == 0


def test_TS_23_after_black_threes_every_meld_keeps_going_out_possible() -> None:
    """TS-23; CL-MELD-3: once black threes are melded, a meld that spends the wild card the
    last pair needs is refused (the turn could no longer go out)."""
    s = position(hands={0: "3S 3C 3S 9D 9C 9H 2C 5H 5D"}, melds={0: f"K@2: {K_CANASTA}"})
    s1 = play(s, "meld 3S 3C 3S")
    refuse(s1, "meld 9D 9C 9H 2C", Reason.BLACK_THREES_ONLY_GOING_OUT, "CL-MELD-3")
    end = play(s1, "meld 9D 9C 9H", "meld 5H 5D 2C", "out")
    assert end.result is not None and end.result.went_out == 0


def test_TS_25_no_canasta_a_card_must_be_kept() -> None:
    """TS-25; CL-OUT-3, CL-MELD-11: without a canasta the last card cannot be melded away."""
    s = position(hands={0: "KC 4D"}, melds={0: "K@2: KS KH KD 2C"})
    refuse(s, "add K KC", Reason.GO_OUT_NEEDS_CANASTAS, "CL-OUT-3")  # (a)
    assert discards(s) == {"discard KC", "discard 4D"}
    b = play(s, "discard 4D")  # (b)
    assert b.hands[0] == cards("KC")
    c = play(s, "discard KC")  # (c)
    assert c.hands[0] == cards("4D")
    assert not any(isinstance(m, GoOut) for m in legal_moves(s))


def test_TS_27_permission_refused() -> None:
    """TS-27; CL-OUT-4, CL-OUT-6, CL-OUT-3: after "no" the asker must keep a card."""
    s = position(hands={0: "4D"}, phase="draw", stock_top="9C",
                 melds={0: f"K@2: {K_CANASTA} | 9@2: 9S 9H 9D"})
    s = play(s, "ask")
    assert s.phase is Phase.PERMISSION and s.awaited == 2
    s = play(s, "no", seat=2)
    s = play(s, "draw")
    assert s.hands[0] == cards("9C 4D")
    refuse(s, "add 9 9C", Reason.GO_OUT_REFUSED, "CL-OUT-6")  # (a)
    assert not any(isinstance(m, GoOut) for m in legal_moves(s))
    assert discards(s) == {"discard 9C", "discard 4D"}
    assert play(s, "discard 4D").hands[0] == cards("9C")  # (b)
    assert play(s, "discard 9C").hands[0] == cards("4D")  # (c)


def _ts29(options: Mapping[str, object] | None = None) -> State:
    s = position(hands={0: "8S 8C 8D 5H"}, phase="draw", stock_top="7H", options=options,
                 melds={0: f"K@2: {K_CANASTA} | 7@2: 7S 7D 7C"})
    s = play(s, "ask")
    s = play(s, "yes", seat=2)
    s = play(s, "draw")
    assert s.hands[0] == cards("8S 8C 8D 5H 7H")
    return s


def test_TS_29_permission_granted_binds_strict() -> None:
    """TS-29; CL-OUT-5 (permission_yes strict), CL-OUT-1, CL-SCORE-3: after "yes" N must go
    out when he can."""
    s = _ts29()
    refuse(s, "discard 5H", Reason.MUST_GO_OUT, "CL-OUT-5")
    assert not discards(s)
    s1 = play(s, "meld 8S 8C 8D")
    refuse(s1, "discard 5H", Reason.MUST_GO_OUT, "CL-OUT-5")
    s2 = play(s1, "add 7 7H", "out 5H")
    assert s2.phase is Phase.HAND_OVER and s2.result is not None
    assert s2.result.went_out == 0 and not s2.result.concealed
    assert s2.result.sides[0].going_out == 100


@pytest.mark.parametrize("mode", ["penalty", "advisory"])
def test_TS_29_permission_yes_options(mode: str) -> None:
    """TS-29; CL-OUT-5, CL-PEN-2: with permission_yes penalty/advisory the discard is allowed;
    in penalty mode (penalties on) it costs 100."""
    s = _ts29({"permission_yes": mode})
    s1 = play(s, "discard 5H")
    assert s1.hands[0] == cards("8S 8C 8D 7H")
    assert s1.penalties == (0, 0)
    p = _ts29({"permission_yes": mode, "penalties": True})
    p1 = play(p, "discard 5H")
    assert p1.penalties == ((100, 0) if mode == "penalty" else (0, 0))


def test_TS_29_penalty_only_for_a_yes_not_followed_by_going_out() -> None:
    """TS-29; CL-PEN-2, CL-OUT-5 (permission_yes=penalty, penalties=true): going out after
    "yes" costs nothing, and neither does a discard that no question preceded."""
    opts = {"permission_yes": "penalty", "penalties": True}
    out = play(_ts29(opts), "meld 8S 8C 8D", "add 7 7H", "out 5H")
    assert out.result is not None and out.result.went_out == 0
    assert out.penalties == (0, 0)
    assert [side.penalties for side in out.result.sides] == [0, 0]
    unasked = position(hands={0: "8S 8C 8D 5H 7H"}, options=opts,
                       melds={0: f"K@2: {K_CANASTA} | 7@2: 7S 7D 7C"})
    assert play(unasked, "discard 5H").penalties == (0, 0)


def test_TS_31_red_three_in_a_taken_pile() -> None:
    """TS-31; CL-DEAL-5, CL-MIN-6, CL-R3-3: the turned red three goes to the taker's side with
    no replacement."""
    s = position(hands={1: "KS KH AS AD JK 5C 6C 7C 8C 9C TC"}, phase="draw", turn=1,
                 dealer=0, pile="3D KC")
    assert seat_view(s, 1).pile_frozen
    stock = s.stock
    s1 = play(s, "take KS KH / AS AD JK")
    assert s1.red3[1] == cards("3D")
    assert s1.stock == stock
    assert s1.hands[1] == cards("5C 6C 7C 8C 9C TC")
    assert meld_is(s1, 1, "K", "KS KH KC") and meld_is(s1, 1, "A", "AS AD JK")
    assert s1.pile == () and s1.opened == (False, True)


def _ts33() -> State:
    return position(hands={0: "KD 5S"}, phase="draw_exhausted", stock=0, pile="4C 8H",
                    melds={0: "8@2: 8S 8C 8D"}, red3={1: "3H 3D", 3: "3H 3D"})


def test_TS_33_compulsory_take_after_exhaustion() -> None:
    """TS-33; CL-EXH-4, CL-PILE-7c: with the stock empty a fitting pile must be taken."""
    s = _ts33()
    assert s.stock == ()
    refuse(s, "decline", Reason.MUST_TAKE_PILE, "CL-EXH-4")
    refuse(s, "draw", Reason.STOCK_EMPTY, "CL-EXH-4")
    s1 = play(s, "take")
    assert meld_is(s1, 0, "8", "8S 8H 8D 8C")
    assert s1.hands[0] == cards("KD 5S 4C")
    assert s1.phase is Phase.MELD
    assert discards(s1) == {"discard KD", "discard 5S", "discard 4C"}
    assert not any(isinstance(m, GoOut) for m in legal_moves(s1))


def _ts35(options: Mapping[str, object] | None = None) -> State:
    return position(hands={0: "KC 4D 5S", 2: "9C"}, phase="draw", stock=1, stock_top="3H",
                    melds={0: "K@2: KS KH KD"}, red3={1: "3D", 3: "3H 3D"}, options=options)


def test_TS_35_red_three_as_last_stock_card() -> None:
    """TS-35; CL-EXH-2, CL-R3-7, CL-SCORE-3: the hand ends at once, no meld, no discard, no
    going-out bonus."""
    s = _ts35()
    s1 = play(s, "draw")
    assert s1.red3[0] == cards("3H") and s1.stock == ()
    assert s1.hands[0] == cards("KC 4D 5S")
    assert s1.phase is Phase.HAND_OVER and legal_moves(s1) == []
    assert s1.result is not None and s1.result.went_out == -1
    assert all(side.going_out == 0 for side in s1.result.sides)
    assert s1.result.sides[0].red_threes == 1 and s1.result.sides[0].red_three_points == 100


def test_TS_35_last_red_three_may_meld_option() -> None:
    """TS-35; CL-EXH-2 (last_red_three_may_meld): N may meld first, then the hand ends without a
    discard."""
    s = _ts35({"last_red_three_may_meld": True})
    s1 = play(s, "draw")
    assert s1.phase is Phase.MELD and s1.red3[0] == cards("3H")
    assert not discards(s1)
    refuse(s1, "discard 4D", Reason.WRONG_PHASE, "CL-EXH-2")
    s2 = play(s1, "add K KC", "end")
    assert s2.phase is Phase.HAND_OVER and s2.result is not None
    assert s2.result.went_out == -1
    assert meld_of(s2, 0, "K").size == 4
    side = s2.result.sides[0]
    assert s2.hands[0] == cards("4D 5S")
    assert (side.base, side.going_out, side.in_hand) == (40, 0, 10 + 10)


def _last_red(hand: str, melds: str, opened: list[int] | None = None) -> State:
    """TS-35's stock (a red three as its only card) under last_red_three_may_meld, drawn."""
    s = position(hands={0: hand, 2: "9C"}, phase="draw", stock=1, stock_top="3H",
                 melds={0: melds} if melds else None, red3={1: "3D", 3: "3H 3D"},
                 opened=opened, options={"last_red_three_may_meld": True})
    s = play(s, "draw")
    assert s.turn.no_discard
    return s


def test_TS_35_no_question_after_a_red_three_as_last_stock_card() -> None:
    """TS-35; CL-OUT-4, CL-EXH-2 (last_red_three_may_meld): the stock draw that ended on a red
    three leaves no discard to follow a question: "ask" is refused."""
    s = play(_ts35({"last_red_three_may_meld": True}), "draw")
    assert s.turn.no_discard and not s.turn.staged
    refuse(s, "ask", Reason.ASK_NOT_ALLOWED, "CL-OUT-4")


def test_TS_35_one_card_may_stay_after_the_last_red_three() -> None:
    """TS-35; CL-EXH-2: with no discard to come, a meld may leave a single card (no
    canasta needed); ``end`` then ends the hand."""
    s = _last_red("KC 4D", "K@2: KS KH KD")
    assert passes(s, "add K KC")
    end = play(s, "add K KC", "end")
    assert end.result is not None and end.hands[0] == cards("4D")


def test_TS_35_end_only_after_the_last_red_three() -> None:
    """TS-35; CL-EXH-2: ``end`` ends the hand only after a red three as the last stock card;
    an ordinary turn goes on to a discard."""
    s = position(hands={0: "9C 5D"}, melds={0: "K@2: KS KH KD"})
    refuse(s, "end", Reason.WRONG_PHASE, "CL-EXH-2")


def test_TS_35_end_needs_the_minimum() -> None:
    """TS-35; CL-EXH-2, CL-MIN-8: melds staged after the last red three are committed by
    ``end`` only once they reach the minimum; ``out`` with cards left is refused."""
    s = play(_last_red("KC KH KD QC QH QD 4D", ""), "meld KC KH KD")
    refuse(s, "end", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    refuse(s, "out", Reason.WRONG_PHASE, "CL-EXH-2")  # no going out with cards left either
    end = play(s, "meld QC QH QD", "end")
    assert end.result is not None and end.result.sides[0].base == 60


def test_TS_35_black_threes_and_the_last_red_three() -> None:
    """TS-35; CL-EXH-2, CL-MELD-3: after the last red three, black threes oblige the player to
    go out: ``end`` is refused, and ``out`` on an empty hand is legal."""
    s = play(_last_red("3S 3C 3S 6C 6C", f"K@2: {K_CANASTA} | 6@2: 6S 6H 6D"),
             "meld 3S 3C 3S")
    refuse(s, "end", Reason.BLACK_THREES_ONLY_GOING_OUT, "CL-MELD-3")
    s = play(s, "add 6 6C 6C")
    assert not s.hands[0]
    refuse(s, "end", Reason.WRONG_PHASE, "CL-EXH-2")  # an empty hand goes out
    end = play(s, "out")
    assert end.result is not None and end.result.went_out == 0


def _ts37(options: Mapping[str, object] | None = None) -> State:
    return position(hands={0: "9S 9C KS KH KD KC KS KH KD 4D"}, phase="draw",
                    pile="QS QH QD 9D", options=options)


@pytest.mark.parametrize(("options", "bonus"), [({}, 200), ({"concealed_forbid_pile": True}, 100)])
def test_TS_37_concealed_going_out_after_taking_the_pile(
        options: Mapping[str, object], bonus: int) -> None:
    """TS-37; CL-MIN-6, CL-OUT-10, CL-OUT-11, CL-SCORE-3 (concealed_forbid_pile)."""
    s = _ts37(options)
    s1 = play(s, "take 9S 9C / KS KH KD KC KS KH KD")
    assert s1.hands[0] == cards("4D QS QH QD")
    assert meld_is(s1, 0, "9", "9S 9D 9C") and meld_is(s1, 0, "K", K_CANASTA)
    s2 = play(s1, "meld QS QH QD", "out 4D")
    assert s2.phase is Phase.HAND_OVER and s2.result is not None
    assert s2.result.went_out == 0 and s2.result.concealed is (bonus == 200)
    ns = s2.result.sides[0]
    assert (ns.base, ns.canasta_bonus, ns.going_out) == (130, 500, bonus)


def test_TS_39_two_players_need_two_canastas() -> None:
    """TS-39; CL-P2-2, CL-P2-3, CL-OUT-3: with one canasta A must keep a card."""
    s = position(players=2, hands={0: "4D"}, phase="draw", stock_top="QD QC",
                 melds={0: f"K@0: {K_CANASTA} | Q@0: QS QH QD"})
    assert s.rules.canastas_to_go_out == 2
    n = len(s.stock)
    s1 = play(s, "draw")
    assert len(s1.stock) == n - 2
    assert s1.hands[0] == cards("QC QD 4D")
    refuse(s1, "add Q QC QD", Reason.GO_OUT_NEEDS_CANASTAS, "CL-OUT-3")
    s2 = play(s1, "discard 4D")
    assert s2.hands[0] == cards("QC QD")
    assert listed(s1, "add Q QC")  # keeping two cards is fine


def test_TS_41_covered_black_three_does_not_freeze() -> None:
    """TS-41; CL-PILE-2, CL-PILE-4, CL-PILE-7b: one natural and a wild take an unfrozen pile."""
    s = position(hands={0: "6C JK 9S TD QH 5C 7D"}, phase="draw",
                 melds={0: "K@2: KS KH KD"}, pile="KD 3S 6H")
    assert not seat_view(s, 0).pile_frozen
    s1 = play(s, "take 6C JK")
    assert meld_is(s1, 0, "6", "6H 6C JK")
    assert s1.hands[0] == cards("9S TD QH 5C 7D KD 3S")


def test_TS_43_opponents_meld() -> None:
    """TS-43; CL-MELD-6, CL-PILE-11: never onto the opponents' melds."""
    s = position(hands={0: "9C 5C 6D 7S JH"}, melds={0: "K@2: KS KH KD", 1: "9@1: 9S 9H 9D"})
    refuse(s, "add 9 9C", Reason.NO_SUCH_MELD, "CL-MELD-6")
    t = position(hands={0: "5C 6D 7S JH QD"}, phase="draw", pile="4D 9C",
                 melds={0: "K@2: KS KH KD", 1: "9@1: 9S 9H 9D"})
    assert not any(isinstance(m, TakePile) for m in legal_moves(t))
    refuse(t, "take", Reason.PILE_TAKE_INVALID, "CL-PILE-7")


def test_TS_45_canasta_already_holding_three_wilds() -> None:
    """TS-45; CL-MELD-1, CL-CAN-3: only naturals join a canasta with three wilds."""
    s = position(hands={0: "JK TS 5C 6D 9H"}, melds={0: "T@2: TS TH TD TC 2S 2H JK"})
    refuse(s, "add T JK", Reason.TOO_MANY_WILDS, "CL-MELD-1")
    s1 = play(s, "add T TS")
    m = meld_of(s1, 0, "T")
    assert m.size == 8 and m.wilds == 3 and m.is_canasta and not m.is_natural_canasta


def test_TS_47_frozen_against_one_side_only() -> None:
    """TS-47; CL-PILE-3, CL-PILE-7b: the same pile is frozen for EW, not for NS."""
    hand = "5S JK 9S TD QH 7C 8D"
    e = position(hands={1: hand}, phase="draw", turn=1, pile="8C 5H", melds={0: "K@2: KS KH KD"})
    refuse(e, "take 5S JK", Reason.PILE_FROZEN, "CL-PILE-6")
    n = position(hands={0: hand}, phase="draw", turn=0, pile="8C 5H", melds={0: "K@2: KS KH KD"})
    n1 = play(n, "take 5S JK")
    assert meld_is(n1, 0, "5", "5H 5S JK")
    assert n1.hands[0] == cards("9S TD QH 7C 8D 8C")


# --- 15.2 hand-end scoring examples ---------------------------------------------------


def test_SC_1_ordinary_hand_ns_goes_out() -> None:
    """SC-1; CL-SCORE-1..6, CL-CAN-2, CL-DECK-4: S goes out by discarding."""
    s = position(
        turn=2, hands={0: "7C JK", 1: "9H 9D 4S", 2: "4D", 3: "AS 2H 3S"},
        melds={0: f"K@2: {K_CANASTA} | A@2: AS AH AD | 5@0: 5S 5H 5D 2C",
               1: "Q@1: QS QH QD QC QS 2D JK | 8@3: 8S 8H 8D"},
        red3={0: "3H", 1: "3D"}, scores=(1000, 200))
    s1 = play(s, "out 4D")
    assert s1.result is not None and s1.result.went_out == 2 and not s1.result.concealed
    ns, ew = s1.result.sides
    assert breakdown(ns) == (165, 500, 100, 100, 55, 810)
    assert (ns.natural_canastas, ns.mixed_canastas) == (1, 0)
    assert breakdown(ew) == (150, 300, 0, 100, 70, 480)
    assert (ew.natural_canastas, ew.mixed_canastas) == (0, 1)
    assert (ns.cumulative, ew.cumulative) == (1810, 680)


def test_SC_3_side_without_meld_holding_red_threes() -> None:
    """SC-3; CL-SCORE-4, CL-SCORE-5, CL-R3-5: red threes count minus for a side with no meld."""
    s = position(
        turn=2, hands={0: "4C", 1: "AS AH KD 9C 7S 4H 3C", 2: "KC", 3: "JK 2S QD QC 8H 6D"},
        melds={0: "6@2: 6S 6H 6D 6C 6S 2H 2D | 9@0: 9S 9H 9D"},
        red3={0: "3H", 2: "3D", 1: "3H", 3: "3D"})
    s1 = play(s, "out KC")
    assert s1.result is not None
    ns, ew = s1.result.sides
    assert breakdown(ns) == (95, 300, 100, 200, 5, 690)
    assert breakdown(ew) == (0, 0, 0, -200, 180, -380)


def test_SC_5_all_four_red_threes_no_meld() -> None:
    """SC-5; CL-SCORE-4 (all four = 800, minus without a meld), CL-CAN-2, CL-CAN-6."""
    s = position(
        turn=1, hands={0: "KS QS JS", 1: "9S", 2: "7D 7C", 3: "AS"},
        melds={1: "T@1: TS TS TH TH TD TD TC TC | 4@3: 4S 4H 4D 2C"},
        red3={0: "3H 3D", 2: "3H 3D"})
    s1 = play(s, "out 9S", seat=1)
    assert s1.result is not None and s1.result.went_out == 1
    ns, ew = s1.result.sides
    assert breakdown(ns) == (0, 0, 0, -800, 40, -840)
    assert ns.red_threes == 4
    assert breakdown(ew) == (115, 500, 100, 0, 20, 695)


def test_SC_7_natural_canasta_spoiled_by_a_deuce() -> None:
    """SC-7; CL-CAN-3, CL-CAN-4, CL-SCORE-2: a deuce added to a natural canasta makes it mixed."""
    s = position(
        hands={0: "2C", 1: "4S 4H", 2: "KS", 3: "JK"},
        melds={0: "9@2: 9S 9H 9D 9C 9S 9H 9D", 1: "A@1: AS AH AD"}, melded=(1, 1, 1, 0))
    assert provisional_score(s)[0].canasta_bonus == 500
    s1 = play(s, "add 9 2C", "out")
    assert s1.result is not None and s1.result.went_out == 0
    ns, ew = s1.result.sides
    assert breakdown(ns) == (90, 300, 100, 0, 10, 480)
    assert (ns.natural_canastas, ns.mixed_canastas) == (0, 1)
    assert breakdown(ew) == (60, 0, 0, 0, 60, 0)


def test_SC_9_black_three_meld_when_going_out() -> None:
    """SC-9; CL-MELD-3, CL-OUT-2, CL-SCORE-1 (black threes 5 each), CL-SCORE-5."""
    s = position(
        hands={0: "3S 3C 3S KH", 1: "AS 2H 5C", 2: "3C 2D", 3: "QS QH TC"},
        melds={0: "K@2: KS KS KH KD KD KC KC | 6@0: 6S 6H 6D"})
    s1 = play(s, "meld 3S 3C 3S", "add K KH", "out")
    assert s1.result is not None and s1.result.went_out == 0
    ns, ew = s1.result.sides
    assert breakdown(ns) == (110, 500, 100, 0, 25, 685)
    assert breakdown(ew) == (0, 0, 0, 0, 75, -75)


def test_SC_11_two_players() -> None:
    """SC-11; CL-P2-3, CL-P2-5, CL-SCORE-1..6: A goes out with two canastas."""
    s = position(
        players=2, hands={0: "9D", 1: "QS QH JK 4C 4D"},
        melds={0: "A@0: AS AS AH AH AD AD AC | 5@0: 5S 5H 5D 5C 5S JK 2H",
               1: "K@1: KS KH KD KC"},
        red3={0: "3H", 1: "3D"})
    s1 = play(s, "out 9D")
    assert s1.result is not None and s1.result.went_out == 0
    a, b = s1.result.sides
    assert breakdown(a) == (235, 800, 100, 100, 0, 1235)
    assert (a.natural_canastas, a.mixed_canastas) == (1, 1)
    assert breakdown(b) == (40, 0, 0, 100, 80, 60)


def test_SC_13_concealed_hand() -> None:
    """SC-13; CL-OUT-10, CL-OUT-11, CL-SCORE-3, CL-SCORE-4: a concealed going out scores 200."""
    s = position(
        hands={0: "7S 7S 7H 7H 7D 7C 2C 4S 4H 4D 5H", 1: "7C 7D", 2: "9C 9D TS", 3: "AS KS"},
        melds={1: "J@1: JS JH JD"}, red3={2: "3H"})
    assert not s.opened[0] and not s.melded[0]
    s1 = play(s, "meld 7S 7S 7H 7H 7D 7C 2C", "meld 4S 4H 4D", "out 5H")
    assert s1.result is not None and s1.result.went_out == 0 and s1.result.concealed
    ns, ew = s1.result.sides
    assert breakdown(ns) == (65, 300, 200, 100, 30, 635)
    assert breakdown(ew) == (30, 0, 0, 0, 40, -10)


# --- further rules the scenarios do not cover ----------------------------------------------


def test_extra_CL_PILE_9_one_card_against_one_card_pile() -> None:
    """CL-PILE-9: one card in hand cannot take a one-card pile (even with a canasta)."""
    s = position(hands={0: "5S"}, phase="draw", pile="KC", melds={0: f"K@2: {K_CANASTA}"})
    refuse(s, "take", Reason.PILE_ONE_CARD, "CL-PILE-9")
    assert [str(m) for m in legal_moves(s) if not isinstance(m, TakePile)] == ["draw", "ask"]
    t = position(hands={0: "5S"}, phase="draw", pile="4C KC", melds={0: f"K@2: {K_CANASTA}"})
    t1 = play(t, "take")
    assert t1.hands[0] == cards("5S 4C") and meld_of(t1, 0, "K").size == 8


def test_extra_CL_OUT_9_black_threes_and_going_out() -> None:
    """CL-OUT-9, CL-MELD-3, CL-OUT-14: two black threes cannot go out; one can be the last
    discard."""
    two = position(hands={0: "3S 3C"}, melds={0: f"K@2: {K_CANASTA}"})
    assert not any(isinstance(m, (Meld, GoOut)) for m in legal_moves(two))
    assert discards(two) == {"discard 3S", "discard 3C"}
    one = position(hands={0: "3S"}, melds={0: f"K@2: {K_CANASTA}"})
    done = play(one, "out 3S")
    assert done.result is not None and done.result.went_out == 0
    assert done.pile[-1] == parse_cards("3S")[0]


def test_extra_CL_MELD_3_black_threes_only_when_going_out() -> None:
    """CL-MELD-3: three black threes cannot be melded in a turn that does not go out."""
    s = position(hands={0: "3S 3C 3S 4D 5H"}, melds={0: "K@2: KS KH KD"})
    refuse(s, "meld 3S 3C 3S", Reason.BLACK_THREES_ONLY_GOING_OUT, "CL-MELD-3")
    t = position(hands={0: "3S 3C 3S 4D 5H"}, melds={0: f"K@2: {K_CANASTA}"})
    refuse(t, "meld 3S 3C 3S", Reason.BLACK_THREES_ONLY_GOING_OUT, "CL-MELD-3")  # 4D 5H cannot be laid


def _stacked_deck(options: Mapping[str, object] | None = None, *,
                  hands: Mapping[int, str] | None = None, after: str = "") -> list[Card]:
    """A 4-player deck (index 0 on top, dealer W): given cards in the seats' hands, then
    ``after`` (the upcard first, then the next stock cards); the rest plain naturals, with
    wild cards and threes at the bottom."""
    rules = rules_for("classic", 4, options)
    dealt = 4 * rules.hand_size
    pool = composition(rules)
    want = {s: list(parse_cards(t)) for s, t in (hands or {}).items()}
    top = list(parse_cards(after))
    for cs in (*want.values(), top):
        pool -= Counter(cs)
    plain = sorted(c for c in pool.elements() if 4 <= RANK[c] <= 12 and not rules.wild[c])
    special = sorted(c for c in pool.elements() if not (4 <= RANK[c] <= 12) or rules.wild[c])
    special.sort(key=lambda c: IS_RED_THREE[c])  # red threes at the very bottom
    deck: list[Card] = []
    for k in range(dealt):
        seat = k % 4
        deck.append(want[seat].pop(0) if want.get(seat) else plain.pop(0))
    return deck + top + plain + special


def test_extra_CL_DEAL_4_upcard_procedure() -> None:
    """CL-DEAL-3, CL-DEAL-4, CL-DEAL-5, CL-DEAL-7: wild cards and threes turned up are covered."""
    s = new_game("classic", 4, seed=1, deck=_stacked_deck(after="JK 3S 2C 3H KC 9H"))
    assert s.pile == tuple(parse_cards("JK 3S 2C 3H KC"))
    assert len(s.stock) == 63 - 4 and s.stock[-1] == parse_cards("9H")[0]
    assert seat_view(s, 0).pile_frozen  # CL-DEAL-5
    # a black three alone is covered and has no lasting effect
    b = new_game("classic", 4, seed=1, deck=_stacked_deck(after="3S 9H"))
    assert b.pile == tuple(parse_cards("3S 9H")) and not seat_view(b, 0).pile_frozen
    assert len(b.stock) == 62
    # option: a black three may stay on top, and then blocks the first player
    o = {"upcard_black_three_stops": True}
    c = new_game("classic", 4, seed=1, options=o, deck=_stacked_deck(o, after="3S 9H"))
    assert c.pile == tuple(parse_cards("3S")) and len(c.stock) == 63
    assert not any(isinstance(m, TakePile) for m in legal_moves(c))
    refuse(c, "take", Reason.PILE_BLOCKED, "CL-PILE-2")


def test_extra_CL_R3_1_dealt_red_threes_replaced_on_first_turn() -> None:
    """CL-R3-1, CL-R3-2, CL-DEAL-7: dealt red threes are laid and replaced, a red replacement
    in turn."""
    s = new_game("classic", 4, seed=1, deck=_stacked_deck(hands={0: "3H"}, after="KC 3D 9S"))
    assert s.red3[0] == cards("3H 3D")
    assert parse_cards("9S")[0] in s.hands[0] and len(s.hands[0]) == 11
    assert not any(IS_RED_THREE[c] for c in s.hands[0])
    assert len(s.stock) == 63 - 2
    # E's red three waits for E's first turn (default first_turn)
    e = new_game("classic", 4, seed=1, deck=_stacked_deck(hands={1: "3H"}, after="KC 5D 6D"))
    assert e.pending_red3[1] and parse_cards("3H")[0] in e.hands[1]
    e1 = play(e, "draw")  # N draws 5D
    assert parse_cards("5D")[0] in e1.hands[0]
    e2 = apply(e1, next(m for m in legal_moves(e1) if isinstance(m, Discard)))
    assert e2.turn.seat == 1 and e2.red3[1] == cards("3H")
    assert parse_cards("6D")[0] in e2.hands[1] and len(e2.hands[1]) == 11
    # option after_deal: laid and replaced right after the deal, in turn order
    o = {"red3_dealt_timing": "after_deal"}
    a = new_game("classic", 4, seed=1, options=o,
                 deck=_stacked_deck(o, hands={1: "3H"}, after="KC 5D 6D"))
    assert a.red3[1] == cards("3H") and parse_cards("5D")[0] in a.hands[1]
    assert not a.pending_red3[1]


def test_extra_CL_R3_2_red_three_drawn_from_stock() -> None:
    """CL-R3-2: a red three drawn is laid and replaced at once, as part of the same draw."""
    s = position(hands={0: "5C 6D 7S 9H"}, phase="draw", stock_top="KC 3H",
                 melds={0: "K@2: KS KH KD"})
    n = len(s.stock)
    s1 = play(s, "draw")
    assert s1.red3[0] == cards("3H")
    assert s1.hands[0] == cards("5C 6D 7S 9H KC")
    assert len(s1.stock) == n - 2 and s1.phase is Phase.MELD


def _exhausted(hand: str) -> State:
    return position(hands={0: hand, 2: "JC"}, phase="draw_exhausted", stock=0, pile="5D 9H",
                    melds={0: "K@2: KS KH KD"}, red3={1: "3H 3D", 3: "3H 3D"})


def test_extra_CL_EXH_6_decline_ends_the_hand() -> None:
    """CL-EXH-5, CL-EXH-6, CL-SCORE-3: no fitting take, or a declined optional take, ends the
    hand with no going-out bonus."""
    s = _exhausted("QS QH 4C")
    assert not any(isinstance(m, TakePile) for m in legal_moves(s))
    s1 = play(s, "decline")
    assert s1.phase is Phase.HAND_OVER and s1.result is not None
    assert s1.result.went_out == -1
    ns, ew = s1.result.sides
    assert breakdown(ns) == (30, 0, 0, 0, 25 + 10, -5)
    assert ew.going_out == 0 and ew.red_three_points == -800  # all four, no meld
    # an optional take (new meld from a natural pair) may be declined
    t = _exhausted("9S 9C 4C")
    assert listed(t, "take 9S 9C") and listed(t, "decline")
    assert play(t, "decline").phase is Phase.HAND_OVER
    t1 = play(t, "take 9S 9C")
    assert meld_is(t1, 0, "9", "9S 9H 9C") and t1.hands[0] == cards("4C 5D")


@pytest.mark.parametrize(("players", "count", "points"),
                         [(6, 4, 400), (6, 5, 1000), (6, 6, 1200), (4, 4, 800), (4, 3, 300)])
def test_extra_CL_P6_8_red_three_scale(players: int, count: int, points: int) -> None:
    """CL-P6-8, CL-SCORE-4, AMB-27: six players score 100 each up to four, 1000 for five,
    1200 for six; a side without a meld loses the same."""
    reds = ["3H", "3D"] * 3
    mine = reds[:count]
    seats = (0, 2, 4) if players == 6 else (0, 2)
    red3: dict[int, str] = {}
    for i, c in enumerate(mine):
        red3[seats[i % len(seats)]] = (red3.get(seats[i % len(seats)], "") + " " + c).strip()
    melded = position(players=players, hands={0: "5C 6D 7S"}, melds={0: "K@2: KS KH KD"},
                      red3=red3)
    side = provisional_score(melded)[0]
    assert (side.red_threes, side.red_three_points) == (count, points)
    bare = position(players=players, hands={0: "5C 6D 7S"}, melds={1: "K@1: KS KH KD"},
                    red3=red3)
    side = provisional_score(bare)[0]
    assert (side.red_threes, side.red_three_points) == (count, -points)


def test_extra_CL_MIN_1_bands_and_CL_P6_7() -> None:
    """CL-MIN-1, CL-P6-7, AMB-18: minimum-count bands, with the six-player 150 row."""
    four = rules_for("classic", 4)
    table = {-5: 15, -350: 15, 0: 50, 1495: 50, 1500: 90, 2995: 90, 3000: 120}
    for score, need in {**table, 9000: 120}.items():
        assert four.minimum_for(score) == need, score
    six = rules_for("classic", 6)
    assert six.target == 10000
    for score, need in {**table, 7495: 120, 7500: 150, 9995: 150}.items():
        assert six.minimum_for(score) == need, score
    six7000 = rules_for("classic", 6, {"p6_min150_threshold": 7000})
    assert (six7000.minimum_for(6995), six7000.minimum_for(7000)) == (120, 150)
    three_teams = rules_for("classic", 6, {"p6_teams": 3})
    assert three_teams.target == 7500 and three_teams.minimum_for(7500) == 120


@pytest.mark.parametrize(("players", "score", "ok"),
                         [(6, 7500, False), (6, 7495, True), (4, 7500, True)])
def test_extra_CL_P6_7_minimum_150_in_play(players: int, score: int, ok: bool) -> None:
    """CL-P6-7, CL-MIN-8: 140 points open below 7500 (or with four players) but not at 7500
    in the six-player game."""
    s = position(players=players, hands={0: "AS AH AD JK KS KH KD QS QH 2C 5C 6D 7H"},
                 scores=(score, 0))
    s1 = play(s, "meld AS AH AD JK", "meld KS KH KD")  # 110 + 30 = 140
    if ok:
        play(s1, "discard 7H")
    else:
        refuse(s1, "discard 7H", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
        play(s1, "meld QS QH 2C", "discard 7H")  # 180


def test_extra_CL_MIN_4_combined_melds_example() -> None:
    """CL-MIN-4, CL-MIN-8: at 1600 (need 90) 6-6-6 + K-K-K-2 = 65 fails, 6-6-6 + A-A-A-2 = 95
    opens."""
    hand = "6S 6H 6D KS KH KD AS AH AD 2C 9D 5H"
    s = position(hands={0: hand}, scores=(1600, 0))
    s1 = play(s, "meld 6S 6H 6D", "meld KS KH KD 2C")
    refuse(s1, "discard 9D", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    s2 = play(s1, "undo", "meld AS AH AD 2C", "discard 9D")
    assert s2.opened[0]
    b = position(hands={0: hand}, scores=(1600, 0), options={"initial_meld_validation": "batch"})
    refuse(b, "meld 6S 6H 6D / KS KH KD 2C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    play(b, "meld 6S 6H 6D / AS AH AD 2C", "discard 9D")


@pytest.mark.parametrize("requires", [False, True])
def test_extra_CL_MIN_9_concealed_from_stock_needs_no_minimum(requires: bool) -> None:
    """CL-MIN-9, CL-OUT-10, CL-OUT-11 (concealed_requires_minimum): a concealed going out after
    a stock draw is exempt from the minimum unless the option says otherwise."""
    s = position(hands={0: "4S 4S 4H 4H 4D 4D 4C 5S"}, scores=(3000, 0),
                 options={"concealed_requires_minimum": requires})
    if requires:
        refuse(s, "meld 4S 4S 4H 4H 4D 4D 4C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
        return
    s1 = play(s, "meld 4S 4S 4H 4H 4D 4D 4C", "out 5S")  # 35 < 120
    assert s1.result is not None and s1.result.concealed
    assert breakdown(s1.result.sides[0])[:3] == (35, 500, 200)


def _going_out(state: State, *texts: str) -> tuple[bool, int]:
    """The result's concealed flag and the going-out bonus of the side of seat 0 (the turn's
    staged melds are final then: the position lists none, CL-MIN-8)."""
    end = play(state, *texts)
    assert end.phase is Phase.HAND_OVER and end.result is not None and end.result.went_out == 0
    assert "\nstaged:" not in export_position(end) and end.turn.base_hand == ()
    return end.result.concealed, end.result.sides[0].going_out


@pytest.mark.parametrize("forbid", [False, True])
def test_extra_CL_OUT_10_concealed_forbid_layoffs_after_a_take(forbid: bool) -> None:
    """CL-OUT-10, CL-OUT-11 (concealed_forbid_layoffs): the option also counts the pile's top
    card laid off on the partner's meld by ``take`` (100, not 200), and never a take that
    makes a new meld, a card added to the player's own new meld, nor a hand with no
    addition at all."""
    opts = {"concealed_forbid_layoffs": forbid}
    partner = {0: "K@2: KS KH KD"}
    hand = "7S 7S 7H 7H 7D 7C 2C 5H"
    pile = position(hands={0: hand}, melds=partner, options=opts, phase="draw", pile="KC")
    took = play(pile, "take")
    assert took.turn.laid_off_on_partner and took.turn.created == ()
    assert _going_out(took, "meld 7S 7S 7H 7H 7D 7C 2C", "out 5H") == (
        not forbid, 100 if forbid else 200)
    made = position(hands={0: "9S 9C " + hand}, melds=partner, options=opts, phase="draw",
                    pile="9D")
    took9 = play(made, "take 9S 9C")
    assert not took9.turn.laid_off_on_partner and took9.turn.created == (rank_of_char("9"),)
    assert _going_out(took9, "meld 7S 7S 7H 7H 7D 7C 2C", "out 5H") == (True, 200)
    own = position(hands={0: hand}, melds=partner, options=opts)
    assert _going_out(own, "meld 7S 7S 7H 7H 7D 7C", "add 7 2C", "out 5H") == (True, 200)


def test_extra_CL_OUT_10_concealed_forbid_pile_spares_a_stock_draw() -> None:
    """CL-OUT-10, CL-OUT-11 (concealed_forbid_pile): the option takes the concealed bonus
    from a hand that took the pile only; after a stock draw it is still 200."""
    s = position(hands={0: "7S 7S 7H 7H 7D 7C 2C 5H"}, melds={0: "K@2: KS KH KD"},
                 options={"concealed_forbid_pile": True})
    assert _going_out(s, "meld 7S 7S 7H 7H 7D 7C 2C", "out 5H") == (True, 200)


def test_extra_CL_OUT_10_the_melded_flag_lasts_the_hand() -> None:
    """CL-OUT-10 a, CL-PILE-8: a turn that took the pile (melding its top card) and laid
    nothing else marks the player as having melded in the hand, and a later turn that lays
    nothing keeps the mark; a stock draw and a discard alone make none (the ``melded``
    flag, which rules out going out concealed)."""
    s = position(hands={0: "AS AH 9D 5H 4C"}, phase="draw", pile="4S AD")
    s1 = play(s, "take AS AH", "discard 9D")
    assert s1.opened[0] and s1.melded == (True, False, False, False)
    later = position(hands={0: "9D 5H 4C"}, melds={0: "K@0: KS KH KD"})
    assert later.melded[0] and play(later, "discard 9D").melded[0]
    partner = position(hands={0: "9D 5H 4C"}, melds={0: "K@2: KS KH KD"})
    assert play(partner, "discard 9D").melded == (False, False, True, False)


def test_extra_CL_PILE_6_frozen_pile_merges_into_existing_meld() -> None:
    """CL-PILE-4, CL-PILE-6, AMB-23: a frozen pile needs a natural pair even with a meld of
    that rank; the pair and top card join that meld."""
    s = position(hands={0: "8S 8D JK 4C KS"}, phase="draw", pile="5D 2C 9C 8H",
                 melds={0: "8@2: 8S 8C 8D"})
    refuse(s, "take", Reason.PILE_FROZEN, "CL-PILE-6")
    refuse(s, "take 8S JK", Reason.PILE_FROZEN, "CL-PILE-6")
    s1 = play(s, "take 8S 8D")
    assert meld_is(s1, 0, "8", "8S 8S 8H 8D 8D 8C")
    assert s1.hands[0] == cards("JK 4C KS 5D 2C 9C")


def test_extra_CL_MELD_1_wild_limits_and_option() -> None:
    """CL-MELD-1, AMB-05 (wilds_not_exceed_naturals): 2 naturals + 3 wilds is a valid meld by
    default; one natural never is."""
    hand = "7S 7H 2C 2D JK 9S 9H 5C"
    s = position(hands={0: hand}, melds={0: "K@2: KS KH KD"})
    refuse(s, "meld 7S 2C 2D", Reason.MELD_NEEDS_NATURALS, "CL-MELD-1")
    s1 = play(s, "meld 7S 7H 2C 2D JK")
    assert meld_of(s1, 0, "7").wilds == 3
    o = position(hands={0: hand}, melds={0: "K@2: KS KH KD"},
                 options={"wilds_not_exceed_naturals": True})
    refuse(o, "meld 7S 7H 2C 2D JK", Reason.TOO_MANY_WILDS, "CL-MELD-1")
    play(o, "meld 7S 7H 2C 2D")


def test_extra_CL_CAN_3_natural_canasta_closed_option() -> None:
    """CL-CAN-3, AMB-06 (natural_canasta_closed_to_wilds)."""
    s = position(hands={0: "2C 5S 6D"}, melds={0: f"K@2: {K_CANASTA}"})
    s1 = play(s, "add K 2C")
    assert not meld_of(s1, 0, "K").is_natural_canasta
    o = position(hands={0: "2C 5S 6D"}, melds={0: f"K@2: {K_CANASTA}"},
                 options={"natural_canasta_closed_to_wilds": True})
    refuse(o, "add K 2C", Reason.NATURAL_CANASTA_CLOSED, "CL-CAN-3")


def test_extra_CL_EXH_4_frozen_pile_take_is_not_compulsory() -> None:
    """CL-EXH-4, CL-EXH-5, CL-EXH-6, CL-PILE-4: a pile frozen by a wild card need not be taken
    even when its top fits a meld; without a natural pair it cannot be taken at all."""
    def at(hand: str) -> State:
        return position(hands={0: hand}, phase="draw_exhausted", stock=0, pile="2C 4C 8H",
                        melds={0: "8@2: 8S 8C 8D"}, red3={1: "3H 3D", 3: "3H 3D"})

    s = at("KD 5S")
    assert [str(m) for m in legal_moves(s)] == ["decline", "ask"]
    refuse(s, "take", Reason.PILE_FROZEN, "CL-PILE-6")
    t = at("KD 8S 8D")
    assert listed(t, "take 8S 8D") and listed(t, "decline")
    t1 = play(t, "take 8S 8D")
    assert meld_of(t1, 0, "8").size == 6 and t1.hands[0] == cards("KD 2C 4C")


def test_extra_CL_OUT_5_yes_but_cannot_go_out() -> None:
    """CL-OUT-4, CL-OUT-5: after "yes" before drawing, a draw that does not help lets the turn end
    normally; a second question in the same turn is refused."""
    s = position(hands={0: "8S 8C 8D 5H"}, phase="draw", stock_top="9D",
                 melds={0: f"K@2: {K_CANASTA} | 7@2: 7S 7D 7C"})
    s = play(s, "ask")
    s = play(s, "yes", seat=2)
    refuse(s, "ask", Reason.ASK_NOT_ALLOWED, "CL-OUT-4")
    s = play(s, "draw")
    assert s.hands[0] == cards("8S 8C 8D 5H 9D")
    refuse(s, "ask", Reason.ASK_NOT_ALLOWED, "CL-OUT-4")
    assert discards(s) == {"discard 8S", "discard 8C", "discard 8D", "discard 5H", "discard 9D"}
    assert play(s, "discard 9D").turn.seat == 1


@pytest.mark.parametrize("last", ["2C", "JK", "3S"])
def test_extra_CL_OUT_5_yes_binds_with_a_card_that_only_goes_as_the_discard(last: str) -> None:
    """CL-OUT-5 (permission_yes strict): after "yes" a wild card with no meld room or a lone
    black three can still go out as the last discard, so the discard that keeps them is
    refused."""
    s = position(hands={0: f"QC {last}"},
                 melds={0: "K@2: KS KH KD KC 2S 2H JK | Q@2: QS QH QD 2D 2C JK"})
    s = play(play(s, "ask"), "yes", seat=2)
    refuse(s, "discard QC", Reason.MUST_GO_OUT, "CL-OUT-5")
    end = play(s, "add Q QC", f"out {last}")
    assert end.result is not None and end.result.went_out == 0


def test_extra_CL_OUT_4_ask_only_before_laying_cards() -> None:
    """CL-OUT-4, CL-P2-5: a question only before drawing or right after a stock draw, before any
    meld; never in the two-player game."""
    s = position(hands={0: "8S 8C 8D 5H 6C"}, melds={0: "K@2: KS KH KD"})
    assert listed(s, "ask")
    s1 = play(s, "meld 8S 8C 8D")
    refuse(s1, "ask", Reason.ASK_NOT_ALLOWED, "CL-OUT-4")
    t = position(hands={0: "8S 8C 5H 6C"}, phase="draw", pile="4D 8H", melds={0: "K@2: KS KH KD"})
    t1 = play(t, "take 8S 8C")
    refuse(t1, "ask", Reason.ASK_NOT_ALLOWED, "CL-OUT-4")
    two = position(players=2, hands={0: "8S 8C 8D 5H"}, phase="draw")
    refuse(two, "ask", Reason.ASK_NOT_ALLOWED, "CL-P2-5")


def _round_to_seat_0(state: State) -> State:
    """Seat 0 discards, each other seat draws and discards its first card, and seat 0 draws."""
    state = play(state, f"discard {CODES[state.hands[0][0]]}")
    while state.turn.seat != 0:
        state = play(state, "draw")
        state = play(state, f"discard {CODES[state.hands[state.turn.seat][0]]}")
    return play(state, "draw")


@pytest.mark.parametrize("limit", [1, 2])
def test_extra_CL_OUT_4_asks_per_hand_limit(limit: int) -> None:
    """CL-OUT-4 (``permission_asks_per_hand``): a player asks at most that many times in a
    hand; the first question is allowed, the one past the limit refused."""
    s = position(hands={0: "8S 8C 8D 5H 6C"}, options={"permission_asks_per_hand": limit},
                 melds={0: "K@2: KS KH KD"})
    assert listed(s, "ask")
    s = play(play(s, "ask"), "no", seat=2)
    assert s.asks[0] == 1
    s = _round_to_seat_0(s)
    if limit == 1:
        refuse(s, "ask", Reason.ASK_NOT_ALLOWED, "CL-OUT-4")
    else:
        assert play(s, "ask").asks[0] == 2


def test_extra_CL_OUT_6_no_means_no_going_out() -> None:
    """CL-OUT-6, CL-OUT-1: after "no" the last card's going out is refused as
    GO_OUT_REFUSED; without a question and without a canasta as GO_OUT_NEEDS_CANASTAS."""
    s = position(hands={0: "4D"}, melds={0: f"K@2: {K_CANASTA}"})
    no = play(play(s, "ask"), "no", seat=2)
    refuse(no, "out 4D", Reason.GO_OUT_REFUSED, "CL-OUT-6")
    short = position(hands={0: "4D"}, melds={0: "K@2: KS KH KD"})
    refuse(short, "out 4D", Reason.GO_OUT_NEEDS_CANASTAS, "CL-OUT-1")


def test_extra_CL_OUT_1_go_out_by_laying_all_but_one_card() -> None:
    """CL-OUT-1: ``out`` discards the last card or follows an empty hand; with more cards
    left it is refused (lay them first)."""
    s = position(hands={0: "9C 5D"}, melds={0: f"K@2: {K_CANASTA}"})
    refuse(s, "out 9C", Reason.MUST_KEEP_CARD, "CL-OUT-1")
    refuse(s, "out", Reason.MUST_KEEP_CARD, "CL-OUT-1")


def test_extra_CL_DISC_5_the_last_card_goes_out() -> None:
    """CL-DISC-5: discarding the last card is refused (MUST_KEEP_CARD); ``out`` with it is
    the legal way."""
    s = position(hands={0: "4D"}, melds={0: f"K@2: {K_CANASTA}"})
    refuse(s, "discard 4D", Reason.MUST_KEEP_CARD, "CL-DISC-5")
    assert passes(s, "out 4D")


def _concealed_below_minimum(options: dict[str, object], hand: str = "9C") -> State:
    """N (unopened, no earlier meld) has staged a canasta of fours (35 < 50) after a stock
    draw and holds ``hand``."""
    fours = "4S 4S 4H 4H 4D 4D 4C"
    s = position(hands={0: hand}, melds={0: f"4@0: {fours}"}, opened=[0, 0],
                 melded=[0, 0, 0, 0], options=options)
    text = export_position(s) + (f"staged: meld {fours}\nbase_hand: {fours} {hand}\n"
                                 "base_melds: -\n")
    return import_position(text)


def test_extra_CL_MIN_9_concealed_requires_minimum() -> None:
    """CL-MIN-9, CL-MIN-8 (``concealed_requires_minimum``): a concealed going out below the
    minimum is refused under the option and legal without it."""
    s = _concealed_below_minimum({"concealed_requires_minimum": True})
    refuse(s, "out 9C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    free = _concealed_below_minimum({})
    assert passes(free, "out 9C")
    end = play(free, "out 9C")
    assert end.result is not None and end.result.went_out == 0
    # the exemption is for going out: a discard that keeps a card needs the minimum
    keep = _concealed_below_minimum({}, "9C 5D")
    refuse(keep, "discard 9C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")


def test_extra_CL_PILE_12_empty_pile() -> None:
    """CL-PILE-12: an empty pile cannot be taken."""
    s = position(hands={0: "8S 8C 5H"}, phase="draw", melds={0: "K@2: KS KH KD"})
    refuse(s, "take", Reason.PILE_EMPTY, "CL-PILE-12")
    refuse(s, "take 8S 8C", Reason.PILE_EMPTY, "CL-PILE-12")


def test_extra_CL_OUT_1_going_out_by_taking_the_pile() -> None:
    """CL-OUT-1, CL-OUT-2, CL-PILE-9 (decision table row 6): a take that empties the hand is a
    going out, allowed only with a canasta."""
    s = position(hands={0: "9S 9C"}, phase="draw", pile="9D", melds={0: f"K@2: {K_CANASTA}"})
    s1 = play(s, "take 9S 9C")
    assert s1.hands[0] == () and [str(m) for m in legal_moves(s1)] == ["out"]
    s2 = play(s1, "out")
    assert s2.result is not None and s2.result.went_out == 0
    no = position(hands={0: "9S 9C"}, phase="draw", pile="9D", melds={0: "K@2: KS KH KD"})
    refuse(no, "take 9S 9C", Reason.MUST_KEEP_CARD, "CL-OUT-3")


@pytest.mark.parametrize(("players", "hand", "stock"),
                         [(2, 15, 77), (3, 13, 68), (4, 11, 63), (5, 11, 63), (6, 13, 83)])
def test_extra_CL_DEAL_7_deal_and_stock_sizes(players: int, hand: int, stock: int) -> None:
    """CL-DEAL-1, CL-DEAL-7, CL-P2-1, CL-P3-1, CL-P5-3, CL-P6-3: hand and stock sizes; every extra
    turned card and every red-three replacement takes one card from the stock."""
    for seed in range(6):
        s = new_game("classic", players, seed=seed)
        active = s.order
        assert all(len(s.hands[p]) == hand for p in active)
        first = s.order[0]
        replaced = len(s.red3[first])  # the first player's red threes were all replaced
        assert len(s.stock) == stock - (len(s.pile) - 1) - replaced


def _sc1(scores: tuple[int, int], options: Mapping[str, object] | None = None) -> State:
    s = position(
        turn=2, hands={0: "7C JK", 1: "9H 9D 4S", 2: "4D", 3: "AS 2H 3S"},
        melds={0: f"K@2: {K_CANASTA} | A@2: AS AH AD | 5@0: 5S 5H 5D 2C",
               1: "Q@1: QS QH QD QC QS 2D JK | 8@3: 8S 8H 8D"},
        red3={0: "3H", 1: "3D"}, scores=scores, options=options)
    return play(s, "out 4D")  # NS +810, EW +480 (SC-1)


def test_extra_CL_GAME_1_to_4_game_end() -> None:
    """CL-GAME-1, CL-GAME-2, CL-GAME-3, CL-GAME-4 (tie_policy), CL-SCORE-6."""
    s = _sc1((4500, 0))
    assert s.phase is Phase.GAME_OVER and s.result is not None and s.result.winner == 0
    both = _sc1((4500, 4900))  # 5310 against 5380: the higher total wins
    assert both.result is not None and both.result.winner == 1
    assert both.phase is Phase.GAME_OVER
    tie = _sc1((4570, 4900))  # 5380 each: play on by default
    assert tie.result is not None and tie.result.winner == -1 and not tie.result.draw
    assert tie.phase is Phase.HAND_OVER
    drawn = _sc1((4570, 4900), {"tie_policy": "draw"})
    assert drawn.result is not None and drawn.result.draw and drawn.phase is Phase.GAME_OVER
    below = _sc1((3000, 0))
    assert below.phase is Phase.HAND_OVER and below.result is not None
    assert below.result.winner == -1
    assert (below.result.sides[0].cumulative, below.result.sides[1].cumulative) == (3810, 480)


@pytest.mark.parametrize(("forbid", "bonus"), [(False, 200), (True, 100)])
def test_extra_CL_OUT_10_concealed_with_layoff_on_partner_meld(forbid: bool, bonus: int) -> None:
    """CL-OUT-10, CL-OUT-11, AMB-09 (concealed_forbid_layoffs): adding to the partner's meld in
    the concealed turn keeps the 200 bonus unless the option forbids it."""
    s = position(hands={0: "4S 4S 4H 4H 4D 4D 4C 6C 9D"}, melds={0: "6@2: 6S 6H 6D"},
                 options={"concealed_forbid_layoffs": forbid})
    assert not s.melded[0] and s.melded[2]
    s1 = play(s, "meld 4S 4S 4H 4H 4D 4D 4C", "add 6 6C", "out 9D")
    assert s1.result is not None and s1.result.concealed is (not forbid)
    assert s1.result.sides[0].going_out == bonus
    # a player who melded earlier in the hand never goes out concealed (CL-OUT-10a)
    m = position(hands={0: "4S 4S 4H 4H 4D 4D 4C 9D"}, melds={0: "6@0: 6S 6H 6D"})
    m1 = play(m, "meld 4S 4S 4H 4H 4D 4D 4C", "out 9D")
    assert m1.result is not None and m1.result.concealed is False
    assert m1.result.sides[0].going_out == 100


def test_extra_CL_P2_2_two_player_draw() -> None:
    """CL-P2-2, CL-R3-2, CL-P2-4, CL-EXH-4: two cards per draw, a red three among them is
    replaced; one card left is a complete draw, then the stock is exhausted."""
    s = position(players=2, hands={0: "5C 6D 7S"}, phase="draw", stock_top="KC 3H 9D",
                 melds={0: "K@0: KS KH KD"})
    n = len(s.stock)
    s1 = play(s, "draw")
    assert s1.hands[0] == cards("5C 6D 7S 9D KC") and s1.red3[0] == cards("3H")
    assert len(s1.stock) == n - 3
    last = position(players=2, hands={0: "5C 6D 7S"}, phase="draw", stock=1, stock_top="9D",
                    melds={0: "K@0: KS KH KD"}, red3={1: "3H 3H 3D 3D"})
    l1 = play(last, "draw")
    assert l1.hands[0] == cards("5C 6D 7S 9D") and l1.stock == () and l1.phase is Phase.MELD
    l2 = play(l1, "discard 9D")
    assert l2.turn.seat == 1 and l2.phase is Phase.DRAW_EXHAUSTED


def test_extra_CL_PILE_4_black_three_freezes_option() -> None:
    """CL-PILE-4, AMB-11 (black_three_freezes): with the option the covered black three of TS-41
    freezes the pile, so one natural and a wild no longer take it."""
    s = position(hands={0: "6C JK 9S TD QH 5C 7D"}, phase="draw", pile="KD 3S 6H",
                 melds={0: "K@2: KS KH KD"}, options={"black_three_freezes": True})
    assert seat_view(s, 0).pile_frozen
    refuse(s, "take 6C JK", Reason.PILE_FROZEN, "CL-PILE-6")
    # only a black three freezes it: without one, one natural and a wild take it
    t = position(hands={0: "6C JK 9S TD QH 5C 7D"}, phase="draw", pile="KD 4S 6H",
                 melds={0: "K@2: KS KH KD"}, options={"black_three_freezes": True})
    assert not seat_view(t, 0).pile_frozen and listed(t, "take 6C JK")


@pytest.mark.parametrize("players", [2, 3])
def test_extra_CL_P2_5_no_partner_to_ask(players: int) -> None:
    """CL-P2-5: without partners there is no permission question; ``ask`` is refused for
    that reason, not as a second question (CL-OUT-4)."""
    state = new_game("classic", players, seed=1)
    assert "ask" not in {str(m) for m in legal_moves(state)}
    with pytest.raises(RuleViolation) as err:
        apply(state, parse_move("ask"))
    assert (err.value.reason, err.value.rule) == (Reason.ASK_NOT_ALLOWED, "CL-P2-5")
    assert "no partner" in err.value.message


def test_CL_MIN_8_an_undo_draws_nothing() -> None:
    """CL-MIN-8, AMB-21: an undo (staged melds taken back into the hand) reports no draw:
    the cards came back from the table, not the stock (it once reported CARDS_DRAWN with
    no card)."""
    s1 = play(_ts01(), "meld KS KH KD")
    back = play(s1, "undo")
    kinds = [e.kind for e in move_events(s1, parse_move("undo"), 0, back)]
    assert kinds == [EventKind.MOVE_PLAYED]
    drew = play(back, "discard 9S")
    assert EventKind.CARDS_DRAWN not in [e.kind for e in move_events(
        back, parse_move("discard 9S"), 0, drew)]


# --- rules no other test cites --------------------------------------------------------


def _refused(state: State, text: str, seat: int | None = None) -> RuleViolation:
    """The move is not listed and is refused (whatever the reason), leaving ``state`` as it
    was (CL-TURN-3)."""
    assert not listed(state, text), text
    with pytest.raises(RuleViolation) as err:
        apply(state, parse_move(text), seat=seat)
    return err.value


def test_CL_DECK_1_to_4_deck_wilds_and_values() -> None:
    """CL-DECK-1, CL-DECK-2, CL-DECK-3, CL-DECK-4: 108 cards with 12 wild cards and four red
    threes; card values; the deck without red threes is worth 1180."""
    rules = rules_for("classic", 4)
    deck = composition(rules)
    assert sum(deck.values()) == 108
    assert sum(n for c, n in deck.items() if rules.wild[c]) == 12
    assert sum(n for c, n in deck.items() if IS_RED_THREE[c]) == 4
    values = {"JK": 50, "2C": 20, "AS": 20, "KS": 10, "8H": 10, "7D": 5, "4C": 5, "3S": 5}
    for code, value in values.items():
        assert rules.hand_value(parse_cards(code)[0]) == value, code
    assert sum(rules.hand_value(c) * n for c, n in deck.items() if not IS_RED_THREE[c]) == 1180


def test_CL_DECK_2_wild_card_keeps_its_own_value_in_a_meld() -> None:
    """CL-DECK-2, CL-DECK-3: a deuce and a joker stand for sevens in a 7 meld but score 20 and
    50; fours are the lowest natural rank, threes never meld with a wild card."""
    s = position(hands={0: "7S 7H 2C JK 4S 4H 4D 3S 3C 2D 9C"}, melds={0: "K@2: KS KH KD"})
    before = provisional_score(s)[0].base
    s1 = play(s, "meld 7S 7H 2C JK")
    m = meld_of(s1, 0, "7")
    assert (m.size, m.wilds) == (4, 2)
    assert provisional_score(s1)[0].base - before == 5 + 5 + 20 + 50
    assert listed(s, "meld 4S 4H 4D")
    _refused(s, "meld 3S 3C 2D")


def test_CL_DRAW_1_3_one_stock_card_then_no_second_draw() -> None:
    """CL-DRAW-1, CL-DRAW-3, CL-TURN-1: a stock draw takes the top card only; after it neither a
    second draw nor a take is possible."""
    s = position(hands={0: "9S 9C 5C 6D"}, phase="draw", stock_top="4H KC", pile="8D 9H",
                 melds={0: "K@2: KS KH KD"})
    n = len(s.stock)
    s1 = play(s, "draw")
    assert s1.hands[0] == cards("9S 9C 5C 6D KC")
    assert len(s1.stock) == n - 1 and s1.stock[-1] == parse_cards("4H")[0]
    assert s1.pile == s.pile and s1.phase is Phase.MELD
    _refused(s1, "draw")
    _refused(s1, "take 9S 9C")


def test_CL_DRAW_2_CL_PILE_10_taking_the_whole_pile_replaces_the_draw() -> None:
    """CL-DRAW-2, CL-DRAW-3, CL-PILE-10, CL-PILE-8: the top card is melded, the whole rest of
    the pile goes to the hand, and no stock card is taken."""
    s = position(hands={0: "9S 9C 5C 6D"}, phase="draw", pile="4D 7S QC 9H",
                 melds={0: "K@2: KS KH KD"})
    stock = s.stock
    s1 = play(s, "take 9S 9C")
    assert meld_is(s1, 0, "9", "9S 9H 9C")
    assert s1.hands[0] == cards("5C 6D 4D 7S QC")
    assert s1.pile == () and s1.stock == stock
    _refused(s1, "draw")


def test_CL_DRAW_4_empty_stock_starts_the_exhausted_phase() -> None:
    """CL-DRAW-4, CL-EXH-1, CL-EXH-3: whoever draws the last card plays his turn normally; the
    next turn starts without a stock draw."""
    s = position(hands={0: "QS QH QD 5C 6D"}, phase="draw", stock=1, stock_top="QC",
                 melds={0: "K@2: KS KH KD"}, red3={1: "3H 3D", 3: "3H 3D"})
    s1 = play(s, "draw")
    assert s1.stock == () and s1.phase is Phase.MELD
    s2 = play(s1, "meld QS QH QD QC", "discard 5C")  # EXH-3: meld and discard as usual
    assert s2.turn.seat == 1 and s2.phase is Phase.DRAW_EXHAUSTED
    _refused(s2, "draw")


def test_CL_EXH_1_last_card_drawn_as_a_replacement() -> None:
    """CL-EXH-1, CL-EXH-3, CL-R3-2: the stock is exhausted when a red three's replacement
    takes its last card; the turn then goes on normally."""
    s = position(hands={0: "5C 6D 7S"}, phase="draw", stock=2, stock_top="9D 3H",
                 melds={0: "K@2: KS KH KD"}, red3={1: "3D", 3: "3H 3D"})
    s1 = play(s, "draw")
    assert s1.red3[0] == cards("3H") and s1.hands[0] == cards("5C 6D 7S 9D")
    assert s1.stock == () and s1.phase is Phase.MELD
    s2 = play(s1, "discard 9D")
    assert s2.phase is Phase.DRAW_EXHAUSTED and s2.turn.seat == 1


def test_CL_DISC_1_2_3_any_hand_card_never_a_meld_card() -> None:
    """CL-DISC-1, CL-DISC-2, CL-DISC-3: a discard comes from the hand, never from a meld; a wild
    card may be discarded and the pile is then frozen for both sides; a black three may be
    discarded and blocks the next player."""
    s = position(hands={0: "2C 3S 9C 5D"}, melds={0: "K@2: KS KH KD", 1: "9@1: 9S 9H 9D"},
                 pile="4H 6C")
    assert discards(s) == {"discard 2C", "discard 3S", "discard 9C", "discard 5D"}
    _refused(s, "discard KS")
    wild = play(s, "discard 2C")
    assert wild.pile[-1] == parse_cards("2C")[0]
    view = seat_view(wild, 1)
    assert view.pile_frozen and view.sides[1].pile_frozen and view.sides[0].pile_frozen
    black = play(s, "discard 3S")
    assert black.turn.seat == 1
    assert not any(isinstance(m, TakePile) for m in legal_moves(black))


def test_CL_DISC_1_a_card_not_in_the_hand_is_named() -> None:
    """CL-DISC-1: a discard (or a going out's discard) of a card the hand lacks is refused as
    CARDS_NOT_IN_HAND, citing CL-DISC-1."""
    s = position(hands={0: "2C 3S 9C 5D"}, melds={0: "K@2: KS KH KD", 1: "9@1: 9S 9H 9D"},
                 pile="4H 6C")
    refuse(s, "discard KS", Reason.CARDS_NOT_IN_HAND, "CL-DISC-1")
    refuse(s, "out KS", Reason.CARDS_NOT_IN_HAND, "CL-DISC-1")


def test_CL_DISC_4_5_CL_OUT_13_going_out_with_and_without_a_discard() -> None:
    """CL-DISC-4, CL-DISC-5, CL-OUT-7, CL-OUT-13: with a canasta the last cards are melded with
    no discard (no question asked) and the hand ends at once; without one the last card may
    not be discarded."""
    s = position(hands={0: "QS QH QD"}, melds={0: f"K@2: {K_CANASTA}"})
    s1 = play(s, "meld QS QH QD", "out")
    assert s1.hands[0] == () and s1.phase is Phase.HAND_OVER
    assert legal_moves(s1) == [] and s1.result is not None and s1.result.went_out == 0
    assert s1.result.sides[0].going_out == 100 and len(s1.result.sides) == 2
    no = position(hands={0: "9D"}, melds={0: "K@2: KS KH KD"})
    assert not discards(no) and not any(isinstance(m, GoOut) for m in legal_moves(no))
    _refused(no, "discard 9D")
    _refused(no, "out 9D")


def test_CL_TURN_5_6_melding_only_after_the_draw_and_by_the_active_seat() -> None:
    """CL-TURN-2, CL-TURN-5, CL-TURN-6, CL-MELD-11: no meld before the draw, none by another
    seat; a turn that does not go out leaves a card in the hand."""
    s = position(hands={0: "QS QH QD 5C 6D"}, phase="draw", melds={0: "K@2: KS KH KD"})
    _refused(s, "meld QS QH QD")
    _refused(s, "discard 5C")
    m = position(hands={0: "QS QH QD 5C 6D"}, melds={0: "K@2: KS KH KD"})
    m1 = play(m, "meld QS QH QD")
    assert discards(m1) == {"discard 5C", "discard 6D"}
    four = position(hands={0: "QS QH QD 5C"}, melds={0: "K@2: KS KH KD"})
    refuse(four, "meld QS QH QD", Reason.GO_OUT_NEEDS_CANASTAS, "CL-OUT-3")  # no card to keep
    with pytest.raises(RuleViolation) as err2:
        apply(m, parse_move("meld QS QH QD"), seat=1)
    assert err2.value.reason is Reason.NOT_YOUR_TURN


def test_CL_R3_4_red_threes_never_in_a_decision() -> None:
    """CL-R3-4, CL-MELD-4: red threes are laid automatically, never melded or discarded; no
    legal move of a fresh deal names one."""
    for seed in range(8):
        s = new_game("classic", 4, seed=seed)
        hand = s.hands[s.awaited]
        assert not any(IS_RED_THREE[c] for c in hand), seed
        moves = legal_moves(play(s, "draw"))
        assert not any("3H" in str(m) or "3D" in str(m) for m in moves), seed
    s = position(hands={0: "5C 6D 7S"}, melds={0: "K@2: KS KH KD"}, red3={0: "3H"})
    _refused(s, "discard 3H")
    _refused(s, "meld 3H 3D 2C")


def test_CL_R3_6_red_threes_alone_do_not_open() -> None:
    """CL-R3-6, CL-SCORE-4, CL-PILE-3: a side whose only table cards are red threes has not
    opened: the pile stays frozen against it, the minimum applies and the red threes count
    minus."""
    s = position(hands={0: "KS KH KD QS QH JK 5C 6D 7S 9H"}, red3={0: "3H", 2: "3D"},
                 pile="4C 9D")
    assert s.opened == (False, False)
    view = seat_view(s, 0)
    assert not view.sides[0].opened and view.sides[0].pile_frozen
    assert provisional_score(s)[0].red_three_points == -200
    s1 = play(s, "meld KS KH KD")  # 30: red-three bonuses add nothing
    refuse(s1, "discard 9H", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")


def test_CL_DEAL_6_red_three_turned_up_stays_in_the_pile() -> None:
    """CL-DEAL-6, CL-DEAL-4, CL-DEAL-5, CL-R3-3: a red three turned up is covered, stays in the
    pile (freezing it) and goes to the side that takes the pile, with no replacement."""
    deck = _stacked_deck(hands={0: "KS KH AS AD JK"}, after="3H KC")
    s = new_game("classic", 4, seed=1, deck=deck)
    assert s.pile == tuple(parse_cards("3H KC")) and len(s.stock) == 62
    assert all(not r for r in s.red3) and seat_view(s, 0).pile_frozen
    stock = s.stock
    s1 = play(s, "take KS KH / AS AD JK")
    assert s1.red3[0] == cards("3H") and s1.stock == stock
    assert meld_is(s1, 0, "K", "KS KH KC")


def test_CL_SEAT_5_dealers_left_plays_first_in_every_hand() -> None:
    """CL-SEAT-3, CL-SEAT-5, CL-GAME-6: the seat on the dealer's left plays first, and the deal
    moves one seat clockwise for the next hand."""
    for dealer in range(4):
        s = new_game("classic", 4, seed=3, dealer=dealer)
        assert s.dealer == dealer and s.turn.seat == (dealer + 1) % 4 == s.awaited
    over = _sc1((3000, 0))
    nxt = next_deal(over)
    assert nxt.dealer == (over.dealer + 1) % 4
    assert nxt.turn.seat == (nxt.dealer + 1) % 4
    assert nxt.scores == (3810, 480)


def test_CL_CAN_5_CL_SCORE_8_canasta_cards_count_and_breakdown_adds_up() -> None:
    """CL-CAN-5, CL-SCORE-1, CL-SCORE-2, CL-SCORE-8: a natural canasta of seven kings is worth
    70 + 500; the breakdown's components add up to the total."""
    s = position(hands={0: "5C 6D"}, melds={0: f"K@2: {K_CANASTA} | 9@0: 9S 9H 2C"},
                 red3={2: "3H"})
    side = provisional_score(s)[0]
    assert (side.base, side.canasta_bonus, side.natural_canastas) == (70 + 40, 500, 1)
    result = _sc1((0, 0)).result
    assert result is not None
    for res in result.sides:
        assert res.total == (res.base + res.canasta_bonus + res.going_out
                             + res.red_three_points - res.in_hand - res.penalties)


def test_CL_MELD_10_cards_in_hand_count_minus_even_as_sets() -> None:
    """CL-MELD-10, CL-SCORE-5: a set still in the hand at the end counts minus."""
    s = position(hands={0: "QS QH QD", 2: "AS AH AD JK"}, phase="draw_exhausted", stock=0,
                 pile="5D 9H", melds={0: "K@2: KS KH KD"}, red3={1: "3H 3D", 3: "3H 3D"})
    end = play(s, "decline")
    assert end.result is not None
    ns = end.result.sides[0]
    assert ns.in_hand == 30 + 60 + 50 and ns.total == 30 - 140


def test_CL_SCORE_7_each_side_scores_only_its_own_cards() -> None:
    """CL-SCORE-7: what NS hold and meld changes nothing in EW's hand score."""
    def ew_total(ns_hand: str, ns_melds: str) -> int:
        s = position(hands={0: ns_hand, 1: "9H 9D 4S", 3: "AS 2H"}, melds={
            0: ns_melds, 1: "Q@1: QS QH QD QC QS 2D JK"}, red3={1: "3D"})
        return provisional_score(s)[1].total
    a = ew_total("5C", f"K@2: {K_CANASTA}")
    b = ew_total("JK AS 2C 4D", "8@0: 8S 8H 8D")
    assert a == b == 120 + 300 + 100 - 25 - 40


def test_CL_GAME_5_no_game_bonus() -> None:
    """CL-GAME-5, CL-GAME-3: the final totals are the old totals plus the hand scores, and
    nothing more."""
    s = _sc1((4500, 200))
    assert s.phase is Phase.GAME_OVER and s.result is not None
    ns, ew = s.result.sides
    assert (ns.cumulative, ew.cumulative) == (4500 + 810, 200 + 480)
    assert (ns.total, ew.total) == (810, 480)


def test_CL_MELD_7_melds_of_earlier_turns_are_permanent() -> None:
    """CL-MELD-7, CL-TURN-1: once a turn is over its melds never come back: nothing is left to
    undo, and no move takes a card off the table."""
    s = position(hands={0: "QS QH QD 5C 6D 7S"}, melds={0: "K@2: KS KH KD"})
    done = play(s, "meld QS QH QD", "discard 5C")
    e = done
    for _ in range(3):  # E, S, W draw and discard
        e = play(e, "draw")
        e = apply(e, sorted((m for m in legal_moves(e) if isinstance(m, Discard)), key=str)[0])
    assert e.turn.seat == 0 and meld_is(e, 0, "Q", "QS QH QD")
    _refused(e, "undo")
    e1 = play(e, "draw")
    _refused(e1, "undo")
    assert meld_is(e1, 0, "Q", "QS QH QD") and meld_is(e1, 0, "K", "KS KH KD")


def test_CL_MELD_8_9_side_melds_and_many_melds_in_one_turn() -> None:
    """CL-MELD-8, CL-MELD-9, CL-MELD-6: in one turn N lays three new melds and adds to the meld
    his partner started; the melds belong to the side and N now counts as having melded."""
    s = position(hands={0: "QS QH QD 8S 8H 8D 5C 5D 5S KC 9C 6D"}, melds={0: "K@2: KS KH KD"})
    assert s.melded == (False, False, True, False)
    s1 = play(s, "meld QS QH QD", "meld 8S 8H 8D", "meld 5C 5D 5S", "add K KC", "discard 9C")
    assert {meld_of(s1, 0, r).size for r in "Q85"} == {3} and meld_of(s1, 0, "K").size == 4
    assert meld_of(s1, 0, "K").owner == 2 and meld_of(s1, 0, "Q").owner == 0
    assert s1.melded[0] and s1.melded[2] and not s1.melded[1]


def test_CL_MIN_2_partner_opens_with_the_sides_score() -> None:
    """CL-MIN-2, CL-MIN-10: S makes NS's first meld and needs the side's minimum (90 at 1500);
    in the three-player game each player's own score sets his minimum."""
    s = position(turn=2, hands={2: "AS AH AD QS QH 2C 5C 6D"}, scores=(1500, 0))
    s1 = play(s, "meld AS AH AD")  # 60 < 90
    refuse(s1, "discard 5C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    s2 = play(s1, "meld QS QH 2C", "discard 5C")  # 60 + 40 = 100
    assert s2.opened[0]
    three = position(players=3, turn=1, hands={1: "AS AH AD 5C 6D 7S"}, scores=(1500, 0, 3000))
    assert [three.rules.minimum_for(x) for x in three.scores] == [90, 50, 120]
    play(three, "meld AS AH AD", "discard 5C")  # 60 >= 50: seat 1's own score


def test_CL_MIN_5_bonuses_do_not_count_toward_the_minimum() -> None:
    """CL-MIN-5, CL-MIN-10: seven fours laid from the hand count 35 (not 535), and red threes
    add nothing: below 50 the turn cannot end."""
    s = position(hands={0: "4S 4S 4H 4H 4D 4D 4C 9C 8C 6D"}, red3={0: "3H 3D", 2: "3H 3D"})
    refuse(s, "meld 4S 4S 4H 4H 4D 4D 4C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    b = position(hands={0: "4S 4S 4H 4H 4D 4D 4C 9C 8C 6D"}, red3={0: "3H 3D", 2: "3H 3D"},
                 options={"initial_meld_validation": "batch"})
    refuse(b, "meld 4S 4S 4H 4H 4D 4D 4C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-8")
    # the canasta's card values do count: with 9-9-9 beside it, 35 + 30 = 65 opens
    t = position(hands={0: "4S 4S 4H 4H 4D 4D 4C 9C 9S 9H 6D 8C"})
    t1 = play(t, "meld 4S 4S 4H 4H 4D 4D 4C", "meld 9S 9H 9C", "discard 6D")
    assert t1.opened[0] and meld_of(t1, 0, "4").is_canasta


def test_CL_OUT_8_CL_INFO_1_3_what_the_partner_sees_before_answering() -> None:
    """CL-OUT-8, CL-INFO-1, CL-INFO-3: the partner asked "may I go out?" sees every hand size,
    the stock size, both sides' minimums, opened flags and melds, but not the asker's cards."""
    s = position(hands={0: "8S 8C 8D 5H"}, phase="draw", scores=(1500, -20),
                 melds={0: f"K@2: {K_CANASTA}", 1: "9@1: 9S 9H 9D"}, red3={1: "3H"})
    asked = play(s, "ask")
    v = seat_view(asked, 2)
    assert asked.awaited == 2 and v.asked
    assert v.hand_sizes == tuple(len(h) for h in asked.hands) and v.hand_sizes[0] == 4
    assert v.stock_size == len(asked.stock)
    assert [x.minimum for x in v.sides] == [90, 15] and [x.opened for x in v.sides] == [1, 1]
    assert [len(x.melds) for x in v.sides] == [1, 1] and v.sides[1].red_threes == ("3H",)
    assert v.hand == tuple(CODES[c] for c in asked.hands[2])
    assert seat_view(asked, 0).hand != v.hand


def test_CL_PILE_1_only_the_top_card_is_shown() -> None:
    """CL-PILE-1, CL-INFO-4: views show the pile's top card and size, not the cards below."""
    s = position(hands={0: "5C 6D"}, melds={0: "K@2: KS KH KD"}, pile="AS 9H 4D")
    for seat in range(4):
        v = seat_view(s, seat)
        assert (v.pile_top, v.pile_size, v.pile) == ("4D", 3, ())


def test_CL_EXH_7_red_three_replacement_owed_with_an_empty_stock() -> None:
    """CL-EXH-7, CL-P2-2, CL-R3-7: two players draw the last two cards, a red three among them
    not the last card: it is laid, no replacement exists, and the turn goes on."""
    s = position(players=2, hands={0: "5C 6D 7S"}, phase="draw", stock=2, stock_top="9D 3H",
                 melds={0: "K@0: KS KH KD"}, red3={1: "3H 3D 3D"})
    s1 = play(s, "draw")
    assert s1.stock == () and s1.red3[0] == cards("3H")
    assert s1.hands[0] == cards("5C 6D 7S 9D") and s1.phase is Phase.MELD
    s2 = play(s1, "discard 5C")
    assert s2.phase is Phase.DRAW_EXHAUSTED and s2.turn.seat == 1
    # the other order makes the red three the last card: CL-EXH-2 ends the hand at once
    last = position(players=2, hands={0: "5C 6D 7S"}, phase="draw", stock=2, stock_top="3H 9D",
                    melds={0: "K@0: KS KH KD"}, red3={1: "3H 3D 3D"})
    l1 = play(last, "draw")
    assert l1.phase is Phase.HAND_OVER and legal_moves(l1) == []


def test_CL_EXH_8_going_out_after_exhaustion_earns_the_bonus() -> None:
    """CL-EXH-8, CL-EXH-4: after a compulsory take with the stock empty the player may go out,
    and the going-out bonus applies."""
    s = position(hands={0: "KC"}, phase="draw_exhausted", stock=0, pile="5D 8H",
                 melds={0: f"K@2: {K_CANASTA} | 8@2: 8S 8C 8D"}, red3={1: "3H 3D", 3: "3H 3D"})
    s1 = play(s, "take")
    assert s1.hands[0] == cards("KC 5D")
    s2 = play(s1, "add K KC", "out 5D")
    assert s2.result is not None and s2.result.went_out == 0
    assert s2.result.sides[0].going_out == 100


def test_CL_P5_1_4_5_five_players() -> None:
    """CL-P5-1, CL-P5-4, CL-P5-5: two against three; the idle player holds nothing and may not
    act; scores are kept per team."""
    rules = rules_for("classic", 5)
    assert sorted(len(t) for t in rules.layout.teams) == [2, 3]
    s = new_game("classic", 5, seed=2)
    idle = [p for p in range(5) if p not in s.order]
    assert len(idle) == 1 and len(s.order) == 4
    assert s.hands[idle[0]] == () and len(s.scores) == 2
    with pytest.raises(RuleViolation):
        apply(s, parse_move("draw"), seat=idle[0])


def test_CL_P6_2_4_5_6_six_players() -> None:
    """CL-P6-2, CL-P6-4, CL-P6-5, CL-P6-6: two teams of three seated alternately (or three of two,
    partners opposite); one card per draw; two canastas to go out; 10 000 / 7 500."""
    two = rules_for("classic", 6)
    assert sorted(map(tuple, two.layout.teams)) == [(0, 2, 4), (1, 3, 5)]
    assert (two.target, two.canastas_to_go_out) == (10000, 2)
    three = rules_for("classic", 6, {"p6_teams": 3})
    assert sorted(map(tuple, three.layout.teams)) == [(0, 3), (1, 4), (2, 5)]
    assert three.target == 7500
    s = position(players=6, hands={0: "QS QH QD 5C"}, phase="draw", stock_top="9D",
                 melds={0: f"K@2: {K_CANASTA}"})
    s1 = play(s, "draw")
    assert s1.hands[0] == cards("QS QH QD 5C 9D")
    s2 = play(s1, "meld QS QH QD")
    assert not any(isinstance(m, GoOut) for m in legal_moves(s2))
    _refused(s2, "out 5C")
    four = position(hands={0: "QS QH QD 5C"}, melds={0: f"K@2: {K_CANASTA}"})
    assert listed(play(four, "meld QS QH QD"), "out 5C")  # one canasta is enough with four


def test_CL_P6_9_black_three_meld_size() -> None:
    """CL-P6-9, CL-MELD-3: with three packs a going-out black-three meld is three or four cards
    (``MELD_CLOSED``, citing CL-P6-9, the rule of the option: a classic refusal cited Bolivia's
    BO-B3-2), as is one that staged black threes grow to; five only with black_three_meld_max."""
    melds = {0: f"K@2: {K_CANASTA} | A@4: AS AH AD AC AS AH AD"}
    hand = {0: "3S 3S 3S 3C 3C"}
    s = position(players=6, hands=hand, melds=melds)
    refuse(s, "meld 3S 3S 3S 3C 3C", Reason.MELD_CLOSED, "CL-P6-9")
    refuse(play(s, "meld 3S 3S 3S"), "add 3 3C 3C", Reason.MELD_CLOSED, "CL-P6-9")
    o = position(players=6, hands=hand, melds=melds, options={"black_three_meld_max": 6})
    end = play(o, "meld 3S 3S 3S 3C 3C", "out")
    assert end.result is not None and end.result.went_out == 0


@pytest.mark.parametrize(("teams", "asker", "answerer"), [(2, 0, 2), (2, 2, 4), (2, 4, 0),
                                                          (3, 0, 3), (3, 1, 4)])
def test_CL_P6_10_who_answers_in_the_six_player_game(teams: int, asker: int,
                                                          answerer: int) -> None:
    """CL-P6-10, AMB-30: two teams of three: the next teammate in turn order answers; three
    teams of two: the partner."""
    s = position(players=6, options={"p6_teams": teams}, turn=asker, phase="draw",
                 hands={asker: "8S 8C 8D 5H"})
    asked = play(s, "ask")
    assert asked.phase is Phase.PERMISSION and asked.awaited == answerer


def test_CL_OUT_12_concealed_going_out_by_the_pile_needs_the_minimum() -> None:
    """CL-OUT-12, CL-MIN-9, CL-MIN-6: a concealed going out after a stock draw is exempt from the
    minimum, but one that starts by taking the pile is not: the top card and six fours (35)
    stay below 50."""
    take = position(hands={0: "4S 4S 4D 4D 4C 4C 9D"}, phase="draw", pile="5C 4H")
    refuse(take, "take 4S 4S 4D 4D 4C 4C", Reason.OPENING_MINIMUM_NOT_MET, "CL-MIN-6")
    stock = position(hands={0: "4S 4S 4D 4D 4C 4C 4H 9D"})
    end = play(stock, "meld 4S 4S 4D 4D 4C 4C 4H", "out 9D")
    assert end.result is not None and end.result.concealed


# --- refusals the mutation run found untested (each reason and rule ID exact) ----------


def test_CL_MELD_5_melds_are_never_merged() -> None:
    """CL-MELD-5 (docs/errors.md ``MERGE_NOT_ALLOWED``): classic canasta holds one meld of a
    rank, so any ``merge`` is refused by that rule."""
    s = position(hands={0: "9C 4D 6S"}, melds={0: "K@0: KS KH KD | Q@2: QS QH QD"})
    refuse(s, "merge K Q", Reason.MERGE_NOT_ALLOWED, "CL-MELD-5")


def test_CL_MIN_8_one_meld_per_action_outside_a_batch_opening() -> None:
    """CL-MIN-8 (docs/engine.md, *Staging and undo*): a ``meld`` action lays one meld, under
    ``turn_total`` whether the side has opened or not; under ``batch`` only the opening
    lays several, and once it is staged later melds come one per action again. A listed
    batch opening passes every rule check (CL-TURN-3)."""
    hand = "AS AH AD 8S 8H 8D JK 5D 6C 7S 9C QD"
    several = "meld AS AH AD / 8S 8H 8D"
    opened = position(hands={0: hand}, melds={0: "K@2: KS KH KD"})
    refuse(opened, several, Reason.ONE_MELD_PER_ACTION, "CL-MIN-8")
    unopened = position(hands={0: hand}, scores=(0, 0))
    refuse(unopened, several, Reason.ONE_MELD_PER_ACTION, "CL-MIN-8")
    batch = {"initial_meld_validation": "batch"}
    refuse(position(hands={0: hand}, melds={0: "K@2: KS KH KD"}, options=batch), several,
           Reason.ONE_MELD_PER_ACTION, "CL-MIN-8")
    b = position(hands={0: hand + " 4S 4H 4D TS TH TD"}, scores=(0, 0), options=batch)
    assert passes(b, "meld TS TH TD / 8S 8H 8D")  # 30 + 30 >= 50
    staged = play(b, "meld TS TH TD / 8S 8H 8D")
    assert not staged.opened[0]
    refuse(staged, "meld 4S 4H 4D / AS AH AD", Reason.ONE_MELD_PER_ACTION, "CL-MIN-8")
    assert listed(staged, "meld 4S 4H 4D")


def test_CL_MELD_1_3_what_a_classic_meld_holds() -> None:
    """CL-MELD-1 (docs/errors.md): a meld holds one natural rank, also when cards join the
    side's meld of a rank (``MIXED_RANKS``), and a new meld three cards at least
    (``MELD_TOO_SMALL``), black threes too; CL-MELD-3: black threes meld without wild cards
    (``TOO_MANY_WILDS``); CL-MELD-5: a second meld of a rank is refused (``MELD_EXISTS``)."""
    s = position(hands={0: "QS QD KS KH 3S 3C 2D 2C JK 9C 5D"}, melds={0: "K@2: KS KH KD"})
    refuse(s, "add K QS", Reason.MIXED_RANKS, "CL-MELD-1")
    # three wild cards are within the limit: the refusal is the existing king meld's
    refuse(s, "meld KS KH 2C 2D JK", Reason.MELD_EXISTS, "CL-MELD-5")
    refuse(s, "meld KS KH QD", Reason.MIXED_RANKS, "CL-MELD-1")
    refuse(s, "meld QS QD", Reason.MELD_TOO_SMALL, "CL-MELD-1")
    refuse(s, "meld 3S 3C 2D", Reason.TOO_MANY_WILDS, "CL-MELD-3")
    refuse(s, "meld 3S 3C", Reason.MELD_TOO_SMALL, "CL-MELD-1")
    assert listed(s, "add K KS") and listed(s, "meld QS QD 2D")


def test_CL_MELD_3_6_additions_name_a_rank_and_black_threes_take_no_wild() -> None:
    """CL-MELD-6: an addition names the side's meld by its rank alone (a ``9#2`` label is
    ``NO_SUCH_MELD``); CL-MELD-3: staged black threes take more black threes, never a wild
    card (``TOO_MANY_WILDS``). A listed addition passes every rule check (CL-TURN-3)."""
    s = position(hands={0: "3S 3S 3C 3C 9C 2D 5D"},
                 melds={0: "K@2: KS KH KD KC KS KH KD | 9@0: 9S 9H 9D"})
    refuse(s, "add 9#2 9C", Reason.NO_SUCH_MELD, "CL-MELD-6")
    black = play(s, "meld 3S 3S 3C")
    refuse(black, "add 3 2D", Reason.TOO_MANY_WILDS, "CL-MELD-3")
    assert passes(black, "add 3 3C")


def test_CL_CAN_3_naturals_still_join_a_natural_canasta_closed_to_wilds() -> None:
    """CL-CAN-3 (``natural_canasta_closed_to_wilds``): only a wild card is kept off a natural
    canasta; a natural king joins it and passes every rule check (CL-TURN-3)."""
    s = position(hands={0: "KC 2C 5D 9C"}, options={"natural_canasta_closed_to_wilds": True},
                 melds={0: "K@2: KS KH KD KC KS KH KD"})
    refuse(s, "add K 2C", Reason.NATURAL_CANASTA_CLOSED, "CL-CAN-3")
    assert passes(s, "add K KC")


def test_CL_MELD_1_wild_limit_of_an_addition() -> None:
    """CL-MELD-1: an addition may bring a meld up to three wild cards, not past them; under
    ``wilds_not_exceed_naturals`` never past its natural cards either. The additions within
    the limit are listed and pass every rule check (CL-TURN-3)."""
    hand = {0: "9D 2D 2H JK 5D 6C"}
    s = position(hands=hand, melds={0: "9@0: 9S 9H 2C"})
    assert passes(s, "add 9 2D 2H")
    refuse(s, "add 9 2D 2H JK", Reason.TOO_MANY_WILDS, "CL-MELD-1")
    o = position(hands=hand, melds={0: "9@0: 9S 9H 2C"},
                 options={"wilds_not_exceed_naturals": True})
    refuse(o, "add 9 2D 2H", Reason.TOO_MANY_WILDS, "CL-MELD-1")  # 3 wild cards, 2 naturals
    assert passes(o, "add 9 9D 2D")


def test_CL_EXH_4_no_compulsory_take_without_a_legal_take() -> None:
    """CL-EXH-4, CL-PILE-9: the take is compulsory only when there is one to make: a
    one-card hand may not take a one-card pile, so with the top card fitting the side's
    meld ``decline`` is still listed."""
    s = position(hands={0: "4C"}, phase="draw_exhausted", stock=0, pile="9H",
                 melds={0: "9@2: 9S 9C 9D"}, red3={1: "3H 3D", 3: "3H 3D"})
    assert not any(isinstance(m, TakePile) for m in legal_moves(s))
    assert listed(s, "decline")


def test_CL_CAN_3_no_wild_card_takes_the_pile_onto_a_closed_natural_canasta() -> None:
    """CL-CAN-3 (``natural_canasta_closed_to_wilds``): the top card may join the side's natural
    canasta, a wild card with it may not (``NATURAL_CANASTA_CLOSED``)."""
    s = position(hands={0: "2C 9S 4D 6C"}, phase="draw", pile="5D KH",
                 melds={0: "K@2: KS KH KD KC KS KC KD"},
                 options={"natural_canasta_closed_to_wilds": True})
    refuse(s, "take 2C", Reason.NATURAL_CANASTA_CLOSED, "CL-CAN-3")
    assert listed(s, "take")


def test_CL_MELD_1_a_take_keeps_the_wild_limit() -> None:
    """CL-MELD-1, CL-PILE-7: the top card taken onto the side's meld with wild cards keeps the
    meld at three wild cards at most (``TOO_MANY_WILDS``)."""
    s = position(hands={0: "2C 2D 9S 4D 6C"}, phase="draw", pile="5D KH",
                 melds={0: "K@2: KS KD 2H JK"})
    refuse(s, "take 2C 2D", Reason.TOO_MANY_WILDS, "CL-MELD-1")
    assert listed(s, "take 2C")


def test_CL_CAN_3_a_wild_card_still_takes_the_pile_onto_a_meld_not_a_natural_canasta() -> None:
    """CL-CAN-3 (``natural_canasta_closed_to_wilds``), CL-PILE-7: the option closes only a
    natural canasta; a wild card with the top card still takes the pile onto the side's
    incomplete meld or mixed canasta of its rank."""
    for meld in ("KS KH KD", "KS KH KD KC KS KC 2D"):
        s = position(hands={0: "2C 9S 4D 6C"}, phase="draw", pile="5D KH",
                     melds={0: f"K@2: {meld}"},
                     options={"natural_canasta_closed_to_wilds": True})
        assert passes(s, "take 2C"), meld


def test_CL_TURN_2_only_the_awaited_seat_has_moves() -> None:
    """CL-TURN-2: the seat in turn alone has moves, and while "may I go out?" is pending
    its partner alone, with the two answers."""
    s = position(hands={0: "4D"}, phase="draw", stock_top="9C",
                 melds={0: f"K@2: {K_CANASTA} | 9@2: 9S 9H 9D"})
    assert legal_moves_for(s, 0) == legal_moves(s) and legal_moves(s)
    assert [legal_moves_for(s, seat) for seat in (1, 2, 3)] == [[], [], []]
    asked = play(s, "ask")
    assert legal_moves_for(asked, 2) == [Answer(True), Answer(False)]
    assert [legal_moves_for(asked, seat) for seat in (0, 1, 3)] == [[], [], []]


def test_CL_TURN_3_is_legal_is_membership_of_the_list() -> None:
    """CL-TURN-3: ``is_legal`` says of a canonical move exactly whether it is listed."""
    s = position(hands={0: "4D 9C"}, phase="draw", melds={0: "K@2: KS KH KD"})
    assert is_legal(s, parse_move("draw"))
    assert not is_legal(s, parse_move("discard 4D"))
