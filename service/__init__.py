"""The ``canasta.v1`` service around the pure engine, in rooms:

* ``api/``: the API core, every RPC as one call from a request message to an answer
  (``core.py``), the access rules every RPC goes through (``access.py``), conversion
  to and from the engine, errors and their messages, the generated code, JSON answers;
* ``grpc/``: the gRPC face; ``rest/``: the REST face (JSON codec, OpenAPI, limits);
* ``sealing/``: snapshots, keys and credentials;
* ``ops/``: settings, logs, metrics, health and the gate that bounds concurrent calls;
* ``server.py`` runs both faces in one process (``python -m service``), ``cli.py`` is
  the ``canasta`` command, ``demo.py`` a bot hand, ``codegen.py`` the code generation.
"""
