"""``risiko play``, ``risiko replay`` and ``risiko simulate``."""

from __future__ import annotations

import random
import statistics
from collections import Counter, defaultdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from ..faults import current_language, define, define_words, word
from ..figures import decimal_text
from ..game import Game
from ..match import AgentError, play_bots
from ..record import RecordError, parse_record, replay, write_record
from ..ruleset import Ruleset
from ..state import EndReason
from .common import (
    AT_LEAST_ONE,
    CANNOT_READ,
    SEATS_RANGE,
    JsonOpt,
    RulesetOpt,
    console,
    emit_json,
    fail,
    in_file,
    os_reason,
    ruleset_or_fail,
)

BOTS_EMPTY = define("cli.bots_empty", "", "--bots needs at least one name (random, heuristic)")
FROM_ONE = define("cli.from_one", "R2", "{option} counts rounds from 1, not {value}")
POSITION_WITH_SEATS = define(
    "cli.position_with_seats", "",
    "--position gives the seats and the late turns: drop --seats and --late")
LATE_NO_SEAT = define("cli.late_no_seat", "R11",
                      "--late {seat}: no such seat at a table of {seats}")
CANNOT_WRITE = define("cli.cannot_write", "", "cannot write {path}: {reason}")
RECORD_UNFINISHED = define("cli.record_unfinished", "",
                           "{path}: the record ends before the game does")


def _split_bots(bots: str) -> list[str]:
    names = [b.strip() for b in bots.split(",") if b.strip()]
    if not names:
        fail(BOTS_EMPTY())
    return names


def seat_bots(names: list[str], seats: int) -> list[str]:
    """One bot name per seat: the last name repeats when the list is short."""
    return [names[min(i, len(names) - 1)] for i in range(seats)]


def game_report(game: Game, *, bots: list[str] | None = None, seed: int | None = None,
                record: str | None = None) -> dict[str, Any]:
    """The JSON report of a finished game (the contract of ``risiko play --json``):
    ``forfeited`` gives the armies each player lost by clause, ``{player: {"R3": n, "R4": n,
    "R11": n}}`` (R3 a late seat's penalised turns, R4 the army limit, R11 a turn that timed
    out)."""
    assert game.outcome is not None
    scores = game.scores()
    seats = []
    for s in range(game.n):
        seats.append({
            "seat": s + 1,
            "player": game.players[s],
            "bot": bots[s] if bots else None,
            "objective": game.objectives[s].number,
            "objective_name": game.objectives[s].name,
            "status": game.status[s],
            "late": bool(game.late_turns[s]),
        })
    return {
        "ruleset": game.ruleset.label,
        "seed": seed,
        "seats": seats,
        "result": {
            "end": game.outcome.end,
            "rounds": game.outcome.rounds,
            "winner": game.outcome.winner,
            "reason": game.outcome.reason,
            "rolls": game.rolls,
            "actions": len(game.history),
        },
        "scores": {sc.player: sc.score for sc in scores},
        "forfeited": game.forfeits_json(),
        "breakdown": [sc.to_dict() for sc in scores],
        "final_sheet": game.sheet(),
        "closing_rolls": [c.to_dict() for c in game.closing_rolls],
        "record": record,
    }


def print_report(report: dict[str, Any]) -> None:
    """Human form of a game report."""
    res = report["result"]
    winner = res["winner"] or "tie"
    console.print(
        f"[bold]{res['end']}[/] after {res['rounds']} rounds, {res['rolls']} rolls — "
        f"winner: [bold green]{winner}[/]  ({res['reason']})"
    )
    table = Table(title=f"Table score ({report['ruleset']})")
    for col in ("seat", "player", "bot", "objective", "terr.", "in obj.", "continents",
                "base", "pen.", "score"):
        table.add_column(col, justify="right" if col not in ("player", "bot",
                                                              "continents") else "left")
    for seat, sc in zip(report["seats"], report["breakdown"], strict=True):
        conts = ", ".join(
            f"{c['name']}{'*' if c['in_objective'] else ''} {c['points']}" for c in sc["continents"]
        )
        name = sc["player"] + (" (RisiKo!)" if sc["risiko"] else "")
        if sc["status"] != "in_play":
            name += f" [{sc['status']}]"
        table.add_row(
            str(seat["seat"]), name, seat["bot"] or "",
            f"{sc['objective']} {seat['objective_name']}",
            str(sc["territories"]), str(sc["objective_territories"]), conts,
            str(sc["base"]), str(sc["penalty"]), f"[bold]{sc['score']}[/]",
        )
    console.print(table)
    if report["closing_rolls"]:
        rolls = ", ".join(
            f"{c['player']} r{c['closing_round']}:"
            f"{'skip' if c['sum'] is None else c['sum']}{'!' if c['closed'] else ''}"
            for c in report["closing_rolls"]
        )
        console.print(f"closing dice: {rolls}", highlight=False)
    if report["record"] and "\n" not in report["record"]:
        console.print(f"record: {report['record']}")
    if report.get("verified"):
        v = report["verified"]
        console.print(
            f"verified: seed matches commitment {v['commitment']}; deal, objectives, deck and "
            f"{v['dice']} dice in {v['rolls']} rolls are its draws", highlight=False,
        )


