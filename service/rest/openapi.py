"""The OpenAPI 3.1 document of the REST gateway, built from the proto descriptors.

Paths come from each RPC's ``google.api.http`` rule; schemas follow the proto3
JSON mapping (lowerCamelCase names, 64-bit integers as strings, bytes as
base64, enums as names), so the document cannot drift from the contract.
Every operation lists the HTTP statuses it can answer with (docs/api.md,
*Errors*) and the ``X-Request-Id`` header every answer carries; errors are the
AIP-193 body. Operations on a game's snapshot declare the ``bearerAuth`` scheme
(the game's credential; optional, since a spectator sends none).

Descriptions are the proto comments (operations, messages, fields, enum values),
read from the descriptors with source info that ``make setup`` generates
(:func:`service.codegen.descriptor_set`): the generated modules drop comments. A
request field is ``required`` where the service refuses the request without it
(:data:`REQUIRED`); each operation carries an example request and answer
(:mod:`service.rest.examples`). ``tests/service/test_api_document.py`` counts the
descriptions and checks the examples and requirements against the live service;
``tests/hardening/test_openapi_fuzz.py`` holds the server to the document.
Written here rather than derived by FastAPI from pydantic models: such models would
make REST slower and the document poorer (measured: :mod:`service.rest.app`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from google.api import annotations_pb2
from google.protobuf.descriptor import (
    Descriptor,
    EnumDescriptor,
    FieldDescriptor,
    MethodDescriptor,
    ServiceDescriptor,
)
from google.protobuf.descriptor_pb2 import DescriptorProto, EnumDescriptorProto, FileDescriptorProto
from google.rpc import code_pb2

from service import codegen
from service.rest import examples

_INT32 = {"type": "integer", "format": "int32", "minimum": -(1 << 31), "maximum": (1 << 31) - 1}
_UINT32 = {"type": "integer", "format": "uint32", "minimum": 0, "maximum": (1 << 32) - 1}
# 64-bit integers are decimal strings, as answers write them. Requests may also send
# numbers (docs/api.md, *JSON mapping*), but two types gave a generated client a union
# (`int | str`) or a wrapper class to read every seq through.
_INT64 = {"type": "string", "format": "int64", "pattern": "^-?[0-9]+$"}
_UINT64 = {"type": "string", "format": "uint64", "pattern": "^[0-9]+$"}
_SCALARS: dict[int, dict[str, Any]] = {
    FieldDescriptor.TYPE_STRING: {"type": "string"},
    FieldDescriptor.TYPE_BYTES: {"type": "string", "format": "byte"},
    FieldDescriptor.TYPE_BOOL: {"type": "boolean"},
    FieldDescriptor.TYPE_INT32: _INT32,
    FieldDescriptor.TYPE_SINT32: _INT32,
    FieldDescriptor.TYPE_SFIXED32: _INT32,
    FieldDescriptor.TYPE_UINT32: _UINT32,
    FieldDescriptor.TYPE_FIXED32: _UINT32,
    FieldDescriptor.TYPE_INT64: _INT64,
    FieldDescriptor.TYPE_SINT64: _INT64,
    FieldDescriptor.TYPE_SFIXED64: _INT64,
    FieldDescriptor.TYPE_UINT64: _UINT64,
    FieldDescriptor.TYPE_FIXED64: _UINT64,
    FieldDescriptor.TYPE_DOUBLE: {"type": "number"},
    FieldDescriptor.TYPE_FLOAT: {"type": "number"},
}

_TYPE_URL = "type.googleapis.com/google.rpc."


def _detail(name: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {"type": "object", "title": f"google.rpc.{name}",
            "required": ["@type", *required], "additionalProperties": False,
            "properties": {"@type": {"type": "string", "const": _TYPE_URL + name,
                                     "description": "the detail's type"}, **properties}}


def _text(description: str) -> dict[str, Any]:
    return {"type": "string", "description": description}


# The details an error carries, each a component of its own, told apart by @type (the
# discriminator) and by the fields each requires: a generated client that tries each
# class in turn, its @type unchecked, matched every detail to a BadRequest requiring none.
_DETAILS: dict[str, dict[str, Any]] = {f"google.rpc.{name}": _detail(name, props, required)
                                      for name, props, required in (
    ("ErrorInfo", {
        "reason": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$",
                   "description": "the stable code to branch on (docs/errors.md)"},
        "domain": {"type": "string", "const": "canasta-rules",
                   "description": "always canasta-rules"},
        "metadata": {"type": "object", "additionalProperties": {"type": "string"},
                     "description": "facts of the refusal, and the request_id"}},
     ["reason", "domain"]),
    ("BadRequest", {"fieldViolations": {
        "type": "array", "description": "the request field at fault", "minItems": 1,
        "items": {"type": "object", "additionalProperties": False,
                  "required": ["field", "description"], "properties": {
                      "field": _text("the field's path in the request"),
                      "description": _text("what is wrong with it")}}}}, ["fieldViolations"]),
    ("LocalizedMessage", {"locale": _text("the message's language"),
                          "message": _text("the message in it")}, ["locale", "message"]),
    ("RetryInfo", {"retryDelay": {
        "type": "string", "pattern": "^[0-9]+(\\.[0-9]+)?s$",
        "description": "how long to wait before retrying (a proto3 JSON Duration, \"1s\"), "
                       "as the Retry-After header says"}}, ["retryDelay"]),
)}
_DETAIL_REFS = {schema["properties"]["@type"]["const"]: f"#/components/schemas/{name}"
                for name, schema in _DETAILS.items()}

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "AIP-193 error: the google.rpc.Status of the gRPC answer.",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {"error": {
        "type": "object",
        "description": "what went wrong",
        "required": ["code", "status", "message", "details"],
        "additionalProperties": False,
        "properties": {
            "code": {"type": "integer", "description": "the HTTP status"},
            "status": {"type": "string", "description": "the google.rpc.Code name",
                       "enum": [v.name for v in code_pb2.DESCRIPTOR.enum_types_by_name[
                           "Code"].values if v.number]},
            "message": _text("in the Accept-Language language"),
            "details": {"type": "array", "description": "one ErrorInfo, a BadRequest where "
                        "a field is at fault, one LocalizedMessage, and a RetryInfo where the "
                        "refusal is of load (429, 503)", "items": {
                            "oneOf": [{"$ref": ref} for ref in _DETAIL_REFS.values()],
                            "discriminator": {"propertyName": "@type",
                                              "mapping": _DETAIL_REFS}}},
        },
    }},
}
_REQUEST_ID = {"X-Request-Id": {"required": True, "schema": {"type": "string"},
                                "description": "the caller's request id, or one made up"}}


_CHALLENGE = {"WWW-Authenticate": {"required": True, "schema": {"type": "string"},
                                   "description": "the scheme to use: Bearer (RFC 6750)"}}
_RETRY_AFTER = {"Retry-After": {"schema": {"type": "integer"},
                                "description": "seconds to wait before retrying (RFC 9110)"}}
# the RPCs that put a request to the rules, which may refuse it (422): a move, the next
# deal, a bot's move for a seat that may not act, a record's moves; the others only read a
# position (its views, moves, score or text), which the rules never refuse
_RULED = frozenset({"ApplyMove", "NextDeal", "SuggestMove", "ExportRecord"})
# the RPCs where a seat's credential may ask for more than its seat may have
_SEAT_LIMITED = frozenset({"ApplyMove", "GetView", "NextDeal", "ExportPosition", "ExportRecord",
                           "SuggestMove"})


def _error(text: str) -> dict[str, Any]:
    return {"description": text, "headers": _REQUEST_ID, "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _errors(method: MethodDescriptor, has_body: bool, long_call: bool) -> dict[str, Any]:
    """The error answers of one RPC route (docs/api.md, *Errors*)."""
    out: dict[str, Any] = {}
    if has_body:
        out["400"] = _error("INVALID_ARGUMENT (category request or snapshot): a malformed "
                            "request, cards the seat does not hold, a snapshot that does not "
                            "open")
    if _on_a_game(method):
        out["401"] = _error("UNAUTHENTICATED CREDENTIAL_REQUIRED, CREDENTIAL_INVALID, "
                            "CREDENTIAL_KEY_RETIRED or CREDENTIAL_VERSION_UNSUPPORTED: the "
                            "call needs a valid credential of this game")
        out["401"]["headers"] = {**_REQUEST_ID, **_CHALLENGE}
    if method.name in _RULED:
        out["422"] = _error("FAILED_PRECONDITION (category rule): a well-formed move or call "
                            "the rules refuse in this position (ErrorInfo.metadata.rule)")
    if method.name in _SEAT_LIMITED:
        out["403"] = _error("PERMISSION_DENIED SEAT_NOT_ALLOWED: a seat's credential used for "
                            "what only another seat or the host may do" + (
                                "; EXPORT_DISABLED: the server's export policy"
                                if method.name == "ExportPosition" else ""))
    if "expected_seq" in method.input_type.fields_by_name:
        out["409"] = _error("ABORTED SNAPSHOT_STALE or SNAPSHOT_WRONG_GAME: expected_seq or "
                            "expected_game_id is not the snapshot's")
    if has_body:
        out["408"] = _error("DEADLINE_EXCEEDED REQUEST_TIMEOUT: the body did not arrive within "
                            "CANASTA_HTTP_BODY_TIMEOUT_S")
        out["413"] = _error("RESOURCE_EXHAUSTED REQUEST_TOO_LARGE: the body is over the limit")
        out["415"] = _error("INVALID_ARGUMENT UNSUPPORTED_MEDIA_TYPE: the body is not declared "
                            "application/json")
    if long_call:
        out["429"] = _error("RESOURCE_EXHAUSTED TOO_MANY_CALLS: CANASTA_MAX_CONCURRENT_RPCS "
                            "long calls are running or queued; retry after Retry-After")
        out["429"]["headers"] = {**_REQUEST_ID,
                                 "Retry-After": {**_RETRY_AFTER["Retry-After"], "required": True}}
    out["500"] = _error("INTERNAL: a bug")
    out["503"] = _error("UNAVAILABLE: the server is shutting down, or at its connection "
                        "limit (then with Retry-After)")
    out["503"]["headers"] = {**_REQUEST_ID, **_RETRY_AFTER}
    return out


# Request fields the service refuses a request without (REQUEST_INVALID on the field):
# these, and every request's snapshot (empty: SNAPSHOT_INVALID).
REQUIRED: dict[str, tuple[str, ...]] = {
    "canasta.v1.DealRequest": ("variant", "players"),
    "canasta.v1.ApplyMoveRequest": ("move",),
    "canasta.v1.ImportPositionRequest": ("position",),
}


def required(request: Descriptor) -> tuple[str, ...]:
    """The fields (proto names) a request message must carry."""
    snapshot = ("snapshot",) if "snapshot" in request.fields_by_name else ()
    return (*snapshot, *REQUIRED.get(request.full_name, ()))


def always_printed(answer: Descriptor) -> tuple[str, ...]:
    """The fields (proto names) every answer of this message carries: those without
    presence, which the JSON mapping prints even at their default (service/api/jsonfmt.py)."""
    return tuple(f.name for f in answer.fields if not f.has_presence)


def _sent(roots: Iterable[Descriptor]) -> set[str]:
    """The messages a request may carry: these and every message in their fields."""
    seen: set[str] = set()
    todo = list(roots)
    while todo:
        desc = todo.pop()
        if desc.full_name not in seen:
            seen.add(desc.full_name)
            todo += [f.message_type for f in desc.fields if f.message_type is not None]
    return seen


def _on_a_game(method: MethodDescriptor) -> bool:
    """Whether an RPC acts on a game's snapshot (and so reads the caller's credential)."""
    return "snapshot" in method.input_type.fields_by_name


LICENSE = {"name": "Apache-2.0", "identifier": "Apache-2.0"}  # pyproject.toml's
BEARER = {"type": "http", "scheme": "bearer",
          "description": "a credential of the game: its hostToken or one of its seatTokens "
                         "(Deal, ImportPosition); none for a spectator (docs/security.md)"}


def http_rule(method: MethodDescriptor) -> tuple[str, str]:
    """(verb, path) of a method's ``google.api.http`` option."""
    rule = method.GetOptions().Extensions[annotations_pb2.http]
    kind = rule.WhichOneof("pattern")
    if kind not in ("get", "post", "put", "patch", "delete"):
        raise ValueError(f"{method.full_name} has no usable google.api.http rule")
    return kind.upper(), getattr(rule, kind)


