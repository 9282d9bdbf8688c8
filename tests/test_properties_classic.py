"""Property tests of the classic engine over random playouts (hypothesis).

Each test has hypothesis draw the deal's seed and then every move of the hand from
``legal_moves(state)`` (``undo`` and ``ask`` included), for 2 to 6 players and a few
non-default options, and checks an invariant in every state reached. A failure shrinks
to a short sequence of moves, printed one draw per ply.

``make fuzz`` (``HYPOTHESIS_PROFILE=fuzz``, tests/conftest.py) runs many more examples
and the ``slow`` variants (more options).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields, is_dataclass, replace
from typing import Any, get_args

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    BadInput,
    EngineError,
    Phase,
    Reason,
    RuleViolation,
    State,
    apply,
    canonicalize,
    legal_moves,
    new_game,
    next_deal,
    parse_move,
)
from engine.canasta_reasons import CanastaReason, CanastaViolation
from engine.cards import CARDS, CODES, RANK, Card, parse_card
from engine.checks import refusal
from engine.deck import composition
from engine.moves import (
    AddToMeld,
    Answer,
    Ask,
    Decline,
    Discard,
    Draw,
    EndHand,
    GoOut,
    Meld,
    Merge,
    Move,
    TakePile,
    Undo,
)
from engine.notation import export_position, import_position
from engine.rules import RedThreeTiming, TiePolicy
from engine.views import SeatView, seat_view, seat_views
from tests.conftest import FUZZ, all_cards, examples

KING_S, FIVE_S = parse_card("KS"), parse_card("5S")
slow = pytest.mark.skipif(not FUZZ, reason="slow property run: make fuzz")

Options = Mapping[str, object]

# (players, options): every player count with defaults, then a few non-default options.
CONFIGS: list[tuple[int, Options]] = [
    (2, {}),
    (3, {}),
    (4, {}),
    (5, {}),
    (6, {}),
    (4, {"initial_meld_validation": "batch"}),
    (4, {"red3_dealt_timing": "after_deal"}),
    (4, {"stock_empty_ends_hand": True}),
    (6, {"p6_mode": "rotation"}),
    (6, {"p6_teams": 3}),
    (4, {"wilds_not_exceed_naturals": True}),
    (2, {"p2_draw_count": 1}),
]
# More options for the slow run.
SLOW_CONFIGS: list[tuple[int, Options]] = CONFIGS + [
    (2, {"initial_meld_validation": "batch"}),
    (3, {"p3_mode": "cutthroat"}),
    (4, {"last_red_three_may_meld": True}),
    (4, {"natural_canasta_closed_to_wilds": True}),
    (4, {"permission_yes": "penalty", "penalties": True}),
    (4, {"permission_yes": "advisory", "permission_asks_per_hand": 1}),
    (5, {"reveal_discard_pile": True}),
    (4, {"black_three_freezes": True, "upcard_black_three_stops": True}),
    (4, {"concealed_forbid_pile": True, "concealed_forbid_layoffs": True,
         "concealed_requires_minimum": True}),
    (6, {"black_three_meld_max": 6}),
]


def _config_id(config: tuple[int, Options]) -> str:
    players, options = config
    opts = ",".join(f"{k}={v}" for k, v in sorted(options.items()))
    return f"p{players}" + (f"[{opts}]" if opts else "")


def _params(configs: list[tuple[int, Options]]) -> list[Any]:
    return [pytest.param(p, o, id=_config_id((p, o))) for p, o in configs]


SEEDS = st.integers(min_value=0, max_value=2**63 - 1)

OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
CODE_SET = frozenset(CODES)


# --- playouts -----------------------------------------------------------------------


def draw_move(data: st.DataObject, moves: Sequence[Move], ply: int) -> Move:
    """One of ``moves``, drawn by hypothesis (so a failure shrinks to simpler choices).

    ``undo`` goes last: hypothesis tries the first choice at every draw first (its
    simplest example) and shrinks towards it, and a first choice that always moves the
    hand on ends every hand, where meld-then-undo would loop for ever."""
    ordered = sorted(moves, key=lambda move: isinstance(move, Undo))
    return data.draw(st.sampled_from(ordered), label=f"ply {ply}")


def playout(
    data: st.DataObject, players: int, options: Options, max_plies: int = 1500,
    variant: str = "classic",
) -> Iterator[tuple[State, Move | None]]:
    """The states of one hand, its seed and every move drawn by hypothesis, each state
    with the move that will be applied to it."""
    state = new_game(variant, players, seed=data.draw(SEEDS, label="seed"), options=options)
    for _ in range(max_plies):
        if state.phase in OVER:
            break
        move = draw_move(data, legal_moves(state), state.ply)
        yield state, move
        state = apply(state, move)
    yield state, None


def states(data: st.DataObject, players: int, options: Options, max_plies: int = 1500,
           variant: str = "classic") -> Iterator[State]:
    for state, _ in playout(data, players, options, max_plies, variant=variant):
        yield state


# --- 1. cards are conserved ---------------------------------------------------------


@pytest.mark.parametrize(("players", "options"), _params(CONFIGS))
@given(data=st.data())
def test_cards_conserved(players: int, options: Options, data: st.DataObject) -> None:
    """CL-DECK-1, CL-P6-1: in every state the zones hold exactly the game's cards
    (108 cards with two packs, 162 with three), whatever was drawn, taken, melded,
    staged, undone or discarded."""
    deck = composition(new_game("classic", players, seed=0, options=options).rules)
    assert sum(deck.values()) == (162 if players == 6 and options.get("p6_mode") != "rotation"
                                  else 108)
    for state in states(data, players, options):
        assert all_cards(state) == deck, state.ply


# --- 2. the legal list --------------------------------------------------------------

# Which move kinds each phase may list (CL-TURN-1, CL-TURN-2).
KINDS_OF: dict[Phase, tuple[type, ...]] = {
    Phase.DRAW: (Draw, TakePile, Ask),
    Phase.DRAW_EXHAUSTED: (TakePile, Decline, Ask),
    Phase.MELD: (Meld, AddToMeld, Merge, Undo, Ask, Discard, GoOut, EndHand),
    Phase.PERMISSION: (Answer,),
    Phase.HAND_OVER: (),
    Phase.GAME_OVER: (),
}


def _next_seat(state: State, seat: int) -> int:
    order = state.order
    return order[(order.index(seat) + 1) % len(order)]


def check_transition(before: State, move: Move, after: State) -> None:
    """The awaited seat and the phase change only as the phase machine says (section 4)."""
    seat = before.turn.seat
    assert after.ply == before.ply + 1
    assert after.order == before.order
    if after.phase in OVER:
        assert after.awaited == -1 and after.result is not None
        assert legal_moves(after) == []
    else:
        assert after.awaited in after.order
        assert after.result is None
    if isinstance(move, (Draw, TakePile, Meld, AddToMeld, Merge, Undo)):
        assert after.turn.seat == seat
        if after.phase not in OVER:  # only a red three as the last stock card ends it
            assert after.phase is Phase.MELD and after.awaited == seat
        else:
            assert isinstance(move, Draw) and not after.stock
            assert after.result is not None and after.result.went_out == -1
        if isinstance(move, TakePile):
            assert after.phase is Phase.MELD and after.pile == () and after.turn.drew == "pile"
        if isinstance(move, Draw):
            assert after.turn.drew == "stock"
    elif isinstance(move, Ask):
        assert after.phase is Phase.PERMISSION and after.turn.seat == seat
        partner = after.awaited
        assert partner != seat and partner in before.order
        assert before.team_of(partner) == before.team_of(seat)  # CL-OUT-4, CL-P6-10
        assert after.turn.asked_in is before.phase
    elif isinstance(move, Answer):
        assert before.phase is Phase.PERMISSION
        assert after.phase is before.turn.asked_in and after.awaited == seat
        assert after.turn.answer == ("yes" if move.yes else "no")
    elif isinstance(move, Discard):
        if after.phase in OVER:  # the stock ran out (option) or a red three ended it
            assert after.result is not None and after.result.went_out == -1
        else:
            nxt = _next_seat(before, seat)
            assert after.turn.seat == nxt and after.awaited == nxt
            assert after.phase in (Phase.DRAW, Phase.DRAW_EXHAUSTED)
            assert (after.phase is Phase.DRAW_EXHAUSTED) == (not after.stock)
            assert after.pile[-1] == move.card
    elif isinstance(move, GoOut):
        assert after.phase in OVER
        assert after.result is not None and after.result.went_out == seat
        assert after.hands[seat] == ()
    else:  # Decline (CL-EXH-6), EndHand (CL-EXH-2 option)
        assert isinstance(move, (Decline, EndHand))
        assert after.phase in OVER
        assert after.result is not None and after.result.went_out == -1


@pytest.mark.parametrize(("players", "options"), _params(CONFIGS))
@given(data=st.data())
def test_legal_list_is_sound(players: int, options: Options, data: st.DataObject) -> None:
    """CL-TURN-1..3: the legal list has no duplicates, is deterministic (also for an
    equal state rebuilt through the notation), lists only moves of the phase, every
    listed move applies, its text round-trips through ``parse_move``, and the awaited
    seat changes only as the phase machine says."""
    for state, _ in playout(data, players, options):
        moves = legal_moves(state)
        assert len(set(moves)) == len(moves), "duplicate moves"
        assert legal_moves(replace(state)) == moves, "not deterministic"  # a copy, uncached
        rebuilt = import_position(export_position(state))
        assert legal_moves(rebuilt) == moves, "differs on an equal state"
        assert all(isinstance(m, KINDS_OF[state.phase]) for m in moves), state.phase
        if state.phase not in OVER:
            assert moves, "no legal move in a live state"
        for move in moves:
            assert parse_move(str(move)) == move, str(move)
            assert parse_move(str(move).lower()) == move
            after = apply(state, move)
            check_transition(state, move, after)
            assert apply(state, move) == after  # deterministic


# --- 3. unlisted moves are refused ---------------------------------------------------


def _same_rank_other_suit(c: Card, rng: random.Random) -> Card:
    if c == 52:
        return c
    return CARDS[RANK[c] * 4 + rng.randrange(4)]


def variants_of(move: Move, rng: random.Random) -> list[Move]:
    """Non-canonical spellings of a listed move: suits swapped, groups reordered."""
    out: list[Move] = []
    for _ in range(2):
        if isinstance(move, Meld):
            groups = [tuple(_same_rank_other_suit(c, rng) for c in g) for g in move.groups]
            rng.shuffle(groups)
            out.append(Meld(tuple(tuple(rng.sample(g, len(g))) for g in groups)))
        elif isinstance(move, AddToMeld):
            out.append(AddToMeld(move.rank, tuple(_same_rank_other_suit(c, rng)
                                                  for c in move.cards)))
        elif isinstance(move, TakePile):
            extras = [tuple(_same_rank_other_suit(c, rng) for c in g) for g in move.extras]
            rng.shuffle(extras)
            out.append(TakePile(tuple(_same_rank_other_suit(c, rng) for c in move.cards),
                                tuple(extras)))
        elif isinstance(move, (Discard, GoOut)) and move.card is not None:
            out.append(type(move)(_same_rank_other_suit(move.card, rng)))
    return out


def random_moves(state: State, rng: random.Random, count: int) -> list[Move]:
    """Random moves of every kind, from hand cards and from outside the hand."""
    seat = state.awaited if state.awaited >= 0 else state.turn.seat
    hand = list(state.hands[seat]) or [CARDS[0]]

    def card() -> Card:
        return rng.choice(hand) if rng.random() < 0.75 else rng.choice(CARDS)

    def group() -> tuple[Card, ...]:
        k = rng.choice((1, 2, 3, 3, 3, 4, 5))
        if rng.random() < 0.5 and state.pile:  # cards around the top's rank
            rank = RANK[state.pile[-1]] if rng.random() < 0.5 else rng.randrange(13)
            pool = [c for c in hand if RANK[c] == rank or RANK[c] in (0, 13)] or hand
            return tuple(rng.choice(pool) for _ in range(k))
        return tuple(card() for _ in range(k))

    out: list[Move] = []
    for _ in range(count):
        kind = rng.randrange(12)
        if kind == 0:
            out.append(Draw())
        elif kind == 1:
            out.append(TakePile(group() if rng.random() < 0.8 else (),
                                tuple(group() for _ in range(rng.choice((0, 0, 1, 2))))))
        elif kind in (2, 3):
            out.append(Meld(tuple(group() for _ in range(rng.choice((1, 1, 1, 2, 3))))))
        elif kind in (4, 5):
            melds = state.melds[state.team_of(seat)]
            rank = rng.choice(melds).rank if melds and rng.random() < 0.7 else rng.randrange(13)
            out.append(AddToMeld(rank, group()))
        elif kind == 6:
            out.append(Discard(card()))
        elif kind == 7:
            out.append(GoOut(card() if rng.random() < 0.7 else None))
        else:
            out.append(rng.choice([Ask(), Answer(True), Answer(False), Undo(), Decline(),
                                   EndHand()]))
    listed = [m for m in legal_moves(state)
              if isinstance(m, (Meld, AddToMeld, TakePile, Discard, GoOut))]
    for m in rng.sample(listed, min(3, len(listed))):
        out.extend(variants_of(m, rng))
    return out


def _groups_of(move: Move) -> list[tuple[Card, ...]]:
    if isinstance(move, Meld):
        return list(move.groups)
    if isinstance(move, TakePile):
        return [move.cards, *move.extras]
    return []


def mixes_ranks_across_groups(move: Move) -> bool:
    """A group mixing natural ranks next to another group sharing one of those ranks
    (the shape that once made canonicalize raise ValueError)."""
    groups = _groups_of(move)
    wild = [c == 52 or RANK[c] == 0 for c in range(53)]
    ranks = [{RANK[c] for c in g if not wild[c]} for g in groups]
    return any(len(r) > 1 and any(r & other for j, other in enumerate(ranks) if j != i)
               for i, r in enumerate(ranks))


# The reasons of malformed input (docs/errors.md): only these come as BadInput.
MALFORMED = frozenset({
    Reason.BAD_CARD, Reason.BAD_MOVE_SYNTAX, Reason.BAD_NOTATION, Reason.POSITION_OUT_OF_BOUNDS,
    Reason.UNKNOWN_VARIANT, Reason.BAD_PLAYER_COUNT, Reason.UNKNOWN_OPTION,
    Reason.BAD_OPTION_VALUE, Reason.BAD_DECK, Reason.BAD_SEAT})
RULE_ID = re.compile(r"(CL|SA|BO|SV|MI)-[A-Z0-9]+(-[0-9]+)?")


def check_refusal(err: EngineError) -> None:
    """A refusal is typed as docs/errors.md says, names a specific reason of the family's
    own (never the ``NOT_LISTED`` fallback) and, when the rules forbid the move, the rule ID."""
    assert isinstance(err, (BadInput, CanastaViolation)), type(err)
    assert isinstance(err, BadInput) or err.reason in get_args(CanastaReason), err
    assert isinstance(err, BadInput) == (err.reason in MALFORMED), err
    assert err.reason is not Reason.NOT_LISTED, err
    assert isinstance(err, BadInput) or RULE_ID.fullmatch(err.rule), err
    assert err.message


def check_refusals(state: State, moves: list[Move]) -> None:
    """CL-TURN-3: the rule checks pass exactly the listed moves (every listed move passes
    them all; an unlisted one is refused by the first it fails, never ``NOT_LISTED``)."""
    listed = legal_moves(state)
    before = export_position(state)
    if state.phase not in OVER:
        for move in listed:
            assert refusal(state, move) is None, f"{move} is listed, yet {refusal(state, move)}"
    for move in moves:
        try:
            canonical: Move | None = canonicalize(state, move)
        except EngineError as err:
            check_refusal(err)
            canonical = None
        if canonical is not None and canonical in listed:
            after = apply(state, move)
            assert export_position(after) == export_position(apply(state, canonical)), str(move)
        else:
            with pytest.raises(EngineError) as info:
                apply(state, move)
            check_refusal(info.value)
        assert export_position(state) == before, f"{move} changed the state"
    # neither the state's cached list nor a fresh one changed
    assert legal_moves(state) == listed == legal_moves(replace(state))


@pytest.mark.parametrize(("players", "options"), _params(CONFIGS))
@given(data=st.data(), shuffle=SEEDS)
def test_unlisted_moves_are_refused(players: int, options: Options, data: st.DataObject,
                                    shuffle: int) -> None:
    """CL-TURN-3: a move whose canonical form is not listed is refused with a typed
    error carrying a specific Reason and its rule, and the state is unchanged; a listed
    move (in any spelling of identical-rank copies) is accepted. CL-TURN-2: only the
    awaited seat may move. ``shuffle`` seeds the unlisted moves tried."""
    rng = random.Random(shuffle)
    for state in states(data, players, options):
        check_refusals(state, random_moves(state, rng, 10))
        if state.phase not in OVER:
            other = rng.choice([s for s in range(players) if s != state.awaited])
            move = legal_moves(state)[0]
            with pytest.raises(RuleViolation) as info:
                apply(state, move, seat=other)
            assert info.value.reason is Reason.NOT_YOUR_TURN
            with pytest.raises(BadInput) as bad:
                apply(state, move, seat=players)
            assert bad.value.reason is Reason.BAD_SEAT
            assert apply(state, move, seat=state.awaited) == apply(state, move)
        else:
            with pytest.raises(RuleViolation) as over:
                apply(state, Draw())
            assert over.value.reason in (Reason.HAND_OVER, Reason.GAME_OVER)


MIXED_RANK = """canasta-position 1
players: 4
phase: {phase}
turn: 0
drew: {drew}
pile: 6D KC
hand0: KS KD 5S 9C 9D 4H
red3_1: 3H 3D
red3_2: 3H 3D
hand1: *11
hand2: *11
hand3: *11
stock: *
"""


@pytest.mark.parametrize(("phase", "text"), [
    ("draw", "take KD / KS 5S"),
    ("meld", "take KD / KS 5S"),
    ("meld", "meld KD / KS 5S"),
])
def test_mixed_rank_group_after_same_rank_is_refused(phase: str, text: str) -> None:
    """CL-TURN-3: a malformed move is refused with a typed error, never a crash.

    N holds KS KD 5S; ``take KD / KS 5S`` (also spelt as a two-group meld whose
    second group is written KS 5S) must be refused with an EngineError. (Regression:
    canonicalize used to give KS to the first group and then raise ValueError.)"""
    state = import_position(MIXED_RANK.format(phase=phase, drew="stock" if phase == "meld"
                                              else "-"))
    move = parse_move(text)
    if isinstance(move, Meld):  # keep the client's group order: (KD) then (KS 5S)
        move = Meld((move.groups[0], (CARDS[KING_S], CARDS[FIVE_S])))
    assert mixes_ranks_across_groups(move)
    before = export_position(state)
    with pytest.raises(EngineError):
        apply(state, move)
    assert export_position(state) == before


# --- 4. views leak no hidden card ------------------------------------------------------


def _codes(text: str) -> list[str]:
    return [w for w in text.replace("/", " ").replace(",", " ").split() if w in CODE_SET]


def _leaves(obj: object, path: str) -> Iterator[tuple[str, str]]:
    """Every string in a view, with a path whose list indices are written ``*``."""
    if isinstance(obj, str):
        yield path, obj
    elif is_dataclass(obj) and not isinstance(obj, type):
        for f in fields(obj):
            yield from _leaves(getattr(obj, f.name), f"{path}.{f.name}" if path else f.name)
    elif isinstance(obj, (tuple, list)):
        for item in obj:
            yield from _leaves(item, f"{path}.*")


CARD_PATHS = {"hand.*", "pile_top", "pile.*", "sides.*.melds.*.cards.*", "sides.*.red_threes.*",
              "legal_moves.*", "staged.*", "seat_red_threes.*.*", "upcards.*"}


def _sub(small: Counter[str], big: Counter[str]) -> bool:
    return not (small - big)


def check_view(state: State, seat: int) -> None:
    """What ``seat`` may know: its hand, the pile top (or the pile by option), the
    melds and red threes on the table (CL-INFO-3, CL-INFO-4, CL-INFO-6)."""
    view = seat_view(state, seat)
    names = {f.name for f in fields(SeatView)}
    assert not names & {"seed", "stock", "hands", "deck"}
    own = Counter(CODES[c] for c in state.hands[seat]) if seat >= 0 else Counter[str]()
    reveal = state.rules.reveal_discard_pile
    table = Counter(CODES[c] for team in state.melds for m in team for c in m.cards)
    reds = Counter(CODES[c] for zone in state.red3 for c in zone)
    by_path: dict[str, list[str]] = {}
    for path, text in _leaves(view, ""):
        codes = _codes(text)
        if codes:
            assert path in CARD_PATHS, f"cards in {path}: {text!r}"
            by_path.setdefault(path, []).append(text)
    assert Counter(view.hand) == own
    assert view.hand_sizes == tuple(len(h) for h in state.hands)
    assert view.stock_size == len(state.stock) and view.pile_size == len(state.pile)
    assert view.pile_top == (CODES[state.pile[-1]] if state.pile else "")
    assert view.pile == (tuple(CODES[c] for c in state.pile) if reveal else ())
    assert Counter(c for side in view.sides for m in side.melds for c in m.cards) == table
    assert Counter(c for side in view.sides for c in side.red_threes) == reds
    # red threes lie face up before their seat, the upcards were turned face up at the
    # deal (CL-R3-1, CL-DEAL-4): the table everyone saw
    assert view.seat_red_threes == tuple(tuple(CODES[c] for c in z) for z in state.red3)
    assert view.upcards == tuple(CODES[c] for c in state.upcards)
    if seat != state.awaited or seat < 0:
        assert view.legal_moves == ()
    for text in view.legal_moves:  # a move shows only the mover's own cards
        assert _sub(Counter(_codes(text)), own), text
    for text in view.staged:  # staged melds lie on the table
        assert _sub(Counter(_codes(text)), table), text
    # Everything shown in the card zones together is known to this seat.
    known = own + table + reds + (Counter(view.pile) if reveal else Counter[str]())
    if state.pile:
        known[CODES[state.pile[-1]]] += 1
    shown = Counter(view.hand) + Counter(c for side in view.sides for m in side.melds
                                         for c in m.cards)
    shown += Counter(c for side in view.sides for c in side.red_threes)
    shown += Counter(view.pile) + (Counter([view.pile_top]) if view.pile_top else Counter[str]())
    assert _sub(shown, known), shown - known


@pytest.mark.parametrize(("players", "options"), _params(CONFIGS))
@given(data=st.data())
def test_views_leak_no_hidden_card(players: int, options: Options, data: st.DataObject) -> None:
    """CL-INFO-4, CL-INFO-6: a seat's view holds its own hand only; other hands are
    sizes, the stock a size, the pile its top (unless reveal_discard_pile)."""
    for state in states(data, players, options):
        for seat in range(-1, players):
            check_view(state, seat)
        # what a service returns for every seat is exactly those views
        assert seat_views(state) == tuple(seat_view(state, s) for s in range(players))


@pytest.mark.parametrize("players", [4, 5])
@given(data=st.data())
def test_views_reveal_pile_by_option(players: int, data: st.DataObject) -> None:
    """CL-INFO-4: with reveal_discard_pile every view shows the whole pile."""
    for state in states(data, players, {"reveal_discard_pile": True}, max_plies=300):
        for seat in range(-1, players):
            check_view(state, seat)


def _can_go_out(state: State, seen: set[str]) -> bool:
    """Some sequence of listed meld actions (no undo) reaches a listed going out."""
    key = "".join(ln for ln in export_position(state).splitlines(keepends=True)
                  if not ln.startswith(("ply:", "staged:", "base_")))
    if key in seen:
        return False
    seen.add(key)
    moves = legal_moves(state)
    if any(isinstance(m, GoOut) for m in moves):
        return True
    return any(_can_go_out(apply(state, m), seen) for m in moves
               if isinstance(m, (Meld, AddToMeld)))


@pytest.mark.parametrize("players", [4, 6])
@settings(max_examples=examples(2))
@given(data=st.data())
def test_permission_yes_binds_exactly(players: int, data: st.DataObject) -> None:
    """CL-OUT-5 (permission_yes=strict): after a "yes", a discard that keeps cards is
    listed exactly when no sequence of listed meld actions leads to going out.

    Every meld-phase state right after a stock draw is rebuilt through the notation
    with the question asked and answered "yes", and the listed discards are compared
    with an exhaustive search of the turn."""
    checked = 0
    for state in states(data, players, {}, max_plies=600):
        t = state.turn
        if state.phase is not Phase.MELD or t.drew != "stock" or t.staged or t.asked:
            continue
        if t.no_discard or len(state.hands[t.seat]) < 2:
            continue
        text = export_position(state).replace("asked: 0 - draw", "asked: 1 yes draw")
        yes = import_position(text)
        assert yes.turn.answer == "yes"
        discards = [m for m in legal_moves(yes) if isinstance(m, Discard)]
        assert bool(discards) is not _can_go_out(yes, set()), text
        checked += 1
    assert checked


# --- 5. seeds and stacked decks ---------------------------------------------------------


def replay(played: list[tuple[State, Move | None]], options: Options) -> None:
    """The seed of a playout's deal and its moves give the same position at every step."""
    first = played[0][0]
    state = new_game(first.rules.variant, first.rules.players, seed=first.seed,
                     options=options)
    for before, move in played:
        assert export_position(state) == export_position(before)
        if move is not None:
            state = apply(state, move)


