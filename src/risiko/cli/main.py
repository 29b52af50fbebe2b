"""Entry point of the ``risiko`` command: a lazy command group and the ``--lang`` option.

Each command family lives in its own module (``game_commands``, ``odds_commands``, ...) with
a ``register(app)`` function. The top-level group imports a module only when one of its
commands runs (or its own ``--help`` is asked): ``risiko odds 3 2`` imports the odds module
and nothing of the tournament, the web app or the bots, and ``risiko --help`` imports none
of them (its list comes from :data:`COMMANDS`). A new command is added to its module's
``register`` and listed in :data:`COMMANDS` (``tests/test_cli_main.py`` checks the two
agree).

``risiko --lang it|en COMMAND`` says the faults (refusals naming the player, territory,
table and evening), the tables and Click's own usage errors in Italian or English. One rule
for every command: ``--lang`` may come before the command or anywhere after it
(``risiko analyse luck game.txt --lang it``: the top-level group moves it to the front, see
:func:`hoist_lang`); without it the language is ``RISIKO_LANG``, else ``LANG`` (Italian when
it starts with ``it``, else English). JSON and CSV output is English whatever the language.
Every ``--help`` page is said in that language too (:mod:`risiko.cli.helptext`: the command
list, each command's, option's and argument's help, and Typer's own words).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Annotated, Any

import typer
from typer import _click  # typer's own click (typer >= 0.20 vendors it)
from typer._click import exceptions as _click_exceptions
from typer.core import TyperCommand, TyperGroup

from ..faults import define

__all__ = ["COMMANDS", "app", "main"]

#: ``--lang`` (or ``RISIKO_LANG``) names no language the command speaks
BAD_LANGUAGE = define("cli.bad_language", "", "{value}: it or en")

#: command name -> (module of ``risiko.cli`` that registers it, one-line help for the list)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("game_commands", "Play one full game with bots and print the scored table."),
    "replay": ("game_commands",
               "Replay a game record exactly and print the same result as ``play``."),
    "legal": ("position_commands",
              "The legal actions of the seat to act in a position (--explain: the forbidden "
              "attacks, R7, R8)."),
    "position": ("position_commands",
                 "The position after N actions of a game record (--json: a position file)."),
    "simulate": ("game_commands",
                 "Play many games with bots (progress bar) and report statistics."),
    "ladder": ("ladder_commands",
               "The bot levels play each other (progress bar): ratings with μ, σ and "
               "μ − 3σ (Weng-Lin)."),
    "analyse": ("lab_commands",
                "The committee's lab: closing, objectives, seats, luck (tables, --json, "
                "--plots)."),
    "score": ("score_commands",
              "Check an end-of-game sheet and print each seat's table score and the ranking."),
    "odds": ("odds_commands",
             "Exact odds of attacking D armies from one territory with A armies (R7, R8)."),
    "tris": ("odds_commands",
             "Armies of a card set (R9): base value by cards in hand, +2 per owned "
             "territory card."),
    "closing": ("odds_commands",
                "The sums of two dice that end the game in closing round K, and their "
                "chances (R2)."),
    "rules": ("info_commands",
              "Show every field of a ruleset with its value, meaning and clause."),
    "board": ("info_commands",
              "Show the continents, the territories and the borders of a ruleset's board."),
    "season": ("tournament_commands",
               "Compute a season file: general ranking, semifinal tables, finalists, final "
               "standings (short for `risiko tournament --file FILE standings`)."),
    "arrival": ("tournament_commands",
                "Classify an arrival under R3: on time, late (3 penalty turns) or excluded."),
    "tournament": ("tournament_commands",
                   "A tournament in the database, or in a season file with --file: players, "
                   "evenings, arrivals, tables, results, penalties, standings, stages."),
    "national": ("national_commands",
                 "The national ranking: import tournament reports and GestioneTorneo "
                 "workbooks, print a year's list (JSON, CSV)."),
    "serve": ("web_commands", "Serve the club's web app (migrations applied on first use)."),
    "backup": ("web_commands",
               "Back up the SQLite database (online, safe while serving) or a season file."),
    "restore": ("web_commands",
                "Put a backup back in place of the database, or create a tournament from a "
                "season file (needs --yes)."),
}


def load_commands(module: str) -> dict[str, _click.Command]:
    """The click commands ``risiko.cli.<module>`` registers, by name (imports the module)."""
    mod = importlib.import_module(f"{__package__}.{module}")
    register: Callable[[typer.Typer], None] = mod.register
    sub = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(sub)
    group = typer.main.get_group(sub)
    return dict(group.commands)


def hoist_lang(args: list[str]) -> list[str]:
    """``args`` with every ``--lang X`` / ``--lang=X`` moved to the front, so the language
    given after a command is the top-level ``--lang`` (the last one given wins; nothing
    after ``--`` is touched; a ``--lang`` with no value is left for Click to refuse).

    >>> hoist_lang(["analyse", "luck", "a.txt", "--lang", "it"])
    ['--lang', 'it', 'analyse', 'luck', 'a.txt']
    >>> hoist_lang(["--lang", "en", "odds", "3", "2", "--lang=it", "--", "--lang", "x"])
    ['--lang', 'en', '--lang=it', 'odds', '3', '2', '--', '--lang', 'x']
    """
    front: list[str] = []
    rest: list[str] = []
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--":
            rest.extend(args[i:])
            break
        if arg == "--lang" and i + 1 < len(args):
            front.extend(args[i:i + 2])
            i += 2
            continue
        if arg.startswith("--lang="):
            front.append(arg)
        else:
            rest.append(arg)
        i += 1
    return front + rest


def _early_language(args: list[str]) -> None:
    """Set the language before Click parses the line (the top-level callback sets it again),
    so that a usage error of the top level itself is said in it: the last ``--lang`` of
    ``args``, else ``RISIKO_LANG``, else ``LANG``; a bad value is left for the option to
    refuse."""
    import os

    from ..faults import set_language

    chosen = os.environ.get("RISIKO_LANG") or None
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--lang" and i + 1 < len(args):
            chosen = args[i + 1]
        elif arg.startswith("--lang="):
            chosen = arg.removeprefix("--lang=")
    try:
        set_language(chosen)
    except ValueError:
        set_language(None)


def _say_usage_error(error: _click_exceptions.UsageError) -> None:
    """Click's usage error in the language of ``--lang`` (:mod:`.usage`; imported only then)."""
    if type(error).__name__ == "NoArgsIsHelpError":
        return
    from .usage import say_usage_error

    say_usage_error(error)