def comments(files: Iterable[FileDescriptorProto]) -> dict[str, str]:
    """The comment of every service, method, message, field, enum and enum value of
    ``files`` (descriptors with source info), by full name; an enum value's name is
    its enum's full name, a dot and the value's name. Leading comments, else trailing."""
    out: dict[str, str] = {}
    for file in files:
        # source locations are paths of field numbers: FileDescriptorProto.message_type
        # is 4, enum_type 5, service 6 (and ServiceDescriptorProto.method 2)
        names: dict[tuple[int, ...], str] = {}
        for i, m in enumerate(file.message_type):
            _message_names(m, file.package, (4, i), names)
        for i, e in enumerate(file.enum_type):
            _enum_names(e, file.package, (5, i), names)
        for i, svc in enumerate(file.service):
            names[(6, i)] = f"{file.package}.{svc.name}"
            for j, method in enumerate(svc.method):
                names[(6, i, 2, j)] = f"{file.package}.{svc.name}.{method.name}"
        for loc in file.source_code_info.location:
            name = names.get(tuple(loc.path))
            text = _clean(loc.leading_comments or loc.trailing_comments)
            if name is not None and text:
                out[name] = text
    return out


def _enum_names(e: EnumDescriptorProto, scope: str, path: tuple[int, ...],
                names: dict[tuple[int, ...], str]) -> None:
    name = names[path] = f"{scope}.{e.name}"
    for i, value in enumerate(e.value):  # EnumDescriptorProto.value is 2
        names[(*path, 2, i)] = f"{name}.{value.name}"