@pytest.mark.parametrize(("players", "options"), _params(CONFIGS))
@given(data=st.data(), other=SEEDS)
def test_seeds_reproduce(players: int, options: Options, data: st.DataObject,
                         other: int) -> None:
    """The same seed and the same move choices give identical positions at every
    step; a different seed deals a different game."""
    played = list(playout(data, players, options, max_plies=400))
    replay(played, options)
    seed = played[0][0].seed
    if other != seed:
        a = new_game("classic", players, seed=seed, options=options)
        b = new_game("classic", players, seed=other, options=options)
        assert a.hands != b.hands


def _stacked(players: int, options: Options, seed: int) -> tuple[list[Card], int]:
    rules = new_game("classic", players, seed=0, options=options).rules
    deck = sorted(composition(rules).elements())
    rng = random.Random(seed)
    rng.shuffle(deck)
    return deck, rng.choice(rules.active_seats(0))


DEAL_CONFIGS = [(2, {}), (3, {}), (4, {}), (5, {}), (6, {}), (6, {"p6_teams": 3}),
                (6, {"p6_mode": "rotation"}), (4, {"red3_dealt_timing": "after_deal"})]


@pytest.mark.parametrize(("players", "options"), _params(DEAL_CONFIGS))
@given(seed=SEEDS)
def test_stacked_deck_deals_in_order(players: int, options: Options, seed: int) -> None:
    """CL-DEAL-2: card i of an explicit deck (index 0 on top) goes to seat
    (dealer + 1 + i) mod n, among the seats playing the hand (CL-P5-2, CL-P6-11);
    CL-DEAL-3/4: the next card is the upcard and the rest is the stock."""
    deck, dealer = _stacked(players, options, seed)
    state = new_game("classic", players, seed=seed, options=options, deck=deck, dealer=dealer)
    again = new_game("classic", players, seed=seed + 1, options=options,
                     deck=[CODES[c] for c in deck], dealer=dealer)
    assert export_position(state).replace(f"seed: {seed}\n", "") == \
        export_position(again).replace(f"seed: {seed + 1}\n", "")
    rules = state.rules
    active = rules.active_seats(0)
    n = len(active)
    start = active.index(dealer)
    dealt = n * rules.hand_size
    got: dict[int, Counter[Card]] = {s: Counter() for s in range(players)}
    for i in range(dealt):
        seat = active[(start + 1 + i) % n]
        if n == players:
            assert seat == (dealer + 1 + i) % players
        got[seat][deck[i]] += 1
    assert state.order[0] == active[(start + 1) % n]
    for seat in range(players):
        held = Counter(state.hands[seat]) + Counter(state.red3[seat])
        if seat not in active:
            assert not held
            continue
        laid = state.red3[seat] and (seat == state.order[0] or
                                     rules.red3_dealt_timing is RedThreeTiming.AFTER_DEAL)
        if laid:  # its dealt red threes were laid and replaced from the stock (CL-R3-1)
            assert _sub_cards(got[seat], held)
            assert len(state.hands[seat]) == rules.hand_size
        else:
            assert Counter(state.hands[seat]) == got[seat]
    # the upcard, plus any cards turned over it (CL-DEAL-4), then the stock in order
    pile = list(state.pile)
    assert pile == deck[dealt:dealt + len(pile)]
    stock_top_first = list(reversed(state.stock))
    assert deck[len(deck) - len(stock_top_first):] == stock_top_first


