"""/metrics: transport metrics by method/route and code/status, and the engine metrics."""

from __future__ import annotations

import re

import grpc
import httpx
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from prometheus_client.parser import text_string_to_metric_families

from engine.cards import CODES
from service.api.pb import api, api_grpc, game
from service.ops.metrics import go_code
from tests.service.helpers import call_grpc, call_rest, ok
from tests.service.servers import Running, running


def _samples(http: httpx.Client) -> dict[str, list[tuple[dict[str, str], float]]]:
    resp = http.get("/metrics")
    assert resp.status_code == 200 and resp.headers["content-type"].startswith("text/plain")
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(resp.text):
        for s in family.samples:
            out.setdefault(s.name, []).append((s.labels, s.value))
    return out


def _value(samples: dict[str, list[tuple[dict[str, str], float]]], name: str,
           **labels: str) -> float:
    return sum(v for lab, v in samples.get(name, []) if labels.items() <= lab.items())


def test_metrics_count_what_happens(stub: api_grpc.CanastaEngineStub, http: httpx.Client) -> None:
    before = _samples(http)
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=2, seed=8)))
    ok(call_rest(http, "Deal", api.DealRequest(variant="classic", players=2, seed=8)))
    ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(snapshot=deal.snapshot,
                                                         move=game.Move(text="draw")),
                 token=deal.seat_tokens[0]))
    call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(snapshot=deal.snapshot,
                                                      move=game.Move(text="draw"), seat=1),
              token=deal.host_token)
    call_rest(http, "LegalMoves", api.LegalMovesRequest(snapshot=b"junk"))
    call_rest(http, "LegalMoves", api.LegalMovesRequest(snapshot=deal.snapshot))  # no credential
    after = _samples(http)

    def delta(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    grpc_labels = {"grpc_service": "canasta.v1.CanastaEngine", "grpc_type": "unary"}
    assert delta("grpc_server_handled_total", grpc_method="Deal", grpc_code="OK",
                 **grpc_labels) == 1
    assert delta("grpc_server_handled_total", grpc_method="ApplyMove",
                 grpc_code="FailedPrecondition", **grpc_labels) == 1
    assert delta("grpc_server_handling_seconds_count", grpc_method="ApplyMove",
                 grpc_code="OK") == 1
    assert delta("http_requests_total", route="/v1/deal", status="200", method="POST") == 1
    assert delta("http_requests_total", route="/v1/legal-moves", status="400") == 1
    assert delta("http_request_duration_seconds_count", route="/v1/deal", status="200") == 1
    assert delta("canasta_deals_total", variant="classic") == 2
    assert delta("canasta_moves_total", variant="classic", kind="draw") == 1
    assert delta("canasta_rule_violations_total", reason="NOT_YOUR_TURN") == 1
    assert delta("canasta_requests_rejected_total", reason="SNAPSHOT_INVALID") == 1
    assert delta("canasta_requests_rejected_total", reason="CREDENTIAL_REQUIRED") == 1
    assert delta("canasta_snapshot_size_bytes_count") == 3
    # both ApplyMoves and the refused LegalMoves open the snapshot this server sealed: its
    # state cache holds it
    assert delta("canasta_state_cache_lookups_total", result="hit") == 3
    assert delta("canasta_state_cache_lookups_total", result="miss") == 0
    text = http.get("/metrics").text
    assert "canasta_hands_finished_total" in text
    # no credential is ever a label (nor any part of one)
    for token in (deal.host_token, *deal.seat_tokens):
        assert token.rsplit(".", 1)[1] not in text


def test_every_way_a_game_is_dealt_counts(stub: api_grpc.CanastaEngineStub,
                                         http: httpx.Client) -> None:
    """canasta_deals_total counts Deal, NextDeal and ImportPosition (docs/operations.md,
    *Metrics*, and the metric's HELP): an imported position is a game set up too."""
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=2, seed=9)))
    position = ok(call_grpc(stub, "ExportPosition",
                            api.ExportPositionRequest(snapshot=deal.snapshot),
                            token=deal.host_token)).position
    before = _samples(http)
    ok(call_grpc(stub, "ImportPosition", api.ImportPositionRequest(position=position)))
    ok(call_rest(http, "ImportPosition", api.ImportPositionRequest(position=position)))
    after = _samples(http)
    assert _value(after, "canasta_deals_total", variant="classic") \
        - _value(before, "canasta_deals_total", variant="classic") == 2