def _message_names(m: DescriptorProto, scope: str, path: tuple[int, ...],
                   names: dict[tuple[int, ...], str]) -> None:
    """DescriptorProto: field is 2, nested_type 3, enum_type 4."""
    name = names[path] = f"{scope}.{m.name}"
    for i, f in enumerate(m.field):
        names[(*path, 2, i)] = f"{name}.{f.name}"
    for i, nested in enumerate(m.nested_type):
        _message_names(nested, name, (*path, 3, i), names)
    for i, e in enumerate(m.enum_type):
        _enum_names(e, name, (*path, 4, i), names)


def _clean(comment: str) -> str:
    """A proto comment as Markdown: lines stripped, paragraphs kept."""
    return "\n".join(line.strip() for line in comment.strip().splitlines())


def _ref(desc: Descriptor) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{desc.full_name}"}


def _enum(enum: EnumDescriptor, notes: Mapping[str, str]) -> dict[str, Any]:
    """An enum by name; its description lists what each value means."""
    lines = [notes.get(enum.full_name, enum.name), ""]
    lines += [f"- `{v.name}`: {notes.get(f'{enum.full_name}.{v.name}', v.name)}"
              for v in enum.values]
    return {"type": "string", "enum": [v.name for v in enum.values],
            "description": "\n".join(lines)}


