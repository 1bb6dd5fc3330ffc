"""The `needle-widget` command."""

from __future__ import annotations

import argparse
import sys
from typing import Optional, Sequence

from . import __version__


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be > 0, got {text!r}")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="needle-widget", description="Needle in a Card Stack: engine tools from the command line."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    bench = commands.add_parser("bench", help="measure the engine's speed (decisions/s, games/s, µs per view)")
    bench.add_argument("--seconds", type=_positive_float, default=2.0, help="time per benchmark (default 2)")
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "bench":
        from .bench import run

        print(f"needle-widget {__version__} bench, Python {sys.version.split()[0]}, one process")
        run(args.seconds)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