def _sub_cards(small: Counter[Card], big: Counter[Card]) -> bool:
    return not (small - big)


# --- 6. the notation round-trips ------------------------------------------------------


# Options whose default is derived from the table must survive the round trip too.
ROUND_TRIP_CONFIGS = [pytest.param(p, o, id=_config_id((p, o))) for p, o in CONFIGS] + [
    pytest.param(p, o, id=_config_id((p, o)))
    for p, o in [(4, {"target_score": 150}), (2, {"canastas_to_go_out": 1}),
                 (4, {"canastas_to_go_out": 2})]
]


@pytest.mark.parametrize(("players", "options"), ROUND_TRIP_CONFIGS)
@given(data=st.data())
def test_notation_round_trips(players: int, options: Options, data: st.DataObject) -> None:
    """export(import(export(s))) == export(s) and import(export(s)) == s in every state."""
    for state in states(data, players, options):
        text = export_position(state)
        back = import_position(text)
        assert back == state
        assert back.rules == state.rules and back.rules.target == state.rules.target
        assert export_position(back) == text
        assert back.awaited == state.awaited and back.phase is state.phase


# --- 7. hands end and the match goes on --------------------------------------------------

# Per config, a seed whose uniform non-undo hand once ran into a black-three dead end
# (a meld after staged black threes that made going out impossible): regression seeds.
DEAD_END_SEEDS: dict[str, int] = {
    "p2": 149,
    "p3": 40,
    "p4": 105,
    "p5": 105,
    "p6": 85,
    "p4[initial_meld_validation=batch]": 169,
    "p4[red3_dealt_timing=after_deal]": 2,
    "p4[stock_empty_ends_hand=True]": 105,
    "p6[p6_mode=rotation]": 105,
    "p6[p6_teams=3]": 4,
    "p4[wilds_not_exceed_naturals=True]": 1480,
    "p2[p2_draw_count=1]": 583,
}


