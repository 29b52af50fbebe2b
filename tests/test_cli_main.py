"""The ``risiko`` entry point: lazy command modules, ``--lang``, the shared plumbing."""

from __future__ import annotations

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from risiko.cli import main
from risiko.cli.main import COMMANDS, app, load_commands


def test_every_registered_command_is_listed_and_every_listed_one_exists() -> None:
    modules = {module for module, _ in COMMANDS.values()}
    registered: dict[str, str] = {}
    for module in modules:
        for name in load_commands(module):
            registered[name] = module
    assert registered == {name: module for name, (module, _) in COMMANDS.items()}


def _imported_after(*args: str) -> set[str]:
    code = (
        "import sys\n"
        "from risiko.cli.main import app\n"
        f"sys.argv = ['risiko', *{list(args)!r}]\n"
        "try:\n    app()\nexcept SystemExit:\n    pass\n"
        "print('\\n'.join(m for m in sys.modules if m.startswith(('risiko', 'django'))),"
        " file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"COLUMNS": "120", "PATH": "/usr/bin:/bin"}, check=True)
    return set(done.stderr.split())


def test_help_imports_no_command_module() -> None:
    loaded = _imported_after("--help")
    assert not any(m.endswith("_commands") for m in loaded), loaded
    assert not any(m.startswith("django") for m in loaded)


def test_a_game_command_imports_only_its_own_module() -> None:
    loaded = _imported_after("odds", "3", "2")
    assert "risiko.cli.odds_commands" in loaded
    assert {m for m in loaded if m.endswith("_commands")} == {"risiko.cli.odds_commands"}
    assert not any(m.startswith(("django", "risiko.tournament", "risiko.web", "risiko.agents"))
                   for m in loaded)


def test_top_level_help_lists_every_command() -> None:
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.stdout


def test_version_says_which_build_runs() -> None:
    import risiko.game
    from risiko import __version__

    # the editable install of the suite runs src/*.py: the pure build; an installed
    # compiled build (make unit-compiled) has risiko.game as a C extension instead
    compiled = not risiko.game.__file__.endswith(".py")
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    build = "compiled (mypyc)" if compiled else "pure (Python)"
    assert result.stdout == f"risiko-club {__version__}, build {build}\n"
    # --version imports no command module either
    assert not any(m.endswith("_commands") for m in _imported_after("--version"))


def test_lang_option_says_faults_in_italian_and_json_stays_english(tmp_path) -> None:
    runner = CliRunner()
    args = ["tournament", "--file", str(tmp_path / "none.json"), "standings"]
    english = runner.invoke(app, ["--lang", "en", *args])
    assert english.exit_code == 1
    assert "cannot read" in english.stderr
    bad = runner.invoke(app, ["--lang", "xx", "odds", "3", "2"])
    assert bad.exit_code == 2
    assert "it or en" in bad.stderr


def test_a_language_it_does_not_speak_is_refused_in_the_language_of_lang(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--lang fr`` (or ``RISIKO_LANG=de``) with an Italian ``LANG``: the refusal, the option
    named and the choices said in Italian, exit 2 (a usage error)."""
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    monkeypatch.delenv("RISIKO_LANG", raising=False)
    runner = CliRunner()
    bad = runner.invoke(app, ["--lang", "fr", "odds", "3", "2"])
    assert bad.exit_code == 2
    text = " ".join(bad.stderr.split())
    assert "'fr': it (italiano) o en (inglese)" in text
    assert "valore non valido per --lang" in text and "it or en" not in text
    monkeypatch.setenv("RISIKO_LANG", "de")
    env_bad = runner.invoke(app, ["odds", "3", "2"])
    assert env_bad.exit_code == 2
    assert "'de': it (italiano) o en (inglese)" in " ".join(env_bad.stderr.split())


@pytest.mark.parametrize("argv", [["odds", "3", "2"], ["--lang", "it", "odds", "3", "2"]])
def test_the_entry_point_runs(argv: list[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "argv", ["risiko", *argv, "--json"])
    with pytest.raises(SystemExit) as done:
        main.main()
    assert done.value.code in (0, None)


def test_scores_refuse_a_player_given_twice(tmp_path) -> None:
    """``Bruno=10 ... Bruno=50`` is refused naming Bruno (not Bruno=50)."""
    result = CliRunner().invoke(app, [
        "--lang", "en", "tournament", "--file", str(tmp_path / "x.json"), "scores",
        "2027-03-02", "1", "Bruno=10", "Carla=20", "Elena=30", "Gino=40", "bruno=50"])
    assert result.exit_code == 2
    assert result.stderr.splitlines() == ["Bruno is given twice (10, 50)"]
    done = CliRunner().invoke(app, ["--lang", "en", "tournament", "--file", "x.json",
                                    "scores", "2027-03-02", "1", "Bruno"])
    assert done.exit_code == 2
    assert "Bruno: write NAME=VALUE" in done.stderr
    italian = CliRunner().invoke(app, ["--lang", "it", "tournament", "--file", "x.json",
                                       "scores", "2027-03-02", "1", "Bruno=1", "BRUNO=2"])
    assert italian.stderr.splitlines() == ["Bruno è indicato due volte (1, 2)"]


@pytest.mark.parametrize("args", [["serve"], ["backup", "x.sqlite3"],
                                  ["restore", "x.sqlite3", "--yes"]])
def test_web_commands_without_the_web_extra_say_so_in_one_line(args: list[str]) -> None:
    """`pip install risiko-club` has no Django; the web commands say how to
    get it in one line and exit 1 (make install-check runs the same in a fresh venv)."""
    code = (
        "import sys\n"
        "sys.modules['django'] = None  # no web extra\n"
        "from risiko.cli.main import app\n"
        f"sys.argv = ['risiko', *{args!r}]\n"
        "app()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert f"risiko {args[0]} needs the web app: pip install 'risiko-club[web]'" in lines[0]
@pytest.mark.parametrize(("argv", "said"), [
    (["tournament", "--file", "{tmp}/s.json", "scores", "2027-03-02", "1", "Bice=52,5"],
     "errore: Bice=52,5: i punti devono essere un numero intero"),
    (["tournament", "--file", "{tmp}/s.json", "import-sheet", "{tmp}/fake.xlsx"],
     "errore: {tmp}/fake.xlsx: non è una cartella di lavoro xlsx leggibile"),
    (["restore", "{tmp}/torneo.json"],
     "errore: restore crea un torneo da {tmp}/torneo.json: esegui di nuovo con --yes"),
    (["odds", "0", "5"], "errore: un territorio ha almeno 1 armata, non A=0, D=5"),
    (["tris", "Alaska", "Alaska", "Alaska", "--hand", "3"],
     "errore: il mazzo ha una sola carta Alaska, data due volte"),
    (["play", "--seats", "7"], "errore: --seats 7: un tavolo ha da 3 a 6 posti"),
    (["play", "--bots", "foo"],
     "errore: bot sconosciuto 'foo' (noti: determinised, expectimax, greedy, heuristic, "
     "random, rollout)"),
    (["odds", "500", "3"],
     "le probabilità si calcolano per al massimo 400 armate, non 500 (attaccante)"),
    (["backup", "{tmp}/nope/copia.sqlite3"],
     "errore: la cartella {tmp}/nope non esiste: creala prima, o indica un file in una "
     "cartella esistente (nulla è stato scritto)"),
    (["closing", "0"], "errore: i giri di chiusura si contano da 1, non 0"),
    (["rules", "--ruleset", "nope"],
     "errore: regolamento sconosciuto 'nope' (noti: club-milano, rtu, classic)"),
    (["replay", "{tmp}/missing.txt"],
     "errore: impossibile leggere {tmp}/missing.txt: il file non esiste"),
])
def test_cli_refusals_are_said_in_italian_under_lang_it(tmp_path, argv, said) -> None:
    """Every refusal of the command line is a fault said in the language of --lang: no
    English line on an Italian run (the points 52,5, a file that is no workbook, ...)."""
    (tmp_path / "fake.xlsx").write_text("not a workbook", encoding="utf-8")
    (tmp_path / "torneo.json").write_text("{}", encoding="utf-8")
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    result = CliRunner().invoke(app, ["--lang", "it", *args])
    assert result.exit_code in (1, 2)
    assert result.stderr.replace("\n", "") == said.replace("{tmp}", str(tmp_path))


@pytest.mark.parametrize(("argv", "said"), [
    # R3: 21:15 is after 21:10 and by 21:20: late, 3 turns without reinforcements
    (["arrival", "21:15"], "21:15: in ritardo, 3 turni di penalità\n"
     "arrivato dopo le 21:10, entro le 21:20: 3 turni senza rinforzi, spostamenti né "
     "attacchi (R3)"),
    (["arrival", "21:00"], "21:00: in orario\narrivato entro le 21:10: in orario (R3)"),
])
def test_what_arrival_says_is_italian_under_lang_it(argv, said) -> None:
    """issue: `risiko --lang it arrival 21:15` said "late, 3 penalty turns" in English."""
    result = CliRunner().invoke(app, ["--lang", "it", *argv], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == said


def test_an_attack_that_may_not_start_is_said_in_italian() -> None:
    # R7: 3 armies roll 2 dice, 18 defend with 3: the attacker may not roll fewer dice
    result = CliRunner().invoke(app, ["--lang", "it", "odds", "3", "18"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().splitlines()[-1] == (
        "L'attacco non può iniziare: R7: 2 dadi in attacco contro 3 in difesa "
        "(3 armate contro 18).")


def test_a_written_backup_is_said_in_italian(tmp_path, monkeypatch) -> None:
    import sqlite3

    from risiko.cli import web_commands

    database = tmp_path / "db.sqlite3"
    sqlite3.connect(database).close()
    monkeypatch.setattr(web_commands, "sqlite_database_path", lambda: database)
    monkeypatch.setattr(web_commands, "postgres_settings", lambda: None)
    done = CliRunner().invoke(app, ["--lang", "it", "backup", str(tmp_path / "copia.sqlite3")],
                              env={"COLUMNS": "300"})
    assert done.exit_code == 0, done.output
    assert done.stdout.strip() == f"copia di sicurezza scritta in {tmp_path}/copia.sqlite3"


def test_a_refused_backup_is_said_in_italian(tmp_path, monkeypatch) -> None:
    """restore of a file that is not an SQLite database, and of one that does not exist."""
    from risiko.cli import web_commands

    monkeypatch.setattr(web_commands, "sqlite_database_path", lambda: tmp_path / "db.sqlite3")
    (tmp_path / "fake.sqlite3").write_text("no", encoding="utf-8")
    bad = CliRunner().invoke(app, ["--lang", "it", "restore", str(tmp_path / "fake.sqlite3")])
    assert bad.stderr.strip() == f"errore: {tmp_path}/fake.sqlite3: non è un database SQLite"
    none = CliRunner().invoke(app, ["--lang", "it", "restore", str(tmp_path / "none.sqlite3")])
    assert none.stderr.strip() == f"errore: {tmp_path}/none.sqlite3: il file non esiste"
    english = CliRunner().invoke(app, ["--lang", "en", "restore", str(tmp_path / "none.sqlite3")])
    assert english.stderr.strip() == f"error: {tmp_path}/none.sqlite3: no such file"


def test_a_bad_format_file_says_where_its_json_breaks_not_pythons_words(tmp_path) -> None:
    fmt = tmp_path / "format.json"
    fmt.write_text('{\n  "semifinal": \n}', encoding="utf-8")
    result = CliRunner().invoke(app, ["--lang", "it", "tournament", "--file",
                                      str(tmp_path / "s.json"), "create", "T",
                                      "--format", str(fmt)])
    assert result.stderr.replace("\n", "") == (
        f"errore: {fmt}: JSON non valido (riga 3, colonna 1)")


@pytest.mark.parametrize("argv", [
    ["analyse", "luck", "{tmp}/missing.txt", "--lang", "it"],
    ["analyse", "luck", "--lang", "it", "{tmp}/missing.txt"],
    ["replay", "{tmp}/missing.txt", "--lang=it"],
    ["--lang", "it", "analyse", "luck", "{tmp}/missing.txt"],
])
def test_lang_after_the_command_is_the_same_as_before_it(tmp_path, argv) -> None:
    """issue (newcomer's trial): `risiko analyse ... --lang it` said its refusals in English;
    --lang anywhere on the line is the one top-level --lang."""
    args = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    result = CliRunner().invoke(app, args)
    assert result.exit_code in (1, 2), result.output
    assert result.stderr.strip() == f"errore: impossibile leggere {tmp_path}/missing.txt: " \
        "il file non esiste"


def test_the_language_default_is_one_rule_risiko_lang_else_lang(tmp_path) -> None:
    """Without --lang every command (ladder, analyse, ...) follows RISIKO_LANG, else LANG:
    analyse no longer defaults to Italian on an English LANG."""
    missing = str(tmp_path / "missing.txt")
    english = f"error: cannot read {missing}: no such file"
    italian = f"errore: impossibile leggere {missing}: il file non esiste"
    for env, said in [({"LANG": "C.UTF-8"}, english), ({"LANG": "it_IT.UTF-8"}, italian),
                      ({"LANG": "C.UTF-8", "RISIKO_LANG": "it"}, italian),
                      ({"LANG": "it_IT.UTF-8", "RISIKO_LANG": "en"}, english)]:
        for argv in (["analyse", "luck", missing], ["replay", missing]):
            result = CliRunner().invoke(app, argv, env=env)
            assert result.stderr.strip() == said, (env, argv)


@pytest.mark.parametrize(("argv", "italian", "english"), [
    (["odds", "3", "2", "--bogus"], "opzione sconosciuta: --bogus", "No such option: --bogus"),
    (["odds", "x", "2"], "valore non valido per 'A': 'x' non è un numero intero valido.",
     "Invalid value for 'A': 'x' is not a valid integer."),
    (["odds", "3", "2", "9"], "argomenti in più non previsti (9)",
     "Got unexpected extra argument(s) (9)"),
    (["nocmd"], "comando sconosciuto: 'nocmd'.", "No such command 'nocmd'."),
    # the trial: "'abc' is not a valid int range." under --lang it
    (["national", "ranking", "--year", "abc"],
     "valore non valido per '--year': 'abc' non è un numero intero valido.",
     "Invalid value for '--year': 'abc' is not a valid integer."),
    (["tournament", "penalty"], "manca l'argomento 'tournament'.",
     "Missing argument 'tournament'."),
])
def test_clicks_usage_errors_are_said_in_the_language(argv, italian, english) -> None:
    """issue (newcomer's trial): Click's own usage errors ("No such option", "Invalid
    value", "Missing option") were English under --lang it; English stays Click's words."""
    for lang_args, env, said, words in [
            (["--lang", "it"], {}, italian, ("Uso:", "Prova 'risiko", "Errore")),
            ([], {"RISIKO_LANG": "it"}, italian, ("Uso:", "Prova 'risiko", "Errore")),
            (["--lang", "en"], {}, english, ("Usage:", "Try 'risiko", "Error"))]:
        result = CliRunner().invoke(app, [*lang_args, *argv], env={"COLUMNS": "200", **env})
        assert result.exit_code == 2
        assert said in result.stderr, result.stderr
        assert all(w in result.stderr for w in words), result.stderr


@pytest.mark.parametrize(("click", "italian"), [
    ("'abc' is not a valid int range.", "'abc' non è un numero intero valido."),
    ("'x' is not a valid float range.", "'x' non è un numero valido."),
    ("'rossa' is not one of 'open', 'campionato'.",
     "'rossa' non è uno tra 'open', 'campionato'."),
    ("File 'q.json' does not exist.", "Il file 'q.json' non esiste."),
    ("Directory 'out' is a file.", "La cartella 'out' è un file."),
    ("Path 'p' is a directory.", "Il percorso 'p' è una cartella."),
    ("File 'k' is not readable.", "Il file 'k' non si può leggere."),
    ("File 'o.xls' is not writable.", "Il file 'o.xls' non si può scrivere."),
])
def test_clicks_type_conversion_sentences_in_italian(click: str, italian: str) -> None:
    """Typer's words for an int / float range, a choice and a path (the trial: English
    under --lang it); English keeps Typer's sentence (a range named by its number type)."""
    from risiko.cli.usage import _sentence

    assert _sentence(click, "it") == italian
    if "range" not in click:
        assert _sentence(click, "en") == click


def test_a_missing_option_is_said_in_italian_after_the_command_too() -> None:
    result = CliRunner().invoke(app, ["national", "refuse", "3", "--lang", "it"],
                                env={"COLUMNS": "200"})
    assert result.exit_code == 2
    assert "manca l'opzione '--reason'." in result.stderr
    assert "Missing" not in result.stderr
