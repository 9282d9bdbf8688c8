"""The API document: /openapi.json described from the proto comments, its `required` fields
the ones the service refuses a request without, an example request and answer per
operation; gRPC reflection serves the same comments (what `grpcurl describe` shows)."""

from __future__ import annotations

import base64
import copy
import tomllib
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import httpx
import jsonschema
import pytest
from google.protobuf import descriptor_pb2, json_format
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message_factory import GetMessageClass
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from engine.errors import Reason, RuleViolation
from service.api.errors import (
    RETRY_AFTER_S,
    ServiceError,
    ServiceReason,
    from_engine,
    invalid_request,
    to_json,
    too_many_calls,
)
from service.api.pb import SERVICE_NAME, api
from service.rest import examples, openapi
from service.sealing.snapshot import Header
from tests.service.servers import Running

SERVICE = api.DESCRIPTOR.services_by_name["CanastaEngine"]
METHODS = {m.name: m for m in SERVICE.methods}


@pytest.fixture(scope="module")
def doc(http: httpx.Client) -> dict[str, Any]:
    answer: dict[str, Any] = http.get("/openapi.json").json()
    return answer


def _properties(node: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every property schema anywhere in the document, with its name."""
    found: list[tuple[str, dict[str, Any]]] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "properties" and isinstance(value, dict):
                found += list(value.items())
            found += _properties(value)
    elif isinstance(node, list):
        for item in node:
            found += _properties(item)
    return found


def _operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(verb, path, op) for path, item in doc["paths"].items() for verb, op in item.items()]


def test_operations_and_properties_are_described(doc: dict[str, Any]) -> None:
    """Every operation has a summary and a description; at least 95 % of the properties
    (all of them, today) have a description."""
    operations = _operations(doc)
    assert len(operations) == len(METHODS) + 3  # the RPCs and /healthz, /readyz, /metrics
    for verb, path, op in operations:
        assert op.get("summary") and op.get("description"), (verb, path)
    props = _properties(doc)
    described = [name for name, schema in props if schema.get("description")]
    assert len(props) > 150  # the whole contract is counted
    assert len(described) >= 0.95 * len(props), sorted(
        name for name, schema in props if not schema.get("description"))


def test_descriptions_are_the_proto_comments(doc: dict[str, Any]) -> None:
    schemas = doc["components"]["schemas"]
    seed = schemas["canasta.v1.DealRequest"]["properties"]["seed"]["description"]
    assert seed.startswith("Shuffle seed: the same seed deals the same game.")
    deal = doc["paths"]["/v1/deal"]["post"]
    assert deal["summary"] == "Deal the first hand of a new game"
    assert deal["description"].startswith("Deal the first hand of a new game.")
    # a message field keeps its own comment beside the $ref
    header = schemas["canasta.v1.DealResponse"]["properties"]["header"]
    assert header["$ref"].endswith("SnapshotHeader") and header["description"]
    # every enum value is explained
    for name in ("canasta.v1.EventType", "canasta.v1.OptionType"):
        enum = schemas[name]
        for value in enum["enum"]:
            line = next(ln for ln in enum["description"].splitlines()
                        if ln.startswith(f"- `{value}`: "))
            assert len(line) > len(f"- `{value}`: ") + 3, line
    assert doc["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"


def _schema_of(doc: dict[str, Any], ref: dict[str, str]) -> dict[str, Any]:
    """A ``$ref`` of the document as a schema jsonschema can resolve."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "components": doc["components"], "$ref": ref["$ref"]}


@pytest.mark.parametrize("name", sorted(METHODS))
def test_every_operation_has_examples_of_its_messages(doc: dict[str, Any], name: str) -> None:
    """The request and answer examples are the RPC's messages in proto3 JSON (they parse,
    every field known) and match the document's own schemas."""
    method = METHODS[name]
    verb, path = openapi.http_rule(method)
    op = doc["paths"][path][verb.lower()]
    request, answer = examples.EXAMPLES[name]
    ok = op["responses"]["200"]["content"]["application/json"]
    assert ok["example"] == answer
    json_format.ParseDict(answer, GetMessageClass(method.output_type)())
    jsonschema.validate(answer, _schema_of(doc, ok["schema"]))
    json_format.ParseDict(request, GetMessageClass(method.input_type)())
    if verb == "GET":
        assert request == {} and "requestBody" not in op
        return
    body = op["requestBody"]["content"]["application/json"]
    assert body["example"] == request
    jsonschema.validate(request, _schema_of(doc, body["schema"]))


def test_the_schemas_refuse_what_they_should(doc: dict[str, Any]) -> None:
    """The example checks above are live: an unknown field or a missing required one fails."""
    deal = _schema_of(doc, {"$ref": "#/components/schemas/canasta.v1.DealRequest"})
    request = examples.EXAMPLES["Deal"][0]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**request, "seats": 2}, deal)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({k: v for k, v in request.items() if k != "variant"}, deal)


