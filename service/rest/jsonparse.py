"""Proto3 JSON input: ``json_format.Parse`` semantics, with a fast path for plain bodies.

``json_format.Parse`` walks every value through many small calls, and every
REST call parses its body. This parser reads the common shapes directly:
objects of known fields (JSON or proto names) holding strings, bytes (base64,
decoded exactly as ``json_format`` does), booleans, integers in range (also
64-bit ones written as decimal strings, as docs/api.md shows them and the
TypeScript client sends them), nested messages, oneofs, repeated fields and
``map<string, string>``; a body of the snapshot alone goes through
:func:`snapshot_only`. Anything else — a null, a number in another text form, an
enum, a duplicate key or field, an unknown field, malformed JSON — is handed to
``json_format.Parse`` itself, so every accepted body gives the same message and
every refused one the same error. ``tests/service/test_jsonparse.py`` checks
both agree with ``json_format`` and that the documented bodies take the fast path.
Where json_format refuses a value in the words of a Python error, naming no field,
:func:`misfit` finds the value's field (the REST gateway's refusal is on that field); a
field given twice, which json_format refuses without naming it or (by both its names)
accepts, :func:`twice` finds for the gateway, which refuses it (``parse(...,
strict=True)``). :func:`faults` words every refusal (what the value must be, an unknown
field, two arms of a oneof, a null in a list), so none repeats json_format's words.
:func:`misfit` and :func:`faults` run only once a body is refused; :func:`twice` runs on
every body the fast path hands to json_format (with ``strict``), accepted ones included.

Why it stays (measured with protobuf 7.36 upb, CPython 3.11, on a loaded 2-core
machine; the median of 15 interleaved rounds of 1000 parses each): on every request
body docs/api.md and /openapi.json show, with snapshots of a real size, it is
1.35-4.3x as fast as ``json_format.Parse`` (docs/api.md's ApplyMove 77 -> 43 µs,
Deal 40 -> 18 µs; ImportPosition 66 -> 12 µs; the slowest gain, NextDeal, 1.35x).
Before 64-bit integers written as strings were read here, those bodies fell back
after a wasted first pass and it was 0.4-0.7x.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any, NamedTuple, cast

import orjson
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

_SURROGATE = re.compile("[\ud800-\udfff]")
_DECIMAL = re.compile(r"-?[0-9]{1,20}", re.ASCII)
_INTS = frozenset({FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_INT64,
                   FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64,
                   FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_SINT64,
                   FieldDescriptor.TYPE_FIXED32, FieldDescriptor.TYPE_FIXED64,
                   FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_SFIXED64})


# The values an integer field holds, by its C++ type; the other types in words
_INT_RANGES = {FieldDescriptor.CPPTYPE_INT32: (-2**31, 2**31 - 1),
               FieldDescriptor.CPPTYPE_UINT32: (0, 2**32 - 1),
               FieldDescriptor.CPPTYPE_INT64: (-2**63, 2**63 - 1),
               FieldDescriptor.CPPTYPE_UINT64: (0, 2**64 - 1)}


class _Slow(Exception):
    """The body is not of the plain shapes: let json_format decide."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise _Slow  # json_format refuses duplicate keys with its own message
    return out


def _fields(desc: Descriptor) -> dict[str, FieldDescriptor]:
    found = _BY_KEY.get(desc.full_name)
    if found is None:
        found = {}
        for f in desc.fields:
            found[f.json_name] = f
            found[f.name] = f
        _BY_KEY[desc.full_name] = found
    return found


_BY_KEY: dict[str, dict[str, FieldDescriptor]] = {}
# one decoder for every body: json.loads with a hook builds a new one (and its scanner) a call
_DECODER = json.JSONDecoder(object_pairs_hook=_pairs)


def _base64(value: Any) -> bytes:
    """A bytes field's JSON value, decoded as json_format decodes it."""
    if type(value) is not str:
        raise _Slow
    try:
        encoded = value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (JSON "\ud800") is no base64 text
        raise _Slow from None
    padded = encoded + b"=" * (4 - len(encoded) % 4)
    try:  # the very decoding json_format uses (without '-' or '_', urlsafe is standard)
        if b"-" in encoded or b"_" in encoded:
            return base64.urlsafe_b64decode(padded)
        return binascii.a2b_base64(padded)
    except ValueError:
        raise _Slow from None