def _play(bots: list[str], seats: int, ruleset: Ruleset, seed: int,
          last_rounds_at: int | None, late: list[int]) -> Game:
    try:
        return play_bots(bots, seats, ruleset=ruleset, seed=seed,
                         last_rounds_at=last_rounds_at, late=late)
    except (ValueError, AgentError) as e:
        fail(e)


def _play_position(file: str, ruleset: str | None, bots: list[str], seed: int,
                   last_rounds_at: int | None, json_out: bool) -> Game:
    """Bots play on from the position in ``file`` (a bad one: its faults, exit 1)."""
    from ..match import play_bots_from
    from .position_commands import load_position

    game = load_position(file, ruleset, as_json=json_out, seed=seed)
    if last_rounds_at is not None:
        game.state.last_rounds_at = last_rounds_at
        game = Game.from_state(game.state, chance=game.chance)
    try:
        return play_bots_from(seat_bots(bots, game.n), game, seed=seed)
    except (ValueError, AgentError) as e:
        fail(e)


def register(app: typer.Typer) -> None:
    """Add play, replay and simulate to ``app``."""

    @app.command()
    def play(
        ruleset: RulesetOpt = None,
        seats: Annotated[int | None, typer.Option(
            help="seats at the table, 3..6 (default: 5)", show_default=False)] = None,
        seed: Annotated[int | None, typer.Option(help="seed of dice, deal and bots")] = None,
        bots: Annotated[str, typer.Option(help="comma list, e.g. heuristic,random")] = "heuristic",
        last_rounds_at: Annotated[int | None, typer.Option(
            help="round in which the last 2 rounds are called (R2; default: 8, a position "
            "keeps its own)", show_default=False)] = None,
        late: Annotated[
            list[int] | None, typer.Option(help="a late seat (1-based, R3); repeatable")
        ] = None,
        position: Annotated[str | None, typer.Option(
            "--position", metavar="POSITION",
            help="play on from this position file (risiko position --json; '-': stdin)",
        )] = None,
        record: Annotated[Path | None, typer.Option(help="write the game record here")] = None,
        json_out: JsonOpt = False,
    ) -> None:
        """Play one full game with bots and print the scored table.

        ``--position``: the bots play on from a position (its seats, cards, phase ...); the
        record then starts with the position.
        """
        if last_rounds_at is not None and last_rounds_at < 1:
            fail(FROM_ONE(option="--last-rounds-at", value=last_rounds_at))
        if seed is None:
            seed = random.SystemRandom().randrange(1, 10**9)
        if position is not None:
            if seats is not None or late:
                fail(POSITION_WITH_SEATS())
            game = _play_position(position, ruleset, _split_bots(bots), seed, last_rounds_at,
                                  json_out)
            names = seat_bots(_split_bots(bots), game.n)
        else:
            rs = ruleset_or_fail(ruleset, new=True)
            seats = 5 if seats is None else seats
            if not 3 <= seats <= 6:
                fail(SEATS_RANGE(seats=seats))
            late_seats = [s - 1 for s in (late or [])]
            for s in late_seats:
                if not 0 <= s < seats:
                    fail(LATE_NO_SEAT(seat=s + 1, seats=seats))
            names = seat_bots(_split_bots(bots), seats)
            game = _play(names, seats, rs, seed,
                         8 if last_rounds_at is None else last_rounds_at, late_seats)
        text = write_record(game, {"Seed": str(seed), "Bots": "|".join(names)})
        rec: str = text
        if record is not None:
            try:
                record.write_text(text, encoding="utf-8")
            except OSError as e:
                fail(CANNOT_WRITE(path=str(record), reason=os_reason(e)))
            rec = str(record)
        report = game_report(game, bots=names, seed=seed, record=rec)
        if json_out:
            emit_json(report)
        else:
            print_report(report)

    @app.command("replay")
    def replay_cmd(
        file: Annotated[Path, typer.Argument(help="a game record (risiko play --record)")],
        json_out: JsonOpt = False,
        verify: Annotated[bool, typer.Option(
            "--verify", help="check every die, card and objective against the record's "
            "Seed and SeedCommitment (online tables' verifiable dice)")] = False,
    ) -> None:
        """Replay a game record exactly and print the same result as ``play``.

        ``--verify``: also check the chance of an online table's record (docs/online.md).
        """
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            fail(CANNOT_READ(path=str(file), reason=os_reason(e)))
        try:
            game = replay(text)
        except RecordError as e:
            fail(in_file(file, e), code=1)
        if game.outcome is None:
            fail(RECORD_UNFINISHED(path=str(file)), code=1)
        headers = parse_record(text).headers  # already parsed once by replay: it is valid
        bots = headers["Bots"].split("|") if "Bots" in headers else None
        fair = "SeedCommitment" in headers  # an online table's seed is hex, not a number
        seed = int(headers["Seed"]) if headers.get("Seed", "").isdigit() and not fair else None
        report = game_report(game, bots=bots, seed=seed, record=str(file))
        if verify:
            from ..fair import verify_record
            from ..faults import InvalidInputError

            try:
                checked = verify_record(text)
            except InvalidInputError as e:
                fail(in_file(file, e), code=1)
            report["verified"] = {
                "commitment": checked.commitment, "draws": checked.draws,
                "dice": checked.dice, "rolls": checked.rolls,
            }
        if json_out:
            emit_json(report)
        else:
            print_report(report)

    @app.command()
    def simulate(
        games: Annotated[int, typer.Option(help="number of games")] = 100,
        seats: Annotated[int, typer.Option(help="seats per table, 3..6")] = 4,
        bots: Annotated[str, typer.Option(
            help="comma list of names or levels, e.g. heuristic,random or 2,1")] = "random",
        last_rounds_at: Annotated[int, typer.Option(help="round of the call (R2)")] = 8,
        seed: Annotated[int, typer.Option(help="first seed; game i uses seed + i")] = 1,
        workers: Annotated[int | None, typer.Option(
            help="processes (1 = this one; default: every core)", show_default=False)] = None,
        engine: Annotated[str, typer.Option(help="pool (this machine) or ray (a cluster)")]
        = "pool",
        address: Annotated[str | None, typer.Option(
            help="--engine ray: the cluster (default: a local Ray)")] = None,
        rotate: Annotated[bool, typer.Option(help="rotate the bots round the seats")] = False,
        ruleset: RulesetOpt = None,
        json_out: JsonOpt = False,
    ) -> None:
        """Play many games with bots (progress bar) and report statistics.

        The games run on every core (a process pool, ``--workers``) or on a Ray cluster
        (``--engine ray``); game i is seeded by seed + i, so the figures are the same
        whatever the workers.
        """
        from .lab_commands import SIMULATING, make_spec, simulate_facts

        if games < 1:
            fail(AT_LEAST_ONE(option="--games", value=games))
        spec = make_spec(bots, seats, ruleset, last_rounds_at, seed, rotate)
        results, seconds = simulate_facts(spec, games, workers=workers, engine=engine,
                                          address=address, quiet=json_out,
                                          label=SIMULATING().message(current_language()))
        summary = summarise(results, seats, seconds)
        if json_out:
            emit_json(summary)
            return
        lang = current_language()

        def num(value: float, places: int) -> str:
            return decimal_text(value, places, lang)

        def pairs(d: dict[str, Any], words: str = "") -> str:
            return "; ".join(  # "; ": a decimal comma never reads as the separator
                f"{word(words, str(k), lang) if words else k}: "
                f"{num(v, 2).rstrip('0').rstrip(',.') if isinstance(v, float) else v}"
                for k, v in d.items())

        console.print(_sw("games", games=summary["games"], seconds=num(summary["seconds"], 2),
                          rate=num(summary["games_per_second"], 1),
                          rounds=num(summary["mean_rounds"], 1),
                          rolls=num(summary["mean_rolls"], 1)), highlight=False)
        console.print(_sw("ends", ends=pairs(summary["end_reasons"], END_REASON)),
                      highlight=False)
        console.print(_sw("by_seat", wins=pairs(summary["wins_by_seat"])), highlight=False)
        console.print(_sw("by_bot", wins=pairs(summary["wins_by_bot"])), highlight=False)
        console.print(_sw("score_by_bot", scores=pairs(summary["mean_score_by_bot"])),
                      highlight=False)