# What the REST face writes for each kind of refusal: a field at fault (BadRequest), a
# rule, and the refusals of load with their RetryInfo (429 TOO_MANY_CALLS, the connection
# cap's 503, service/rest/limits.py)
REFUSALS = {
    "request": invalid_request("players", "players is required"),
    "rule": from_engine(RuleViolation(Reason.NOT_YOUR_TURN, "seat 0 is to move", "CL-TURN-2")),
    "too-many-calls": too_many_calls(2),
    "connection-cap": ServiceError(grpc.StatusCode.UNAVAILABLE, ServiceReason.UNAVAILABLE,
                                   metadata={"max_connections": "1000"},
                                   retry_after_s=RETRY_AFTER_S),
}


@pytest.mark.parametrize("kind", sorted(REFUSALS))
def test_every_refusal_fits_the_error_schema(doc: dict[str, Any], kind: str) -> None:
    """Each refusal's AIP-193 body is valid under the document's Error schema, every detail
    it carries included. Before, the schema knew no RetryInfo, so every 429 and 503 with
    one broke the document it is answered under."""
    body = to_json(REFUSALS[kind], "ru", "rid-1")
    jsonschema.validate(body, _schema_of(doc, {"$ref": "#/components/schemas/Error"}))


_64_BIT = frozenset({FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT64,
                     FieldDescriptor.TYPE_SFIXED64, FieldDescriptor.TYPE_UINT64,
                     FieldDescriptor.TYPE_FIXED64})


def test_64_bit_integers_are_strings(doc: dict[str, Any]) -> None:
    """A 64-bit field is a decimal string, the one type every answer writes (a request may
    still send a number). It was ``["string", "integer"]``: openapi-python-client typed
    ``header.seq`` as ``int | str``, openapi-typescript as ``string | number``, and
    openapi-generator wrapped it in a class (``CanastaV1SnapshotHeaderSeq``) to unwrap."""
    schemas = doc["components"]["schemas"]
    seen = 0
    for name, schema in schemas.items():
        message = api.DESCRIPTOR.pool.FindMessageTypeByName(name) if name.startswith(
            "canasta.") and "properties" in schema else None
        for field in message.fields if message else ():
            if field.type in _64_BIT:
                prop = schemas[name]["properties"][field.json_name]
                item = prop["items"] if prop.get("type") == "array" else prop
                assert item["type"] == "string" and item["pattern"], (name, field.name)
                seen += 1
    assert seen >= 5  # seq, expectedSeq, the seeds...


def _nodes(node: Any) -> list[dict[str, Any]]:
    """Every object of the document, nested ones too."""
    if isinstance(node, dict):
        return [node, *(n for value in node.values() for n in _nodes(value))]
    if isinstance(node, list):
        return [n for item in node for n in _nodes(item)]
    return []


