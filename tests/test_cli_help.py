"""``risiko ... --help`` in Italian or English (``--lang``, ``RISIKO_LANG``, ``LANG``): the
command list, each command's help, each option's and argument's, and Typer's own words."""

from __future__ import annotations

import gettext
import subprocess
import sys

import pytest
from rich.text import Text
from typer import rich_utils
from typer.testing import CliRunner

from risiko.cli.helptext import (
    CONTEXT,
    TYPER_WORDS,
    every_help_text,
    missing_help,
    paragraphs,
    said,
)
from risiko.cli.main import COMMANDS, app

#: no locale variable of the machine running the suite decides the language
QUIET = {"COLUMNS": "200", "RISIKO_LANG": None, "LANGUAGE": None, "LC_ALL": None,
         "LC_MESSAGES": None, "LANG": "C.UTF-8"}


def _help(args: list[str], **env: str) -> str:
    result = CliRunner(env={**QUIET, **env}).invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("args", [["--lang", "it", "play", "--help"],
                                  ["play", "--help", "--lang", "it"],
                                  ["play", "--help", "--lang=it"]])
def test_play_help_in_italian(args: list[str]) -> None:
    out = _help(args)
    # the command's docstring, both paragraphs
    assert "Gioca una partita intera con i bot e stampa il tavolo con i punteggi." in out
    assert "``--position``: i bot continuano a giocare da una posizione" in out
    # options' help; option names, metavars and default values as they are
    assert "--seed" in out and "seme di dadi, distribuzione delle carte e bot" in out
    assert "un posto in ritardo (da 1, R3); ripetibile" in out
    assert "[predefinito: heuristic]" in out
    # Typer's and Click's own words
    assert "Uso: risiko play [OPTIONS]" in out
    assert "Opzioni" in out and "Mostra questo aiuto ed esce." in out
    assert "Play one full game" not in out and "Options" not in out
    assert "Show this message" not in out


def test_play_help_in_english() -> None:
    out = _help(["--lang", "en", "play", "--help"])
    assert "Play one full game with bots and print the scored table." in out
    assert "seed of dice, deal and bots" in out
    assert "[default: heuristic]" in out
    assert "Usage: risiko play [OPTIONS]" in out
    assert "Options" in out and "Show this message and exit." in out
    assert "Gioca" not in out and "Opzioni" not in out


def test_arguments_and_required_words_in_italian() -> None:
    out = _help(["--lang", "it", "tournament", "--file", "x.json", "standings", "--help"])
    assert "Argomenti" in out
    assert "torneo (slug, nome o id); si omette con --file" in out
    assert "[obbligatorio]" in out
    assert "uscita in CSV" in out


def test_a_group_lists_its_subcommands_in_italian() -> None:
    out = _help(["tournament", "--help"], RISIKO_LANG="it")
    assert "Comandi" in out
    assert "Apre una serata." in out  # tournament evening
    assert "Scambia a mano i posti di due giocatori già seduti." in out  # tournament swap


def test_typer_words_are_set_back_after_an_italian_page() -> None:
    _help(["--lang", "it", "odds", "--help"])
    assert rich_utils.OPTIONS_PANEL_TITLE == "Options"
    assert rich_utils.DEFAULT_STRING == "[default: {}]"
    assert rich_utils.REQUIRED_LONG_STRING == "[required]"


@pytest.mark.parametrize("env", [{"LANG": "it_IT.UTF-8"}, {"RISIKO_LANG": "it"}])
def test_top_level_help_lists_the_commands_in_italian(env: dict[str, str]) -> None:
    out = _help(["--help"], **env)
    assert "Comandi" in out and "Opzioni" in out
    for name in COMMANDS:
        assert name in out  # the names stay
    assert "Probabilità esatte di attaccare D armate da un territorio con A armate (R7, R8)." \
        in out
    assert "Avvia l'app web del club (migrazioni applicate al primo uso)." in out
    assert "RisiKo! secondo il regolamento del Risiko! Club Milano" in out
    assert "Exact odds" not in out


def test_top_level_help_in_english() -> None:
    out = _help(["--help"])
    assert "Exact odds of attacking D armies from one territory with A armies (R7, R8)." in out
    assert "Commands" in out


