"""Game records: a whole match (or one hand) as text, written and replayed (docs/records.md).

A record is what PGN is to chess: the start (variant, options, players, and the deal by
seed, or a caller's deck, or a starting position), every move with its seat in order,
and each hand's result. The state keeps no history (a snapshot holds one position), so
a host keeps the record beside the snapshot: :func:`begin` at the deal, :func:`played`
for each move the engine applied, :func:`dealt` for each next deal. :func:`write`
replays it and writes the text, with the results, for the host or for one seat (other
hands hidden); :func:`replay` reads a text and checks every move (through
:func:`engine.play.apply`) and every result written.

>>> from engine.game import new_game
>>> from engine.moves import Draw
>>> rec = played(begin(new_game("classic", 4, seed=1)), 0, Draw())
>>> text = write(rec)
>>> text.splitlines()[0], replay(text).ply
('canasta-record 1', 1)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from mypy_extensions import mypyc_attr

from engine.cards import Card, parse_cards
from engine.errors import BadInput, EngineError, Reason
from engine.events import Event, EventKind, play
from engine.game import new_game, next_deal
from engine.mayi.state import AnyState
from engine.moves import Move, parse_move
from engine.notation import export_position, import_position
from engine.notation_lines import cards_text, options_of
from engine.numerals import is_number, whole
from engine.state import Phase

HEADER = "canasta-record 1"
OVER = (Phase.HAND_OVER, Phase.GAME_OVER)
PUBLIC = -1  # the viewer of a spectator's record: no hand at all
# the events a seat's record notes for it: its draws and takes (a May I? take's card is
# public, engine/events.py, and still noted: the record says what the seat got)
NOTED = (EventKind.CARDS_DRAWN, EventKind.PILE_TAKEN)
INTERRUPT_EVERY = 64  # moves replayed between two calls of an interrupt (1-2 ms)


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class MoveLine:
    """One move: the seat that made it, its text, and the line it was read from (0: none)."""

    seat: int
    move: str
    line: int = 0


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class HandRecord:
    """One hand: its number, the caller's deck it was dealt from (``None``: the seeded
    shuffle), its moves and, once written, its result as read (checked on replay)."""

    number: int
    deck: tuple[Card, ...] | None = None
    moves: tuple[MoveLine, ...] = ()
    points: tuple[int, ...] | None = None  # the hand's score of each side
    totals: tuple[int, ...] | None = None  # each side's cumulative score after it
    winner: str = ""  # "" (game not over), a side number, or "draw"
    line: int = 0  # of its 'hand N'
    result_lines: tuple[int, int, int] = (0, 0, 0)  # of its points, totals and winner


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class Record:
    """A game record. ``seed``/``dealer`` start it by a deal, ``position`` (notation
    text) from a position; ``view`` is ``None`` for a full record, else the seat it was
    written for (``-1``: the public record), which hides the deal and cannot replay."""

    variant: str
    players: int
    options: str
    hands: tuple[HandRecord, ...]
    seed: int | None = None
    dealer: int = -1
    position: str = ""
    names: tuple[str, ...] = ()
    view: int | None = None


def _fail(reason: Reason, message: str) -> BadInput:
    return BadInput(reason, message)


def _options_line(state: AnyState) -> str:
    """The options that differ from the defaults, as the position notation writes them."""
    for line in export_position(state).splitlines():
        if line.startswith("options:"):
            return line.partition(":")[2].strip()
    return "-"


def begin(state: AnyState, names: Sequence[str] = (),
          deck: Sequence[Card] | None = None, by_deal: bool | None = None) -> Record:
    """A record starting at ``state``: by its deal when ``state`` is the fresh first hand
    that its seed (or ``deck``) deals, else from its position. ``by_deal`` decides that
    instead of dealing again to compare, for a caller that knows it from elsewhere (the
    service, from a snapshot's sealed header: the comparison reads hidden cards)."""
    rules = state.rules
    options = _options_line(state)
    hand = HandRecord(state.hand_no, tuple(deck) if deck is not None else None)
    rec = Record(rules.variant, rules.players, options, (hand,), names=tuple(names))
    if by_deal is not None:
        if by_deal:
            return replace(rec, seed=state.seed, dealer=state.dealer)
    elif state.hand_no == 0 and state.ply == 0:
        try:
            fresh = new_game(rules.variant, rules.players, state.seed, options_of(options),
                             deck, state.dealer)
        except EngineError:
            fresh = None
        if fresh == state:
            return replace(rec, seed=state.seed, dealer=state.dealer)
    return replace(rec, position=export_position(state),
                   hands=(HandRecord(state.hand_no),))


def played(record: Record, seat: int, move: Move | str) -> Record:
    """The record with one more move of the current hand (as the engine applied it)."""
    last = record.hands[-1]
    hand = replace(last, moves=last.moves + (MoveLine(seat, str(move)),))
    return replace(record, hands=record.hands[:-1] + (hand,))


def dealt(record: Record, deck: Sequence[Card] | None = None) -> Record:
    """The record with the next hand dealt (from ``deck``, when the caller gave one)."""
    hand = HandRecord(record.hands[-1].number + 1, tuple(deck) if deck is not None else None)
    return replace(record, hands=record.hands + (hand,))


# --- replay ---------------------------------------------------------------------------


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class _Step:
    seat: int
    move: Move
    events: tuple[Event, ...]


@mypyc_attr(native_class=False)
@dataclass(frozen=True, slots=True)
class _Hand:
    start: AnyState
    steps: tuple[_Step, ...]
    end: AnyState


def _where(hand: HandRecord, count: int, ml: MoveLine) -> str:
    at = f", line {ml.line}" if ml.line else ""
    return f"move {count} (hand {hand.number}{at}: '{ml.seat} {ml.move}')"


def _start(record: Record) -> AnyState:
    if record.view is not None:
        raise _fail(Reason.BAD_NOTATION, "a record written for a seat or a spectator hides "
                    "the deal: only a full record replays")
    if record.position:
        return import_position(record.position)
    if record.seed is None:
        raise _fail(Reason.BAD_NOTATION, "the record has neither a seed nor a position")
    first = record.hands[0] if record.hands else HandRecord(0)
    return new_game(record.variant, record.players, record.seed, options_of(record.options),
                    first.deck, record.dealer if record.dealer >= 0 else None)


def _scores(state: AnyState) -> tuple[tuple[int, ...], tuple[int, ...], str]:
    result = state.result
    assert result is not None
    points = tuple(s.total for s in result.sides)
    totals = tuple(s.cumulative for s in result.sides)
    winner = ""
    if state.phase is Phase.GAME_OVER:
        winner = "draw" if result.winner < 0 else str(result.winner)
    return points, totals, winner


def _check_result(hand: HandRecord, state: AnyState) -> None:
    """Refuse a written result that the replayed hand does not score."""
    if hand.points is None and hand.totals is None and not hand.winner:
        return
    if state.phase not in OVER:
        first = min(n for n in hand.result_lines if n) if any(hand.result_lines) else 0
        raise _fail(Reason.BAD_NOTATION, f"hand {hand.number}{_at(first)}: the record scores "
                    "it, but it is not over after its moves")
    points, totals, winner = _scores(state)
    for name, said, real, n in (("points", hand.points, points, hand.result_lines[0]),
                                ("totals", hand.totals, totals, hand.result_lines[1])):
        if said is not None and said != real:
            raise _fail(Reason.BAD_NOTATION, f"hand {hand.number}{_at(n)}: the record says "
                        f"{name} {_ints(said)}, the replay scores {_ints(real)}")
    if hand.winner != winner:
        raise _fail(Reason.BAD_NOTATION, f"hand {hand.number}{_at(hand.result_lines[2])}: the "
                    f"record says winner {hand.winner or '-'}, the replay gives {winner or '-'}")


def _at(line: int) -> str:
    return f" (line {line})" if line else ""


def _run(record: Record, interrupt: Callable[[], None] | None = None) -> list[_Hand]:
    """Replay every hand, checking each move and each written result; ``interrupt`` is
    called before every :data:`INTERRUPT_EVERY` moves, and what it raises ends the replay.

    :raises RuleViolation: an illegal move (the engine's reason; the message names it).
    :raises BadInput: a malformed record, an unparsable move, or a result that differs.
    """
    state = _start(record)
    out: list[_Hand] = []
    count = 0
    for i, hand in enumerate(record.hands):
        if i > 0:
            try:
                state = next_deal(state, hand.deck)
            except EngineError as err:
                raise type(err)(err.reason, f"hand {hand.number}: {err.message}",
                                err.rule) from None
        if hand.number != state.hand_no:
            raise _fail(Reason.BAD_NOTATION, f"hand {hand.number} is hand {state.hand_no} "
                        "of the replay")
        start = state
        steps: list[_Step] = []
        for ml in hand.moves:
            if interrupt is not None and count % INTERRUPT_EVERY == 0:
                interrupt()
            count += 1
            try:
                done = play(state, parse_move(ml.move), ml.seat)
            except EngineError as err:
                raise type(err)(err.reason, f"{_where(hand, count, ml)}: {err.message}",
                                err.rule) from None
            steps.append(_Step(done.seat, done.move, done.events))
            state = done.state
        _check_result(hand, state)
        out.append(_Hand(start, tuple(steps), state))
    return out


def replay(record: Record | str, interrupt: Callable[[], None] | None = None) -> AnyState:
    """The final state of a full record, every move and result checked (``interrupt``: as
    :func:`write`).

    :raises RuleViolation: the first illegal move (its number, hand, line and text named).
    :raises BadInput: a malformed record or the first result that the replay does not give.
    """
    rec = parse(record) if isinstance(record, str) else record
    return _run(rec, interrupt)[-1].end


# --- text -----------------------------------------------------------------------------


def _ints(values: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in values)


def _sees(viewer: int | None, seat: int) -> bool:
    return viewer is None or viewer == seat


def write(record: Record | str, viewer: int | None = None,
          ends_at: AnyState | None = None,
          interrupt: Callable[[], None] | None = None) -> str:
    """The record as text, replayed and checked, with each finished hand's result.

    ``viewer`` ``None`` writes the full record (the host's: the seed or deck, every hand
    dealt, every card drawn). A seat writes that seat's record: no seed, deck or
    starting position, its own hand and draws only, and the hands at the end of each
    finished hand (shown for the count); ``-1`` the public record, with no card of any
    hand. Moves are public (everyone sees them played) and are written for all.
    ``ends_at``, when given, is the state the replay must end at (a host's snapshot's),
    checked on the same replay. A long record takes a while (about 25 µs a move), so
    ``interrupt`` is called before every :data:`INTERRUPT_EVERY` moves; what it raises
    ends the replay (the service's does once nobody waits for the answer).

    :raises RuleViolation, BadInput: as :func:`replay`; ``BAD_NOTATION`` when the
        replay does not end at ``ends_at`` (nothing else said of either).
    """
    rec = parse(record) if isinstance(record, str) else record
    hands = _run(rec, interrupt)
    if ends_at is not None and hands[-1].end != ends_at:
        raise _fail(Reason.BAD_NOTATION, "the record does not end at this snapshot's position")
    lines = [HEADER, f"variant: {rec.variant}", f"players: {rec.players}",
             f"options: {rec.options}"]
    if rec.names:
        lines.append("names: " + " | ".join(rec.names))
    if viewer is not None:
        lines.append(f"view: {'public' if viewer == PUBLIC else viewer}")
    elif rec.position:
        lines.append("start: position")
        lines += [f"| {ln}" for ln in rec.position.strip().splitlines()]
    else:
        lines += [f"seed: {rec.seed}", f"dealer: {hands[0].start.dealer}"]
    if viewer is not None and not rec.position:
        lines.append(f"dealer: {hands[0].start.dealer}")
    for hand, run in zip(rec.hands, hands, strict=True):
        lines += _write_hand(hand, run, viewer)
    return "\n".join(lines) + "\n"


def _write_hand(hand: HandRecord, run: _Hand, viewer: int | None) -> list[str]:
    lines = ["", f"hand {hand.number}"]
    if hand.deck is not None and viewer is None:
        lines.append(f"deck: {cards_text(hand.deck)}")
    if viewer is None or viewer >= 0:
        for seat, cards in enumerate(run.start.hands):
            if _sees(viewer, seat):
                lines.append(f"{{dealt {seat}: {cards_text(cards)}}}")
    for step in run.steps:
        notes = [_note(e) for e in step.events if e.cards and e.kind in NOTED
                 and (viewer is None or (viewer >= 0 and e.seat == viewer))]
        text = f"{step.seat} {step.move}"
        lines.append(f"{text} {{{'; '.join(notes)}}}" if notes else text)
    end = run.end
    if end.phase in OVER:
        if viewer is None or viewer >= 0:
            lines.append("{hands at the end: " + " | ".join(
                f"{s}: {cards_text(h)}" for s, h in enumerate(end.hands)) + "}")
        points, totals, winner = _scores(end)
        lines += [f"points: {_ints(points)}", f"totals: {_ints(totals)}"]
        if winner:
            lines.append(f"winner: {winner}")
    return lines


def _note(event: Event) -> str:
    verb = "took" if event.kind is EventKind.PILE_TAKEN else "drew"
    who = "" if event.kind is EventKind.PILE_TAKEN else f"{event.seat} "
    return f"{who}{verb} {cards_text(event.cards)}".strip()


def _strip_notes(raw: str, line: int) -> str:
    """A line without its ``{...}`` annotations (not nested; replay ignores them)."""
    out = []
    rest = raw
    while "{" in rest:
        head, _, tail = rest.partition("{")
        out.append(head)
        _, close, rest = tail.partition("}")
        if not close:
            raise _fail(Reason.BAD_NOTATION, f"line {line}: an annotation '{{' is not closed")
    if "}" in rest:
        raise _fail(Reason.BAD_NOTATION, f"line {line}: '}}' closes no annotation")
    out.append(rest)
    return "".join(out).strip()


def _int(text: str, what: str, line: int) -> int:
    try:
        return whole(text)
    except ValueError:
        raise _fail(Reason.BAD_NOTATION, f"line {line}: {what} must be a number, "
                    f"not {text!r}") from None


def _tuple(text: str, what: str, line: int) -> tuple[int, ...]:
    return tuple(_int(v, what, line) for v in text.split())


def parse(text: str) -> Record:
    """Read a record's text (docs/records.md).

    :raises BadInput: ``BAD_NOTATION`` for a malformed record.
    """
    rows = text.splitlines()
    if not rows or rows[0].strip() != HEADER:
        raise _fail(Reason.BAD_NOTATION, f"a record starts with '{HEADER}'")
    head: dict[str, str] = {}
    position: list[str] = []
    hands: list[HandRecord] = []
    for n, raw in enumerate(rows[1:], start=2):
        if raw.lstrip().startswith("|") and not hands:
            position.append(raw.lstrip()[1:].strip())
            continue
        row = _strip_notes(raw, n)
        if not row:
            continue
        word, _, rest = row.partition(" ")
        key, colon, value = row.partition(":")
        if word == "hand" and not colon:
            hands.append(HandRecord(_int(rest.strip(), "a hand number", n), line=n))
        elif is_number(word):
            if not hands:
                raise _fail(Reason.BAD_NOTATION, f"line {n}: a move before any 'hand N' line")
            last = hands[-1]
            hands[-1] = replace(last, moves=last.moves + (
                MoveLine(_int(word, "a move's seat", n), rest.strip(), n),))
        elif colon and hands:
            hands[-1] = _hand_field(hands[-1], key.strip(), value.strip(), n)
        elif colon:
            if key.strip() in head:
                raise _fail(Reason.BAD_NOTATION, f"line {n}: {key.strip()!r} is given twice")
            head[key.strip()] = value.strip()
        else:
            raise _fail(Reason.BAD_NOTATION, f"line {n}: expected 'key: value', 'hand N' or "
                        f"'SEAT MOVE', got {row!r}")
    return _record(head, position, hands)


def _hand_field(hand: HandRecord, key: str, value: str, n: int) -> HandRecord:
    if key == "deck":
        if hand.moves:
            raise _fail(Reason.BAD_NOTATION, f"line {n}: a hand's deck comes before its moves")
        return replace(hand, deck=parse_cards(value))
    p, t, w = hand.result_lines
    if key == "points":
        return replace(hand, points=_tuple(value, "points", n), result_lines=(n, t, w))
    if key == "totals":
        return replace(hand, totals=_tuple(value, "totals", n), result_lines=(p, n, w))
    if key == "winner":
        return replace(hand, winner=value, result_lines=(p, t, n))
    raise _fail(Reason.BAD_NOTATION, f"line {n}: unknown line {key!r} in a hand")


def _record(head: dict[str, str], position: list[str], hands: list[HandRecord]) -> Record:
    unknown = set(head) - {"variant", "players", "options", "names", "view", "start", "seed",
                           "dealer"}
    if unknown:
        raise _fail(Reason.BAD_NOTATION, f"unknown header line {sorted(unknown)[0]!r}")
    if "variant" not in head or "players" not in head:
        raise _fail(Reason.BAD_NOTATION, "a record names its 'variant' and 'players'")
    if not hands:
        raise _fail(Reason.BAD_NOTATION, "a record holds at least one 'hand N'")
    view_text = head.get("view")
    view = None if view_text is None else -1 if view_text == "public" else _int(
        view_text, "view", 0)
    start = head.get("start", "position" if position else "deal")
    if start not in ("deal", "position") or (start == "position") != bool(position):
        raise _fail(Reason.BAD_NOTATION, "'start: position' comes with the position's "
                    "'| ' lines, and only with them")
    seed = head.get("seed")
    if "dealer" in head and _int(head["dealer"], "dealer", 0) < 0:
        raise _fail(Reason.BAD_NOTATION, f"dealer must be a seat, not {head['dealer']!r}")
    names = tuple(n.strip() for n in head["names"].split("|")) if "names" in head else ()
    return Record(
        variant=head["variant"], players=_int(head["players"], "players", 0),
        options=head.get("options", "-"), hands=tuple(hands),
        seed=None if seed is None else _int(seed, "seed", 0),
        dealer=_int(head.get("dealer", "-1"), "dealer", 0),
        position="\n".join(position) + "\n" if position else "", names=names, view=view)