def _scalar(field: FieldDescriptor, value: Any) -> Any:
    t = field.type
    if t == FieldDescriptor.TYPE_STRING:
        if type(value) is not str or (not value.isascii() and _SURROGATE.search(value)):
            raise _Slow
        return value
    if t == FieldDescriptor.TYPE_BYTES:
        return _base64(value)
    if t == FieldDescriptor.TYPE_BOOL:
        if type(value) is not bool:
            raise _Slow
        return value
    if t in _INTS:
        if type(value) is int:
            return value
        # 64-bit integers arrive as strings (the proto3 JSON form, docs/api.md; the
        # TypeScript client sends them so): plain decimal ones are read here, any other
        # text ("1e3", " 1", "1_000") is json_format's to accept or word a refusal for
        if type(value) is str and _DECIMAL.fullmatch(value):
            return int(value)
        raise _Slow

    raise _Slow  # floats, enums: json_format


def _fill(msg: Message, data: Any, desc: Descriptor) -> None:
    if type(data) is not dict:
        raise _Slow
    fields = _fields(desc)
    seen: set[str] = set()
    oneofs: set[str] = set()
    for key, value in data.items():
        field = fields.get(key)
        if field is None or value is None or field.name in seen:
            raise _Slow
        seen.add(field.name)
        oneof = field.containing_oneof
        if oneof is not None:
            if oneof.name in oneofs:
                raise _Slow
            oneofs.add(oneof.name)
        sub = field.message_type
        try:
            if sub is not None and sub.GetOptions().map_entry:
                _map(getattr(msg, field.name), value, sub)
            elif field.is_repeated:
                if type(value) is not list:
                    raise _Slow
                target = getattr(msg, field.name)
                if sub is not None:
                    for item in value:
                        _fill(target.add(), item, sub)
                else:
                    target.extend([_scalar(field, item) for item in value])
            elif sub is not None:
                if sub.full_name.startswith("google.protobuf."):
                    raise _Slow
                child = getattr(msg, field.name)
                child.SetInParent()
                _fill(child, value, sub)
            else:
                setattr(msg, field.name, _scalar(field, value))
        except (TypeError, ValueError):  # out of range, say: json_format words it
            raise _Slow from None


def _map(target: Any, value: Any, entry: Descriptor) -> None:
    key_field, value_field = entry.fields_by_name["key"], entry.fields_by_name["value"]
    if (type(value) is not dict or key_field.type != FieldDescriptor.TYPE_STRING
            or value_field.type != FieldDescriptor.TYPE_STRING):
        raise _Slow
    for k, v in value.items():
        target[_scalar(key_field, k)] = _scalar(value_field, v)


class Twice(ValueError):
    """A body that gives one field twice (:func:`twice`): ``path`` is its JSON path."""

    def __init__(self, path: str) -> None:
        super().__init__(f"{path} is given twice")
        self.path = path


def parse(body: bytes, message: Message, strict: bool = False) -> Message:
    """Merge a proto3 JSON body into ``message``, exactly as ``json_format.Parse``; with
    ``strict`` (the REST gateway), a body that gives a field twice is refused first.

    :raises json_format.ParseError: as ``json_format.Parse`` raises it.
    :raises Twice: with ``strict``, the JSON path of the first field given twice.
    """
    desc = cast(Descriptor, message.DESCRIPTOR)
    field = desc.fields_by_name.get("snapshot")
    if field is not None and field.type == FieldDescriptor.TYPE_BYTES:
        snapshot = snapshot_only(body)  # a body of the snapshot alone: orjson, no message
        if snapshot is not None:
            cast(Any, message).snapshot = snapshot
            return message
    try:
        data = _DECODER.decode(body.decode("utf-8"))
        scratch = type(message)()
        _fill(scratch, data, desc)
    except (_Slow, ValueError, RecursionError):
        # the fast path takes no body with a key or a field twice: only here can there be one
        found = twice(body, message) if strict else None
        if found is not None:
            raise Twice(found) from None
        return json_format.Parse(body, message)
    message.MergeFrom(scratch)
    return message


class _Object(list[tuple[str, Any]]):
    """A JSON object as its pairs in order, every key kept (:func:`twice`)."""


def twice(body: bytes, message: Message) -> str | None:
    """The JSON path (``move.text``, ``options.a``, ``viewSeat``) of the first field that
    ``body`` gives twice, as one key written twice or as its JSON and its proto name (both
    accepted); ``None`` when there is none, or the body is not JSON. ``json_format``
    refuses the first in words that name no field ("Failed to load JSON: duplicate key"),
    and quietly keeps the last of the second, where a proxy may have read the first: the
    gateway refuses both, naming the field."""
    try:
        data = json.loads(body.decode("utf-8"), object_pairs_hook=_Object)
    except (ValueError, RecursionError):
        return None
    desc = cast(Descriptor, message.DESCRIPTOR)
    return _twice(data, desc, "") if type(data) is _Object else None