class LazyGroup(TyperGroup):
    """A Typer group whose commands are imported on first use (see :data:`COMMANDS`)."""

    _listing = False

    def parse_args(self, ctx: _click.Context, args: list[str]) -> list[str]:
        """The top-level arguments, with any ``--lang`` after the command brought to the
        front (:func:`hoist_lang`): one ``--lang`` for every command."""
        if ctx.parent is None:
            args = hoist_lang(list(args))
            _early_language(args)
        try:
            return super().parse_args(ctx, args)
        except _click_exceptions.UsageError as e:
            _say_usage_error(e)
            raise

    def invoke(self, ctx: _click.Context) -> Any:
        """Run the command; a usage error of a subcommand is said in the language of
        ``--lang`` (:mod:`risiko.cli.usage`)."""
        try:
            return super().invoke(ctx)
        except _click_exceptions.UsageError as e:
            _say_usage_error(e)
            raise

    def list_commands(self, ctx: _click.Context) -> list[str]:
        """Every command: the registered ones, then those of :data:`COMMANDS`."""
        return [*self.commands, *(n for n in COMMANDS if n not in self.commands)]

    def get_command(self, ctx: _click.Context, cmd_name: str) -> _click.Command | None:
        """The command ``cmd_name``, importing its module the first time."""
        found = self.commands.get(cmd_name)
        if found is not None or cmd_name not in COMMANDS:
            return found
        from ..faults import current_language
        from .helptext import said, speak_help

        module, short = COMMANDS[cmd_name]
        lang = current_language()
        if self._listing:  # the top-level --help: a placeholder carrying the help line
            return TyperCommand(cmd_name, help=said(short, lang))
        for name, command in load_commands(module).items():
            if name not in self.commands:
                speak_help(command, lang)  # its --help in the language of --lang
                self.commands[name] = command
        return self.commands.get(cmd_name)

    def format_help(self, ctx: _click.Context, formatter: _click.HelpFormatter) -> None:
        """The top-level help, without importing any command module, in the language of
        ``--lang`` (:mod:`risiko.cli.helptext`: the listed lines from the catalogue)."""
        from ..faults import current_language
        from .helptext import help_words, say_own_help

        lang = current_language()
        say_own_help(self, lang)
        self._listing = True
        try:
            with help_words(ctx, lang):
                super().format_help(ctx, formatter)
        finally:
            self._listing = False


app = typer.Typer(
    name="risiko",
    cls=LazyGroup,
    help="RisiKo! under the Risiko! Club Milano regulation: play, score, odds, records, "
    "tournaments.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    """``--version``: the version and which build of the game library runs."""
    if value:
        from .. import __version__
        from .._build import build

        kind = "compiled (mypyc)" if build() == "compiled" else "pure (Python)"
        typer.echo(f"risiko-club {__version__}, build {kind}")
        raise typer.Exit()


@app.callback()
def _top(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="The version and the build of the game library: pure (Python) or compiled "
            "(mypyc).",
            is_eager=True,
            callback=_version,
        ),
    ] = False,
    lang: Annotated[
        str | None,
        typer.Option(
            "--lang",
            metavar="it|en",
            envvar="RISIKO_LANG",
            help="Language of the refusals, tables, usage errors and help pages, before or "
            "after the command; default RISIKO_LANG, else LANG. JSON and CSV stay English.",
            show_default=False,
        ),
    ] = None,
) -> None:
    from ..faults import current_language, set_language

    try:
        set_language(lang)
    except ValueError:  # said in the language of LANG (the one set before parsing)
        said = BAD_LANGUAGE(value=repr(lang)).message(current_language())
        raise typer.BadParameter(said, param_hint="--lang") from None


def main(*args: Any) -> None:
    """Run the ``risiko`` command."""
    app()
