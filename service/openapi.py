"""The OpenAPI 3.1 document of the REST gateway, built from the proto descriptors.

Paths come from each RPC's ``google.api.http`` rule; schemas follow the proto3
JSON mapping (lowerCamelCase names, 64-bit integers as strings, bytes as
base64, enums as names), so the document cannot drift from the contract.
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

_SCALARS: dict[int, dict[str, Any]] = {
    FieldDescriptor.TYPE_STRING: {"type": "string"},
    FieldDescriptor.TYPE_BYTES: {"type": "string", "format": "byte"},
    FieldDescriptor.TYPE_BOOL: {"type": "boolean"},
    FieldDescriptor.TYPE_INT32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_SINT32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_SFIXED32: {"type": "integer", "format": "int32"},
    FieldDescriptor.TYPE_UINT32: {"type": "integer", "format": "uint32"},
    FieldDescriptor.TYPE_FIXED32: {"type": "integer", "format": "uint32"},
    FieldDescriptor.TYPE_INT64: {"type": ["string", "integer"], "format": "int64"},
    FieldDescriptor.TYPE_SINT64: {"type": ["string", "integer"], "format": "int64"},
    FieldDescriptor.TYPE_SFIXED64: {"type": ["string", "integer"], "format": "int64"},
    FieldDescriptor.TYPE_UINT64: {"type": ["string", "integer"], "format": "uint64"},
    FieldDescriptor.TYPE_FIXED64: {"type": ["string", "integer"], "format": "uint64"},
    FieldDescriptor.TYPE_DOUBLE: {"type": "number"},
    FieldDescriptor.TYPE_FLOAT: {"type": "number"},
}

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "AIP-193 error: the google.rpc.Status of the gRPC answer.",
    "properties": {"error": {"type": "object", "properties": {
        "code": {"type": "integer", "description": "HTTP status"},
        "status": {"type": "string", "description": "google.rpc.Code name"},
        "message": {"type": "string", "description": "in the Accept-Language language"},
        "details": {"type": "array", "items": {
            "type": "object", "description": "ErrorInfo (reason, domain, metadata), "
            "BadRequest (fieldViolations) or LocalizedMessage, each with its @type",
            "properties": {"@type": {"type": "string"}}}},
    }}},
}


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
                "200": {"description": "OK", "content": {
                    "application/json": {"schema": _ref(method.output_type)}}},
                "default": {"description": "error", "content": {
                    "application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
            },
        }
        if verb != "GET":
            op["requestBody"] = {"required": True, "content": {
                "application/json": {"schema": _ref(method.input_type)}}}
        paths.setdefault(path, {})[verb.lower()] = op
    while todo:
        desc = todo.pop()
        if desc.full_name not in schemas:
            schemas[desc.full_name] = _schema(desc, todo)
    for path, text in (("/healthz", "liveness"), ("/readyz", "readiness"),
                       ("/metrics", "Prometheus metrics")):
        paths[path] = {"get": {"summary": text, "responses": {"200": {"description": "OK"}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": version},
        "paths": paths,
        "components": {"schemas": dict(sorted(schemas.items()))},
    }
