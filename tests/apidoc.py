"""docs/api.md as an integrator reads it: its example calls and answers, its tables.

The examples are JSON with ``...`` where the document leaves something out (``{...,
"seq": "1"}``, ``[..., {...}]``): :func:`loads` reads such text, every ``...`` becoming
the key or item :data:`MORE`. :func:`examples` pairs each request with its answer and
the credential the document says to present. ``tests/test_docs.py`` holds the examples
and tables to the contract, ``tests/service/test_api_md.py`` to the live service.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor

API_MD = Path(__file__).resolve().parent.parent / "docs" / "api.md"
MORE = "..."  # what the document left out: a key of an object, an item of a list
_CALL = re.compile(r"^(GET|POST) (\S+)(?:\s+Authorization: Bearer <(.+)>)?\s*$")


def text() -> str:
    return API_MD.read_text()


def loads(source: str) -> Any:
    """JSON in which a bare ``...`` stands for what was left out: ``"...": "..."`` in an
    object, ``"..."`` in a list."""
    out: list[str] = []
    stack: list[str] = []
    i, quoted = 0, False
    while i < len(source):
        ch = source[i]
        if quoted:
            out.append(ch)
            if ch == "\\":
                out.append(source[i + 1])
                i += 1
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
            out.append(ch)
        elif source.startswith(MORE, i):
            out.append(f'"{MORE}": "{MORE}"' if stack and stack[-1] == "{" else f'"{MORE}"')
            i += len(MORE) - 1
        else:
            if ch in "{[":
                stack.append(ch)
            elif ch in "}]":
                stack.pop()
            out.append(ch)
        i += 1
    return json.loads("".join(out))


@dataclass(frozen=True)
class Example:
    """One example of the document: a call (``verb``, ``path``, the credential it names:
    ``"seat 0's token"``, ``"host token"``, or ``""`` for none said) with its request and
    answer, or an answer shown alone (``path`` empty) under ``section``."""

    section: str
    verb: str
    path: str
    credential: str
    request: dict[str, Any] | None
    answer: dict[str, Any] | None


def _blocks(doc: str) -> list[tuple[str, str]]:
    """Each ```json block with the heading it is under."""
    found = []
    heading = ""
    inside: list[str] | None = None
    for line in doc.splitlines():
        if inside is not None:
            if line.startswith("```"):
                found.append((heading, "\n".join(inside)))
                inside = None
            else:
                inside.append(line)
        elif line.startswith("```json"):
            inside = []
        elif line.startswith("#"):
            heading = line.lstrip("#").strip()
    return found


def _split(body: str) -> list[str]:
    """The JSON values of a block's text, one after another (a value may span lines)."""
    values, depth, start, quoted = [], 0, -1, False
    for i, ch in enumerate(body):
        if quoted:
            quoted = ch != '"' or body[i - 1] == "\\"
            continue
        if ch == '"':
            quoted = True
        elif ch in "{[":
            if depth == 0:
                start = i
            depth += 1
        elif ch in "}]":
            depth -= 1
            if depth == 0:
                values.append(body[start:i + 1])
    return values


def examples(doc: str | None = None) -> list[Example]:
    """Every example of docs/api.md, in order."""
    out: list[Example] = []
    for section, block in _blocks(text() if doc is None else doc):
        calls = [m for m in (_CALL.match(ln) for ln in block.splitlines()) if m]
        if not calls:  # an answer alone (Deal's, ScoreHand's, an error)
            for value in _split(block):
                last = out[-1] if out else None
                if last and last.section == section and last.path and last.answer is None:
                    # the answer of the call shown just before it (Deal's)
                    out[-1] = Example(section, last.verb, last.path, last.credential,
                                      last.request, loads(value))
                else:
                    out.append(Example(section, "", "", "", None, loads(value)))
            continue
        # "VERB PATH [Authorization: ...]" then the request, and "→ answer" when shown
        for part in re.split(r"\n(?=(?:GET|POST) /)", block.strip()):
            head, _, rest = part.partition("\n")
            call = _CALL.match(head)
            assert call, head
            request, _, answer = rest.partition("→")
            values = _split(request)
            out.append(Example(section, call[1], call[2], call[3] or "",
                               loads(values[0]) if values else None,
                               loads(_split(answer)[0]) if answer.strip() else None))
    return out


def field_of(desc: Descriptor, key: str) -> FieldDescriptor | None:
    """The field a JSON key names: its JSON name or its proto name (both are read)."""
    return next((f for f in desc.fields if key in (f.json_name, f.name)), None)


def json_type_fits(field: FieldDescriptor, value: Any) -> bool:
    """Whether one JSON value (not a list's) is of the type the proto3 JSON mapping gives
    the field: 64-bit integers as strings in answers, enums by name, bytes as text."""
    t = field.type
    if t in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_UINT64,
             FieldDescriptor.TYPE_SINT64, FieldDescriptor.TYPE_FIXED64,
             FieldDescriptor.TYPE_SFIXED64):
        return type(value) is str and re.fullmatch(r"-?[0-9]+", value) is not None
    if t == FieldDescriptor.TYPE_BOOL:
        return type(value) is bool
    if t in (FieldDescriptor.TYPE_STRING, FieldDescriptor.TYPE_BYTES):
        return type(value) is str
    if t == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        return value in field.enum_type.values_by_name
    if t == FieldDescriptor.TYPE_MESSAGE:
        return type(value) is dict
    return type(value) is int


def unknown_fields(value: Any, desc: Descriptor, at: str = "") -> list[str]:
    """Where an example names a field its message does not have, or gives a value of
    another JSON type than the mapping's (``...`` stands for anything)."""
    if type(value) is not dict:
        return [f"{at or '.'}: {value!r} is not an object"]
    wrong = []
    for key, item in value.items():
        if key == MORE:
            continue
        field = field_of(desc, key)
        where = f"{at}.{key}" if at else key
        if field is None:
            wrong.append(f"{where}: no such field in {desc.full_name}")
            continue
        sub = field.message_type
        if sub is not None and sub.GetOptions().map_entry:
            if type(item) is not dict:
                wrong.append(f"{where}: a map is an object")
            continue
        items = item if field.is_repeated else [item]
        if field.is_repeated and type(item) is not list:
            wrong.append(f"{where}: a repeated field is a list")
            continue
        for i, one in enumerate(items):
            spot = f"{where}[{i}]" if field.is_repeated else where
            if one == MORE:
                continue
            if sub is not None:
                wrong += unknown_fields(one, sub, spot)
            elif not json_type_fits(field, one):
                wrong.append(f"{spot}: {one!r} is not of the JSON type of {field.full_name}")
    return wrong


def table(doc: str, header: str) -> list[list[str]]:
    """The rows of the Markdown table whose header row starts with ``header``, as cells."""
    rest = doc.split(header, 1)[1]
    rows = []
    for line in rest.splitlines()[2:]:
        if not line.strip().startswith("|"):
            break
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows
