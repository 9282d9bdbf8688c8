"""Whether this process serves: the gRPC health service (``grpc.health.v1``, which the
Kubernetes probes ask) and REST's ``/readyz`` both answer from here, and a stop turns
both to ``NOT_SERVING`` before anything else stops."""

from __future__ import annotations

from grpc_health.v1 import health_pb2
from grpc_health.v1.health import HealthServicer


class Health:
    """The process's health: ``ready`` for ``/readyz``, ``servicer`` for gRPC."""

    def __init__(self) -> None:
        self.ready = True
        self.servicer = HealthServicer()

    def serving(self, *services: str) -> None:
        """Both faces listen: the server (``""``) and ``services`` answer ``SERVING``."""
        for name in ("", *services):
            self.servicer.set(name, health_pb2.HealthCheckResponse.SERVING)

    def stopping(self) -> None:
        """From now on every health answer is ``NOT_SERVING`` (and ``/readyz`` 503)."""
        self.ready = False
        self.servicer.enter_graceful_shutdown()