Pick = Callable[[Sequence[Move], int], Move]


def drawn(data: st.DataObject) -> Pick:
    """Moves drawn by hypothesis."""
    return lambda moves, ply: draw_move(data, moves, ply)


def _uniform_hand(state: State, pick: Pick, bound: int) -> State:
    """Play a hand choosing among the listed moves other than ``undo``."""
    for _ in range(bound):
        if state.phase in OVER:
            return state
        moves = [m for m in legal_moves(state) if not isinstance(m, Undo)]
        assert moves, f"only 'undo' is legal at ply {state.ply}:\n{export_position(state)}"
        state = apply(state, pick(moves, state.ply))
    raise AssertionError(f"the hand did not end within {bound} moves")


def hand_bound(state: State) -> int:
    """A generous bound on the moves of one hand under uniform non-undo play."""
    return 40 * sum(composition(state.rules).values())


@pytest.mark.parametrize(("players", "options"), _params(CONFIGS))
@given(data=st.data())
def test_every_hand_ends(players: int, options: Options, data: st.DataObject) -> None:
    """CL-TURN-4, CL-MIN-8: choosing among the listed non-undo moves, a hand always
    ends within a bounded number of moves (so a live state always lists a move other
    than ``undo``)."""
    state = new_game("classic", players, seed=data.draw(SEEDS, label="seed"), options=options)
    state = _uniform_hand(state, drawn(data), hand_bound(state))
    assert state.phase in OVER and state.result is not None


@pytest.mark.parametrize(("players", "options"), _params(CONFIGS))
def test_dead_end_seeds_end(players: int, options: Options) -> None:
    """CL-TURN-4, CL-MIN-8: the config's regression seed (DEAD_END_SEEDS), whose hand of
    uniform non-undo moves from ``random.Random(seed)`` once met a dead end, ends."""
    seed = DEAD_END_SEEDS[_config_id((players, options))]
    rng = random.Random(seed)
    state = new_game("classic", players, seed=seed, options=options)
    state = _uniform_hand(state, lambda moves, ply: rng.choice(moves), hand_bound(state))
    assert state.phase in OVER and state.result is not None


# Seat 0 of a 2-player hand, unopened at 3,900 (minimum 120), after drawing from the
# stock: the same table with a different hand (and the stock that keeps the deck whole).
UNOPENED_AT_3900 = """canasta-position 1
variant: classic
players: 2
options: target_score=1000000
seed: 29915273867
hand: 3
dealer: 0
ply: 4357
scores: 3900 6030
phase: meld
turn: 0
drew: stock
asked: 0 - draw
created: -
flags: 0 0
stock: {stock}
pile: AC QS
hand0: {hand0}
hand1: 5S 8C 9H TC KD
melds0: -
melds1: 4@1: 4D 4D JK | 7@1: 7S 7D 7D 7C | J@1: JS JS JH 2C
red3_0: 3H
red3_1: -
opened: 0 1
melded: 0 1
pending_red3: 0 0
asks: 0 0
penalties: 0 0
"""


