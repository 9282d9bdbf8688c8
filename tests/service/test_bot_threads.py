"""A bot's search (``SuggestMove``: hundreds of milliseconds at the expert level) runs in
threads of its own on each face (``CANASTA_BOT_THREADS``), so it never holds up the
short calls or the probes. Before, REST ran it in the event loop: with six expert
searches queued, ``/healthz`` took up to 1.9 s; on gRPC, as many searches as engine
threads stopped every other engine call. Real sockets; the searches are held in their
handlers until the test lets them go, so "every bot thread busy" is exact."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest

from service.api.core import Core
from service.api.pb import api
from tests.service.servers import running
from tests.service.test_grpc_gate import DEAL, HOLD, _until, held_server


def test_grpc_engine_calls_are_answered_while_every_bot_thread_searches(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Both bot threads held in a search and a third search queued for one: LegalMoves
    and Deal are answered meanwhile (in the engine's one thread). The gate counts the
    searches, and each leaves it when it ends."""
    with held_server(monkeypatch, grpc_threads=1, bot_threads=2) as (server, holder):
        channel, stub = server.stub()
        with channel:
            deal = stub.Deal(DEAL, timeout=10)
            host = (("authorization", f"Bearer {deal.host_token}"),)
            ask = api.SuggestMoveRequest(snapshot=deal.snapshot, level="greedy")
            searches = [stub.SuggestMove.future(ask, timeout=60, metadata=(*HOLD, *host))
                        for _ in range(3)]
            holder.wait_inside(2)
            _until(lambda: server.app.gate.in_flight == 3, "the searches were not counted")
            legal = stub.LegalMoves(api.LegalMovesRequest(snapshot=deal.snapshot),
                                    timeout=10, metadata=host)
            listed = {m.text for m in legal.moves}
            assert "draw" in listed
            assert stub.Deal(DEAL, timeout=10).header.seq == 0
            assert not any(f.done() for f in searches)
            holder.release()
            assert all(f.result(timeout=30).move.text in listed for f in searches)
            _until(lambda: server.app.gate.in_flight == 0, "a search stayed counted")


def test_rest_probes_and_calls_are_answered_while_a_search_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A REST search held in the core: ``/healthz``, ``/readyz`` and a legal-moves call
    are answered meanwhile, and the search then answers too."""
    inside, go = threading.Event(), threading.Event()
    suggest = Core.suggest_move

    def held(self: Core, req: api.SuggestMoveRequest, call: Any) -> api.SuggestMoveResponse:
        inside.set()
        assert go.wait(30)
        return suggest(self, req, call)

    monkeypatch.setattr(Core, "suggest_move", held)
    with running() as server, httpx.Client(base_url=server.http_base, timeout=10) as http, \
            httpx.Client(base_url=server.http_base, timeout=60) as other, \
            ThreadPoolExecutor(1) as pool:
        deal = http.post("/v1/deal", json={"variant": "classic", "players": 2}).json()
        auth = {"Authorization": f"Bearer {deal['hostToken']}"}
        search = pool.submit(other.post, "/v1/suggest-move", headers=auth,
                             json={"snapshot": deal["snapshot"], "level": "greedy"})
        try:
            assert inside.wait(10), "the search did not reach the core"
            assert http.get("/healthz").status_code == 200
            assert http.get("/readyz").status_code == 200
            legal = http.post("/v1/legal-moves", headers=auth,
                              json={"snapshot": deal["snapshot"]})
            listed = {m["text"] for m in legal.json()["moves"]}
            assert "draw" in listed
            assert not search.done()
        finally:
            go.set()
        answer = search.result(timeout=30)
        assert answer.status_code == 200 and answer.json()["move"]["text"] in listed