def test_error_details_are_told_apart_by_their_type(doc: dict[str, Any]) -> None:
    """A client generated from the document picks each detail's class by its ``@type``
    (the discriminator), and every constant has its type. Before, the details were
    told apart by shape alone, with untyped constants: openapi-generator's Python client
    (7.14) read ``@type`` as Any and matched an ErrorInfo to both ErrorInfo and BadRequest
    (no field required), so it could not read any error body ("Multiple matches"). A
    BadRequest always names its field, and now requires it."""
    error = doc["components"]["schemas"]["Error"]["properties"]["error"]
    items = error["properties"]["details"]["items"]
    assert items["discriminator"]["propertyName"] == "@type"
    mapping = items["discriminator"]["mapping"]
    assert sorted(mapping.values()) == sorted(one["$ref"] for one in items["oneOf"])
    schemas = doc["components"]["schemas"]
    for kind, refusal in REFUSALS.items():
        for detail in to_json(refusal, "en", "rid-1")["error"]["details"]:
            jsonschema.validate(detail, _schema_of(doc, {"$ref": mapping[detail["@type"]]}))
            # by shape alone (the fields each requires), it is one detail only
            fits = [ref for ref in mapping.values()
                    if set(schemas[ref.rsplit("/", 1)[1]]["required"]) <= set(detail)]
            assert fits == [mapping[detail["@type"]]], (kind, detail)
    untyped = [node for node in _nodes(doc) if "const" in node and "type" not in node]
    assert not untyped, untyped


def _real(http: httpx.Client) -> tuple[str, str]:
    """A real snapshot and its host token, dealt by the Deal example."""
    dealt = http.post("/v1/deal", json=examples.EXAMPLES["Deal"][0]).json()
    return dealt["snapshot"], dealt["hostToken"]


@pytest.mark.parametrize("name", sorted(n for n in METHODS if n != "ListVariants"))
def test_required_is_what_the_service_refuses_without(doc: dict[str, Any], http: httpx.Client,
                                                      name: str) -> None:
    """Each field the document marks required, left out of the example request (a real
    snapshot put in), is refused (REQUEST_INVALID on that field; SNAPSHOT_INVALID for the
    snapshot); any other field left out is never refused as missing."""
    method = METHODS[name]
    verb, path = openapi.http_rule(method)
    schema = doc["components"]["schemas"][method.input_type.full_name]
    marked = set(schema.get("required", []))
    snapshot, host = _real(http)
    request = copy.deepcopy(examples.EXAMPLES[name][0])
    if "snapshot" in request:
        request["snapshot"] = snapshot
    auth = {"authorization": f"Bearer {host}"}
    assert set(request) >= marked
    for field in request:
        body = {k: v for k, v in request.items() if k != field}
        answer = http.post(path, json=body, headers=auth)
        error = answer.json().get("error", {}) if answer.status_code >= 400 else {}
        reasons = [d.get("reason") for d in error.get("details", [])]
        fields = [v["field"] for d in error.get("details", [])
                  for v in d.get("fieldViolations", [])]
        snake = next(f.name for f in method.input_type.fields if f.json_name == field)
        refused = answer.status_code == 400 and (
            "SNAPSHOT_INVALID" in reasons if field == "snapshot"
            else "REQUEST_INVALID" in reasons and snake in fields)
        assert refused == (field in marked), (name, field, answer.status_code, error)


@dataclass(frozen=True)
class _Game:
    """The examples' game, played for real: its credentials (the host's, seat 0's) and the
    real snapshot each example snapshot stands for."""

    host: str
    seat: str
    snapshots: dict[str, str]


@pytest.fixture(scope="module")
def played(http: httpx.Client) -> _Game:
    """Dealt by the Deal example, seat 0's draw of the ApplyMove example, then the hand
    played out by the host as examples.py says: draw, discard the first card listed,
    decline the pile when the stock is out."""
    dealt = http.post("/v1/deal", json=examples.EXAMPLES["Deal"][0]).json()
    host, seat = dealt["hostToken"], dealt["seatTokens"][0]
    drew = http.post("/v1/apply-move", headers=_bearer(seat), json={
        **examples.EXAMPLES["ApplyMove"][0], "snapshot": dealt["snapshot"]}).json()
    applied = drew
    for _ in range(examples.OVER_SEQ):
        if applied["handOver"]:
            break
        snapshot = applied["snapshot"]
        legal = http.post("/v1/legal-moves", json={"snapshot": snapshot}, headers=_bearer(host))
        move = next(m for m in legal.json()["moves"] if m["text"] in ("draw", "decline")
                    or m["text"].startswith("discard "))
        applied = http.post("/v1/apply-move", json={"snapshot": snapshot, "move": move},
                            headers=_bearer(host)).json()
    assert applied["handOver"], "the hand did not end as examples.py says"
    return _Game(host, seat, {examples.SNAPSHOT: dealt["snapshot"],
                              examples.NEXT: drew["snapshot"], examples.OVER: applied["snapshot"]})


