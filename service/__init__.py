"""Adapters from the pure engine to the outside world (terminal, gRPC, HTTP)."""
