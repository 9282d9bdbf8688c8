"""Hand-written positions for the scenario tests of any Canasta-family variant.

A scenario fixes only the zones that matter; :func:`position` fills the rest of
the deck in a fixed way and reads the result through the engine's position
notation (nothing is read from the rules files at run time). Seats for four
players: 0..3 = N, E, S, W; team 0 = N+S, team 1 = E+W.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from engine import Reason, RuleViolation, State, apply, canonicalize, legal_moves, parse_move
from engine.cards import CODES, IS_RED_THREE, Card, parse_cards
from engine.checks import refusal
from engine.deck import composition
from engine.game import rules_for
from engine.moves import Discard
from engine.notation import export_position, import_position
from engine.notation_lines import option_text
from tests.conftest import all_cards


def fmt(cards: Sequence[int]) -> str:
    return " ".join(CODES[c] for c in cards) or "-"


def cards(text: str) -> tuple[Card, ...]:
    return tuple(sorted(parse_cards(text)))


def _meld_parts(text: str) -> list[tuple[str, str]]:
    out = []
    for part in text.split("|"):
        if part.strip() and part.strip() != "-":
            head, _, body = part.rpartition(":")
            out.append((head.strip(), body))
    return out


def position(
    variant: str,
    *,
    hands: Mapping[int, str],
    options: Mapping[str, object] | None = None,
    scores: Sequence[int] = (0, 0),
    phase: str = "meld",
    turn: int = 0,
    drew: str | None = None,
    hand_no: int = 0,
    melds: Mapping[int, str] | None = None,
    red3: Mapping[int, str] | None = None,
    pile: str = "",
    stock: int | None = None,
    stock_top: str = "",
    opened: Sequence[int] | None = None,
) -> State:
    """A four-player position from the zones a scenario fixes.

    ``hands`` maps seats to exact hands; other seats get 15 plain cards (never a
    red three). ``melds`` maps a team to ``LABEL@SEAT: cards | ...`` (labels as
    in the notation: ``K``, ``W``, ``S:5-9``). ``pile`` may be ``*`` for every
    card left over. ``stock`` is the stock size (default: all left over cards;
    with a size, the rest goes to the last seat whose hand is not given);
    ``stock_top`` is written bottom to top. Unplaced red threes lie at the bottom
    of the stock (or in a ``*`` pile).
    """
    rules = rules_for(variant, 4, options)
    melds = dict(melds or {})
    red3 = dict(red3 or {})
    placed: Counter[Card] = Counter()
    for text in (*hands.values(), *red3.values(), stock_top, "" if pile == "*" else pile):
        placed.update(parse_cards(text))
    for text in melds.values():
        for _, body in _meld_parts(text):
            placed.update(parse_cards(body))
    deck = composition(rules)
    assert not placed - deck, f"more copies than the deck holds: {placed - deck}"
    pool = deck - placed
    reds = sorted(c for c in pool.elements() if IS_RED_THREE[c])
    plain = sorted(c for c in pool.elements() if not IS_RED_THREE[c])
    random.Random(7).shuffle(plain)
    free = [s for s in range(4) if s not in hands]
    sink = free[-1] if stock is not None and pile != "*" and free else None
    hand_text = dict(hands)
    for s in free:
        if s != sink:
            hand_text[s] = fmt(plain[:rules.hand_size])
            plain = plain[rules.hand_size:]
    top = list(parse_cards(stock_top))
    rest = reds + plain
    if pile == "*":
        pile_text, rest = fmt(rest), []
        stock_cards = top
    else:
        pile_text = pile or "-"
        if stock is None:
            stock_cards, rest = rest + top, []
        else:
            bottom = stock - len(top)
            assert bottom >= 0
            stock_cards, rest = rest[:bottom] + top, rest[bottom:]
    if rest:
        assert sink is not None, "no hand left to take the remaining cards"
        assert not any(IS_RED_THREE[c] for c in rest), "place the red threes explicitly"
        hand_text[sink] = fmt(rest)
    if opened is None:
        opened = [1 if _meld_parts(melds.get(t, "-")) else 0 for t in (0, 1)]
    owners = {int(h.partition("@")[2]) for t in melds.values() for h, _ in _meld_parts(t)}
    opts = ",".join(f"{k}={option_text(v)}" for k, v in (options or {}).items())
    lines = [
        "canasta-position 1", f"variant: {variant}", "players: 4", f"options: {opts or '-'}",
        "seed: 0", f"hand: {hand_no}", f"dealer: {(hand_no + 3) % 4}",
        f"scores: {scores[0]} {scores[1]}", f"phase: {phase}", f"turn: {turn}",
        f"drew: {drew or ('stock' if phase == 'meld' else '-')}",
        f"stock: {fmt(stock_cards)}", f"pile: {pile_text}",
    ]
    lines += [f"hand{s}: {hand_text[s] or '-'}" for s in range(4)]
    lines += [f"melds{t}: {melds.get(t, '-')}" for t in (0, 1)]
    lines += [f"red3_{s}: {red3.get(s, '-')}" for s in range(4)]
    lines += [f"opened: {opened[0]} {opened[1]}",
              f"melded: {' '.join('1' if s in owners else '0' for s in range(4))}"]
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


def passes(state: State, text: str) -> bool:
    """Whether the move (canonicalised) is listed and passes every rule check: the list
    and the checks agree on it (CL-TURN-3)."""
    move = canonicalize(state, parse_move(text))
    return move in legal_moves(state) and refusal(state, move) is None


def play(state: State, *texts: str) -> State:
    """Apply moves that must be legal (listed, then accepted)."""
    for text in texts:
        assert listed(state, text), (text, [str(m) for m in legal_moves(state)])
        state = apply(state, parse_move(text))
    return state


def refuse(state: State, text: str, reason: Reason, rule: str) -> RuleViolation:
    """The move is not listed, is refused with ``reason`` citing ``rule`` (the rule ID the
    test names), and leaves the state unchanged."""
    before = export_position(state)
    assert not listed(state, text), text
    with pytest.raises(RuleViolation) as err:
        apply(state, parse_move(text))
    assert (err.value.reason, err.value.rule) == (reason, rule), str(err.value)
    assert export_position(state) == before
    return err.value


def discards(state: State) -> set[str]:
    return {str(m) for m in legal_moves(state) if isinstance(m, Discard)}


def meld_cards(state: State, team: int) -> list[tuple[Card, ...]]:
    """A side's melds as sorted card tuples, in the side's order."""
    return [tuple(sorted(m.cards)) for m in state.melds[team]]
