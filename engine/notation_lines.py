"""The text both games' position notations are made of (``docs/notation.md``).

A position is a header line, then one ``key: value`` per line, each key once.
:class:`Reader` reads the lines, the ``*N`` fills of hand-written zones and the
values every line is made of; the writers spell cards, numbers and options the
one way both games export them; :func:`head_lines` and :func:`zone_lines` are the
lines every position has. Each game's notation (``engine/notation.py`` for the
Canasta family, ``engine/mayi/notation.py``) holds only its own fields.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import TypeVar

from mypy_extensions import mypyc_attr

from engine.cards import Card, format_cards, parse_cards
from engine.errors import BadInput, BadMove, EngineError, Reason
from engine.mayi.state import AnyState
from engine.numerals import whole
from engine.state import Phase

_S = TypeVar("_S")
Zone = tuple[int, tuple[Card, ...]]  # (cards still to fill, -1 = all the rest; given cards)

# --- writing -------------------------------------------------------------------------


def cards_text(cards: Iterable[Card]) -> str:
    return format_cards(cards) or "-"


def ints_text(values: Iterable[int]) -> str:
    return " ".join(str(v) for v in values) or "-"


def flags_text(values: Iterable[bool]) -> str:
    return " ".join("1" if v else "0" for v in values)


def option_text(value: object) -> str:
    if value is None:
        return "none"
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def head_lines(header: str, state: AnyState, options: str) -> list[str]:
    """The lines every position starts with: the game, the deal and whose turn it is."""
    rules = state.rules
    return [
        header,
        f"variant: {rules.variant}",
        f"players: {rules.players}",
        f"options: {options}",
        f"seed: {state.seed}",
        f"hand: {state.hand_no}",
        f"dealer: {state.dealer}",
        f"ply: {state.ply}",
        f"scores: {ints_text(state.scores)}",
        f"phase: {state.phase.value}",
        f"turn: {state.turn.seat}",
        f"drew: {state.turn.drew or '-'}",
    ]


def zone_lines(state: AnyState) -> list[str]:
    """The stock, the pile (bottom to top) and each seat's hand."""
    return [f"stock: {cards_text(state.stock)}", f"pile: {cards_text(state.pile)}",
            *(f"hand{s}: {cards_text(h)}" for s, h in enumerate(state.hands))]


# --- reading -------------------------------------------------------------------------


def options_of(text: str) -> dict[str, str]:
    """The options of an ``options:`` line, as May I?'s position notation and a record
    write it: ';'-separated (a custom schedule holds commas), or ','-separated when no
    ';' is used and every part is name=value, as in the Canasta notation.

    :raises BadInput: ``BAD_NOTATION`` for a part that is not ``name=value``.
    """
    if text.strip() in ("", "-"):
        return {}
    parts = text.split(";")
    if len(parts) == 1 and all("=" in p for p in text.split(",")):
        parts = text.split(",")
    out: dict[str, str] = {}
    for part in parts:
        if part.strip():
            name, sep, value = part.partition("=")
            if not sep:
                raise BadInput(Reason.BAD_NOTATION, f"an option is 'name=value', not {part!r}")
            out[name.strip()] = value.strip()
    return out


def read_position(read: Callable[[str], _S], text: str) -> _S:
    """``read(text)``, every error of a malformed or inconsistent text a ``BAD_NOTATION``
    (an option or variant error stays itself; an unreadable card, meld label or staged
    move is the position's error, not a move's)."""
    try:
        return read(text)
    except EngineError as err:
        if isinstance(err, BadInput) and not isinstance(err, BadMove):
            raise
        raise BadInput(Reason.BAD_NOTATION, f"bad position: {err.message}") from None
    # a name of its own: compiled, ``err`` holds only the EngineError of the clause above
    except (ValueError, IndexError, KeyError) as bad:
        raise BadInput(Reason.BAD_NOTATION, f"bad position: {bad}") from None


def named(text: str, choices: Mapping[str, _S], what: str) -> _S:
    """The one of ``choices`` that ``text`` names: a phase names only one of its game's."""
    if text not in choices:
        raise BadInput(Reason.BAD_NOTATION,
                       f"{what} {text!r} is not one of {', '.join(choices)}")
    return choices[text]


def check_over(phase: Phase, result: object, decided: bool) -> None:
    """Both games' hands end alike: a result line comes exactly with a hand that is over,
    and the phase is ``game_over`` exactly when that result decides the game (CL-GAME-3,
    MI-GAME-1)."""
    if (result is not None) != (phase is Phase.HAND_OVER or phase is Phase.GAME_OVER):
        raise BadInput(Reason.BAD_NOTATION, "a result line comes exactly with a hand that is over")
    if result is not None and decided != (phase is Phase.GAME_OVER):
        raise BadInput(Reason.BAD_NOTATION,
                       "game_over is the phase of a result that decides the game")


