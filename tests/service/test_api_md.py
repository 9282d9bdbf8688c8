"""docs/api.md against the live service, on both faces, as an integrator who reads only it.

Each example call is sent as written (tests/apidoc.py reads them), with the credential it
names and the snapshot of the document's own Deal in place of the ``Q1MC...`` it shows,
over REST and over gRPC; the answer is the one shown: the same keys (all of them where
the document leaves nothing out with ``...``), the same values but those of one game
(snapshots, ids, credentials, the request id). An answer the document shows alone
(ScoreHand's) has its keys and JSON types; the error body is what the request it
describes (the host naming seat 2 when seat 0 is to move) is answered. The role table's
refusal of a spectator is what a call without a credential gets.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from google.protobuf import json_format
from google.protobuf.message_factory import GetMessageClass

from engine.notation import export_position
from service.api.pb import api, api_grpc
from service.rest import openapi
from tests import apidoc
from tests.positions import position
from tests.service.helpers import Failure, call_grpc, rest_failure
from tests.service.servers import Running

SERVICE = api.DESCRIPTOR.services_by_name["CanastaEngine"]
ROUTES = {openapi.http_rule(m): m for m in SERVICE.methods}
# Values that differ from one game (or server, or call) to the next: the document shows
# placeholders of the right JSON type
OF_ONE_GAME = frozenset({"snapshot", "gameId", "keyId", "hostToken", "seatTokens",
                         "request_id"})
CALLS = [e for e in apidoc.examples() if e.path and e.answer is not None]


@dataclass(frozen=True)
class Dealt:
    """The document's Deal, made for real: its answer and credentials."""

    answer: dict[str, Any]
    snapshot: str
    host: str
    seats: list[str]


@pytest.fixture(scope="module")
def dealt(http: httpx.Client) -> Dealt:
    deal = next(e for e in CALLS if e.path == "/v1/deal")
    answer = http.post(deal.path, json=deal.request).json()
    return Dealt(answer, answer["snapshot"], answer["hostToken"], answer["seatTokens"])


def _token(dealt: Dealt, credential: str) -> str | None:
    """The credential an example names: "seat N's token", "host token" or none."""
    if not credential:
        return None
    seat = re.fullmatch(r"seat (\d+)'s token", credential)
    if seat:
        return dealt.seats[int(seat[1])]
    assert "host" in credential, credential
    return dealt.host


def differences(shown: Any, real: Any, at: str = "", values: bool = True) -> list[str]:
    """Where a document's example is not the real answer: an object has the keys shown
    (exactly those when nothing is left out with ``...``); a list holds the items shown
    in that order (exactly those when nothing is left out); a value is the real one,
    unless it is of one game (``OF_ONE_GAME``), a placeholder with ``...`` in it, or
    ``values`` is off: then its JSON type is."""
    where = at or "."
    if isinstance(shown, dict):
        if not isinstance(real, dict):
            return [f"{where}: an object is shown, the answer has {real!r}"]
        keys = set(shown) - {apidoc.MORE}
        if apidoc.MORE in shown and not keys <= set(real):
            return [f"{where}: keys {sorted(keys - set(real))} are not in the answer"]
        if apidoc.MORE not in shown and keys != set(real):
            return [f"{where}: keys {sorted(keys)} shown, the answer has {sorted(real)}"]
        return [d for k in sorted(keys) for d in differences(
            shown[k], real[k], f"{at}.{k}", values and k not in OF_ONE_GAME)]
    if isinstance(shown, list):
        if not isinstance(real, list):
            return [f"{where}: a list is shown, the answer has {real!r}"]
        items = [i for i in shown if i != apidoc.MORE]
        if apidoc.MORE not in shown and len(items) != len(real):
            return [f"{where}: {len(items)} items shown, the answer has {len(real)}"]
        rest = iter(enumerate(real))  # each item is looked for after the one before it
        for item in items:
            if not any(not differences(item, candidate, f"{at}[{i}]", values)
                       for i, candidate in rest):
                return [f"{where}: {item!r} is not in the answer's list {real!r} (in order)"]
        return []
    placeholder = isinstance(shown, str) and apidoc.MORE in shown
    if type(shown) is not type(real):
        return [f"{where}: {shown!r} shown, the answer has {real!r}"]
    if values and not placeholder and shown != real:
        return [f"{where}: {shown!r} shown, the answer has {real!r}"]
    return []


