"""The OpenAPI 3.1 document of the REST gateway, built from the proto descriptors.

Paths come from each RPC's ``google.api.http`` rule; schemas follow the proto3
JSON mapping (lowerCamelCase names, 64-bit integers as strings, bytes as
base64, enums as names), so the document cannot drift from the contract.
Every operation lists the HTTP statuses it can answer with (docs/api.md,
*Errors*) and the ``X-Request-Id`` header every answer carries; errors are the
AIP-193 body. Operations on a game's snapshot declare the ``bearerAuth`` scheme
(the game's credential; optional, since a spectator sends none).
``tests/hardening/test_openapi_fuzz.py`` holds the server to it.
"""

from __future__ import annotations

from typing import Any

from google.api import annotations_pb2
from google.protobuf.descriptor import (
    Descriptor,
    FieldDescriptor,
    MethodDescriptor,
    ServiceDescriptor,
)
from google.rpc import code_pb2

_INT32 = {"type": "integer", "format": "int32", "minimum": -(1 << 31), "maximum": (1 << 31) - 1}
_UINT32 = {"type": "integer", "format": "uint32", "minimum": 0, "maximum": (1 << 32) - 1}
# 64-bit integers are decimal strings in answers; requests may also send numbers.
_INT64 = {"type": ["string", "integer"], "format": "int64", "pattern": "^-?[0-9]+$",
          "minimum": -(1 << 63), "maximum": (1 << 63) - 1}
_UINT64 = {"type": ["string", "integer"], "format": "uint64", "pattern": "^[0-9]+$",
           "minimum": 0, "maximum": (1 << 64) - 1}
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
            "properties": {"@type": {"const": _TYPE_URL + name}, **properties}}


_TEXT = {"type": "string"}
ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "AIP-193 error: the google.rpc.Status of the gRPC answer.",
    "required": ["error"],
    "additionalProperties": False,
    "properties": {"error": {
        "type": "object",
        "required": ["code", "status", "message", "details"],
        "additionalProperties": False,
        "properties": {
            "code": {"type": "integer", "description": "the HTTP status"},
            "status": {"type": "string", "description": "the google.rpc.Code name",
                       "enum": [v.name for v in code_pb2.DESCRIPTOR.enum_types_by_name[
                           "Code"].values if v.number]},
            "message": {"type": "string", "description": "in the Accept-Language language"},
            "details": {"type": "array", "items": {"oneOf": [
                _detail("ErrorInfo", {
                    "reason": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$",
                               "description": "the stable code to branch on (docs/errors.md)"},
                    "domain": {"const": "canasta-rules"},
                    "metadata": {"type": "object", "additionalProperties": _TEXT}},
                    ["reason", "domain"]),
                _detail("BadRequest", {"fieldViolations": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False,
                    "properties": {"field": _TEXT, "description": _TEXT}}}}, []),
                _detail("LocalizedMessage", {"locale": _TEXT, "message": _TEXT},
                        ["locale", "message"]),
            ]}},
        },
    }},
}
_REQUEST_ID = {"X-Request-Id": {"required": True, "schema": {"type": "string"},
                                "description": "the caller's request id, or one made up"}}


_CHALLENGE = {"WWW-Authenticate": {"required": True, "schema": {"type": "string"},
                                   "description": "the scheme to use: Bearer (RFC 6750)"}}
# the RPCs where a seat's credential may ask for more than its seat may have
_SEAT_LIMITED = frozenset({"ApplyMove", "GetView", "NextDeal", "ExportPosition", "SuggestMove"})