@mypyc_attr(native_class=False)
class Reader:
    """The lines of a position after its ``header`` (or one of ``aliases``), by key;
    ``order`` is the keys in line order (the fills follow it)."""

    def __init__(self, text: str, header: str, name: str = "a position",
                 aliases: tuple[str, ...] = ()) -> None:
        lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
        if not lines or (lines[0] != header and lines[0] not in aliases):
            raise BadInput(Reason.BAD_NOTATION, f"{name} starts with '{header}'")
        self.fields: dict[str, str] = {}
        self.order: list[str] = []
        for ln in lines[1:]:
            key, sep, value = ln.partition(":")
            if not sep:
                raise BadInput(Reason.BAD_NOTATION, f"expected 'key: value', got {ln!r}")
            key = key.strip()
            if key in self.fields:
                raise BadInput(Reason.BAD_NOTATION, f"line {key!r} is given twice")
            self.fields[key] = value.strip()
            self.order.append(key)

    def get(self, key: str, default: str | None = None) -> str:
        if key in self.fields:
            return self.fields[key]
        if default is None:
            raise BadInput(Reason.BAD_NOTATION, f"the position lacks the line {key!r}")
        return default

    def ints(self, key: str, count: int | None, default: str | None = None) -> tuple[int, ...]:
        """The integers of a line (``-``: none), exactly ``count`` of them unless ``None``."""
        text = self.get(key, default)
        try:
            values = () if text == "-" else tuple(whole(v) for v in text.split())
        except ValueError:
            raise BadInput(Reason.BAD_NOTATION, f"line {key!r} needs integers") from None
        if count is not None and len(values) != count:
            raise BadInput(Reason.BAD_NOTATION, f"line {key!r} needs {count} values")
        return values

    def one(self, key: str, default: str | None = None) -> int:
        return self.ints(key, 1, default)[0]

    def flag(self, key: str, default: str = "0") -> bool:
        """A line of one flag, ``0`` or ``1``."""
        return self.flags(key, 1, default)[0]

    def flags(self, key: str, count: int, default: str | None = None) -> tuple[bool, ...]:
        values = self.ints(key, count, " ".join(["0"] * count) if default is None else default)
        if any(v not in (0, 1) for v in values):
            raise BadInput(Reason.BAD_NOTATION, f"line {key!r} takes 0 or 1 values")
        return tuple(bool(v) for v in values)

    def zone(self, key: str) -> Zone:
        """Explicit cards, with ``*N`` (or ``*``: all the rest) unplaced cards under them."""
        value = self.get(key, "-")
        fill = 0
        if value.startswith("*"):
            head, _, value = value.partition(" ")
            try:
                fill = -1 if head == "*" else whole(head[1:])
            except ValueError:
                raise BadInput(Reason.BAD_NOTATION, f"bad fill count in {key!r}") from None
            if fill < -1:
                raise BadInput(Reason.BAD_NOTATION, f"bad fill count in {key!r}")
        value = value.strip()
        return fill, (() if value in ("", "-") else parse_cards(value))


def fill_zones(deck: Counter[Card], seed: int, zones: dict[str, Zone],
               elsewhere: Iterable[Iterable[Card]], order: list[str],
               barred: Mapping[str, Callable[[Card], bool]] | None = None,
               ) -> dict[str, tuple[Card, ...]]:
    """The cards of every zone: the given ones, under them the fills, taken in line order
    (``order``) from the cards of ``deck`` placed neither in a zone nor ``elsewhere`` (the
    melds), shuffled by the seed. A zone's fill skips the cards its ``barred`` test names
    (cards play never leaves there), which stay for the zones after it."""
    placed: Counter[Card] = Counter()
    for _, given in zones.values():
        placed.update(given)
    for group in elsewhere:
        placed.update(group)
    extra = placed - deck
    if extra:
        raise BadInput(Reason.BAD_NOTATION,
                       f"more copies than the deck holds: {cards_text(sorted(extra.elements()))}")
    pool = sorted((deck - placed).elements())
    random.Random(f"position:{seed}").shuffle(pool)
    out = {key: given for key, (_, given) in zones.items()}
    for key in order:
        want, given = zones[key]
        take = len(pool) if want < 0 else want
        bar = (barred or {}).get(key)
        fits = [i for i, c in enumerate(pool) if bar is None or not bar(c)][:take]
        if take > len(fits):
            raise BadInput(Reason.BAD_NOTATION, f"not enough unplaced cards for {key!r}")
        out[key] = tuple(pool[i] for i in fits) + given
        taken = set(fits)
        pool = [c for i, c in enumerate(pool) if i not in taken]
    if pool:
        raise BadInput(Reason.BAD_NOTATION,
                       f"{len(pool)} cards are not placed: use '*' for the stock or a hand")
    return out
