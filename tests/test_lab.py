"""The committee's lab from the command line (``risiko analyse``, ``simulate
--workers/--engine``, the plots, Ray); the engine's own tests (risiko.lab: no CLI, run on the
compiled build too) are in test_lab_engine.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from risiko.cli.main import app
from risiko.lab import SimSpec, run_games
from test_lab_engine import tiny_record

runner = CliRunner()


# ---------------------------------------------------------------------------- luck
def test_analyse_luck_command_it_and_en(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text(tiny_record(), encoding="utf-8")
    res = runner.invoke(app, ["analyse", "luck", str(tmp_path), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["records"] == 1
    assert [(p["player"], p["z"]) for p in data["players"]] == [
        ("Anna", 0.239), ("Carla", 0.0), ("Bruno", -0.239)]
    # the default language is LANG's, as for every command
    it = runner.invoke(app, ["analyse", "luck", str(tmp_path / "a.txt")],
                       env={"LANG": "it_IT.UTF-8"})
    assert "Fortuna ai dadi (partite registrate: 1)" in it.output and "Oscillazione" in it.output
    en = runner.invoke(app, ["analyse", "luck", str(tmp_path / "a.txt"), "--lang", "en"])
    assert "Luck of the dice" in en.output and "Player" in en.output
    # risiko --lang en before the command says it too
    top = runner.invoke(app, ["--lang", "en", "analyse", "luck", str(tmp_path / "a.txt")])
    assert "Luck of the dice" in top.output
    empty = tmp_path / "none"
    empty.mkdir()
    res = runner.invoke(app, ["--lang", "it", "analyse", "luck", str(empty)])
    assert res.exit_code == 2 and "nessuna partita registrata" in res.stderr


# ---------------------------------------------------------------------------- luck, simulated








def test_analyse_luck_simulated_json_and_italian_table() -> None:
    res = runner.invoke(app, ["analyse", "luck", "--games", "3", "--seats", "3", "--bots",
                              "1", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert (data["records"], data["players"]) == (0, [])
    sim = data["simulated"]
    assert sim["games"] == 3 and sim["bots"] == ["random"] * 3
    assert [r["player"] for r in sim["seats"]] == ["1", "2", "3"]
    assert [r["player"] for r in sim["by_bot"]] == ["random"]
    assert sum(r["games"] for r in sim["seats"]) == 9
    # the same figures for 2 workers
    two = runner.invoke(app, ["analyse", "luck", "--games", "3", "--seats", "3", "--bots",
                              "1", "--workers", "2", "--json"])
    assert json.loads(two.output)["simulated"] == sim
    it = runner.invoke(app, ["--lang", "it", "analyse", "luck", "--games", "2", "--seats",
                             "3", "--bots", "2,1", "--workers", "1"])
    assert "Fortuna ai dadi, simulazione: 2 partite" in it.output
    assert "per posto" in it.output and "per bot" in it.output
    # the tables by seat and by bot say so in their first column (not "Giocatore")
    seat_table, bot_table = it.output.split("per bot")
    assert "Posto" in seat_table.split("per posto")[1] and "Giocatore" not in it.output
    assert "Bot" in bot_table


def test_analyse_luck_refuses_the_same_game_twice(tmp_path: Path) -> None:
    """One file named twice, or a copy saved with Windows line ends: the same game, refused
    with the files named before any is replayed (exit 2, nothing on stdout)."""
    a = tmp_path / "a.txt"
    a.write_text(tiny_record(), encoding="utf-8")
    res = runner.invoke(app, ["--lang", "it", "analyse", "luck", str(a), str(a), "--json"])
    assert res.exit_code == 2 and res.stdout == ""
    assert f"{a}, {a}: la stessa partita 2 volte" in res.stderr
    (tmp_path / "b.txt").write_bytes(tiny_record().replace("\n", "\r\n").encode("utf-8"))
    res = runner.invoke(app, ["--lang", "en", "analyse", "luck", str(tmp_path)])
    assert res.exit_code == 2
    assert f"{a}, {tmp_path / 'b.txt'}: the same game 2 times" in res.stderr


def test_analyse_luck_without_records_or_games_is_refused() -> None:
    res = runner.invoke(app, ["--lang", "it", "analyse", "luck"])
    assert res.exit_code == 2 and "--games N per simulare" in res.stderr


# ---------------------------------------------------------------------------- scale




def test_analyse_closing_json_exact_and_simulated() -> None:
    res = runner.invoke(app, ["analyse", "closing", "--ruleset", "rtu", "--games", "3",
                              "--bots", "1", "--workers", "1", "--json"])
    assert res.exit_code == 0, res.output
    (entry,) = json.loads(res.output)["rulesets"]
    assert entry["ruleset"] == "rtu@1"
    assert entry["exact"]["rows"][0]["p_end"] == pytest.approx(671 / 1296, abs=1e-6)
    assert entry["simulated"]["games"] == 3 and entry["simulated"]["bots"] == ["random"] * 4


def test_analyse_seats_and_objectives_json() -> None:
    seats = json.loads(runner.invoke(app, [
        "analyse", "seats", "--games", "4", "--seats", "3", "--bots", "random",
        "--workers", "1", "--json"]).output)
    assert [s["seat"] for s in seats["seats"]] == [1, 2, 3]
    assert sum(s["win_rate"]["value"] for s in seats["seats"]) == pytest.approx(1, abs=1e-3)
    objs = json.loads(runner.invoke(app, [
        "analyse", "objectives", "--games", "4", "--seats", "3", "--bots", "random",
        "--workers", "1", "--json"]).output)
    assert sum(o["dealt"] for o in objs["objectives"]) == 12


def test_one_game_has_no_mean_score_interval() -> None:
    """One game: a mean with no spread has no interval (it was "13,0 [13,0, 13,0]"): null in
    JSON, "[–]" in the table; the win rate keeps its Wilson interval."""
    args = ["analyse", "seats", "--games", "1", "--seats", "3", "--bots", "1", "--workers", "1"]
    data = json.loads(runner.invoke(app, [*args, "--json"]).output)
    for row in data["seats"]:
        assert (row["mean_score"]["low"], row["mean_score"]["high"]) == (None, None)
        assert 0 <= row["mean_score"]["value"] <= 100
        assert row["win_rate"]["low"] is not None
    it = runner.invoke(app, ["--lang", "it", *args])
    assert it.exit_code == 0 and "[–]" in it.output


def test_engine_refused_by_name() -> None:
    res = runner.invoke(app, ["simulate", "--games", "1", "--engine", "spark"])
    assert res.exit_code == 2 and "spark" in res.stderr


def test_ray_plays_the_same_games_as_the_pool() -> None:
    """A small local Ray (2 CPUs) plays the games of the process pool (skipped without the
    ``ray`` extra)."""
    ray = pytest.importorskip("ray")
    from risiko.cli.lab_ray import run_games_ray

    spec = SimSpec(("random",) * 3, "club-milano@2", 4, False, 3)
    try:
        got = run_games_ray(spec, 4, batch=2, init={"num_cpus": 2})
    finally:
        ray.shutdown()
    assert got == run_games(spec, 4, workers=1)


def test_plots_png_and_svg(tmp_path: Path) -> None:
    """--plots writes PNG and SVG (the lab extra: matplotlib) with the Italian labels."""
    pytest.importorskip("matplotlib")
    res = runner.invoke(app, ["analyse", "closing", "--games", "0", "--plots", str(tmp_path),
                              "--lang", "it"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "closing.png").read_bytes()[:4] == b"\x89PNG"
    svg = (tmp_path / "closing.svg").read_text(encoding="utf-8")
    assert "Giro di chiusura" in svg or "Giro" in svg
    # the probabilities on the axis with a decimal comma (matplotlib names each tick's
    # text in a comment), a point in English
    assert "<!-- 0,1 -->" in svg and "<!-- 0.1 -->" not in svg
    english = tmp_path / "en"
    res = runner.invoke(app, ["analyse", "closing", "--games", "0", "--plots", str(english),
                              "--lang", "en"])
    assert res.exit_code == 0, res.output
    svg = (english / "closing.svg").read_text(encoding="utf-8")
    assert "<!-- 0.1 -->" in svg and "<!-- 0,1 -->" not in svg


def test_luck_plots_of_records_and_simulation(tmp_path: Path) -> None:
    """analyse luck --plots: luck.* from the records, luck-simulated.* by seat."""
    pytest.importorskip("matplotlib")
    (tmp_path / "a.txt").write_text(tiny_record(), encoding="utf-8")
    out = tmp_path / "plots"
    res = runner.invoke(app, ["--lang", "it", "analyse", "luck", str(tmp_path / "a.txt"),
                              "--games", "1",
                              "--seats", "3", "--bots", "1", "--workers", "1", "--plots",
                              str(out)])
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in out.iterdir()) == [
        "luck-simulated.png", "luck-simulated.svg", "luck.png", "luck.svg"]
    assert "posto" in (out / "luck-simulated.svg").read_text(encoding="utf-8")


def test_without_ray_or_matplotlib_the_commands_say_what_to_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    from risiko.web import labplots

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray fails as where it is absent
    res = runner.invoke(app, ["simulate", "--games", "1", "--engine", "ray"])
    assert res.exit_code == 2 and "pip install 'risiko-club[ray]'" in res.stderr
    monkeypatch.setattr(labplots, "available", lambda: False)
    res = runner.invoke(app, ["analyse", "closing", "--games", "0", "--plots", str(tmp_path)])
    assert res.exit_code == 2 and "pip install 'risiko-club[lab]'" in res.stderr
    assert not list(tmp_path.iterdir())


def test_bots_by_level() -> None:
    """--bots takes the levels of agents.levels.LEVELS: 2 = heuristic, 1 = random (the last
    repeats)."""
    res = runner.invoke(app, ["simulate", "--games", "2", "--bots", "2,1", "--workers", "1",
                              "--json"])
    assert res.exit_code == 0, res.output
    assert set(json.loads(res.output)["mean_score_by_bot"]) == {"heuristic", "random"}
    bad = runner.invoke(app, ["simulate", "--games", "1", "--bots", "99"])
    assert bad.exit_code == 2 and "99" in bad.stderr


def test_closing_figures_in_the_language_and_json_keeps_the_point() -> None:
    """issue (newcomer's trial): the CLI said "29.4%" under --lang it while the lab page said
    "0,294". Club band, 4 seats: round 1 ends the game with 1 - (33/36)^4 = 0.2939 (29,4 %);
    one roll of 4 closes with 3/36 = 8,3 %."""
    args = ["analyse", "closing", "--games", "0", "--ruleset", "club-milano"]
    env = {"COLUMNS": "200"}
    it = runner.invoke(app, ["--lang", "it", *args], env=env)
    first = next(line for line in it.stdout.splitlines() if "4-4" in line)
    assert [c.strip() for c in first.split("│")[1:-1]] == [
        "1", "4-4", "8,3 %", "29,4 %", "29,4 %"]
    en = runner.invoke(app, ["--lang", "en", *args], env=env)
    first = next(line for line in en.stdout.splitlines() if "4-4" in line)
    assert [c.strip() for c in first.split("│")[1:-1]] == ["1", "4-4", "8.3%", "29.4%", "29.4%"]
    data = json.loads(runner.invoke(app, ["--lang", "it", *args, "--json"]).stdout)
    row = data["rulesets"][0]["exact"]["rows"][0]
    assert (row["p_roll"], row["p_end"]) == (0.083333, 0.293933)  # JSON: numbers, a point


def test_italian_closing_says_giro_for_a_round() -> None:
    """The regulation's word for a round is "giro" (a "turno" is one seat's)."""
    res = runner.invoke(app, ["--lang", "it", "analyse", "closing", "--games", "2", "--seats",
                              "3", "--bots", "1", "--workers", "1", "--ruleset", "rtu"])
    assert res.exit_code == 0, res.output
    assert "chiamata al giro 8" in res.output and "Durata della partita (giri)" in res.output
    assert "giri dopo la chiamata in media" in res.output and "turn" not in res.output


@pytest.mark.parametrize("lang", ["it", "en"])
def test_luck_tables_fit_80_columns_uncut(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nine columns at 80 characters: every word of every header whole (Italian headers
    were cut to "Gioca…", "Fortu…", "Parti…") and the last column's figure there."""
    from rich.console import Console

    from risiko.cli import lab_commands
    from risiko.faults import set_language
    from risiko.lab import SeatLuck

    wide = Console(width=80, record=True)
    monkeypatch.setattr(lab_commands, "console", wide)
    set_language(lang)
    try:
        row = SeatLuck("heuristic", 12372, 9247, 9262.4, 2210.0, games=300, wins=100,
                       score=18810, scored=300)
        for first in ("player", "seat", "bot"):
            lab_commands._luck_table("t", first, [row], 1.0, lang)
    finally:
        set_language(None)
    out = wide.export_text()
    heads = [lab_commands.say(k, lang) for k in ("player", "seat", "bot", "rolls", "lost",
                                                 "expected", "luck", "z", "games", "wins",
                                                 "score")]
    assert all(w in out for h in heads for w in h.split()), out
    assert "…" not in out and out.count("62" + ("," if lang == "it" else ".") + "7") == 3
    assert max(len(line) for line in out.splitlines()) <= 80