def _sent(example: apidoc.Example, dealt: Dealt) -> dict[str, Any]:
    """The example's request with the real snapshot in place of the one it shows."""
    request = dict(example.request or {})
    if "snapshot" in request:
        request["snapshot"] = dealt.snapshot
    return request


@pytest.mark.parametrize("example", CALLS, ids=lambda e: f"{e.path}:{sorted(e.request or {})}")
def test_each_example_call_is_answered_as_shown_over_rest(http: httpx.Client, dealt: Dealt,
                                                          example: apidoc.Example) -> None:
    token = _token(dealt, example.credential)
    headers = {"authorization": f"Bearer {token}"} if token else {}
    answer = http.request(example.verb, example.path, json=_sent(example, dealt),
                          headers=headers)
    assert answer.status_code == 200, answer.text
    found = differences(example.answer, answer.json())
    assert not found, "\n".join(found)


@pytest.mark.parametrize("example", CALLS, ids=lambda e: f"{e.path}:{sorted(e.request or {})}")
def test_each_example_call_is_answered_as_shown_over_grpc(stub: api_grpc.CanastaEngineStub,
                                                          dealt: Dealt,
                                                          example: apidoc.Example) -> None:
    """The same call over gRPC, its answer in proto3 JSON as REST prints it."""
    method = ROUTES[(example.verb, example.path)]
    request = json_format.ParseDict(_sent(example, dealt), GetMessageClass(method.input_type)())
    answer = call_grpc(stub, method.name, request,
                       token=_token(dealt, example.credential))
    assert not isinstance(answer, Failure), answer
    printed = json_format.MessageToDict(answer, always_print_fields_with_no_presence=True)
    found = differences(example.answer, printed)
    assert not found, "\n".join(found)


def test_the_score_example_has_the_answer_keys(http: httpx.Client) -> None:
    """ScoreHand's example (a finished hand of another game) has every key of a real
    answer, each of its JSON type: the score of a hand in which the first side has a mixed
    canasta, as the example's (its canastas by kind hold one tally)."""
    shown = next(e.answer for e in apidoc.examples() if e.section == "ScoreHand")
    state = position("classic", hands={0: "4C", 1: "4D", 2: "4H", 3: "4S"},
                     melds={0: "Q@0: QS QH QD QC QS 2C JK | 5@2: 5S 5H 5D"})
    imported = http.post("/v1/position:import", json={"position": export_position(state)})
    assert imported.status_code == 200, imported.text
    real = http.post("/v1/score-hand", json={"snapshot": imported.json()["snapshot"]},
                     headers={"authorization": f"Bearer {imported.json()['hostToken']}"})
    assert real.status_code == 200, real.text
    found = differences(shown, real.json(), values=False)
    assert not found, "\n".join(found)


def test_the_error_example_is_the_answer_to_what_it_describes(
        http: httpx.Client, stub: api_grpc.CanastaEngineStub, dealt: Dealt) -> None:
    """The AIP-193 body shown: the host naming seat 2 while seat 0 is to move, on REST;
    the same code, reason, message and metadata keys on gRPC."""
    shown = next(e.answer for e in apidoc.examples() if e.section == "Errors")
    assert shown is not None
    body = {"snapshot": dealt.snapshot, "move": {"text": "draw"}, "seat": 2}
    real = http.post("/v1/apply-move", json=body,
                     headers={"authorization": f"Bearer {dealt.host}"})
    assert real.status_code == shown["error"]["code"], real.text
    found = differences(shown, real.json())
    assert not found, "\n".join(found)
    request = json_format.ParseDict(body, api.ApplyMoveRequest())
    failure = call_grpc(stub, "ApplyMove", request, token=dealt.host)
    assert isinstance(failure, Failure)
    info = shown["error"]["details"][0]
    assert (failure.code, failure.reason, failure.message, failure.category) == (
        shown["error"]["status"], info["reason"], shown["error"]["message"],
        info["metadata"]["category"])


