"""API fuzzing of the REST gateway with schemathesis, from the live server's /openapi.json.

Every RPC route of the document gets ``CANASTA_FUZZ_EXAMPLES`` schema-valid
(positive) and as many schema-violating (negative) generated requests (a route
without a body, whose only inputs are headers, twice as many valid ones). Half
of the valid ones get real values put in: a snapshot the server sealed (some
with one of its legal moves), a real variant and player count, a real position
text, so the calls reach the rules and not only the first check. Every case
presents a credential (``Authorization: Bearer``, tests/hardening/credentials.py):
with a real snapshot mostly its game's host token, else the awaited seat's or
another seat's token, none (a spectator's call), another game's or a forged
one. Each answer must be no 5xx, a status the document lists for the operation
(the credential refusals included: 401, 403), its content type and header, a
body matching its schema, and, for an error, a typed AIP-193 body whose reason
is in the catalogue (docs/errors.md); the game's host token with its own
snapshot is never refused for its credential.

``make test`` runs 2 x 55 cases per RPC (1100 in all; at least 1000 asserted)
plus one per probe; ``make fuzz`` raises the number.
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from typing import Any

import pytest
import requests
import schemathesis
from google.protobuf import json_format
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import Case, GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.core.transport import Response
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.specs.openapi.schemas import OpenApiSchema

from engine.errors import Reason
from engine.variants import catalogue
from service.api.errors import ServiceReason
from service.api.pb import SERVICE_NAME, api
from service.rest import openapi
from tests.hardening.credentials import (
    ACCESS_REASONS,
    GAME_METHODS,
    credential_kinds,
    presented,
)
from tests.hardening.pool import EXAMPLES, Position
from tests.service.servers import Running

MIN_TOTAL = 1000  # the cases make test must run at the least
CATALOGUE = {r.value for r in Reason} | {r.value for r in ServiceReason}
_SERVICE = api.DESCRIPTOR.services_by_name[SERVICE_NAME.rsplit(".", 1)[1]]
RPCS = [openapi.http_rule(m) for m in _SERVICE.methods]  # (verb, path) of each RPC
PROBES = [("GET", "/healthz"), ("GET", "/readyz"), ("GET", "/metrics")]
OPERATIONS = RPCS + PROBES
DEALS = [(v.id, n) for v in catalogue() for n in range(v.min_players, v.max_players + 1)]


def typed_error(ctx: Any, response: Response, case: Case) -> bool | None:
    """An error answer is AIP-193 with exactly one ErrorInfo of a catalogued reason."""
    if response.status_code < 400:
        return None
    error = json.loads(response.content)["error"]
    assert error["code"] == response.status_code, error
    assert error["message"], error
    infos = [d for d in error["details"] if d["@type"].endswith("/google.rpc.ErrorInfo")]
    assert len(infos) == 1, error
    assert infos[0]["reason"] in CATALOGUE, infos[0]
    assert infos[0]["metadata"]["request_id"] == response.headers["x-request-id"][0], error
    return True


def _reason_of(response: Response) -> str:
    try:
        details = json.loads(response.content)["error"]["details"]
    except (ValueError, KeyError, TypeError):
        return ""
    return next((d["reason"] for d in details if d["@type"].endswith("ErrorInfo")), "")


# refusals that come before the credential is read
BEFORE_ACCESS = {"REQUEST_INVALID", "REQUEST_TOO_LARGE", "SNAPSHOT_INVALID",
                 "SNAPSHOT_VERSION_UNSUPPORTED"}
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_headers_conformance, response_schema_conformance, typed_error]


@pytest.fixture(scope="module")
def schema(server: Running) -> OpenApiSchema:
    url = f"{server.http_base}/openapi.json"
    loaded = schemathesis.openapi.from_url(url)
    assert isinstance(loaded, OpenApiSchema)
    return loaded


@pytest.fixture(scope="module")
def session() -> Any:
    with requests.Session() as s:
        yield s


def test_every_operation_is_fuzzed(server: Running) -> None:
    """The parametrization below covers exactly the operations the live document lists,
    and their cases add up to the minimum."""
    doc = requests.get(f"{server.http_base}/openapi.json", timeout=10).json()
    listed = {(verb.upper(), path) for path, item in doc["paths"].items() for verb in item}
    assert listed == set(OPERATIONS)
    assert len(RPCS) == len(_SERVICE.methods) == 11
    assert len(RPCS) * 2 * EXAMPLES >= MIN_TOTAL


def _real(position: Position, move: int | None, deal: tuple[str, int], text: str
          ) -> dict[str, Any]:
    """Body fields that make a generated request reach the rules: a real snapshot (and one
    of its legal moves), a real variant and player count, a real position text."""
    variant, players = deal
    out: dict[str, Any] = {"snapshot": base64.b64encode(position.snapshot).decode(),
                           "variant": variant, "players": players, "position": text}
    if move is not None and position.moves:
        out["move"] = json_format.MessageToDict(position.moves[move % len(position.moves)])
    return out


def _credential(kind: str, position: Position, other: Position, pick: int) -> dict[str, str]:
    """The Authorization header of a call (one field: two values are the credential
    fuzz's, tests/hardening/test_credential_fuzz.py)."""
    values = presented("mangled" if kind == "two" else kind, position, other, pick)
    return {"Authorization": values[0]} if values else {}


@pytest.mark.parametrize(("verb", "path"), OPERATIONS, ids=[f"{v} {p}" for v, p in OPERATIONS])
def test_operation(verb: str, path: str, schema: OpenApiSchema, server: Running,
                   pool: list[Position], session: Any) -> None:
    operation = schema[path][verb]
    base = server.http_base
    counts: Counter[str] = Counter()
    probe = (verb, path) in PROBES
    fields = _properties(schema, path, verb)
    game_rpc = operation.definition.raw.get("operationId") in GAME_METHODS

    def run(case: Case, real: dict[str, Any] | None, mode: str,
            credential: tuple[str, Position, Position, int]) -> None:
        kind, position, other, pick = credential
        if real is not None and isinstance(case.body, dict):
            case.body.update({k: v for k, v in real.items() if k in fields})
        response = case.call(base_url=base, session=session, timeout=30,
                             headers=_credential(kind, position, other, pick))
        case.validate_response(response, checks=CHECKS)
        reason = _reason_of(response)
        if kind == "host" and real is not None and game_rpc:
            # the game's host token with its own snapshot: never refused for its credential
            assert reason not in ACCESS_REASONS - {"SNAPSHOT_WRONG_GAME"}, (reason, case.body)
        counts[mode] += 1
        counts[f"{kind} {response.status_code} {reason}"] += 1

    real_positions = st.shared(st.sampled_from(pool), key="position")
    reals = st.none() | st.builds(_real, real_positions, st.none() | st.integers(0, 999),
                                  st.sampled_from(DEALS), st.sampled_from([p.text for p in pool]))
    credentials = st.tuples(credential_kinds(), real_positions, st.sampled_from(pool),
                            st.integers(0, 7))
    # Headers are the only input of a route without a body, and a header cannot be made
    # schema-invalid (any text is a string): such a route gets all its cases positive.
    share = 1 if probe else EXAMPLES if fields else 2 * EXAMPLES
    options = settings(max_examples=share, deadline=None, database=None,
                       suppress_health_check=list(HealthCheck))

    @options
    @given(case=operation.as_strategy(GenerationMode.POSITIVE), real=reals,
           credential=credentials)
    def positive(case: Case, real: dict[str, Any] | None,
                 credential: tuple[str, Position, Position, int]) -> None:
        run(case, real, "positive", credential)

    positive()
    if probe:  # nothing to generate: no parameters, no body
        assert counts["positive"] == 1
        return
    if not fields:
        assert counts["positive"] >= 2 * EXAMPLES, counts
        return

    @options
    @given(case=operation.as_strategy(GenerationMode.NEGATIVE), credential=credentials)
    def negative(case: Case, credential: tuple[str, Position, Position, int]) -> None:
        run(case, None, "negative", credential)

    negative()
    assert counts["positive"] >= EXAMPLES and counts["negative"] >= EXAMPLES, counts


@pytest.mark.parametrize("method", GAME_METHODS)
def test_real_requests_reach_the_rules(method: str, server: Running, pool: list[Position],
                                       session: Any) -> None:
    """The control of the fuzz, deterministic: real requests of every game RPC with their
    game's host token get past the access check (OK, or a refusal of the rules), and the
    same with no credential are a spectator's."""
    verb, path = next(r for r, m in zip(RPCS, _SERVICE.methods, strict=True)
                      if m.name == method)
    answers: Counter[str] = Counter()
    spectator: Counter[str] = Counter()
    positions = ([p for p in pool if p.over] if method == "NextDeal"
                 else [p for p in pool if p.moves] if method in ("ApplyMove", "SuggestMove")
                 else pool[::2])
    for i, position in enumerate(positions):
        body = _real(position, i, DEALS[i % len(DEALS)], position.text)
        body = {k: v for k, v in body.items()
                if k == "snapshot" or (k == "move" and method == "ApplyMove")}
        if method == "SuggestMove":
            body["level"] = "random"
        for headers, counter in (({"Authorization": f"Bearer {position.host_token}"}, answers),
                                 ({}, spectator)):
            response = session.post(server.http_base + path, json=body, headers=headers,
                                     timeout=30)
            counter[f"{response.status_code} {_reason_of(response)}"] += 1
    assert answers["200 "] > 0, answers
    assert not {a.split()[1] for a in answers if a != "200 "} & (ACCESS_REASONS
                                                                  | BEFORE_ACCESS), answers
    if method in ("LegalMoves", "ApplyMove", "NextDeal", "ExportPosition", "SuggestMove"):
        assert set(spectator) == {"401 CREDENTIAL_REQUIRED"}, spectator
    else:
        assert set(spectator) == {"200 "}, spectator


def test_document_lists_the_credential_refusals(schema: OpenApiSchema) -> None:
    """Every RPC of a game declares the optional bearer credential and can answer 401 (a bad
    credential, or none where one is required); those where a seat's credential can be
    refused list 403; ApplyMove and NextDeal list 409 for SNAPSHOT_WRONG_GAME too. The RPCs
    without a game declare no credential (``security: []``)."""
    raw = schema.raw_schema
    scheme = raw["components"]["securitySchemes"]["bearerAuth"]
    assert (scheme["type"], scheme["scheme"]) == ("http", "bearer")
    seat_refusals = {"GetView", "ApplyMove", "NextDeal", "ExportPosition", "ExportRecord",
                     "SuggestMove"}
    for verb, path in RPCS:
        op = raw["paths"][path][verb.lower()]
        name, statuses = op["operationId"], set(op["responses"])
        if name not in GAME_METHODS:
            assert op["security"] == [] and "401" not in statuses, name  # none, said
            continue
        assert {"bearerAuth": []} in op["security"] and {} in op["security"], name  # optional
        assert "401" in statuses, name
        assert name not in seat_refusals or "403" in statuses, name
        if name in ("ApplyMove", "NextDeal"):
            assert "SNAPSHOT_WRONG_GAME" in op["responses"]["409"]["description"], name


def _properties(schema: OpenApiSchema, path: str, verb: str) -> set[str]:
    """The top-level fields of an operation's request body."""
    body = schema.raw_schema["paths"][path][verb.lower()].get("requestBody")
    if not body:
        return set()
    ref = body["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    return set(schema.raw_schema["components"]["schemas"][ref]["properties"])


@pytest.mark.parametrize("path", sorted({p for _, p in OPERATIONS}))
def test_unsupported_method(path: str, server: Running, session: Any) -> None:
    """A method a route does not have is 405 with ``Allow`` and a typed error."""
    allowed = {v for v, p in OPERATIONS if p == path}
    for method in ("PUT", "DELETE", "PATCH", "TRACE", *({"GET", "POST"} - allowed)):
        response = session.request(method, server.http_base + path, timeout=10)
        assert response.status_code == 405, (method, path)
        assert set(response.headers["allow"].replace(" ", "").split(",")) >= allowed
        error = response.json()["error"]
        assert error["details"][0]["reason"] == "METHOD_NOT_ALLOWED"


def test_request_id_is_echoed_byte_for_byte(server: Running, session: Any) -> None:
    """A printable id outside ASCII comes back as sent (it once came back UTF-8 encoded)."""
    for sent in (b"plain-id-1", "caf\u00e9-\u00ff".encode("latin-1")):
        response = session.get(server.http_base + "/v1/variants",
                               headers={"X-Request-Id": sent}, timeout=10)
        assert response.status_code == 200
        assert response.raw.headers["x-request-id"].encode("latin-1") == sent
