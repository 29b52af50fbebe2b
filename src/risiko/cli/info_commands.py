"""``risiko rules`` and ``risiko board``: what a ruleset says and the board it plays on.

``rules`` lists every field of a ruleset with its value, a one-line explanation and the
clause of the regulation it renders (``--json``: :meth:`risiko.ruleset.Ruleset.to_dict`).
``board`` lists the continents (territories, reinforcement bonus) and the territories
(continent, card symbol, neighbours on the ruleset's board) and counts the borders
(``--json``: ``board``, ``ruleset``, ``borders``, ``removed_borders``, ``continents``,
``territories``).
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..board import (
    CONTINENT_BONUS,
    CONTINENT_MASKS,
    NUM_CONTINENTS,
    NUM_TERRITORIES,
    TERRITORY_CONTINENT,
    TERRITORY_SYMBOL,
    Board,
    continent_name,
    iter_mask,
    official_board,
    territory_name,
)
from ..ruleset import Ruleset, new_ruleset
from .common import JsonOpt, fail

#: field -> (one-line explanation, clause of the regulation or source)
FIELD_HELP: dict[str, tuple[str, str]] = {
    "name": ("preset name, stored in records, tables and tournaments", "acceptance"),
    "version": ("version of the preset, stored with the name", "acceptance"),
    "board_name": ("board: club-milano has no Egitto - Medio Oriente border", "R6"),
    "initial_armies": ("initial armies per seat, by number of seats", "standard"),
    "setup_step": ("armies placed at a time during the initial placement", "standard"),
    "min_reinforcement": ("fewest reinforcements a turn, before continents and sets",
                          "standard"),
    "army_limit": ("most armies a seat may have on the board (none = no limit)", "R4"),
    "army_limit_penalty": ("table points lost by a seat found over the army limit", "R5"),
    "dice_parity": ("the attacker must roll at least as many dice as the defender", "R7"),
    "army_superiority": ("the attacker's armies bordering the target must outnumber it",
                         "R8"),
    "superiority_waiver_above": ("attack in parity or inferiority allowed from a territory "
                                 "with more armies than this", "R8"),
    "max_dice_always": ("both sides always roll the most dice they can", "R8"),
    "set_values": ("card set values: by cards in hand (8/10/12) or classic", "R9"),
    "set_value_by_hand": ("cards in hand at the trade -> value of the set", "R9"),
    "classic_set_values": ("classic set values by kind (other rulesets)", "standard"),
    "owned_card_bonus": ("extra armies per traded card showing a territory the seat owns",
                         "R9"),
    "owned_card_bonus_on_territory": ("those extra armies go on that territory", "R9"),
    "hand_limit": ("most cards a seat may hold (none = no limit)", "standard"),
    "closing_low": ("lowest closing-dice sum (lower sums never close)", "R2"),
    "closing_first": ("highest closing sum in closing round 1", "R2"),
    "closing_widen_per_round": ("the closing band widens by this each closing round", "R2"),
    "closing_high_max": ("highest closing sum ever (none = keeps widening)", "R2"),
    "closing_skip_if_conquered": ("a seat that conquered at least this many territories in "
                                  "its turn does not roll", "R2"),
    "penalised_seats_roll": ("penalised seats still roll the closing dice", "R12"),
    "objective_score": ("table score of a completed objective (RisiKo!)", "R1"),
    "max_base_score": ("cap of every other seat's base table score", "R1"),
    "scoring": ("table scoring: territory + continent points, or RTU border points",
                "R15/R16"),
    "territory_points_in_objective": ("points per territory held in the objective", "R16"),
    "territory_points_outside": ("points per territory held outside the objective", "R16"),
    "continent_points_in_objective": ("points per territory of a whole continent in the "
                                      "objective, as a fraction, rounded down", "R15"),
    "continent_points_outside": ("points per territory of a whole continent not in the "
                                 "objective", "R15"),
    "scores_floor_at_zero": ("a penalty cannot take a table score below 0", "R5"),
    "late_penalty_turns": ("turns without reinforcements, sets, attacks or moves for a "
                           "late arrival", "R3"),
    "late_penalty_from": ("a seat marked late after the start: its penalised turns are its "
                          "first of the game, those missed included (start) or count from "
                          "its arrival (arrival)", "R3"),
    "on_time_until": ("arrivals up to this time are on time", "R3"),
    "late_until": ("arrivals up to this time play with the lateness penalty", "R3"),
    "phoned_until": ("with a phone notice, arrivals up to this time are admitted", "R3"),
    "phone_notice_by": ("a phone notice counts if made by this time", "R3"),
    "phone_notice_waives_penalty_until": ("a phone notice waives the penalty for arrivals up "
                                          "to this time (none = never)", "R3"),
    "tables_formed_at": ("time the tables are formed", "R2"),
    "last_rounds_call_at": ("time the referees call the last 2 rounds", "R2"),
    "final_starts_at": ("start time of the final", "R18"),
    "final_last_rounds_call_at": ("call of the last 2 rounds at the final (none: moves with the "
                                  "final's start)", "R2, R18"),
    "turn_time_limit_minutes": ("turn time limit a table may switch on, in minutes", "R11"),
    "timeout_draws_card": ("a seat whose turn times out still draws its card if it "
                           "conquered", "R11"),
    "abandon_ranking_penalty": ("general-ranking points lost for leaving a game", "R13"),
    "fortify_min_left_on_border": ("fewest armies a move may leave on a territory bordering "
                                   "an enemy", "RTU"),
    "eliminated_cards_to_eliminator": ("an eliminated seat's cards pass to the eliminator, "
                                       "usable from his next turn", "R14"),
    "source": ("where this ruleset comes from", "-"),
}


def register(app: typer.Typer) -> None:
    """Add the ``rules`` and ``board`` commands to ``app``."""
    app.command("rules")(rules)
    app.command("board")(board)


RulesetOption = Annotated[
    str | None,
    typer.Option(
        "--ruleset",
        "-r",
        help="Ruleset preset (club-milano, rtu, classic); default club-milano.",
        show_default=False,
    ),
]


def _ruleset(name: str | None) -> Ruleset:
    """The ruleset ``name`` names; a bare name (or none) is its newest version, as for a
    game created now (``risiko play``, ``analyse``): ``rules`` and ``board`` show the
    regulation in force. A version is asked with ``club-milano@1``."""
    try:
        return new_ruleset(name)
    except ValueError as e:
        fail(e, code=1)


def format_value(value: Any) -> str:
    """A ruleset value for people: pairs as ``a: b``, None as ``none``, booleans yes/no."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        if len(value) == 2 and all(isinstance(v, int) for v in value):
            num, den = value
            return f"{num}/{den} = {num / den:g}"  # a fraction, e.g. 2.5 points (R15)
        return ", ".join(
            f"{item[0]}: {item[1]}" if isinstance(item, tuple) and len(item) == 2 else str(item)
            for item in value
        )
    return str(value)


