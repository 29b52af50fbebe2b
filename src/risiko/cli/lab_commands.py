"""``risiko analyse closing|objectives|seats|luck``: the committee's lab (issue 19 item 4).

Italian or English (``risiko --lang it|en``, before or after the command; default
``RISIKO_LANG``, else ``LANG``); ``--json`` gives the figures with
English field names. The simulations run on every core (``--workers``) or on a Ray cluster
(``--engine ray --address HOST:PORT``, the ``ray`` extra); plots (``--plots DIR``: PNG and
SVG, Italian labels) need the ``lab`` extra (matplotlib).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..faults import InvalidInputError, current_language, define, word
from ..figures import decimal_text, percent_text
from ..lab import (
    SAME_GAME,
    Facts,
    SeatLuck,
    SimSpec,
    closing_exact,
    closing_simulated,
    luck_of_record,
    mean_seat_swing,
    merge_luck,
    objectives_table,
    repeated_records,
    run_games,
    seats_table,
    simulated_luck,
)
from ..ruleset import PRESETS, new_ruleset
from .common import (
    AT_LEAST_ONE,
    CANNOT_READ,
    SEATS_RANGE,
    JsonOpt,
    console,
    emit_json,
    fail,
    in_file,
    os_reason,
    ruleset_or_fail,
)
from .game_commands import BOTS_EMPTY, CANNOT_WRITE, END_REASON

analyse_app = typer.Typer(
    help="The committee's lab: closing, objectives, seats, luck (tables, --json, --plots).",
    no_args_is_help=True,
)

ENGINE = define("cli.engine", "", "--engine: pool or ray, not {engine}")
NO_RAY = define("cli.no_ray", "",
                "--engine ray needs Ray: pip install 'risiko-club[ray]'")
NO_MATPLOTLIB = define("cli.no_matplotlib", "",
                       "--plots needs matplotlib: pip install 'risiko-club[lab]'")
NO_RECORDS = define("cli.no_records", "", "{path}: no game record (*.txt) here")
LUCK_NOTHING = define("cli.luck_nothing", "",
                      "risiko analyse luck: name game records, or --games N to simulate")
SIMULATING = define("lab.simulating", "", "simulating")
REPLAYING = define("lab.replaying", "", "reading records")

#: every word of the tables and plots, said in the chosen language
W = {k: define(f"lab.{k}", "", v) for k, v in {
    "closing_title": "Closing dice (R2): {ruleset}, {rollers} seats rolling",
    "closing_round": "Closing round",
    "band": "Closing sums",
    "p_roll": "One roll closes",
    "p_end": "Ends in this round",
    "cumulative": "Ended by then",
    "mean_rounds": "mean closing rounds {mean}; mean rounds after the call {after}",
    "simulated_title": "Simulated: {ruleset}, {games} games of {bots}, call at round {call}",
    "rounds": "Game length (rounds)",
    "ends": "How the games ended",
    "closing_share": "Ended by closing round {k}",
    "objectives_title": "Objectives: {games} games of {bots} ({ruleset})",
    "objective": "Objective",
    "dealt": "Dealt",
    "win_rate": "Win rate (95 % CI)",
    "mean_score": "Mean score (95 % CI)",
    "seats_title": "Seat order: {games} games of {bots} ({ruleset}); fair share {fair}",
    "seat": "Seat",
    "luck_title": "Luck of the dice: {records} records",
    "luck_sim_title": "Luck of the dice, simulated: {games} games of {bots} ({ruleset}), "
                      "by {by}",
    "by_seat": "seat",
    "by_bot": "bot",
    "player": "Player",
    "bot": "Bot",
    "rolls": "Rolls",
    "lost": "Armies lost",
    "expected": "Expected",
    "luck": "Luck (armies)",
    "z": "Luck index (z)",
    "games": "Games",
    "wins": "Wins",
    "score": "Mean score",
    "luck_note": "z = (expected - lost) / its standard deviation: the dice alone (R8 fixes "
                 "the dice of every roll); |z| > 2 happens by chance about 1 time in 22. "
                 "Typical swing of one seat's dice over a game: {swing} armies.",
    "plots": "plots written: {files}",
    "probability": "Probability",
    "share": "Share of games",
}.items()}


def say(key: str, lang: str, **params: Any) -> str:
    """The word ``key`` of :data:`W` in ``lang``."""
    return W[key](**params).message(lang)


BOTS_OF_LEVEL = define("lab.bots_of_level", "", "{count} x level {level}")
BOTS_NAMED = define("lab.bots_named", "", "{count} x {name}")


def bots_said(bots: Sequence[str], lang: str) -> str:
    """The bots of a simulation as a title says them: each bot by its level (``LEVELS``),
    counted, in ``lang``; a bot of no level by its name.

    >>> bots_said(["heuristic", "random", "random", "random"], "it")
    '1 x livello 2, 3 x livello 1'
    >>> bots_said(["heuristic"] * 4, "en")
    '4 x level 2'
    """
    from ..agents.levels import level_of

    counted: dict[str, int] = {}
    for bot in bots:
        counted[bot] = counted.get(bot, 0) + 1
    said = []
    for bot, count in counted.items():
        level = level_of(bot)
        said.append(BOTS_NAMED(count=count, name=bot).message(lang) if level is None
                    else BOTS_OF_LEVEL(count=count, level=level).message(lang))
    return ", ".join(said)


GamesOpt = Annotated[int, typer.Option(help="games to simulate")]
SeatsOpt = Annotated[int, typer.Option(help="seats per table, 3..6")]
BotsOpt = Annotated[str, typer.Option(
    help="comma list of bot names or levels (1 = random, 2 = heuristic ...)")]
SeedOpt = Annotated[int, typer.Option(help="master seed: game i uses seed + i")]
WorkersOpt = Annotated[int | None, typer.Option(
    help="processes (default: every core)", show_default=False)]
EngineOpt = Annotated[str, typer.Option(help="pool (this machine) or ray (a cluster)")]
AddressOpt = Annotated[str | None, typer.Option(
    help="the Ray cluster (ray start --head prints it; default: a local Ray)")]
PlotsOpt = Annotated[Path | None, typer.Option(
    help="write the plots (PNG and SVG) into this folder (the lab extra: matplotlib)")]
CallOpt = Annotated[int, typer.Option(help="round of the call of the last 2 rounds (R2)")]


def bot_names(text: str) -> list[str]:
    """Bot names from ``--bots``: a name or a level number (``agents.levels.LEVELS``)."""
    from ..agents.levels import LEVELS

    names = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        names.append(LEVELS.get(int(part), part) if part.isdigit() else part)
    return names


def make_spec(bots: str, seats: int, ruleset: str | None, call: int, seed: int,
              rotate: bool) -> SimSpec:
    """The simulation of the options (faults name the bad option)."""
    from ..agents.base import agent_by_name

    if not 3 <= seats <= 6:
        fail(SEATS_RANGE(seats=seats))
    names = bot_names(bots)
    if not names:
        fail(BOTS_EMPTY())
    import random

    for n in set(names):
        try:
            agent_by_name(n, random.Random(0))
        except ValueError as e:
            fail(e)
    rs = ruleset_or_fail(ruleset, new=True)
    full = tuple(names[min(i, len(names) - 1)] for i in range(seats))
    return SimSpec(full, rs.label, call, rotate, seed)


def simulate_facts(spec: SimSpec, games: int, *, workers: int | None, engine: str,
                   address: str | None, quiet: bool, label: str) -> tuple[list[Facts], float]:
    """Play the games with a progress bar (hidden when ``quiet``); (facts, seconds)."""
    if games < 1:
        fail(AT_LEAST_ONE(option="--games", value=games))
    if workers is not None and workers < 1:
        fail(AT_LEAST_ONE(option="--workers", value=workers))
    if engine not in ("pool", "ray"):
        fail(ENGINE(engine=engine))
    start = time.perf_counter()
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                  console=console, disable=quiet, transient=True) as progress:
        task = progress.add_task("games", total=games)

        def advance(n: int) -> None:
            progress.advance(task, n)

        if engine == "ray":
            from .lab_ray import RayMissingError, run_games_ray

            try:
                facts = run_games_ray(spec, games, address=address, progress=advance)
            except RayMissingError:
                fail(NO_RAY())
        else:
            facts = run_games(spec, games, workers=workers, progress=advance)
    return facts, time.perf_counter() - start


def _pc(share: float) -> str:
    """A share as a percentage in the language of ``--lang`` (``29,4 %``, ``29.4%``)."""
    return percent_text(share, 1, current_language())


def _dec(value: float, places: int) -> str:
    """A figure with a decimal comma in Italian, a point in English."""
    return decimal_text(value, places, current_language())


def _signed(value: float, places: int) -> str:
    """A figure with its sign (``+0,24``, ``-1,2``), in the language of ``--lang``."""
    text = _dec(value, places)
    return text if text.startswith("-") else "+" + text


def _ci(d: dict[str, Any], pct: bool = True) -> str:
    """An estimate with its interval (``29,4 % [20,1 % – 40,3 %]``: a dash, never a comma,
    between the ends, which may have a decimal comma); ``[–]`` where there is none (a mean
    of 1 game, :func:`~risiko.lab.mean_ci`)."""
    if d["low"] is None or d["high"] is None:
        return f"{_pc(d['value']) if pct else _dec(d['value'], 1)} [–]"
    if pct:
        return f"{_pc(d['value'])} [{_pc(d['low'])} – {_pc(d['high'])}]"
    return f"{_dec(d['value'], 1)} [{_dec(d['low'], 1)} – {_dec(d['high'], 1)}]"


def need_plots(folder: Path | None) -> None:
    """With ``--plots``: refuse at once (before any game) where matplotlib is absent, and
    make the folder."""
    if folder is None:
        return
    from ..web import labplots  # no Django: the plots need matplotlib only

    if not labplots.available():
        fail(NO_MATPLOTLIB())
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        fail(CANNOT_WRITE(path=str(folder), reason=os_reason(e)))


def _plots(folder: Path | None, draw: Callable[[Any, Path], list[Path]]) -> list[str]:
    """Run ``draw(plots_module, folder)`` when ``--plots`` is given (see :func:`need_plots`)."""
    if folder is None:
        return []
    from ..web import labplots

    return [str(p) for p in draw(labplots, folder)]


def closing_plots(m: Any, out: list[dict[str, Any]], folder: Path, lang: str) -> list[Path]:
    """P(the game ends in closing round k) per ruleset (exact), one line each."""
    rounds = max(len(e["exact"]["rows"]) for e in out)
    fig = m.line_chart(range(1, rounds + 1),
                       {e["ruleset"]: [r["p_end"] for r in e["exact"]["rows"]] for e in out},
                       title=say("closing_title", lang,
                                 ruleset=", ".join(e["ruleset"] for e in out),
                                 rollers=out[0]["seats"]),
                       xlabel=say("closing_round", lang), ylabel=say("p_end", lang),
                       lang=lang)
    paths: list[Path] = m.save(fig, folder, "closing")
    return paths


def _interval_bars(m: Any, rows: list[dict[str, Any]], labels: list[str], key: str,
                   **words: Any) -> Any:
    values = [r[key]["value"] for r in rows]
    # no interval (a mean of 1 game): no error bar
    return m.bar_chart(labels, values,
                       lows=[v if r[key]["low"] is None else r[key]["low"]
                             for v, r in zip(values, rows, strict=True)],
                       highs=[v if r[key]["high"] is None else r[key]["high"]
                              for v, r in zip(values, rows, strict=True)], **words)


def objectives_plots(m: Any, data: dict[str, Any], folder: Path, lang: str) -> list[Path]:
    """Win rate per objective with its 95 % interval, the fair share dashed."""
    rows = data["objectives"]
    fig = _interval_bars(m, rows, [str(r["objective"]) for r in rows], "win_rate",
                         title=say("objectives_title", lang, games=data["games"],
                                   bots=bots_said(data["bots"], lang), ruleset=data["ruleset"]),
                         xlabel=say("objective", lang), ylabel=say("win_rate", lang),
                         lines=[1 / len(data["bots"])], lang=lang)
    paths: list[Path] = m.save(fig, folder, "objectives")
    return paths


def seats_plots(m: Any, data: dict[str, Any], folder: Path, lang: str) -> list[Path]:
    """Win rate per seat with its 95 % interval, the fair share dashed."""
    rows = data["seats"]
    fig = _interval_bars(m, rows, [str(r["seat"]) for r in rows], "win_rate",
                         title=say("seats_title", lang, games=data["games"],
                                   bots=bots_said(data["bots"], lang), ruleset=data["ruleset"],
                                   fair=_pc(1 / len(rows))),
                         xlabel=say("seat", lang), ylabel=say("win_rate", lang),
                         lines=[1 / len(rows)], lang=lang)
    paths: list[Path] = m.save(fig, folder, "seats")
    return paths


def luck_plots(m: Any, data: dict[str, Any], folder: Path, lang: str) -> list[Path]:
    """The luck index (z) per player (``luck``), and per seat of the simulated games
    (``luck-simulated``), ±2 dashed."""
    paths: list[Path] = []
    rows = data["players"]
    if rows:
        fig = m.bar_chart([r["player"] for r in rows], [r["z"] for r in rows],
                          title=say("luck_title", lang, records=data["records"]),
                          xlabel=say("player", lang), ylabel=say("z", lang), lines=[-2, 0, 2],
                          lang=lang)
        paths += m.save(fig, folder, "luck")
    sim = data.get("simulated")
    if sim:
        fig = m.bar_chart([r["player"] for r in sim["seats"]], [r["z"] for r in sim["seats"]],
                          title=say("luck_sim_title", lang, games=sim["games"],
                                    bots=bots_said(sim["bots"], lang), ruleset=sim["ruleset"],
                                    by=say("by_seat", lang)),
                          xlabel=say("seat", lang), ylabel=say("z", lang), lines=[-2, 0, 2],
                          lang=lang)
        paths += m.save(fig, folder, "luck-simulated")
    return paths


def _rulesets(ruleset: str | None) -> list[str]:
    if ruleset is not None:
        return [ruleset_or_fail(ruleset, new=True).label]
    return [new_ruleset(name).label for name in PRESETS]


@analyse_app.command("closing")
def closing_cmd(
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", help="one ruleset (default: every ruleset)", show_default=False)] = None,
    seats: SeatsOpt = 4,
    games: Annotated[int, typer.Option(
        help="games to simulate per ruleset (0: the exact figures only)")] = 200,
    bots: BotsOpt = "heuristic",
    last_rounds_at: CallOpt = 8,
    seed: SeedOpt = 1,
    workers: WorkersOpt = None,
    engine: EngineOpt = "pool",
    address: AddressOpt = None,
    plots: PlotsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Game length and closing rounds under each ruleset's band (R2): exact where the band
    alone decides (every seat rolls), simulated with the 3-conquest skip and R12."""
    lang = current_language()
    need_plots(plots)
    if not 3 <= seats <= 6:
        fail(SEATS_RANGE(seats=seats))
    if games < 0:
        fail(AT_LEAST_ONE(option="--games", value=games))
    out: list[dict[str, Any]] = []
    for label in _rulesets(ruleset):
        exact = closing_exact(new_ruleset(label), seats)
        entry: dict[str, Any] = {
            "ruleset": label, "seats": seats,
            "exact": {
                "rows": [{"closing_round": r.k, "band": list(r.band),
                          "p_roll": round(r.p_roll, 6), "p_end": round(r.p_end, 6),
                          "cumulative": round(r.cumulative, 6)} for r in exact.rows],
                "mean_closing_rounds": round(exact.mean_rounds, 4),
                "mean_rounds_after_call": round(exact.mean_after_call, 4),
                "rounds_after_call": {str(j): round(p, 6)
                                      for j, p in exact.rounds_after_call.items()},
            },
            "simulated": None,
        }
        if games:
            spec = make_spec(bots, seats, label, last_rounds_at, seed, False)
            facts, _ = simulate_facts(spec, games, workers=workers, engine=engine,
                                      address=address, quiet=json_out,
                                      label=SIMULATING().message(lang))
            sim = closing_simulated(facts)
            sim.update(bots=list(spec.bots), last_rounds_at=last_rounds_at, seed=seed)
            entry["simulated"] = sim
        out.append(entry)
    files = _plots(plots, lambda m, d: closing_plots(m, out, d, lang))
    if json_out:
        emit_json({"rulesets": out, "plots": files})
        return
    for entry in out:
        ex = entry["exact"]
        table = Table(title=say("closing_title", lang, ruleset=entry["ruleset"],
                                rollers=seats))
        for key in ("closing_round", "band", "p_roll", "p_end", "cumulative"):
            table.add_column(say(key, lang), justify="right")
        for r in ex["rows"]:
            low, high = r["band"]
            table.add_row(str(r["closing_round"]), f"{low}-{min(high, 12)}",
                          _pc(r['p_roll']), _pc(r['p_end']), _pc(r['cumulative']))
        console.print(table)
        console.print(say("mean_rounds", lang, mean=_dec(ex['mean_closing_rounds'], 2),
                          after=_dec(ex['mean_rounds_after_call'], 2)), highlight=False)
        sim = entry["simulated"]
        if sim:
            console.print(say("simulated_title", lang, ruleset=entry["ruleset"],
                              games=sim["games"], bots=bots_said(sim["bots"], lang),
                              call=sim["last_rounds_at"]), highlight=False)
            console.print(f"  {say('rounds', lang)}: {_ci(sim['rounds'], pct=False)}",
                          highlight=False)
            console.print(f"  {say('ends', lang)}: "
                          + "; ".join(f"{word(END_REASON, str(k), lang)} {_pc(v)}"
                                      for k, v in sim["ends"].items()),
                          highlight=False)
            for k, share in sim["closing_rounds"].items():
                console.print(f"  {say('closing_share', lang, k=k)}: {_ci(share)}",
                              highlight=False)
        console.print()
    if files:
        console.print(say("plots", lang, files=", ".join(files)), highlight=False)


