"""Prometheus metrics: transport (gRPC, HTTP) and engine, in one registry served at /metrics.

gRPC names and labels follow go-grpc-prometheus (``grpc_code`` in its Go
spelling, ``OK``, ``InvalidArgument``...), so shared dashboards work.
Labels stay low-cardinality: never a game id, seat or request id. Each process
serves its own (several processes on one machine are scraped one by one, as pods are).
"""

from __future__ import annotations

import grpc
from prometheus_client import (
    CONTENT_TYPE_LATEST as CONTENT_TYPE,
)
from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)

disable_created_metrics()  # type: ignore[no-untyped-call]
REGISTRY = CollectorRegistry(auto_describe=True)
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

LATENCY_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 2.5)

GRPC_STARTED = Counter(
    "grpc_server_started_total", "RPCs started on the server.",
    ("grpc_type", "grpc_service", "grpc_method"), registry=REGISTRY)
GRPC_HANDLED = Counter(
    "grpc_server_handled_total", "RPCs completed on the server, by status code.",
    ("grpc_type", "grpc_service", "grpc_method", "grpc_code"), registry=REGISTRY)
GRPC_SECONDS = Histogram(
    "grpc_server_handling_seconds", "Time to handle an RPC on the server.",
    ("grpc_type", "grpc_service", "grpc_method", "grpc_code"), buckets=LATENCY_BUCKETS,
    registry=REGISTRY)
HTTP_REQUESTS = Counter(
    "http_requests_total", "HTTP requests, by route template and status.",
    ("method", "route", "status"), registry=REGISTRY)
HTTP_SECONDS = Histogram(
    "http_request_duration_seconds", "Time to answer an HTTP request.",
    ("method", "route", "status"), buckets=LATENCY_BUCKETS, registry=REGISTRY)
# The HTTP methods a label names: those the API answers (GET routes answer HEAD too, CORS
# preflights are OPTIONS). The parser passes some 35 more (PROPFIND, PURGE, ...), the
# caller's choice: each would make series of its own on every route.
HTTP_METHODS = frozenset({"GET", "HEAD", "POST", "OPTIONS"})


def http_method(method: str) -> str:
    """The ``method`` label of an HTTP request: its method, or ``other`` for one the API
    does not take."""
    return method if method in HTTP_METHODS else "other"


DEALS = Counter("canasta_deals_total", "Games dealt (Deal, NextDeal and ImportPosition).",
                ("variant",), registry=REGISTRY)
MOVES = Counter("canasta_moves_total", "Moves applied, by kind.", ("variant", "kind"),
                registry=REGISTRY)
VIOLATIONS = Counter("canasta_rule_violations_total", "Moves refused by the rules, by reason.",
                     ("reason",), registry=REGISTRY)
REJECTED = Counter("canasta_requests_rejected_total",
                   "Requests refused before the rules (bad input, snapshots), by reason.",
                   ("reason",), registry=REGISTRY)
HANDS = Counter("canasta_hands_finished_total", "Hands played to the end.", ("variant",),
                registry=REGISTRY)
SUGGESTIONS = Counter("canasta_suggestions_total", "Moves suggested by a bot (SuggestMove).",
                      ("variant", "level"), registry=REGISTRY)
SNAPSHOT_BYTES = Histogram(
    "canasta_snapshot_size_bytes", "Size of sealed snapshots returned.",
    buckets=(256, 384, 512, 640, 768, 1024, 1536, 2048, 4096, 8192), registry=REGISTRY)
STATE_CACHE = Counter(
    "canasta_state_cache_lookups_total",
    "Snapshots opened, by whether this process's state cache held them (a miss decrypts "
    "and decodes the snapshot).", ("result",), registry=REGISTRY)
SEALS = Counter("canasta_snapshot_seals_total",
                "Snapshots sealed, by key id (watch the per-key AES-GCM budget).",
                ("key_id",), registry=REGISTRY)

_GO_NAMES = {code: "".join(w.capitalize() for w in code.name.split("_")) for code in grpc.StatusCode}
_GO_NAMES[grpc.StatusCode.OK] = "OK"
_GO_NAMES[grpc.StatusCode.CANCELLED] = "Canceled"  # Go's codes.Canceled, one L


def go_code(code: grpc.StatusCode) -> str:
    """The Go spelling of a status code (``InvalidArgument``)."""
    return _GO_NAMES[code]


def exposition() -> bytes:
    """This process's metrics in the text format."""
    return generate_latest(REGISTRY)


__all__ = ["CONTENT_TYPE", "REGISTRY", "exposition", "go_code"]
