"""The ``canasta`` command: ``canasta play`` (a terminal table against bots),
``canasta serve`` (the gRPC and REST servers) and ``canasta demo`` (a bot hand)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: canasta COMMAND [ARGS]

commands:
  play     play in the terminal against bots (canasta play --help)
  serve    start the gRPC and REST servers (same as python -m service)
  demo     print a seeded hand played by random bots
"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        sys.stdout.write(USAGE)
        return 0 if args else 2
    command, rest = args[0], args[1:]
    if command == "play":
        from service import table

        return table.main(rest)
    if command == "serve":
        from service import server

        return server.main(rest)
    if command == "demo":
        from service import demo

        return demo.main(rest)
    sys.stderr.write(f"canasta: unknown command {command!r}\n{USAGE}")
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
