"""The contract: routes from the proto, generated code in sync, OpenAPI, reflection, languages."""

from __future__ import annotations

import doctest
import filecmp
from pathlib import Path

import grpc
import httpx
from google.protobuf.internal import api_implementation
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from engine.errors import Reason
from engine.variants import catalogue
from service import codegen
from service.api import messages
from service.api.errors import ServiceReason
from service.api.pb import GEN_ROOT, SERVICE_NAME, api
from service.rest.openapi import http_rule
from tests.service.helpers import ROUTES
from tests.service.servers import Running

RPCS = ["ListVariants", "Deal", "LegalMoves", "ApplyMove", "ScoreHand", "GetView", "NextDeal",
        "ImportPosition", "ExportPosition", "ExportRecord", "SuggestMove"]


def test_the_service_and_its_http_rules() -> None:
    service = api.DESCRIPTOR.services_by_name["CanastaEngine"]
    assert service.full_name == SERVICE_NAME == "canasta.v1.CanastaEngine"
    assert [m.name for m in service.methods] == RPCS
    assert {m.name: http_rule(m) for m in service.methods} == ROUTES


def test_protobuf_runs_on_upb() -> None:
    assert api_implementation.Type() == "upb"  # the pure-Python backend is ~140x slower


def test_generated_code_is_in_sync_with_proto(tmp_path: Path) -> None:
    codegen.main(["--out", str(tmp_path)])
    fresh = tmp_path / "python"
    names = sorted(str(p.relative_to(fresh)) for p in fresh.rglob("*") if p.is_file())
    current = sorted(str(p.relative_to(GEN_ROOT)) for p in GEN_ROOT.rglob("*")
                     if p.is_file() and "__pycache__" not in p.parts)
    assert names == current
    match, mismatch, errors = filecmp.cmpfiles(fresh, GEN_ROOT, names, shallow=False)
    assert (mismatch, errors) == ([], []), "run `make setup` to regenerate"


def test_openapi_document(http: httpx.Client) -> None:
    doc = http.get("/openapi.json").json()
    assert doc["openapi"].startswith("3.1")
    for verb, path in ROUTES.values():
        assert verb.lower() in doc["paths"][path]
    deal = doc["components"]["schemas"]["canasta.v1.DealRequest"]["properties"]
    assert set(deal) == {"variant", "players", "seed", "options", "deck", "viewSeat"}
    assert deal["options"]["additionalProperties"] == {"type": "string"}
    move = doc["components"]["schemas"]["canasta.v1.Move"]["properties"]
    assert {"text", "draw", "takePile", "addToMeld", "goOut", "endHand"} <= set(move)
    assert http.get("/docs").status_code == 200


def test_probes(http: httpx.Client) -> None:
    assert http.get("/healthz").json() == {"status": "SERVING"}
    assert http.get("/readyz").json() == {"status": "SERVING"}


def test_reflection_lists_the_services(server: Running) -> None:
    with grpc.insecure_channel(server.grpc_target) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(list_services="")
        answer = next(iter(stub.ServerReflectionInfo(iter([request]), timeout=10)))
    names = {s.name for s in answer.list_services_response.service}
    assert {SERVICE_NAME, "grpc.health.v1.Health"} <= names


def test_every_reason_has_english_and_russian() -> None:
    for reason in [*Reason, *ServiceReason]:
        assert reason.value in messages.MESSAGES, (
            f"add an English and a Russian line for {reason.value} to service/api/messages.py")
        en, ru = messages.MESSAGES[reason.value]
        assert en and ru.endswith(".") and any("а" <= ch <= "я" for ch in ru.lower()), reason


def test_russian_messages_use_the_clients_words() -> None:
    """The client's rules call wild cards «свободные карты» and Samba's sequences
    «секвенс» (as the web table does): a refusal must not name them otherwise."""
    russian = " ".join(ru.lower() for _, ru in messages.MESSAGES.values())
    for other in ("дик", "последовательн"):
        assert other not in russian, other
    assert "свободн" in russian and "секвенс" in russian


def test_every_variant_has_a_russian_name() -> None:
    for info in catalogue():
        assert info.name and info.name_ru and info.name_ru != info.name


def test_language_negotiation_doctests() -> None:
    assert doctest.testmod(messages).failed == 0