def test_italian_top_level_help_imports_no_command_module() -> None:
    code = (
        "import sys\n"
        "from risiko.cli.main import app\n"
        "sys.argv = ['risiko', '--help']\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith(('risiko', 'django'))),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"COLUMNS": "200", "PATH": "/usr/bin:/bin",
                               "LANG": "it_IT.UTF-8"}, check=True)
    loaded = set(done.stderr.split())
    assert "Probabilità esatte di attaccare" in done.stdout
    assert not any(m.endswith("_commands") for m in loaded), loaded
    assert not any(m.startswith("django") for m in loaded)


def test_every_help_text_has_an_italian_entry() -> None:
    texts = every_help_text()
    assert len(texts) > 200  # every command, option, argument and Typer's words
    assert "seed of dice, deal and bots" in texts
    assert "Show this message and exit." in texts and "Options" in texts
    assert missing_help("it") == []
    assert missing_help("en") == []  # English is the code's own text


def test_a_missing_or_empty_italian_entry_is_found() -> None:
    texts = ["Options", "Open an evening.", "why"]
    fake = gettext.NullTranslations()
    fake._catalog = {f"{CONTEXT}\x04Options": "Opzioni",  # type: ignore[attr-defined]
                     f"{CONTEXT}\x04why": ""}
    assert missing_help("it", texts, fake) == ["Open an evening.", "why"]


def test_a_paragraph_without_translation_stays_english() -> None:
    text = "Open an evening.\n\nNot in the\ncatalogue."
    assert paragraphs(text) == ["Open an evening.", "Not in the catalogue."]
    assert said(text, "it") == "Apre una serata.\n\nNot in the\ncatalogue."
    assert said(text, "en") == text


def test_no_help_text_is_swallowed_as_rich_markup() -> None:
    # Typer reads help texts as Rich markup: "[default: every core]" would be a style tag and
    # vanish from the page (Typer's own "[default: {}]" it escapes itself)
    typer_own = set(TYPER_WORDS.values())
    for text in every_help_text():
        if text in typer_own:
            continue
        for shown in (text, said(text, "it")):
            assert Text.from_markup(shown).plain == shown, shown
    assert Text.from_markup("processes [default: every core]").plain == "processes "


@pytest.mark.parametrize(("args", "words"), [
    (["play"], "posti al tavolo, 3..6 (predefinito: 5)"),
    (["play"], "(R2; predefinito: 8, una posizione tiene il proprio)"),
    (["simulate"], "processi (1 = questo; predefinito: ogni core)"),
    (["ladder"], "per esempio 1,2 (predefinito: ogni livello)"),
    (["analyse", "closing"], "un regolamento (predefinito: ogni regolamento)"),
    (["analyse", "seats"], "processi (predefinito: ogni core)"),
])
def test_defaults_said_in_the_help_text_are_shown(args: list[str], words: str) -> None:
    assert words in _help(["--lang", "it", *args, "--help"])


def test_a_required_reason_says_required_once() -> None:
    out = _help(["--lang", "it", "national", "refuse", "--help"])
    assert "motivo [obbligatorio]" in out and "(obbligatorio)" not in out


def test_defaults_said_in_the_help_text_are_shown_in_english() -> None:
    out = _help(["--lang", "en", "simulate", "--help"])
    assert "processes (1 = this one; default: every core)" in out


def test_every_argument_and_option_has_a_help_text() -> None:
    from typer import _click

    from risiko.cli import main

    def bare(command: _click.Command, path: str) -> list[str]:
        found = [f"{path} {p.name}" for p in command.params if not getattr(p, "help", None)]
        for name, sub in getattr(command, "commands", {}).items():
            found += bare(sub, f"{path} {name}")
        return found

    missing = []
    for module in sorted({module for module, _ in main.COMMANDS.values()}):
        for name, command in main.load_commands(module).items():
            missing += bare(command, name)
    assert missing == []


def test_bare_arguments_now_said_in_italian() -> None:
    out = _help(["--lang", "it", "tournament", "carry-over", "--help"])
    assert "nome del giocatore" in out and "punti riportati dal torneo precedente" in out
    out = _help(["--lang", "it", "national", "club", "--help"])
    assert "add (registra un club) o list (elenca i club registrati)" in out