def test_a_move_with_cards_not_held_is_a_rejected_request(stub: api_grpc.CanastaEngineStub,
                                                           http: httpx.Client) -> None:
    """CARDS_NOT_IN_HAND is a malformed request (INVALID_ARGUMENT, category ``request``),
    not a rule refusal: it is counted with the rejected requests, so the rule-violation
    series (and any alert on it) shows only what the rules forbid."""
    deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=2, seed=8)))
    drew = ok(call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=deal.snapshot, move=game.Move(text="draw")), token=deal.seat_tokens[0]))
    held = set(drew.views[0].hand)
    missing = next(c for c in CODES if c not in held)
    before = _samples(http)
    got = call_grpc(stub, "ApplyMove", api.ApplyMoveRequest(
        snapshot=drew.snapshot, move=game.Move(text=f"discard {missing}")),
        token=deal.seat_tokens[0])
    assert not isinstance(got, api.ApplyMoveResponse) and got.reason == "CARDS_NOT_IN_HAND"
    after = _samples(http)

    def delta(name: str, **labels: str) -> float:
        return _value(after, name, **labels) - _value(before, name, **labels)

    assert delta("canasta_requests_rejected_total", reason="CARDS_NOT_IN_HAND") == 1
    assert delta("canasta_rule_violations_total") == 0


def test_unknown_paths_do_not_make_new_series(http: httpx.Client) -> None:
    for i in range(5):
        http.get(f"/random/{i}")
    text = http.get("/metrics").text
    assert not re.search(r'route="/random', text)
    assert 'route="unmatched"' in text


def test_unknown_http_methods_do_not_make_new_series(http: httpx.Client) -> None:
    """The method label is the caller's text: the HTTP parser passes some 35 methods
    (PROPFIND, PURGE, ...), each of which made its own series on every route before; a
    method the API does not take is counted as "other"."""
    for method in ("PROPFIND", "PURGE", "MKCALENDAR"):
        assert http.request(method, "/v1/deal").status_code == 405
    text = http.get("/metrics").text
    assert not re.search(r'method="(PROPFIND|PURGE|MKCALENDAR)"', text)
    assert _value(_samples(http), "http_requests_total", method="other", route="/v1/deal",
                  status="405") >= 3


def test_status_codes_are_spelled_as_go_grpc_prometheus_spells_them() -> None:
    """The ``grpc_code`` label is Go's ``codes.Code.String()``, so dashboards made for
    go-grpc-prometheus match: ``Canceled`` with one L (it read ``Cancelled``)."""
    assert [go_code(c) for c in (grpc.StatusCode.OK, grpc.StatusCode.CANCELLED,
                                 grpc.StatusCode.INVALID_ARGUMENT,
                                 grpc.StatusCode.DEADLINE_EXCEEDED)] == [
        "OK", "Canceled", "InvalidArgument", "DeadlineExceeded"]


