"""Calling one RPC the same way over gRPC and REST, and reading errors of both."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import grpc
import httpx
from google.protobuf import json_format
from google.protobuf.message import Message
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from service.api.pb import api, api_grpc

Call = Callable[..., Any]  # the ``call`` fixture: (method, request, token=None) -> answer

ROUTES = {
    "ListVariants": ("GET", "/v1/variants"),
    "Deal": ("POST", "/v1/deal"),
    "LegalMoves": ("POST", "/v1/legal-moves"),
    "ApplyMove": ("POST", "/v1/apply-move"),
    "ScoreHand": ("POST", "/v1/score-hand"),
    "GetView": ("POST", "/v1/view"),
    "NextDeal": ("POST", "/v1/next-deal"),
    "ImportPosition": ("POST", "/v1/position:import"),
    "ExportPosition": ("POST", "/v1/position:export"),
    "ExportRecord": ("POST", "/v1/record:export"),
    "SuggestMove": ("POST", "/v1/suggest-move"),
}


@dataclass
class Failure:
    """An error as both transports report it, reduced to what tests compare."""

    code: str  # google.rpc.Code name
    reason: str
    fields: list[str]
    message: str
    http_status: int = 0
    category: str = ""  # ErrorInfo.metadata.category (docs/api.md, Errors)


def response_class(method: str) -> type[Message]:
    return getattr(api, f"{method}Response")


def auth(token: str | None) -> tuple[tuple[str, str], ...]:
    """The metadata that presents a credential (none for a spectator's call)."""
    return (("authorization", f"Bearer {token}"),) if token else ()


def call_grpc(stub: api_grpc.CanastaEngineStub, method: str, request: Message,
              lang: str | None = None, token: str | None = None) -> Message | Failure:
    metadata = ((("accept-language", lang),) if lang else ()) + auth(token)
    try:
        return getattr(stub, method)(request, metadata=metadata, timeout=30)
    except grpc.RpcError as err:
        return grpc_failure(err)


def grpc_failure(err: grpc.RpcError) -> Failure:
    status = rpc_status.from_call(err)
    reason, fields, category = "", [], ""
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            reason, category = info.reason, info.metadata.get("category", "")
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields = [v.field for v in bad.field_violations]
    return Failure(err.code().name, reason, fields, err.details() or "", category=category)


def to_json(request: Message) -> str:
    return json_format.MessageToJson(request, indent=None)


def call_rest(http: httpx.Client, method: str, request: Message | None = None,
              lang: str | None = None, body: str | bytes | None = None,
              token: str | None = None) -> Message | Failure:
    verb, path = ROUTES[method]
    headers = {"accept-language": lang} if lang else {}
    if token:
        headers["authorization"] = f"Bearer {token}"
    if verb == "GET":
        resp = http.get(path, headers=headers)
    else:
        content = body if body is not None else to_json(request) if request is not None else "{}"
        resp = http.post(path, content=content,
                         headers={**headers, "content-type": "application/json"})
    if resp.status_code == 200:
        out = response_class(method)()
        json_format.Parse(resp.content, out)
        return out
    return rest_failure(resp)


def rest_failure(resp: httpx.Response) -> Failure:
    body: dict[str, Any] = json.loads(resp.content)
    error = body["error"]
    assert error["code"] == resp.status_code
    reason, fields, category = "", [], ""
    for detail in error.get("details", []):
        kind = detail["@type"].rsplit("/", 1)[-1]
        if kind == "google.rpc.ErrorInfo":
            reason, category = detail["reason"], detail.get("metadata", {}).get("category", "")
        elif kind == "google.rpc.BadRequest":
            fields = [v["field"] for v in detail.get("fieldViolations", [])]
    return Failure(error["status"], reason, fields, error["message"], resp.status_code,
                   category)


def ok(result: Message | Failure) -> Any:
    """The response, or a test failure showing the error."""
    assert not isinstance(result, Failure), result
    return result