def _field(field: FieldDescriptor, todo: list[Descriptor | EnumDescriptor],
           notes: Mapping[str, str]) -> dict[str, Any]:
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        msg = field.message_type
        assert msg is not None
        if msg.GetOptions().map_entry:
            return {"type": "object",
                    "additionalProperties": _field(msg.fields_by_name["value"], todo, notes)}
        todo.append(msg)
        item: dict[str, Any] = _ref(msg)
    elif field.type == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        todo.append(field.enum_type)
        item = {"$ref": f"#/components/schemas/{field.enum_type.full_name}"}
    else:
        item = dict(_SCALARS[field.type])
    if field.is_repeated:
        return {"type": "array", "items": item}
    return item


def _property(field: FieldDescriptor, todo: list[Descriptor | EnumDescriptor],
              notes: Mapping[str, str]) -> dict[str, Any]:
    """A field's schema with its comment (beside a ``$ref`` too: OpenAPI 3.1)."""
    out = _field(field, todo, notes)
    note = notes.get(field.full_name)
    return {**out, "description": note} if note else out


def _schema(desc: Descriptor, todo: list[Descriptor | EnumDescriptor],
            notes: Mapping[str, str], required: tuple[str, ...]) -> dict[str, Any]:
    props = {f.json_name: _property(f, todo, notes) for f in desc.fields}
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    text = [notes[desc.full_name]] if desc.full_name in notes else []
    real = [o for o in desc.oneofs if not o.name.startswith("_")]
    text += [f"At most one of {', '.join(f.json_name for f in o.fields)}." for o in real]
    if text:
        out["description"] = "\n\n".join(text)
    if required:
        out["required"] = [desc.fields_by_name[name].json_name for name in required]
    return out


def _summary(text: str) -> str:
    """A comment's first sentence, cut to its head when long."""
    first = text.replace("\n", " ").split(". ", 1)[0].rstrip(".")
    for cut in (": ", "; ", " ("):
        if len(first) > 60:
            first = first.split(cut, 1)[0]
    return first


_PROBES = "Probes"


def _probe(operation_id: str, summary: str, description: str,
           responses: dict[str, Any]) -> dict[str, Any]:
    return {"get": {"operationId": operation_id, "tags": [_PROBES], "summary": summary,
                    "description": description, "security": [], "responses": responses}}


