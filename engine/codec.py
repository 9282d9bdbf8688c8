"""A compact, exact encoding of a state for snapshots: ``encode_state`` / ``decode_state``.

The position notation (:mod:`engine.notation`) is for people and checks
everything it reads; this codec is for machines that already trust the bytes
(a snapshot opened with its authenticated seal). It walks the dataclass fields
by their type hints, so new fields are encoded without changes here. Moves
travel as their canonical text, the rule set as (variant, players, options).

>>> from engine import new_game
>>> s = new_game("classic", 4, seed=3)
>>> decode_state(encode_state(s)) == s
True
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Callable
from enum import Enum
from functools import cache, lru_cache
from typing import Any

from engine.cards import CARDS, Card
from engine.errors import BadInput, Reason
from engine.game import rules_for
from engine.moves import parse_move
from engine.rules import RuleSet

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any], Any]

FORMAT = 1
# Rule-set classes travel as (variant, players, options) and are rebuilt by the registry.
_RULES_CLASSES = frozenset({"RuleSet", "MayIRules"})


@lru_cache(maxsize=256)
def _rules(variant: str, players: int, options: str) -> RuleSet:
    return rules_for(variant, players, json.loads(options))


def _encode_rules(r: Any) -> Any:
    return [r.variant, r.players, json.dumps(dict(r.options), sort_keys=True)]


def _decode_rules(v: Any) -> RuleSet:
    return _rules(v[0], v[1], v[2])


def _is_move_type(tp: Any) -> bool:
    return getattr(tp, "__module__", "") in ("engine.moves", "engine.mayi.moves")


@cache
def _coders(tp: Any) -> tuple[Encoder, Decoder]:
    """Encoder and decoder for a type annotation."""
    if tp is Card:
        return int, CARDS.__getitem__
    if tp in (int, bool, str):
        return (lambda v: v), (lambda v: v)
    if tp is RuleSet or getattr(tp, "__name__", "") in _RULES_CLASSES:
        return _encode_rules, _decode_rules
    if isinstance(tp, type) and issubclass(tp, Enum):
        return (lambda v: v.value), tp
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        if _is_move_type(tp):
            return str, parse_move
        return _dataclass_coders(tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            enc, dec = _coders(args[0])
            return (lambda v: [enc(x) for x in v]), (lambda v: tuple(dec(x) for x in v))
        pairs = [_coders(a) for a in args]
        return (lambda v: [e(x) for (e, _), x in zip(pairs, v, strict=True)],
                lambda v: tuple(d(x) for (_, d), x in zip(pairs, v, strict=True)))
    if origin in (typing.Union, types.UnionType):
        real = [a for a in args if a is not type(None)]
        if all(_is_move_type(a) for a in real):
            return str, parse_move
        if len(real) == 1:
            enc, dec = _coders(real[0])
            return ((lambda v: None if v is None else enc(v)),
                    (lambda v: None if v is None else dec(v)))
    raise TypeError(f"no codec for {tp!r}")


def _dataclass_coders(cls: type) -> tuple[Encoder, Decoder]:
    hints = typing.get_type_hints(cls)
    fields = [f.name for f in dataclasses.fields(cls) if f.init]
    coders = [_coders(hints[name]) for name in fields]

    def encode(obj: Any) -> Any:
        return [enc(getattr(obj, name)) for name, (enc, _) in zip(fields, coders, strict=True)]

    def decode(data: Any) -> Any:
        return cls(**{name: dec(v) for name, (_, dec), v in zip(fields, coders, data, strict=True)})

    return encode, decode


def encode_state(state: Any) -> bytes:
    """Exact compact bytes of a state (any game's state dataclass)."""
    cls: Any = type(state)
    enc, _ = _coders(cls)
    return json.dumps([FORMAT, cls.__name__, enc(state)], separators=(",", ":")).encode()


def decode_state(data: bytes) -> Any:
    """The state that :func:`encode_state` encoded.

    :raises BadInput: ``BAD_NOTATION`` for bytes that are not an encoded state.
    """
    from engine.state import State

    classes: dict[str, type] = {"State": State}
    try:
        from engine.mayi.state import MayIState  # type: ignore[import-not-found, unused-ignore]

        classes["MayIState"] = MayIState
    except ImportError:
        pass
    try:
        fmt, name, body = json.loads(data)
        if fmt != FORMAT:
            raise ValueError(f"format {fmt}")
        _, dec = _coders(classes[name])
        return dec(body)
    except BadInput:
        raise
    except (ValueError, TypeError, KeyError, IndexError) as err:
        raise BadInput(Reason.BAD_NOTATION, f"not an encoded state: {err}") from None
