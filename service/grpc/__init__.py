"""The gRPC face: ``canasta.v1.CanastaEngine``, health and reflection on grpcio's
thread-pool server (``server.py``); the gate that holds the engine's calls to
``CANASTA_MAX_CONCURRENT_RPCS`` is ``service/ops/gate.py``."""
