"""``risiko ladder``: the bot levels play each other and are rated (Weng-Lin, openskill).

The levels come from :data:`risiko.agents.levels.LEVELS` (read when the command runs); the
games, their seeds (from the master seed and the game's index) and their seats are
:mod:`risiko.ratings.ladder`'s; the rating is :mod:`risiko.ratings`' (Bradley-Terry, full
pairing), folded in game order whatever the number of workers.

``--json``: ``{"games", "seats", "seed", "model", "ruleset", "levels": [{"level", "bot",
"mu", "sigma", "conservative", "games", "wins"}]}``, best conservative rating (μ − 3σ)
first; ``wins`` counts the games a level finished first in (a shared first counts for each).
The table and the messages are Italian or English (``risiko --lang``); JSON is English.
"""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..faults import current_language, define
from ..figures import decimal_text
from .common import (
    AT_LEAST_ONE,
    SEATS_RANGE,
    JsonOpt,
    RulesetOpt,
    console,
    emit_json,
    fail,
    ruleset_or_fail,
)

TWO_LEVELS = define("cli.ladder_two_levels", "",
                    "--levels needs two levels or more of {known}, not {given}")
UNKNOWN_LEVEL = define("cli.ladder_unknown_level", "", "--levels: no bot level {level} "
                       "(levels: {known})")
HEADLINE = define("cli.ladder_headline", "",
                  "{games} games at {seats} seats, seed {seed}, model {model}")
PROGRESS = define("cli.ladder_progress", "", "ladder")
COLUMNS = {
    "level": define("cli.ladder_col_level", "", "Level"),
    "bot": define("cli.ladder_col_bot", "", "Bot"),
    "conservative": define("cli.ladder_col_conservative", "", "μ − 3σ"),
    "mu": define("cli.ladder_col_mu", "", "μ"),
    "sigma": define("cli.ladder_col_sigma", "", "σ"),
    "games": define("cli.ladder_col_games", "", "Games"),
    "wins": define("cli.ladder_col_wins", "", "Firsts"),
}


def _dec(value: float) -> str:
    """A rating with 2 decimals, a decimal comma in Italian (``--lang``)."""
    return decimal_text(value, 2, current_language())


def _levels(given: str | None) -> list[int]:
    from ..agents.levels import LEVELS

    known = sorted(LEVELS)
    known_text = ", ".join(map(str, known))
    if given is None:
        chosen = known
    else:
        chosen = []
        for part in (p.strip() for p in given.split(",") if p.strip()):
            if not part.isdigit() or int(part) not in LEVELS:
                fail(UNKNOWN_LEVEL(level=part, known=known_text))
            chosen.append(int(part))
        chosen = sorted(set(chosen))
    if len(chosen) < 2:
        fail(TWO_LEVELS(known=known_text, given=given or known_text))
    return chosen


def register(app: typer.Typer) -> None:
    """Add ``ladder`` to ``app``."""

    @app.command()
    def ladder(
        games: Annotated[int, typer.Option(help="number of games")] = 100,
        seed: Annotated[int, typer.Option(
            help="master seed: game i is seeded from (seed, i)")] = 1,
        seats: Annotated[int, typer.Option(help="seats per table, 3..6")] = 4,
        levels: Annotated[str | None, typer.Option(
            help="comma list of levels, e.g. 1,2 (default: every level)",
            show_default=False)] = None,
        workers: Annotated[int, typer.Option(
            help="processes (1 = this one); the same ratings whatever the number")] = 1,
        ruleset: RulesetOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """The bot levels play each other; their ratings with μ, σ and μ − 3σ.

        Weng-Lin ratings (openskill, Bradley-Terry with full pairing: tied places are
        handled), from a RisiKo! first, then table scores (R2).
        """
        rs = ruleset_or_fail(ruleset, new=True)
        if games < 1:
            fail(AT_LEAST_ONE(option="--games", value=games))
        if workers < 1:
            fail(AT_LEAST_ONE(option="--workers", value=workers))
        if not 3 <= seats <= 6:
            fail(SEATS_RANGE(seats=seats))
        chosen = _levels(levels)
        from ..agents.levels import LEVELS
        from ..faults import InvalidInputError
        from ..ratings import MODEL, Ratings
        from ..ratings.ladder import GameResult, play_game

        try:
            ratings = Ratings()
        except InvalidInputError as e:
            fail(e, code=1)
        lang = current_language()
        results: list[GameResult] = []
        with Progress(
            TextColumn(PROGRESS().message(lang)), BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=console, disable=json_out, transient=True,
        ) as progress:
            task = progress.add_task("games", total=games)
            if workers == 1:
                for i in range(games):
                    results.append(play_game(i, seed, seats, rs, chosen))
                    progress.advance(task)
            else:
                with ProcessPoolExecutor(max_workers=workers) as pool:
                    futures = [pool.submit(play_game, i, seed, seats, rs, chosen)
                               for i in range(games)]
                    for fut in as_completed(futures):
                        results.append(fut.result())
                        progress.advance(task)
        results.sort(key=lambda r: r.index)
        firsts = dict.fromkeys(chosen, 0)
        for r in results:
            ratings.rate([(str(level), place) for level, place in r.places])
            for level, place in r.places:
                firsts[level] += place == 1
        rows = []
        for key, rating in ratings.ranked():
            level = int(key)
            rows.append({"level": level, "bot": LEVELS[level], **rating.to_dict(),
                         "wins": firsts[level]})
        if json_out:
            emit_json({"games": games, "seats": seats, "seed": seed, "model": MODEL,
                       "ruleset": rs.label, "levels": rows})
            return
        console.print(HEADLINE(games=games, seats=seats, seed=seed, model=MODEL).message(lang),
                      highlight=False)
        table = Table()
        for name, kind in COLUMNS.items():
            table.add_column(kind().message(lang), justify="left" if name == "bot" else "right")
        for row in rows:
            table.add_row(str(row["level"]), row["bot"], _dec(row['conservative']),
                          _dec(row['mu']), _dec(row['sigma']), str(row["games"]),
                          str(row["wins"]))
        console.print(table)