def _bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


# Who makes each example call (examples.py): the host, seat 0, or anyone (no credential).
_HOST_CALLS = frozenset({"ScoreHand", "NextDeal", "ExportPosition", "ExportRecord"})
_SEAT_CALLS = frozenset({"LegalMoves", "ApplyMove", "GetView", "SuggestMove"})
# What differs from one game (or server) to the next: example answers show placeholders
_OF_ONE_GAME = frozenset({"snapshot", "gameId", "keyId", "hostToken", "seatTokens"})


def _differences(example: Any, real: Any, path: str = "") -> list[str]:
    """Where an example answer is not the real one: the same keys at every level and the
    same values (but those of one game); a list may be trimmed, each of its items an item
    of the real list, in the same order."""
    if isinstance(example, dict) and isinstance(real, dict):
        if set(example) != set(real):
            return [f"{path or '.'}: keys {sorted(example)} != {sorted(real)}"]
        return [d for key in example if key not in _OF_ONE_GAME
                for d in _differences(example[key], real[key], f"{path}.{key}")]
    if isinstance(example, list) and isinstance(real, list):
        rest = iter(real)  # each item is looked for after the one before it
        for i, item in enumerate(example):
            if not any(not _differences(item, candidate) for candidate in rest):
                near = _differences(item, real[i], f"{path}[{i}]") if i < len(real) else []
                return near or [f"{path}[{i}]: {item!r} is not in the answer's list (in order)"]
        return []
    if type(example) is not type(real) or example != real:
        return [f"{path}: {example!r} != {real!r}"]
    return []


def _clear_header(header: dict[str, Any]) -> str:
    """The clear part of a snapshot with this header, in base64 (what an example shows)."""
    return base64.b64encode(Header(
        header["formatVersion"], header["keyId"], header["variant"],
        uuid.UUID(header["gameId"]).bytes, int(header["seq"]), header["imported"],
        header["stacked"]).encode()).decode()


@pytest.mark.parametrize("name", sorted(METHODS))
def test_every_example_is_what_the_service_answers(http: httpx.Client, played: _Game,
                                                   name: str) -> None:
    """Each example request, sent by its caller with the real snapshot it stands for, is
    answered with its example answer: every key, move and value shown (but those of one
    game) is the service's. A snapshot shown is the clear header of the answer's header."""
    verb, path = openapi.http_rule(METHODS[name])
    request, answer = examples.EXAMPLES[name]
    token = played.host if name in _HOST_CALLS else played.seat if name in _SEAT_CALLS else ""
    headers = _bearer(token) if token else {}
    if verb == "GET":
        real = http.get(path, headers=headers)
    else:
        sent = {**request, "snapshot": played.snapshots[request["snapshot"]]} if (
            "snapshot" in request) else request
        real = http.post(path, json=sent, headers=headers)
    assert real.status_code == 200, real.text
    differences = _differences(answer, real.json())
    assert not differences, "\n".join(differences)
    if "snapshot" in answer:
        assert answer["snapshot"] == _clear_header(answer["header"])