def _twice(pairs: _Object, desc: Descriptor, path: str) -> str | None:
    fields = _fields(desc)
    seen: set[str] = set()
    for key, value in pairs:
        field = fields.get(key)
        name = key if field is None else field.name
        at = f"{path}.{key}" if path else key
        if name in seen:
            return at
        seen.add(name)
        if field is None or field.message_type is None:
            continue
        sub = field.message_type
        if sub.GetOptions().map_entry:
            keys: set[str] = set()
            for k, _ in value if type(value) is _Object else ():
                if k in keys:
                    return f"{at}.{k}"
                keys.add(k)
            continue
        # a list where one message belongs is no message: faults() says so, not twice()
        items = list(enumerate(value)) if field.is_repeated and type(value) is list else [
            (-1, value)]
        for i, item in items:
            if type(item) is _Object:
                found = _twice(item, sub, at if i < 0 else f"{at}[{i}]")
                if found is not None:
                    return found
    return None


def snapshot_only(body: bytes) -> bytes | None:
    """The snapshot of a body that is exactly ``{"snapshot": "<base64>"}``, as
    ``json_format`` would read it into a request whose one field is ``bytes snapshot``;
    ``None`` for any other body, which must then be parsed in full.

    It builds no protobuf message: under load, making one costs a REST call more
    than the rules do (docs/operations.md, *The cost of a call*).
    """
    # The key written once and no backslash anywhere: orjson (which keeps the last of
    # duplicate keys) then reads what the standard library would.
    if body.count(b'"snapshot"') != 1 or b"\\" in body:
        return None
    try:
        data = orjson.loads(body)
        if type(data) is not dict or len(data) != 1 or "snapshot" not in data:
            return None
        return _base64(data["snapshot"])
    except (_Slow, ValueError):
        return None


def misfit(body: bytes, message: Message) -> str | None:
    """The JSON path of the first value of ``body`` that its field cannot hold
    (``move.meld.groups[0].cards[1]``); ``None`` when every value fits. A refusal names
    that field where json_format met a Python error ("invalid literal for int() with
    base 10") and named none (:func:`faults` words it). The walk follows
    json_format's order: its first misfit is the value json_format failed on, or an
    earlier one of the wrong type that json_format let pass (``[]`` for an object)."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):
        return None
    desc = cast(Descriptor, message.DESCRIPTOR)
    return _misfit(data, desc, "") if type(data) is dict else None


def _misfit(data: dict[str, Any], desc: Descriptor, path: str) -> str | None:
    fields = _fields(desc)
    for key, value in data.items():
        field = fields.get(key)
        if field is None or value is None:
            continue  # json_format words an unknown field; null is the default
        at = f"{path}.{key}" if path else key
        sub = field.message_type
        if sub is not None and sub.GetOptions().map_entry:
            entry = sub.fields_by_name["value"]
            if type(value) is not dict or not all(_fits(entry, v) for v in value.values()):
                return at
            continue
        if not field.is_repeated:
            found = _misfit_value(field, value, at)
        elif type(value) is not list:
            return at
        else:
            found = next(filter(None, (_misfit_value(field, item, f"{at}[{i}]")
                                       for i, item in enumerate(value))), None)
        if found is not None:
            return found
    return None


def _misfit_value(field: FieldDescriptor, value: Any, at: str) -> str | None:
    if field.message_type is not None:
        return _misfit(value, field.message_type, at) if type(value) is dict else at
    return None if value is None or _fits(field, value) else at


def _fits(field: FieldDescriptor, value: Any) -> bool:
    """Whether json_format reads ``value`` into the scalar ``field``, as far as its type
    and range go (its own refusals, such as of 4.5 for an integer, aside)."""
    if field.type == FieldDescriptor.TYPE_STRING:
        return type(value) is str
    if field.type == FieldDescriptor.TYPE_BYTES:
        try:
            _base64(value)
        except _Slow:
            return False
        return True
    bounds = _INT_RANGES.get(field.cpp_type)
    if bounds is None:
        return True
    number = _integer(value)
    return number is not None and bounds[0] <= number <= bounds[1]


def _integer(value: Any) -> int | None:
    """The integer json_format reads out of a JSON number, or a number written as text."""
    if type(value) is str:
        try:
            return int(value)
        except ValueError:
            try:
                value = float(value)
            except ValueError:
                return None
    if type(value) is float and value.is_integer():
        return int(value)
    return value if type(value) is int else None


class Fault(NamedTuple):
    """A value of a refused body in the gateway's words: its JSON path, a rule of
    ``service.api.messages.REQUEST_DETAILS`` and that line's parameters."""

    path: str
    rule: str
    params: dict[str, str]


