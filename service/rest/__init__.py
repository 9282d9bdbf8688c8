"""The REST face: the application (``app.py``: one route per RPC, probes, metrics), the JSON
request parser (``jsonparse.py``), the OpenAPI document (``openapi.py``), the pages served
beside it (``pages.py``: Swagger UI, the web table) and the HTTP protocol's limits
(``limits.py``)."""