def test_answers_require_the_fields_they_always_carry(doc: dict[str, Any], http: httpx.Client,
                                                     played: _Game) -> None:
    """An answer prints every field without presence (docs/api.md, *JSON mapping*), so its
    schema requires them, and a field with presence (a message, an optional, a oneof arm)
    is left optional. Before, no answer field was required: every generated client typed
    each one as maybe missing (``str | Unset``, ``hostToken?: string``) and a caller had to
    check or assert each read. A spectator's view, the emptiest answer, fits."""
    schemas = doc["components"]["schemas"]
    for method in METHODS.values():
        for answer in (method.output_type, api.DESCRIPTOR.pool.FindMessageTypeByName(
                "canasta.v1.SeatView"), api.DESCRIPTOR.pool.FindMessageTypeByName(
                "canasta.v1.SnapshotHeader")):
            marked = schemas[answer.full_name].get("required", [])
            assert marked == [f.json_name for f in answer.fields if not f.has_presence], (
                answer.full_name)
    request = schemas["canasta.v1.ApplyMoveRequest"]["required"]
    assert request == ["snapshot", "move"]  # a request's are what it is refused without
    snapshot = played.snapshots[examples.SNAPSHOT]
    for body in ({"snapshot": snapshot}, {"snapshot": snapshot, "seat": -1}):
        view = http.post("/v1/view", json=body)
        assert view.status_code == 200, view.text
        jsonschema.validate(view.json(), _schema_of(
            doc, {"$ref": "#/components/schemas/canasta.v1.GetViewResponse"}))


def test_who_may_ask_for_a_record_is_as_described(doc: dict[str, Any], http: httpx.Client,
                                                  played: _Game) -> None:
    """ExportRecordRequest.view_seat's comment says what service/api/access.py does: a
    seat token may ask for its own record or the public one (-1), not another seat's."""
    schema = doc["components"]["schemas"]["canasta.v1.ExportRecordRequest"]
    described = schema["properties"]["viewSeat"]["description"]
    assert "host only" not in described
    assert "a seat token for its own or -1" in described
    request, _ = examples.EXAMPLES["ExportRecord"]
    snapshot = played.snapshots[request["snapshot"]]
    for seat, status in ((0, 200), (-1, 200), (1, 403)):
        answer = http.post("/v1/record:export", headers=_bearer(played.seat), json={
            **request, "snapshot": snapshot, "viewSeat": seat})
        assert answer.status_code == status, (seat, answer.text)


def _reflected(server: Running, symbol: str) -> dict[str, descriptor_pb2.FileDescriptorProto]:
    """The files reflection answers for a symbol (its file and those it imports), by name."""
    with grpc.insecure_channel(server.grpc_target) as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)
        request = reflection_pb2.ServerReflectionRequest(file_containing_symbol=symbol)
        answer = next(iter(stub.ServerReflectionInfo(iter([request]), timeout=10)))
    files = [descriptor_pb2.FileDescriptorProto.FromString(blob)
             for blob in answer.file_descriptor_response.file_descriptor_proto]
    return {f.name: f for f in files}


def test_reflection_serves_the_comments(server: Running) -> None:
    """What `grpcurl describe canasta.v1.DealRequest` prints comes with the comments, of
    the file and of the files it imports."""
    files = _reflected(server, "canasta.v1.DealRequest")
    assert {"canasta/v1/engine_service.proto", "canasta/v1/game.proto"} <= set(files)
    notes = openapi.comments(files.values())
    assert notes["canasta.v1.DealRequest"] == "Request of Deal."
    assert notes["canasta.v1.DealRequest.seed"].startswith("Shuffle seed")
    assert notes[f"{SERVICE_NAME}.Deal"] == "Deal the first hand of a new game."
    assert notes["canasta.v1.EventType.EVENT_TYPE_CARDS_DRAWN"]
    # `grpcurl describe canasta.v1.CanastaEngine.Deal` asks for a method's file
    by_method = _reflected(server, f"{SERVICE_NAME}.Deal")
    assert openapi.comments(by_method.values())[f"{SERVICE_NAME}.Deal"] == notes[
        f"{SERVICE_NAME}.Deal"]