def test_a_status_answered_without_raising_is_counted_as_answered(
        server: Running, http: httpx.Client) -> None:
    """The health service answers NOT_FOUND for a service it does not know by setting the
    status, not by raising: the metrics and the access log count that status, not OK."""
    before = _samples(http)
    channel = grpc.insecure_channel(server.grpc_target)
    with channel:
        health = health_pb2_grpc.HealthStub(channel)
        with pytest.raises(grpc.RpcError) as err:
            health.Check(health_pb2.HealthCheckRequest(service="no.such.Service"), timeout=10)
        assert err.value.code() == grpc.StatusCode.NOT_FOUND
        health.Check(health_pb2.HealthCheckRequest(service=""), timeout=10)
    after = _samples(http)
    labels = {"grpc_service": "grpc.health.v1.Health", "grpc_method": "Check"}
    assert (_value(after, "grpc_server_handled_total", grpc_code="NotFound", **labels)
            - _value(before, "grpc_server_handled_total", grpc_code="NotFound", **labels)) == 1
    assert (_value(after, "grpc_server_handled_total", grpc_code="OK", **labels)
            - _value(before, "grpc_server_handled_total", grpc_code="OK", **labels)) == 1


def _without_request_id(resp: httpx.Response) -> tuple[int, dict[str, object]]:
    """An error answer's status and body, its request id (new on each answer) left out."""
    body = resp.json()
    for detail in body["error"].get("details", []):
        detail.get("metadata", {}).pop("request_id", None)
    return resp.status_code, body


def test_metrics_on_a_port_of_their_own() -> None:
    """With CANASTA_METRICS_PORT, /metrics answers there (the service's series, calls of
    both faces counted) and nowhere else: the HTTP port, which players reach, answers it
    as any unknown route, and the metrics port serves nothing of the API."""
    with running(metrics_port=0) as server:
        assert server.app.metrics_port not in (0, server.app.http_port)
        scraper = httpx.Client(base_url=f"http://127.0.0.1:{server.app.metrics_port}",
                               timeout=20.0)
        http = httpx.Client(base_url=server.http_base, timeout=20.0)
        channel, stub = server.stub()
        with scraper, http, channel:
            before = _samples(scraper)
            ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=2, seed=8)))
            ok(call_rest(http, "Deal", api.DealRequest(variant="classic", players=2, seed=8)))
            after = _samples(scraper)
            assert _value(after, "canasta_deals_total", variant="classic") \
                - _value(before, "canasta_deals_total", variant="classic") == 2
            assert _value(after, "http_requests_total", route="/v1/deal", status="200") \
                - _value(before, "http_requests_total", route="/v1/deal", status="200") == 1
            assert _value(after, "grpc_server_handled_total", grpc_method="Deal") \
                - _value(before, "grpc_server_handled_total", grpc_method="Deal") == 1

            hidden, unknown = http.get("/metrics"), http.get("/no-such-route")
            assert hidden.headers["content-type"] == "application/json"
            assert _without_request_id(hidden) == _without_request_id(unknown)
            assert hidden.json()["error"]["status"] == "NOT_FOUND"
            assert "/metrics" not in http.get("/openapi.json").json()["paths"]
            # the scrapes are no API calls: not counted (the HTTP port's 404s are)
            again = _samples(scraper)
            assert _value(again, "http_requests_total", route="/metrics") \
                == _value(before, "http_requests_total", route="/metrics")
            assert _value(again, "http_requests_total", route="unmatched", status="404") \
                - _value(after, "http_requests_total", route="unmatched", status="404") == 2

            for path in ("/v1/variants", "/healthz", "/openapi.json", "/play/", "/docs"):
                answer = scraper.get(path)
                assert answer.status_code == 404, path
                assert answer.json()["error"]["status"] == "NOT_FOUND", path
            assert scraper.post("/v1/deal", json={"variant": "classic",
                                                  "players": 2}).status_code == 404


def test_without_a_metrics_port_metrics_stay_on_the_http_port(server: Running,
                                                              http: httpx.Client) -> None:
    """CANASTA_METRICS_PORT unset (the default): /metrics on the HTTP port, as before."""
    assert server.app.settings.metrics_port is None
    assert server.app.metrics_port == server.app.http_port
    assert "canasta_deals_total" in http.get("/metrics").text
    assert "/metrics" in http.get("/openapi.json").json()["paths"]