@pytest.mark.parametrize("path", ["/v1/legal-moves", "/v1/apply-move", "/v1/suggest-move"])
def test_a_spectator_may_not_act_as_the_role_table_says(http: httpx.Client, dealt: Dealt,
                                                        path: str) -> None:
    """*Credentials*: a call without a credential sees the public table (GetView) and may
    not act, refused with the reason the table names, 401 with the Bearer challenge."""
    rows = apidoc.table(apidoc.text(), "| Role | Credential | Gets |")
    spectator = next(row for row in rows if row[0] == "spectator")
    reason = re.findall(r"`([A-Z_]+)`", spectator[2])
    assert len(reason) == 1, spectator
    body: dict[str, Any] = {"snapshot": dealt.snapshot}
    if path == "/v1/apply-move":
        body["move"] = {"text": "draw"}
    refused = http.post(path, json=body)
    assert refused.status_code == 401 and refused.headers["www-authenticate"].startswith(
        "Bearer")
    assert rest_failure(refused).reason == reason[0]
    views = http.post("/v1/view", json={"snapshot": dealt.snapshot}).json()["views"]
    assert [(v["seat"], v["hand"], v["legalMoves"]) for v in views] == [(-1, [], [])]


def _generation() -> tuple[str, str, str]:
    """*Generating a client from the OpenAPI document*: its shell block, its Python block
    and what that prints."""
    section = apidoc.text().split("## Generating a client from the OpenAPI document", 1)[1]
    section = section.split("\n## ", 1)[0]
    shell = re.search(r"```sh\n(.*?)```", section, re.DOTALL)
    python = re.search(r"```python\n(.*?)```\n\nprints `(.*?)`", section, re.DOTALL)
    assert shell and python, "the section has its commands, its code and what it prints"
    return shell[1], python[1], python[2]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def test_the_generated_client_names_are_the_documents(http: httpx.Client) -> None:
    """The section's code names what openapi-python-client makes of the document: a
    module per operationId under its tag's package, a class per schema (the proto
    name, dots dropped), the fields of the schemas it fills."""
    doc = http.get("/openapi.json").json()
    _, code, _ = _generation()
    modules = {f"{_snake(op['tags'][0])}.{_snake(op['operationId'])}"
               for item in doc["paths"].values() for op in item.values()}
    for package, names in re.findall(r"^from canasta_rules_service_client\.api\.(\w+) "
                                     r"import (.+)$", code, flags=re.MULTILINE):
        assert {f"{package}.{n.strip()}" for n in names.split(",")} <= modules, names
    schemas = doc["components"]["schemas"]
    classes = {"".join(w[:1].upper() + w[1:] for w in re.split(r"[^A-Za-z0-9]", n)): n
               for n in schemas}
    built = re.findall(r"(CanastaV1\w+)\((.*?)\)", code, flags=re.DOTALL)
    assert len(built) == 2
    for cls, args in built:
        props = schemas[classes[cls]]["properties"]
        for kwarg in re.findall(r"(\w+)=", args):
            assert any(_snake(p) == kwarg for p in props), (cls, kwarg)


@pytest.mark.skipif(not (shutil.which("openapi-python-client")
                         and shutil.which("openapi-spec-validator")),
                    reason="the section needs openapi-python-client and openapi-spec-validator")
def test_the_client_generation_section_runs_as_written(server: Running,
                                                       tmp_path: Path) -> None:
    """The commands as written, with ``S`` at a live server, then the code with the
    generated package on its path: it prints what the section says."""
    shell, code, printed = _generation()
    env = {"PATH": os.environ["PATH"], "S": server.http_base, "HOME": str(tmp_path)}
    done = subprocess.run(["bash", "-ec", shell], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    ran = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=60,
                         env={**env, "PYTHONPATH": str(tmp_path / "canasta-rest")})
    assert (ran.returncode, ran.stdout.strip()) == (0, printed), ran.stderr
