"""Shared helpers of the command line: JSON output, errors, ruleset option."""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import typer
from rich.console import Console

from ..ruleset import Ruleset, get_ruleset

console = Console()
err_console = Console(stderr=True)


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON (UTF-8 names kept)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one error line to stderr and exit with ``code``."""
    err_console.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def ruleset_or_fail(name: str | None) -> Ruleset:
    """The named ruleset, or exit 2 with one line naming the known presets."""
    try:
        return get_ruleset(name)
    except ValueError as e:
        fail(str(e))