def _simulated_table(kind: str, games: int, seats: int, bots: str, ruleset: str | None,
                     last_rounds_at: int, seed: int, workers: int | None, engine: str,
                     address: str | None, lang: str, quiet: bool
                     ) -> tuple[SimSpec, list[Facts]]:
    spec = make_spec(bots, seats, ruleset, last_rounds_at, seed, kind == "objectives")
    facts, _ = simulate_facts(spec, games, workers=workers, engine=engine, address=address,
                              quiet=quiet, label=SIMULATING().message(lang))
    return spec, facts


@analyse_app.command("objectives")
def objectives_cmd(
    games: GamesOpt = 400,
    seats: SeatsOpt = 4,
    bots: BotsOpt = "heuristic",
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", help="club-milano (default), rtu or classic")] = None,
    last_rounds_at: CallOpt = 8,
    seed: SeedOpt = 1,
    workers: WorkersOpt = None,
    engine: EngineOpt = "pool",
    address: AddressOpt = None,
    plots: PlotsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Objective balance: win rate and mean table score per objective, 95 % intervals
    (simulated; the bots rotate round the seats)."""
    lang = current_language()
    need_plots(plots)
    spec, facts = _simulated_table("objectives", games, seats, bots, ruleset, last_rounds_at,
                                   seed, workers, engine, address, lang, json_out)
    rows = objectives_table(facts)
    data = {"ruleset": spec.ruleset, "games": len(facts), "bots": list(spec.bots),
            "seed": seed, "objectives": rows}
    files = _plots(plots, lambda m, d: objectives_plots(m, data, d, lang))
    if json_out:
        emit_json({**data, "plots": files})
        return
    table = Table(title=say("objectives_title", lang, games=len(facts),
                            bots=bots_said(spec.bots, lang), ruleset=spec.ruleset))
    for key in ("objective", "dealt", "win_rate", "mean_score"):
        table.add_column(say(key, lang), justify="left" if key == "objective" else "right")
    for r in rows:
        table.add_row(f"{r['objective']}. {r['name']}", str(r["dealt"]), _ci(r["win_rate"]),
                      _ci(r["mean_score"], pct=False))
    console.print(table)
    if files:
        console.print(say("plots", lang, files=", ".join(files)), highlight=False)


@analyse_app.command("seats")
def seats_cmd(
    games: GamesOpt = 400,
    seats: SeatsOpt = 4,
    bots: BotsOpt = "heuristic",
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", help="club-milano (default), rtu or classic")] = None,
    last_rounds_at: CallOpt = 8,
    seed: SeedOpt = 1,
    workers: WorkersOpt = None,
    engine: EngineOpt = "pool",
    address: AddressOpt = None,
    plots: PlotsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Seat-order advantage: win rate and mean table score per seat, 95 % intervals (the
    same bot at every seat unless --bots names several)."""
    lang = current_language()
    need_plots(plots)
    spec, facts = _simulated_table("seats", games, seats, bots, ruleset, last_rounds_at,
                                   seed, workers, engine, address, lang, json_out)
    rows = seats_table(facts)
    data = {"ruleset": spec.ruleset, "games": len(facts), "bots": list(spec.bots),
            "seed": seed, "seats": rows}
    files = _plots(plots, lambda m, d: seats_plots(m, data, d, lang))
    if json_out:
        emit_json({**data, "plots": files})
        return
    table = Table(title=say("seats_title", lang, games=len(facts), bots=bots_said(spec.bots, lang),
                            ruleset=spec.ruleset, fair=_pc(1 / seats)))
    for key in ("seat", "win_rate", "mean_score"):
        table.add_column(say(key, lang), justify="right")
    for r in rows:
        table.add_row(str(r["seat"]), _ci(r["win_rate"]), _ci(r["mean_score"], pct=False))
    console.print(table)
    if files:
        console.print(say("plots", lang, files=", ".join(files)), highlight=False)


def record_files(paths: Sequence[Path]) -> list[Path]:
    """The record files named: a file as given, a folder's ``*.txt`` (sorted)."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            found = sorted(p.glob("*.txt"))
            if not found:
                fail(NO_RECORDS(path=str(p)))
            files.extend(found)
        else:
            files.append(p)
    return files


@analyse_app.command("luck")
def luck_cmd(
    paths: Annotated[list[Path] | None, typer.Argument(
        help="game records (risiko play --record, an online table's record) or folders",
        show_default=False)] = None,
    games: Annotated[int, typer.Option(
        help="games to simulate beside the records (0: none)")] = 0,
    seats: SeatsOpt = 4,
    bots: BotsOpt = "heuristic",
    ruleset: Annotated[str | None, typer.Option(
        "--ruleset", help="club-milano (default), rtu or classic")] = None,
    last_rounds_at: CallOpt = 8,
    rotate: Annotated[bool, typer.Option(
        help="turn the bots round the seats game by game")] = False,
    seed: SeedOpt = 1,
    workers: WorkersOpt = None,
    engine: EngineOpt = "pool",
    address: AddressOpt = None,
    plots: PlotsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A luck index per player from the rolls of game records, and with ``--games N`` per
    seat and per bot from simulated games (every roll is known there): armies lost against
    the exact odds of every roll, as a z-score (the dice alone, not the play)."""
    lang = current_language()
    if not paths and games == 0:
        fail(LUCK_NOTHING())
    if games < 0:
        fail(AT_LEAST_ONE(option="--games", value=games))
    need_plots(plots)
    per_game: list[list[SeatLuck]] = []
    files_read = record_files(paths or [])
    with Progress(TextColumn(REPLAYING().message(lang)), BarColumn(), MofNCompleteColumn(),
                  console=console, disable=json_out or len(files_read) < 20,
                  transient=True) as progress:
        task = progress.add_task("records", total=len(files_read))
        texts: list[str] = []
        for f in files_read:
            try:
                texts.append(f.read_text(encoding="utf-8"))
            except (OSError, UnicodeDecodeError) as e:
                fail(CANNOT_READ(path=str(f), reason=os_reason(e)))
        # copies of one game would count it again and again: refused before any is read
        repeated = repeated_records(zip(map(str, files_read), texts, strict=True))
        if repeated:
            fail([SAME_GAME(files=", ".join(names), count=len(names)) for names in repeated])
        for f, text in zip(files_read, texts, strict=True):
            try:
                per_game.append(luck_of_record(text))
            except InvalidInputError as e:  # RecordError included
                fail(in_file(f, e), code=1)
            progress.advance(task)
    rows = merge_luck(per_game)
    swing = mean_seat_swing([r for game in per_game for r in game])
    data: dict[str, Any] = {"records": len(files_read), "players": [r.to_dict() for r in rows],
                            "swing": round(swing, 2), "simulated": None}
    sim: dict[str, list[SeatLuck]] = {}
    if games:
        spec = replace(make_spec(bots, seats, ruleset, last_rounds_at, seed, rotate),
                       luck=True)
        facts, _ = simulate_facts(spec, games, workers=workers, engine=engine,
                                  address=address, quiet=json_out,
                                  label=SIMULATING().message(lang))
        sim = simulated_luck(facts)
        data["simulated"] = {
            "games": len(facts), "bots": list(spec.bots), "ruleset": spec.ruleset,
            "seed": seed, "last_rounds_at": last_rounds_at, "rotate": rotate,
            "seats": [r.to_dict() for r in sorted(sim["seats"], key=lambda r: int(r.player))],
            "by_bot": [r.to_dict() for r in sim["bots"]],
            "swing": round(simulated_swing(facts), 2),
        }
    files = _plots(plots, lambda m, d: luck_plots(m, data, d, lang))
    if json_out:
        emit_json({**data, "plots": files})
        return
    tables: list[tuple[str, str, list[SeatLuck], float]] = []  # title, first column, ...
    if files_read:
        tables.append((say("luck_title", lang, records=len(files_read)), "player", rows,
                       swing))
    if data["simulated"] is not None:
        s = data["simulated"]
        for by, key in (("by_seat", "seats"), ("by_bot", "bots")):
            luck_rows = sim[key]
            if key == "seats":
                luck_rows = sorted(luck_rows, key=lambda r: int(r.player))
            elif len(luck_rows) < 2:
                continue  # one bot at every seat: its row is the whole table
            tables.append((say("luck_sim_title", lang, games=s["games"],
                               bots=bots_said(s["bots"], lang), ruleset=s["ruleset"],
                               by=say(by, lang)), "seat" if key == "seats" else "bot",
                           luck_rows, s["swing"]))
    for title, first, luck_rows, table_swing in tables:
        _luck_table(title, first, luck_rows, table_swing, lang)
    if files:
        console.print(say("plots", lang, files=", ".join(files)), highlight=False)


def simulated_swing(facts: Sequence[Facts]) -> float:
    """:func:`~risiko.lab.mean_seat_swing` of simulated games (every seat of every game)."""
    return mean_seat_swing([SeatLuck("", int(x[0]), int(x[1]), x[2], x[3])
                            for f in facts for x in f["luck"]])


def _luck_table(title: str, first: str, rows: Sequence[SeatLuck], swing: float,
                lang: str) -> None:
    """A luck table; ``first`` the word of its first column: ``player`` (records),
    ``seat`` or ``bot`` (simulated games, by seat number or by bot)."""
    # nine columns in 80: one space between them, none at the edges, no header word
    # narrower than itself (it was cut: "Fortu…", "Parti…"), a long name folded, not cut
    table = Table(title=title, padding=(0, 1), collapse_padding=True, pad_edge=False)
    for key in (first, "rolls", "lost", "expected", "luck", "z", "games", "wins", "score"):
        head = say(key, lang)
        table.add_column(head, justify="left" if key == first else "right",
                         min_width=max(len(w) for w in head.split()), overflow="fold")
    for r in rows:
        mean = r.mean_score
        table.add_row(r.player, str(r.rolls), str(r.lost), _dec(r.expected, 1),
                      _signed(r.luck, 1), _signed(r.z, 2), str(r.games), str(r.wins),
                      "-" if mean is None else _dec(mean, 1))
    console.print(table)
    console.print(say("luck_note", lang, swing=_dec(swing, 1)), highlight=False)


def register(app: typer.Typer) -> None:
    """Add the ``analyse`` group to ``app``."""
    app.add_typer(analyse_app, name="analyse")
