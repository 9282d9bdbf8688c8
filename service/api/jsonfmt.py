"""Proto3 JSON output, the same as ``json_format.MessageToJson`` but several times faster.

``json_format`` walks every field through many small calls; the REST gateway
spends more time there than in the rules. This encoder plans each message
type once (names, kinds, presence) and then only reads fields. Its output is
the canonical proto3 JSON mapping with fields without presence always printed
(``always_print_fields_with_no_presence=True``): lowerCamelCase names, 64-bit
integers as strings, bytes as base64, enums by name. ``tests/service`` checks it
against ``json_format`` on every answer the API gives. Well-known types
(``google.protobuf.*``) are handed to ``json_format``.
"""

from __future__ import annotations

import base64
import math
from collections.abc import Callable
from typing import Any, cast

import orjson
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

_INT64 = {FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_SINT64,
          FieldDescriptor.TYPE_FIXED64, FieldDescriptor.TYPE_SFIXED64}
_FLOAT = {FieldDescriptor.TYPE_FLOAT, FieldDescriptor.TYPE_DOUBLE}

Convert = Callable[[Any], Any]
PLAIN, PRESENCE, REPEATED, MAP, ONEOF = range(5)
# (kind, field or oneof name, JSON name, value converter, map key converter, oneof members)
Step = tuple[int, str, str, Convert, Convert, dict[str, tuple[str, Convert]]]
_PLANS: dict[str, list[Step]] = {}
# Small messages that recur from answer to answer (a listed move: `draw`, `discard 4D`)
# have their JSON memoized; a memo is emptied when it reaches MEMO_SIZE entries.
MEMOIZED = frozenset({"canasta.v1.Move"})
MEMO_SIZE = 8192
_MEMO: dict[str, dict[bytes, dict[str, Any]]] = {}
_NONE: dict[str, tuple[str, Convert]] = {}


def _float(v: float) -> Any:
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "Infinity" if v > 0 else "-Infinity"
    return v


def _key(field: FieldDescriptor) -> Convert:
    if field.type == FieldDescriptor.TYPE_BOOL:
        return lambda k: "true" if k else "false"
    return str


def _converter(field: FieldDescriptor) -> Convert:
    t = field.type
    if t == FieldDescriptor.TYPE_MESSAGE:
        sub = field.message_type
        assert sub is not None
        if sub.full_name.startswith("google.protobuf."):
            return lambda m: json_format.MessageToDict(
                m, always_print_fields_with_no_presence=True)
        if sub.full_name in MEMOIZED:
            return lambda m: _memoized(m, sub)
        return lambda m: _object(m, sub)
    if t == FieldDescriptor.TYPE_ENUM:
        enum = field.enum_type
        assert enum is not None
        names = {v.number: v.name for v in enum.values}
        return lambda v: names.get(v, v)
    if t == FieldDescriptor.TYPE_BYTES:
        return lambda v: base64.b64encode(v).decode("ascii")
    if t in _INT64:
        return str
    if t in _FLOAT:
        return _float
    return lambda v: v


def _plan(desc: Descriptor) -> list[Step]:
    plan: list[Step] = []
    done: set[str] = set()
    for f in desc.fields:
        if f.name in done:
            continue
        oneof = f.containing_oneof
        if oneof is not None and len(oneof.fields) > 1:  # a real oneof: one WhichOneof call
            members = {m.name: (m.json_name, _converter(m)) for m in oneof.fields}
            done.update(members)
            plan.append((ONEOF, oneof.name, "", str, str, members))
            continue
        msg = f.message_type
        if msg is not None and msg.GetOptions().map_entry:
            plan.append((MAP, f.name, f.json_name, _converter(msg.fields_by_name["value"]),
                         _key(msg.fields_by_name["key"]), _NONE))
        elif f.is_repeated:
            plan.append((REPEATED, f.name, f.json_name, _converter(f), str, _NONE))
        else:
            plan.append((PRESENCE if f.has_presence else PLAIN, f.name, f.json_name,
                         _converter(f), str, _NONE))
    return plan


def _object(msg: Message, desc: Descriptor) -> dict[str, Any]:
    plan = _PLANS.get(desc.full_name)
    if plan is None:
        plan = _PLANS[desc.full_name] = _plan(desc)
    out: dict[str, Any] = {}
    for kind, name, json_name, conv, key, members in plan:
        if kind == PLAIN:
            out[json_name] = conv(getattr(msg, name))
        elif kind == REPEATED:
            out[json_name] = [conv(v) for v in getattr(msg, name)]
        elif kind == ONEOF:
            chosen = msg.WhichOneof(name)
            if chosen is not None:
                member_json, member_conv = members[chosen]
                out[member_json] = member_conv(getattr(msg, chosen))
        elif kind == PRESENCE:
            if msg.HasField(name):
                out[json_name] = conv(getattr(msg, name))
        else:
            out[json_name] = {key(k): conv(v) for k, v in getattr(msg, name).items()}
    return out


def _memoized(msg: Message, desc: Descriptor) -> dict[str, Any]:
    """``_object`` through a bounded memo keyed by the message's bytes: the same
    message always has the same JSON. The dicts are shared, so nobody may change them."""
    key = msg.SerializeToString(deterministic=True)
    memo = _MEMO.setdefault(desc.full_name, {})
    hit = memo.get(key)
    if hit is None:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        hit = memo[key] = _object(msg, desc)
    return hit


def to_dict(msg: Message) -> dict[str, Any]:
    """The message as a JSON-ready dict."""
    return _object(msg, cast(Descriptor, msg.DESCRIPTOR))


def to_json(msg: Message) -> bytes:
    """The message as compact UTF-8 JSON (orjson: the same bytes as the standard library's
    ``json.dumps(..., ensure_ascii=False, separators=(",", ":"))``, several times faster)."""
    return orjson.dumps(_object(msg, cast(Descriptor, msg.DESCRIPTOR)))


def dumps(value: dict[str, Any]) -> bytes:
    """A JSON-ready dict (``to_dict`` output, possibly assembled) written as ``to_json``
    writes a message."""
    return orjson.dumps(value)
