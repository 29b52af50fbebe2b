"""Entry point of the ``risiko`` command: registers each command family's module."""

from __future__ import annotations

import typer

from . import (
    game_commands,
    info_commands,
    odds_commands,
    score_commands,
    tournament_commands,
    tournament_db_commands,
    web_commands,
)

app = typer.Typer(
    name="risiko",
    help="RisiKo! under the Risiko! Club Milano regulation: play, score, odds, records.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

for _module in (
    game_commands,
    score_commands,
    odds_commands,
    info_commands,
    tournament_commands,
    tournament_db_commands,
    web_commands,
):
    _module.register(app)


def main() -> None:
    """Run the ``risiko`` command."""
    app()