def rules(ruleset: RulesetOption = None, as_json: JsonOpt = False) -> None:
    """Show every field of a ruleset with its value, meaning and clause of the regulation."""
    rs = _ruleset(ruleset)
    if as_json:
        typer.echo(json.dumps(rs.to_dict(), ensure_ascii=False, indent=2))
        return
    table = Table(title=f"Ruleset {rs.label} ({rs.source})", title_justify="left",
                  box=box.SIMPLE_HEAD, show_edge=False, collapse_padding=True)
    table.add_column("Field: meaning", ratio=3)
    table.add_column("Value", ratio=2)
    table.add_column("Clause", no_wrap=True)
    for f in fields(rs):
        meaning, clause = FIELD_HELP.get(f.name, ("(no description yet)", "-"))
        table.add_row(f"[bold]{f.name}[/bold]\n[dim]{escape(meaning)}[/dim]",
                      escape(format_value(getattr(rs, f.name))), clause)
    Console().print(table)


def _board_data(rs: Ruleset) -> dict[str, Any]:
    b: Board = rs.board
    removed = sorted(official_board().borders - b.borders)
    return {
        "board": b.name,
        "ruleset": rs.name,
        "borders": len(b.borders),
        "removed_borders": [[territory_name(x), territory_name(y)] for x, y in removed],
        "continents": [
            {
                "name": continent_name(c),
                "english": continent_name(c, "en"),
                "bonus": CONTINENT_BONUS[c],
                "territories": [territory_name(t) for t in iter_mask(CONTINENT_MASKS[c])],
            }
            for c in range(NUM_CONTINENTS)
        ],
        "territories": [
            {
                "name": territory_name(t),
                "english": territory_name(t, "en"),
                "continent": continent_name(TERRITORY_CONTINENT[t]),
                "symbol": TERRITORY_SYMBOL[t],
                "neighbours": [territory_name(n) for n in iter_mask(b.borders_of(t))],
            }
            for t in range(NUM_TERRITORIES)
        ],
    }


def board(ruleset: RulesetOption = None, as_json: JsonOpt = False) -> None:
    """Show the continents (bonus), the territories (continent, card symbol, neighbours)
    and the number of borders of a ruleset's board (club-milano: 81, R6; official: 82)."""
    rs = _ruleset(ruleset)
    data = _board_data(rs)
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False, indent=2))
        return
    console = Console()
    conts = Table(title=f"Continents ({data['board']} board, ruleset {rs.label})",
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
                  collapse_padding=True)
    conts.add_column("Continent", no_wrap=True)
    conts.add_column("English", no_wrap=True)
    conts.add_column("Territories", justify="right")
    conts.add_column("Bonus", justify="right")
    for c in data["continents"]:
        conts.add_row(c["name"], c["english"], str(len(c["territories"])), str(c["bonus"]))
    console.print(conts)
    terrs = Table(title="Territories by continent",
                  title_justify="left", box=box.SIMPLE_HEAD, show_edge=False,
                  collapse_padding=True)
    terrs.add_column("#", justify="right", no_wrap=True)
    terrs.add_column("Territory", no_wrap=True)
    terrs.add_column("Symbol", no_wrap=True)
    terrs.add_column("Borders", justify="right", no_wrap=True)
    terrs.add_column("Neighbours")
    continent = ""
    for i, t in enumerate(data["territories"], start=1):
        if t["continent"] != continent:
            continent = t["continent"]
            terrs.add_row("", f"[bold]{continent}[/bold]", "", "", "", end_section=False)
        terrs.add_row(str(i), t["name"], t["symbol"], str(len(t["neighbours"])),
                      ", ".join(t["neighbours"]))
    console.print(terrs)
    removed = "; ".join(" - ".join(pair) for pair in data["removed_borders"])
    note = f" (official board without {removed})" if removed else ""
    console.print(f"{data['borders']} borders{note}", highlight=False)