def _error(text: str) -> dict[str, Any]:
    return {"description": text, "headers": _REQUEST_ID, "content": {
        "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}


def _errors(method: MethodDescriptor, has_body: bool) -> dict[str, Any]:
    """The error answers of one RPC route (docs/api.md, *Errors*)."""
    out: dict[str, Any] = {}
    if has_body:
        out["400"] = _error("INVALID_ARGUMENT or FAILED_PRECONDITION: a malformed request, a "
                            "snapshot that does not open, a move the rules forbid now")
    if _on_a_game(method):
        out["401"] = _error("UNAUTHENTICATED CREDENTIAL_REQUIRED, CREDENTIAL_INVALID, "
                            "CREDENTIAL_KEY_RETIRED or CREDENTIAL_VERSION_UNSUPPORTED: the "
                            "call needs a valid credential of this game")
        out["401"]["headers"] = {**_REQUEST_ID, **_CHALLENGE}
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
    out["500"] = _error("INTERNAL: a bug")
    out["503"] = _error("UNAVAILABLE: the server is shutting down or at its connection limit")
    return out


def _on_a_game(method: MethodDescriptor) -> bool:
    """Whether an RPC acts on a game's snapshot (and so reads the caller's credential)."""
    return "snapshot" in method.input_type.fields_by_name


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


def _ref(desc: Descriptor) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{desc.full_name}"}


def _field(field: FieldDescriptor, todo: list[Descriptor]) -> dict[str, Any]:
    if field.type == FieldDescriptor.TYPE_MESSAGE:
        msg = field.message_type
        assert msg is not None
        if msg.GetOptions().map_entry:
            return {"type": "object",
                    "additionalProperties": _field(msg.fields_by_name["value"], todo)}
        todo.append(msg)
        item: dict[str, Any] = _ref(msg)
    elif field.type == FieldDescriptor.TYPE_ENUM:
        assert field.enum_type is not None
        item = {"type": "string", "enum": [v.name for v in field.enum_type.values]}
    else:
        item = dict(_SCALARS[field.type])
    if field.is_repeated:
        return {"type": "array", "items": item}
    return item


def _schema(desc: Descriptor, todo: list[Descriptor]) -> dict[str, Any]:
    props = {f.json_name: _field(f, todo) for f in desc.fields}
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    real = [o for o in desc.oneofs if not o.name.startswith("_")]
    if real:
        out["description"] = "; ".join(
            f"at most one of {', '.join(f.json_name for f in o.fields)}" for o in real)
    return out


def document(service: ServiceDescriptor, title: str, version: str) -> dict[str, Any]:
    """The whole OpenAPI document of a service's HTTP rules."""
    schemas: dict[str, Any] = {"Error": ERROR_SCHEMA}
    todo: list[Descriptor] = []
    paths: dict[str, Any] = {}
    params = [
        {"name": "Accept-Language", "in": "header", "required": False,
         "schema": {"type": "string"}, "description": "en (default) or ru"},
        {"name": "X-Request-Id", "in": "header", "required": False,
         "schema": {"type": "string"}, "description": "echoed back and logged"},
    ]
    for method in service.methods:
        verb, path = http_rule(method)
        todo += [method.input_type, method.output_type]
        op: dict[str, Any] = {
            "operationId": method.name,
            "summary": f"{service.full_name}.{method.name}",
            "parameters": params,
            "responses": {
                "200": {"description": "OK", "headers": _REQUEST_ID, "content": {
                    "application/json": {"schema": _ref(method.output_type)}}},
                **_errors(method, verb != "GET"),
            },
        }
        if verb != "GET":
            op["requestBody"] = {"required": True, "content": {
                "application/json": {"schema": _ref(method.input_type)}}}
        if _on_a_game(method):
            op["security"] = [{"bearerAuth": []}, {}]
        paths.setdefault(path, {})[verb.lower()] = op
    while todo:
        desc = todo.pop()
        if desc.full_name not in schemas:
            schemas[desc.full_name] = _schema(desc, todo)
    status = {"application/json": {"schema": {
        "type": "object", "required": ["status"], "additionalProperties": False,
        "properties": {"status": {"type": "string", "enum": ["SERVING", "NOT_SERVING"]}}}}}
    probe = {"description": "OK", "headers": _REQUEST_ID, "content": status}
    paths["/healthz"] = {"get": {"summary": "liveness", "responses": {"200": probe}}}
    paths["/readyz"] = {"get": {"summary": "readiness", "responses": {
        "200": probe, "503": {**probe, "description": "shutting down"}}}}
    paths["/metrics"] = {"get": {"summary": "Prometheus metrics", "responses": {"200": {
        "description": "OK", "headers": _REQUEST_ID,
        "content": {"text/plain": {"schema": {"type": "string"}}}}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": version},
        "paths": paths,
        "components": {"schemas": dict(sorted(schemas.items())),
                       "securitySchemes": {"bearerAuth": BEARER}},
    }
