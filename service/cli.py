"""The ``canasta`` command: ``canasta serve`` (the gRPC and REST servers), ``canasta demo``
(a bot hand), ``canasta replay`` (check a game record, docs/records.md) and ``canasta play``,
the terminal table of ``clients/terminal`` (a client of the API, installed beside the
service by ``make setup``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

USAGE = """usage: canasta COMMAND [ARGS]

commands:
  play     play in the terminal against bots (canasta play --help)
  serve    start the gRPC and REST servers (same as python -m service)
  demo     print a seeded hand played by random bots
  replay   replay a game record (docs/records.md), checking every move and score:
           canasta replay FILE (- reads standard input); exit 0 when all check,
           1 naming the first illegal move or wrong score, 2 when FILE cannot be read
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
    if command == "replay":
        return replay(rest)
    if command == "demo":
        from service import demo

        return demo.main(rest)
    sys.stderr.write(f"canasta: unknown command {command!r}\n{USAGE}")
    return 2


def replay(args: Sequence[str]) -> int:
    """``canasta replay FILE``: replay a record; the exit status says whether it checks."""
    if len(args) != 1 or args[0] in ("-h", "--help"):
        sys.stderr.write("usage: canasta replay FILE (a game record; - reads standard input)\n")
        return 0 if args and args[0] in ("-h", "--help") else 2
    from engine import records
    from engine.errors import EngineError

    path = args[0]
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        sys.stderr.write(f"canasta replay: cannot read {path}: {err}\n")
        return 2
    try:
        record = records.parse(text)
        final = records.replay(record)
    except EngineError as err:
        sys.stderr.write(f"canasta replay: {path}: {err}\n")
        return 1
    moves = sum(len(h.moves) for h in record.hands)
    scores = " ".join(str(s.cumulative) for s in final.result.sides) if final.result else "-"
    sys.stdout.write(f"{path}: ok: {len(record.hands)} hand(s), {moves} moves, phase "
                     f"{final.phase.value}, totals {scores}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
