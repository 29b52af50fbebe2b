"""``risiko legal POSITION`` and ``risiko position RECORD``: positions as commands.

A position file is a sheet (the JSON ``risiko score`` reads) plus ``to_act`` and ``phase``
and optional fields (see :mod:`risiko.position`). ``risiko legal`` lists what the seat to act
may do there (``--explain``: also every attack the rules forbid, with the clause and its
numbers); ``risiko position`` gives the position after N actions of a game record, as a
position file with ``--json`` (which ``risiko legal`` and ``risiko play --position`` read).
A bad file prints one line per fault (code ``position.*``, ``record.*``) and exits 1.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table

from ..faults import RisikoError, current_language
from .common import (
    CANNOT_READ,
    JsonOpt,
    RulesetOpt,
    console,
    emit_json,
    fail,
    fail_faults,
    in_file,
    os_reason,
)

if TYPE_CHECKING:
    from ..game import Game


def read_text(file: str) -> str:
    """The text of ``file`` (``-``: standard input); exits 2 with one line when unreadable."""
    if file == "-":
        return sys.stdin.read()
    try:
        return Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(CANNOT_READ(path=str(file), reason=os_reason(e)))


def load_position(file: str, ruleset: str | None = None, *, as_json: bool = False,
                  seed: int | None = None) -> Game:
    """The game that goes on from the position in ``file`` (chance seeded by ``seed``);
    a bad position prints its faults and exits 1."""
    from ..dice import SeededChance
    from ..game import Game

    text = read_text(file)
    try:
        return Game.from_position(text, ruleset=ruleset, chance=SeededChance(seed))
    except RisikoError as e:
        fail_faults(e, as_json=as_json)
    except ValueError as e:  # a ruleset name the presets do not know
        fail(e)


def _amount(entry: dict[str, Any]) -> str:
    if "min" in entry:
        return f"{entry['min']}..{entry['max']}" if entry["min"] != entry["max"] else \
            str(entry["min"])
    return str(entry.get("armies", ""))


def print_legal(report: dict[str, Any], reasons: list[str] | None = None) -> None:
    """Human form of :func:`risiko.position.legal_json`; ``reasons``: the forbidden
    attacks' faults in the reader's language (default: the English ones)."""
    who = report["to_act"] or "-"
    console.print(
        f"[bold]{escape(who)}[/] to act: {report['phase']} (round {report['round']}), "
        f"{report['count']} legal entries", highlight=False,
    )
    dice = {(a["from"], a["to"]): a for a in report.get("attacks", [])}
    table = Table(box=None)
    for col in ("#", "action", "from / territory", "to", "armies", "dice"):
        table.add_column(col, justify="right" if col in ("#", "armies") else "left")
    for i, entry in enumerate(report["actions"], start=1):
        kind = entry["kind"]
        where = entry.get("from") or entry.get("territory") or ", ".join(entry.get("cards", []))
        roll = dice.get((entry.get("from"), entry.get("to")))
        table.add_row(
            str(i), kind, escape(where or ""), escape(entry.get("to", "")), _amount(entry),
            f"{roll['attacker_dice']} v {roll['defender_dice']}" if roll and kind == "attack"
            else "",
        )
    console.print(table)
    if "forbidden_attacks" in report:
        forbidden = report["forbidden_attacks"]
        console.print(f"[bold]{len(forbidden)} forbidden attacks[/]", highlight=False)
        lines = reasons or [entry["reason"] for entry in forbidden]
        for entry, line in zip(forbidden, lines, strict=True):
            console.print(
                f"  {escape(entry['from'])} → {escape(entry['to'])}: "
                f"[{entry['clause'] or '-'}] {escape(line)}", highlight=False,
            )


def print_position(game: Game, ply: int, total: int | None) -> None:
    """Human form of a position: whose turn, the seats, then every territory."""
    from ..board import NUM_TERRITORIES, territory_name

    st = game.state
    who = "-" if game.over else st.players[st.seat]
    of = f" of {total}" if total is not None else ""
    console.print(
        f"after action {ply}{of}: [bold]{escape(who)}[/] to act, {st.phase} "
        f"(round {st.round})", highlight=False,
    )
    seats = Table(title="Seats")
    for col in ("seat", "player", "status", "objective", "territories", "armies", "cards"):
        seats.add_column(col, justify="right" if col in ("seat", "territories", "armies",
                                                         "cards") else "left")
    for s in range(st.n):
        seats.add_row(
            str(s + 1), escape(st.players[s]), str(st.status[s]),
            escape(f"{st.objectives[s].number} {st.objectives[s].name}"),
            str(bin(st.owned[s]).count("1")), str(st.totals[s]), str(len(st.hands[s])),
        )
    console.print(seats)
    board = Table(title="Territories")
    board.add_column("territory")
    board.add_column("player")
    board.add_column("armies", justify="right")
    for t in range(NUM_TERRITORIES):
        board.add_row(escape(territory_name(t)), escape(st.players[st.owner[t]]),
                      str(st.armies[t]))
    console.print(board)


def register(app: typer.Typer) -> None:
    """Add ``legal`` and ``position`` to ``app``."""

    @app.command()
    def legal(
        position: Annotated[str, typer.Argument(
            metavar="POSITION", help="a position file (JSON: a sheet + to_act + phase ...); "
            "'-' reads stdin", show_default=False)],
        ruleset: RulesetOpt = None,
        explain: Annotated[bool, typer.Option(
            "--explain", help="also every attack the rules forbid, with the clause and its "
            "numbers (dice; R8: armies bordering the target against the defender's)")] = False,
        json_out: JsonOpt = False,
    ) -> None:
        """The legal actions of the seat to act in a position (R7, R8 for attacks)."""
        from ..position import legal_json
        from ..rules import forbidden_attacks

        game = load_position(position, ruleset, as_json=json_out)
        report = legal_json(game, explain=explain)
        if json_out:
            emit_json(report)
            return
        lang = current_language()
        print_legal(report, [
            fault.message(lang) for _, _, fault in forbidden_attacks(game.state)
        ] if explain else None)

    @app.command("position")
    def position_cmd(
        record: Annotated[str, typer.Argument(
            metavar="RECORD", help="a game record (risiko play --record); '-' reads stdin",
            show_default=False)],
        ply: Annotated[int | None, typer.Option(
            "--ply", min=0, help="the position after this many actions (default: all)")] = None,
        json_out: JsonOpt = False,
    ) -> None:
        """The position after N actions of a game record (--json: a position file)."""
        from ..record import RecordError, iter_actions, parse_record, replay

        text = read_text(record)
        try:
            game = replay(text, ply=ply)
            total = sum(1 for _ in iter_actions(parse_record(text)))
        except RecordError as e:
            if json_out:
                fail_faults(e, as_json=True)
            fail(in_file(record, e), code=1)
        if json_out:
            emit_json(game.position())
            return
        print_position(game, len(game.history), total)
