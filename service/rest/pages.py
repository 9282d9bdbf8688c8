"""The pages served beside the API: Swagger UI at ``/docs`` and the reference web table
at ``/play``, every file from this process (no CDN), each read once."""

from __future__ import annotations

import functools
import importlib.resources
import os
from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

# The reference web table (clients/web, or CANASTA_WEB_DIR), served at /play when it is there.
WEB_ROOT = Path(os.environ.get("CANASTA_WEB_DIR")
                or Path(__file__).resolve().parents[2] / "clients" / "web")
_WEB_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8",
              ".css": "text/css; charset=utf-8"}
_WEB_HEADERS = {"content-security-policy": "default-src 'self'; img-src 'self' data:",
                "x-content-type-options": "nosniff", "cache-control": "no-cache"}
# Swagger UI at /docs, its files from a pinned package (pyproject.toml), so no CDN is needed
SWAGGER_PACKAGE = "fastapi_offline"
_SWAGGER_FILES = {"swagger-ui-bundle.js": "text/javascript; charset=utf-8",
                  "swagger-ui.css": "text/css; charset=utf-8", "favicon.png": "image/png"}
_DOCS_HEADERS = {"content-security-policy": "default-src 'self'; img-src 'self' data:; "
                                            "style-src 'self' 'unsafe-inline'",
                 "x-content-type-options": "nosniff"}
_DOCS_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} - Swagger UI</title>
<link rel="stylesheet" href="/docs/swagger-ui.css">
<link rel="icon" type="image/png" href="/docs/favicon.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
"""
# validatorUrl null: Swagger UI would otherwise ask an online validator about the document
_DOCS_INIT = b"""window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  layout: "BaseLayout",
  deepLinking: true,
  showExtensions: true,
  showCommonExtensions: true,
  validatorUrl: null,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIBundle.SwaggerUIStandalonePreset],
});
"""


@functools.cache
def swagger_file(name: str) -> bytes:
    """One of Swagger UI's files from the pinned package (read once, on first use)."""
    return (importlib.resources.files(SWAGGER_PACKAGE) / "static" / name).read_bytes()


def docs_routes(title: str) -> list[Route]:
    """``/docs``: Swagger UI over ``/openapi.json``, every file served from here."""
    page = _DOCS_HTML.format(title=title).encode()

    async def docs(request: Request) -> Response:
        return Response(page, media_type="text/html; charset=utf-8", headers=_DOCS_HEADERS)

    async def init(request: Request) -> Response:
        return Response(_DOCS_INIT, media_type="text/javascript; charset=utf-8",
                        headers=_DOCS_HEADERS)

    routes = [Route("/docs", docs, methods=["GET"]), Route("/docs/init.js", init, methods=["GET"])]
    for name, kind in _SWAGGER_FILES.items():

        async def asset(request: Request, name: str = name, kind: str = kind) -> Response:
            return Response(swagger_file(name), media_type=kind,
                            headers={**_DOCS_HEADERS, "cache-control": "public, max-age=3600"})

        routes.append(Route(f"/docs/{name}", asset, methods=["GET"]))
    return routes


def web_routes(root: Path) -> list[Route]:
    """GET routes for the web table's files (read once): ``/play`` is its index.html."""
    if not (root / "index.html").is_file():
        return []
    routes = []
    for path in sorted(root.iterdir()):
        kind = _WEB_TYPES.get(path.suffix)
        if kind is None or not path.is_file():
            continue
        body = path.read_bytes()

        async def serve(request: Request, body: bytes = body, kind: str = kind) -> Response:
            return Response(body, media_type=kind, headers=_WEB_HEADERS)

        urls = ["/play", "/play/"] if path.name == "index.html" else [f"/play/{path.name}"]
        routes += [Route(url, serve, methods=["GET"], name=f"web:{url}") for url in urls]
    return routes