def test_a_line_equal_to_another_is_not_hidden() -> None:
    """newcomer's trial: two rulesets with the same figures drew one line over the other, and
    the plot showed one of them. Equal series are one line, labelled with both names."""
    pytest.importorskip("matplotlib")
    from risiko.web import labplots

    fig = labplots.line_chart([1, 2], {"club-milano": [0.29, 0.5], "rtu": [0.52, 0.77],
                                       "club-milano@2": [0.29, 0.5]},
                              title="t", xlabel="x", ylabel="y", lang="it")
    ax = fig.axes[0]
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["club-milano = club-milano@2", "rtu"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == labels
    labplots._pyplot().close(fig)


def test_the_labs_end_reasons_are_the_games_words_declared_once() -> None:
    """The lab says how games ended with the words ``simulate`` declares (one declaration,
    every ``EndReason``): in Italian as the catalogue has them."""
    from risiko.cli import game_commands, lab_commands
    from risiko.faults import WORDS, word

    assert lab_commands.END_REASON is game_commands.END_REASON == "end_reason"
    assert WORDS["end_reason"] == ("risiko", "closing_dice", "referee",
                                   "all_others_eliminated")
    assert [word("end_reason", k, "it") for k in WORDS["end_reason"]] == [
        "RisiKo!", "dadi di chiusura", "arbitro", "tutti gli altri eliminati"]
