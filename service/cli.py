"""The ``canasta`` command: ``canasta serve`` (the gRPC and REST servers), ``canasta demo``
(a bot hand) and ``canasta play``, the terminal table of ``clients/terminal`` (a client of
the API, installed beside the service by ``make setup``)."""

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
        try:
            from canasta_terminal import table
        except ModuleNotFoundError as err:
            if err.name not in ("canasta_terminal", "canasta_client"):
                raise
            sys.stderr.write("canasta play: the terminal table is not installed "
                             "(make setup, or pip install clients/python clients/terminal)\n")
            return 2
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