@pytest.mark.parametrize(("stock", "hand0"), [
    pytest.param(
        "TS QH QD 9S JH 6C 8S 6D QS KS 3C 9D 9C 4H QH JK 2S AS KC TS 7H JC 3C 3S 8H 7S 4H 7H QD 8D 8D JK JK 4C 2D AD 4S JD 6C KC 3D 9H AD JD QC 2H TD 8S 7C 2C TH 3D 4C AC 3S TH 5D 5S JC AH 6S 3H AH TD 9C 6H 2D KS TC QC 9S 8C",
        "2S 2H 4S 5H 5H 5D 5C 5C 6S 6H 6D 8H 9D KH KH KD AS",
        id="no-way-to-open"),
    pytest.param(
        "TS QH QD 9S JH KH 8S 6D QS KS 3C 9D 9C 8H QH JK 2S AS KC TS KH JC 3C 3S 8H AS 4H 7H QD 8D 8D JK JK 9D 2D AD 4S JD 6C KC 3D 9H AD JD QC 2H TD 8S KD 2C TH 3D 4C AC 3S TH 5D 5S JC AH 6S 3H AH TD 9C 6H 2D KS TC QC 9S 8C",
        "2S 2H 4S 4H 4C 5H 5H 5D 5C 5C 6S 6H 6D 6C 7H 7C 7S",
        id="one-canasta"),
])
def test_no_staged_meld_without_a_way_to_open(stock: str, hand0: str) -> None:
    """CL-MIN-8, CL-MIN-9, CL-P2-3: below the minimum with no concealed going out either,
    no meld may be staged: only discards are listed, one per distinct card.

    ``no-way-to-open``: 110 at most can be melded, and four lone naturals (4S 8H 9D AS)
    cannot all go (staged melds were once offered here, a tree of dead ends left only
    by ``undo``; seed 29915273867 of ``test_deal_rotates_over_hands[p2]``).
    ``one-canasta``: the 17 cards are worth 115, and one canasta can be made (five 5s
    and two deuces) but going out takes two in the 2-player game."""
    state = import_position(UNOPENED_AT_3900.format(stock=stock, hand0=hand0))
    moves = legal_moves(state)
    assert moves and all(isinstance(m, Discard) for m in moves)
    assert len(moves) == len(set(state.hands[0]))