def test_reflected_files_are_the_generated_contract(server: Running) -> None:
    """The commented copies are the contract the server runs: only source info (and the
    JSON names protoc writes out) differ."""
    for name, reflected in _reflected(server, SERVICE_NAME).items():
        if not name.startswith("canasta/"):
            continue
        generated = descriptor_pb2.FileDescriptorProto()
        api.DESCRIPTOR.pool.FindFileByName(name).CopyToProto(generated)
        assert reflected.source_code_info.location, name
        reflected.ClearField("source_code_info")
        for message in reflected.message_type:
            _clear_json_names(message)
        assert reflected == generated, name


def _clear_json_names(message: descriptor_pb2.DescriptorProto) -> None:
    for field in message.field:
        field.ClearField("json_name")
    for nested in message.nested_type:
        _clear_json_names(nested)


def test_generators_get_a_name_a_group_and_the_security_of_every_operation(
        doc: dict[str, Any]) -> None:
    """What a client generator (and redocly's and spectral's recommended lint) reads: every
    operation has a unique operationId and a declared tag, and says its security outright
    (none, ``[]``, for the calls on no game and the probes); every component is used; the
    document names its server (relative: the one that serves it) and its licence. Before,
    the probes had no operationId (generated as ``get_healthz``, ``healthzGet``), every
    operation fell in a ``default`` group (``DefaultApi``), Deal and the probes had no
    ``security`` (redocly: 7 errors), and ListVariantsRequest was an unused schema."""
    tags = {tag["name"] for tag in doc["tags"]}
    ids = [op["operationId"] for _, _, op in _operations(doc)]
    assert len(set(ids)) == len(ids) == len(METHODS) + 3
    no_game = {name for name, m in METHODS.items() if "snapshot" not in m.input_type.fields_by_name}
    assert no_game == {"ListVariants", "Deal", "ImportPosition"}  # docs/security.md
    for verb, path, op in _operations(doc):
        assert op["tags"] and set(op["tags"]) <= tags, (verb, path)
        game = op["operationId"] in METHODS and op["operationId"] not in no_game
        assert op["security"] == ([{"bearerAuth": []}, {}] if game else []), (verb, path)
    refs = {node["$ref"] for node in _nodes(doc["paths"]) + _nodes(doc["components"])
            if "$ref" in node}
    refs |= {ref for node in _nodes(doc) for ref in node.get("mapping", {}).values()}
    unused = {name for name in doc["components"]["schemas"]
              if f"#/components/schemas/{name}" not in refs}
    assert not unused, unused
    assert doc["servers"] == [{"url": "/", "description": "the server of this document"}]
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert doc["info"]["license"]["identifier"] == project["project"]["license"]


def test_only_the_calls_the_rules_may_refuse_list_422(doc: dict[str, Any]) -> None:
    """422 (a rule refusal) is listed by the RPCs that put something to the rules: a move,
    the next deal, a bot's move (NOT_YOUR_TURN, HAND_OVER), a record's moves. The RPCs
    that only read a position (views, legal moves, score, export) never answer it, and
    listed it: a client generated from the document handled a refusal that cannot come."""
    ruled = {"ApplyMove", "NextDeal", "SuggestMove", "ExportRecord"}
    for name, method in METHODS.items():
        verb, path = openapi.http_rule(method)
        responses = doc["paths"][path][verb.lower()]["responses"]
        assert ("422" in responses) == (name in ruled), name


def test_refusals_of_load_document_when_to_retry(doc: dict[str, Any]) -> None:
    """The long calls (a bot's search, a record's replay) may answer 429 TOO_MANY_CALLS,
    with the Retry-After header it always carries; no other route does. Every route's
    503 documents Retry-After (sent at the connection cap)."""
    long_calls = {"SuggestMove", "ExportRecord"}
    for name, method in METHODS.items():
        verb, path = openapi.http_rule(method)
        responses = doc["paths"][path][verb.lower()]["responses"]
        assert ("429" in responses) == (name in long_calls), name
        if name in long_calls:
            assert responses["429"]["headers"]["Retry-After"]["required"] is True
        assert "Retry-After" in responses["503"]["headers"], name