#: the words of ``simulate``'s summary, said in the language of ``--lang``
SW = {key: define(f"cli.simulate_{key}", "", text) for key, text in {
    "games": "{games} games in {seconds} s ({rate} games/s); mean rounds {rounds}, mean "
             "rolls {rolls}",
    "ends": "end reasons: {ends}", "by_seat": "wins by seat: {wins}",
    "by_bot": "wins by bot: {wins}", "score_by_bot": "mean score by bot: {scores}",
}.items()}
#: how a game ended (``EndReason``), said in the language of ``--lang``: the words' key, the
#: lab's tables (lab_commands) say them too
END_REASON = "end_reason"
define_words(END_REASON, tuple(reason.value for reason in EndReason))


def _sw(key: str, **params: Any) -> str:
    """The line ``key`` of :data:`SW` in the language of ``--lang``."""
    return SW[key](None, **params).message()


def simulate_one(seed: int, bots: list[str], seats: int, ruleset: Ruleset,
                 last_rounds_at: int | None) -> dict[str, Any]:
    """Play one bot game and return the figures ``simulate`` aggregates."""
    game = play_bots(bots, seats, ruleset=ruleset, seed=seed, last_rounds_at=last_rounds_at)
    assert game.outcome is not None
    scores = [sc.score for sc in game.scores()]
    return {
        "seed": seed,
        "bots": bots,
        "end": game.outcome.end,
        "rounds": game.outcome.rounds,
        "rolls": game.rolls,
        "scores": scores,
        "risiko_seat": game.risiko_seat,
    }