def faults(body: bytes, message: Message) -> list[Fault]:
    """Every value of ``body`` that json_format refuses or ``message`` cannot hold, in
    json_format's order: an unknown field, a second arm of a oneof, a value of the wrong
    type or range, a null in a list, text with a lone surrogate; none when the body is not
    a JSON object."""
    try:
        data = json.loads(body.decode("utf-8"))
    except (ValueError, RecursionError):
        return []
    found: list[Fault] = []
    if type(data) is dict:
        _faults(data, cast(Descriptor, message.DESCRIPTOR), "", found)
    return found


def _faults(data: dict[str, Any], desc: Descriptor, path: str, found: list[Fault]) -> None:
    fields = _fields(desc)
    arms: dict[str, str] = {}
    for key, value in data.items():
        at = f"{path}.{key}" if path else key
        field = fields.get(key)
        if field is None and _SURROGATE.search(key):  # no field's name, and no UTF-8
            found.append(Fault(path, "keys" if path else "body_keys", {"what": "text"}))
            continue
        if field is None:
            known = ", ".join(f.json_name for f in desc.fields)
            rule = "unknown_top" if not path else "unknown" if known else "no_fields"
            found.append(Fault(at, rule, {"owner": path, "name": key, "known": known}))
            continue
        oneof = field.containing_oneof
        if oneof is not None and value is not None:
            if oneof.name in arms:
                found.append(Fault(path or "body", "oneof",
                                   {"first": arms[oneof.name], "second": key}))
            arms.setdefault(oneof.name, key)
        if value is None:
            continue  # null is the default
        sub = field.message_type
        if sub is not None and sub.GetOptions().map_entry:
            _map_faults(value, sub, at, found)
        elif not field.is_repeated:
            _value_faults(field, value, at, found)
        elif type(value) is not list:
            found.append(Fault(at, "must", _what(field, "s")))
        else:
            for i, item in enumerate(value):
                if item is None:
                    found.append(Fault(f"{at}[{i}]", "must", _what(field)))
                else:
                    _value_faults(field, item, f"{at}[{i}]", found)


def _map_faults(value: Any, entry: Descriptor, at: str, found: list[Fault]) -> None:
    if type(value) is not dict:
        found.append(Fault(at, "must", {"what": "map"}))
        return
    for k, v in value.items():
        if _SURROGATE.search(k):
            found.append(Fault(at, "keys", {"what": "text"}))
        _value_faults(entry.fields_by_name["value"], v, at, found, f"{at}.{k}")


def _value_faults(field: FieldDescriptor, value: Any, at: str, found: list[Fault],
                  text_at: str = "") -> None:
    """The faults of one value of ``field`` at ``at`` (a map's value: wrong for the map at
    ``at``, a lone surrogate at ``text_at``)."""
    sub = field.message_type
    if sub is not None:
        if type(value) is dict:
            _faults(value, sub, at, found)
        else:
            found.append(Fault(at, "must", {"what": "object"}))
    elif not _fits(field, value) or (field.type == FieldDescriptor.TYPE_BOOL
                                     and type(value) is not bool):
        found.append(Fault(at, "must", {"what": "map"} if text_at else _what(field)))
    elif type(value) is str and field.type == FieldDescriptor.TYPE_STRING and (
            _SURROGATE.search(value)):
        found.append(Fault(text_at or at, "must", {"what": "text"}))


def _what(field: FieldDescriptor, plural: str = "") -> dict[str, str]:
    """What ``field`` holds, as REQUEST_KINDS names it (``plural`` "s": a list of them)."""
    bounds = _INT_RANGES.get(field.cpp_type)
    if bounds is not None:
        return {"what": f"integer{plural}", "low": str(bounds[0]), "high": str(bounds[1])}
    kind = {FieldDescriptor.TYPE_STRING: "string", FieldDescriptor.TYPE_BYTES: "base64",
            FieldDescriptor.TYPE_BOOL: "bool", FieldDescriptor.TYPE_MESSAGE: "object"}
    return {"what": kind.get(field.type, "value") + plural}