BLACK_THREES = """canasta-position 1
players: 4
phase: meld
turn: 0
drew: stock
pile: 6D
hand0: 3S 3S 3C 8H 8H 2H 5D
melds0: K@0: KS KH KD KC KS KH KD | 4@2: 4S 4H 4D
opened: 1 0
melded: 1 0 1 0
red3_1: 3H 3D
red3_2: 3H 3D
hand1: *11
hand2: *11
hand3: *11
stock: *
"""


def _turn_can_end(state: State, seen: set[str]) -> bool:
    """Some sequence of listed meld actions (no undo) reaches a listed turn end."""
    key = export_position(state)
    if key in seen:
        return False
    seen.add(key)
    moves = legal_moves(state)
    if any(isinstance(m, (Discard, GoOut, EndHand)) for m in moves):
        return True
    return any(_turn_can_end(apply(state, m), seen) for m in moves
               if isinstance(m, (Meld, AddToMeld)))


def test_black_three_meld_leaves_a_way_out() -> None:
    """CL-MELD-3, CL-OUT-1: once black threes are staged the turn must go out, so every
    listed meld action must keep a going out reachable. N holds 3S 3S 3C 8H 8H 2H 5D
    with a K canasta and a 4 meld: after ``meld 3S 3S 3C``, ``add K 2H`` (or
    ``add 4 2H``) leaves 8H 8H 5D, which can neither go out nor be discarded."""
    state = import_position(BLACK_THREES)
    state = apply(state, parse_move("meld 3S 3S 3C"))
    assert _turn_can_end(state, set())
    for move in legal_moves(state):
        if isinstance(move, (Meld, AddToMeld)):
            assert _turn_can_end(apply(state, move), set()), f"{move} is a dead end"


def _next_dealer(state: State) -> int:
    """CL-SEAT-3 / CL-GAME-6 / CL-P5-6: the next seat clockwise that plays the next hand."""
    active = state.rules.active_seats(state.hand_no + 1)
    for k in range(1, state.rules.players + 1):
        seat = (state.dealer + k) % state.rules.players
        if seat in active:
            return seat
    raise AssertionError("no dealer")


def check_hand_result(state: State) -> None:
    """CL-SCORE-6, CL-GAME-2..4: cumulative scores, target, winner and tie policy."""
    result = state.result
    assert result is not None
    sides = result.sides
    assert [s.team for s in sides] == list(range(len(state.rules.layout.teams)))
    for side in sides:
        assert side.cumulative == state.scores[side.team] + side.total
        # CL-SCORE-6: the total is the sum of its components (CL-SCORE-8)
        assert side.total == (side.base + side.canasta_bonus + side.going_out
                              + side.red_three_points - side.in_hand - side.penalties)
        if side.going_out:  # CL-SCORE-3: only the side that went out (its meld side)
            assert result.went_out >= 0
            assert any(state.team_of(seat) == state.team_of(result.went_out)
                       for seat in state.rules.layout.teams[side.team])
    best = max(s.cumulative for s in sides)
    leaders = [s.team for s in sides if s.cumulative == best]
    target = state.rules.target
    if state.rules.deals:  # SV-GAME-1: the last deal decides, whatever the totals
        last = state.hand_no + 1 >= state.rules.deals
        target = best if last else best + 1
        if last and len(leaders) > 1 and state.rules.tie_extra_deal:
            target = best + 1
    if best < target:
        assert state.phase is Phase.HAND_OVER and result.winner == -1 and not result.draw
    elif len(leaders) == 1:
        assert state.phase is Phase.GAME_OVER and result.winner == leaders[0]
        assert not result.draw
    elif state.rules.tie_policy is TiePolicy.DRAW:
        assert state.phase is Phase.GAME_OVER and result.draw and result.winner == -1
    else:  # play_on
        assert state.phase is Phase.HAND_OVER and result.winner == -1 and not result.draw


def play_match(data: st.DataObject, players: int, options: Options, max_hands: int = 60,
               variant: str = "classic", until_over: bool = True) -> list[State]:
    """Hands of a match (its seed and every move drawn by hypothesis, ``undo``
    included), each at its end, until GAME_OVER (or ``max_hands`` hands when not
    ``until_over``), checking every ``next_deal`` on the way."""
    state = new_game(variant, players, seed=data.draw(SEEDS, label="seed"), options=options)
    ends: list[State] = []
    for _ in range(max_hands):
        for _ in range(hand_bound(state)):
            if state.phase in OVER:
                break
            state = apply(state, draw_move(data, legal_moves(state), state.ply))
        assert state.phase in OVER
        check_hand_result(state)
        ends.append(state)
        if state.phase is Phase.GAME_OVER:
            with pytest.raises(RuleViolation) as info:
                next_deal(state)
            assert info.value.reason is Reason.GAME_OVER
            return ends
        if len(ends) == max_hands and not until_over:
            return ends
        nxt = next_deal(state)
        assert next_deal(state) == nxt  # the next deal is determined by the seed
        assert nxt.hand_no == state.hand_no + 1
        assert nxt.dealer == _next_dealer(state)
        active = state.rules.active_seats(nxt.hand_no)
        assert sorted(nxt.order) == sorted(active) and nxt.order[-1] == nxt.dealer
        assert all(nxt.hands[s] == () for s in range(players) if s not in active)
        assert state.result is not None
        assert nxt.scores == tuple(s.cumulative for s in state.result.sides)
        assert nxt.phase in (Phase.DRAW, Phase.DRAW_EXHAUSTED) and nxt.result is None
        assert all_cards(nxt) == composition(nxt.rules)
        if players == 2 or players == 3 or players == 4:
            assert nxt.dealer == (state.dealer + 1) % players  # CL-SEAT-3
        state = nxt
    raise AssertionError(f"no winner after {max_hands} hands: {state.scores}")