def document(service: ServiceDescriptor, title: str, version: str,
             long_calls: frozenset[str] = frozenset(), metrics: bool = True) -> dict[str, Any]:
    """The whole OpenAPI document of a service's HTTP rules, described by the proto
    comments of the generated descriptor set; ``long_calls`` (method names) may also
    answer 429; ``metrics``: /metrics is on this port (not on one of its own)."""
    notes = comments(codegen.descriptor_set().file)
    schemas: dict[str, Any] = {"Error": ERROR_SCHEMA, **_DETAILS}
    todo: list[Descriptor | EnumDescriptor] = []
    inputs: dict[str, tuple[str, ...]] = {}
    paths: dict[str, Any] = {}
    params = [
        {"name": "Accept-Language", "in": "header", "required": False,
         "schema": {"type": "string"}, "description": "en (default) or ru"},
        {"name": "X-Request-Id", "in": "header", "required": False,
         "schema": {"type": "string"}, "description": "echoed back and logged"},
    ]
    for method in service.methods:
        verb, path = http_rule(method)
        todo += [method.input_type, method.output_type] if verb != "GET" else [
            method.output_type]
        inputs[method.input_type.full_name] = required(method.input_type)
        text = notes.get(method.full_name, method.name)
        request, answer = examples.EXAMPLES[method.name]
        op: dict[str, Any] = {
            "operationId": method.name,
            "tags": [service.name],
            "summary": _summary(text),
            "description": f"{text}\n\ngRPC: `{service.full_name}/{method.name}`.",
            "parameters": params,
            "responses": {
                "200": {"description": notes.get(method.output_type.full_name, "OK"),
                        "headers": _REQUEST_ID, "content": {"application/json": {
                            "schema": _ref(method.output_type), "example": answer}}},
                **_errors(method, verb != "GET", method.name in long_calls),
            },
        }
        if verb != "GET":
            op["requestBody"] = {"required": True, "content": {"application/json": {
                "schema": _ref(method.input_type), "example": request}}}
        # a call on a game presents a credential or none (a spectator); the others read
        # none, said outright: an operation without `security` would fall back to a
        # global one, and linters flag it
        op["security"] = [{"bearerAuth": []}, {}] if _on_a_game(method) else []
        paths.setdefault(path, {})[verb.lower()] = op
    sent = _sent(m.input_type for m in service.methods)
    while todo:
        desc = todo.pop()
        if desc.full_name in schemas:
            continue
        if isinstance(desc, EnumDescriptor):
            schemas[desc.full_name] = _enum(desc, notes)
        else:
            # a message only answers carry requires what they always print; one a
            # request carries too, only what the service refuses a request without
            must = inputs.get(desc.full_name, ()) if desc.full_name in sent else (
                always_printed(desc))
            schemas[desc.full_name] = _schema(desc, todo, notes, must)
    status = {"application/json": {"example": {"status": "SERVING"}, "schema": {
        "type": "object", "required": ["status"], "additionalProperties": False,
        "properties": {"status": {"type": "string", "enum": ["SERVING", "NOT_SERVING"],
                                  "description": "NOT_SERVING while shutting down"}}}}}
    probe = {"description": "OK", "headers": _REQUEST_ID, "content": status}
    paths["/healthz"] = _probe("Healthz", "liveness", "SERVING while the process runs (for a liveness "
                               "probe).", {"200": probe})
    paths["/readyz"] = _probe("Readyz", "readiness", "SERVING while the server takes calls, 503 "
                              "NOT_SERVING once it is shutting down, until its listener "
                              "closes a moment later (for a readiness probe).",
                              {"200": probe, "503": {**probe, "description": "shutting down"}})
    if metrics:
        paths["/metrics"] = _probe("Metrics", "Prometheus metrics", "The Prometheus text exposition "
                                   "(docs/operations.md lists the metrics).", {"200": {
                                       "description": "OK", "headers": _REQUEST_ID,
                                       "content": {"text/plain": {"schema": {
                                           "type": "string"}}}}})
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": version,
                 "description": notes.get(service.full_name, ""), "license": LICENSE},
        # relative: the server that serves this document (the default, said for linters)
        "servers": [{"url": "/", "description": "the server of this document"}],
        "tags": [{"name": service.name, "description": "the RPCs of the rules service "
                  "(one per google.api.http rule)"},
                 {"name": _PROBES, "description": "health and metrics for the platform"}],
        "paths": paths,
        "components": {"schemas": dict(sorted(schemas.items())),
                       "securitySchemes": {"bearerAuth": BEARER}},
    }