def summarise(results: list[dict[str, Any]], seats: int, seconds: float) -> dict[str, Any]:
    """Aggregate simulate_one results: the JSON of ``risiko simulate --json``.

    A win is the RisiKo! seat, else the best table score; a tie for the best score splits the
    win equally among the tied seats.
    """
    wins = [0.0] * seats
    wins_by_bot: defaultdict[str, float] = defaultdict(float)
    score_sum: defaultdict[str, float] = defaultdict(float)
    score_n: Counter[str] = Counter()
    for r in results:
        scores = r["scores"]
        if r["risiko_seat"] is not None:
            top = [r["risiko_seat"]]
        else:
            best = max(scores)
            top = [s for s, v in enumerate(scores) if v == best]
        for s in top:
            wins[s] += 1 / len(top)
            wins_by_bot[r["bots"][s]] += 1 / len(top)
        for s, v in enumerate(scores):
            score_sum[r["bots"][s]] += v
            score_n[r["bots"][s]] += 1
    n = len(results)
    return {
        "games": n,
        "seconds": round(seconds, 4),
        "games_per_second": round(n / seconds, 2) if seconds > 0 else None,
        "mean_rounds": statistics.fmean(r["rounds"] for r in results),
        "mean_rolls": statistics.fmean(r["rolls"] for r in results),
        "end_reasons": dict(Counter(r["end"] for r in results)),
        "wins_by_seat": {str(s + 1): round(w, 3) for s, w in enumerate(wins)},
        "wins_by_bot": {b: round(w, 3) for b, w in sorted(wins_by_bot.items())},
        "mean_score_by_bot": {
            b: round(score_sum[b] / score_n[b], 2) for b in sorted(score_sum)
        },
    }