MATCH_CONFIGS = [(p, {"target_score": 3000}) for p in (2, 3, 4, 5, 6)] + [
    (6, {"target_score": 3000, "p6_mode": "rotation"}),
    (6, {"target_score": 3000, "p6_teams": 3}),
    (4, {"target_score": 3000, "tie_policy": "draw"}),
]


@pytest.mark.parametrize(("players", "options"), _params(MATCH_CONFIGS))
@settings(max_examples=examples(2))
@given(data=st.data())
def test_match_reaches_game_over(players: int, options: Options, data: st.DataObject) -> None:
    """CL-GAME-6, CL-SEAT-3, CL-P5-6: next_deal rotates the dealer, carries the
    cumulative scores over, and a match with a low target ends in GAME_OVER with
    the winner (or draw) the tie policy says (CL-GAME-3, CL-GAME-4)."""
    ends = play_match(data, players, options)
    assert ends[-1].phase is Phase.GAME_OVER
    assert all(e.phase is Phase.HAND_OVER for e in ends[:-1])
    with pytest.raises(RuleViolation) as info:
        next_deal(new_game("classic", players, seed=ends[0].seed, options=options))
    assert info.value.reason is Reason.HAND_NOT_OVER


# The dealers of hands 0..5 with the default first dealer (the last seat that plays).
DEALERS = {
    "p2": [1, 0, 1, 0, 1, 0],
    "p3": [2, 0, 1, 2, 0, 1],
    "p4": [3, 0, 1, 2, 3, 0],
    # CL-P5-2/6: hands play seats (0 1 2 3), (0 1 2 4), (0 3 2 4), ...; the idle seat never deals
    "p5": [3, 4, 0, 1, 2, 3],
    "p6": [5, 0, 1, 2, 3, 4],
    # CL-P6-11: hands play seats (0 1 2 3), (2 3 4 5), (4 5 0 1), ...
    "p6[p6_mode=rotation]": [3, 4, 5, 0, 2, 4],
}


@pytest.mark.parametrize("config", list(DEALERS))
@settings(max_examples=examples(2))
@given(data=st.data())
def test_deal_rotates_over_hands(config: str, data: st.DataObject) -> None:
    """CL-SEAT-3, CL-GAME-6, CL-P5-6, CL-P6-11: over six hands the deal passes
    clockwise among the seats that play each hand, and the scores carry over."""
    players, options = {_config_id(c): c for c in CONFIGS}[config]
    ends = play_match(data, players, {**options, "target_score": 10**6}, max_hands=6,
                      until_over=False)
    assert [e.dealer for e in ends] == DEALERS[config]
    assert [e.hand_no for e in ends] == list(range(6))
    for before, after in zip(ends, ends[1:], strict=False):
        assert before.result is not None
        assert after.scores == tuple(s.cumulative for s in before.result.sides)


TIE = """canasta-position 1
players: 2
options: target_score=50{extra}
scores: {s0} {s1}
phase: draw_exhausted
turn: 0
stock: -
hand0: KS
hand1: KH
red3_0: 3H 3D
red3_1: 3H 3D
pile: *
"""


@pytest.mark.parametrize(("policy", "s0", "s1", "phase", "winner", "draw"), [
    ("play_on", 100, 100, Phase.HAND_OVER, -1, False),
    ("draw", 100, 100, Phase.GAME_OVER, -1, True),
    ("play_on", 100, 95, Phase.GAME_OVER, 0, False),
    ("draw", 95, 100, Phase.GAME_OVER, 1, False),
    ("draw", 40, 40, Phase.HAND_OVER, -1, False),
])
def test_tie_policy(policy: str, s0: int, s1: int, phase: Phase, winner: int,
                    draw: bool) -> None:
    """CL-GAME-3/4: an exact tie at or above the target plays on, or is a draw by option.

    Both players decline the (frozen) pile with the stock empty (CL-EXH-6) holding one
    king each and two red threes with no meld (CL-SCORE-4): each scores -210.
    """
    extra = "" if policy == "play_on" else ",tie_policy=draw"
    text = TIE.format(extra=extra, s0=s0 + 210, s1=s1 + 210)
    state = import_position(text)
    assert Decline() in legal_moves(state)
    end = apply(state, Decline())
    assert end.result is not None
    assert [s.total for s in end.result.sides] == [-210, -210]
    assert end.phase is phase and end.result.winner == winner and end.result.draw is draw
    check_hand_result(end)
    if phase is Phase.HAND_OVER:
        nxt = next_deal(end)
        assert nxt.scores == (s0, s1) and nxt.dealer == 0


# --- slow variants ---------------------------------------------------------------------


@slow
@pytest.mark.slow
@pytest.mark.parametrize(("players", "options"), _params(SLOW_CONFIGS))
@settings(max_examples=examples(1))
@given(data=st.data(), shuffle=SEEDS)
def test_slow_all_properties(players: int, options: Options, data: st.DataObject,
                             shuffle: int) -> None:
    """Every per-state property above, with more options (``make fuzz`` only)."""
    rng = random.Random(shuffle)
    deck = composition(new_game("classic", players, seed=0, options=options).rules)
    for state, _ in playout(data, players, options):
        assert all_cards(state) == deck
        text = export_position(state)
        assert import_position(text) == state and export_position(import_position(text)) == text
        moves = legal_moves(state)
        assert len(set(moves)) == len(moves)
        for move in moves:
            assert parse_move(str(move)) == move
            check_transition(state, move, apply(state, move))
        check_refusals(state, random_moves(state, rng, 10))
        for seat in range(-1, players):
            check_view(state, seat)
