"""``risiko odds``, ``risiko tris``, ``risiko closing``: the numbers of one attack (R7, R8),
one card set (R9) and one closing round (R2).

Every command takes ``--ruleset`` (a preset name, ``club-milano`` by default) and ``--json``
(indented UTF-8 JSON on stdout). Usage errors print one line on stderr and exit 2.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ..board import mask_of, parse_territory, territory_name
from ..cards import (
    INVALID_SET,
    JOLLY_CARDS,
    Card,
    card_name,
    card_symbol,
    is_jolly,
    parse_card,
    set_kind,
    set_value,
)
from ..closing import (
    closing_band,
    closing_probability,
    closing_round_table,
    closing_ways,
    p_game_closes_in_round,
)
from ..faults import RisikoError, current_language, define, define_words, faults_json, word
from ..figures import decimal_text, percent_text
from ..odds import AttackOdds, attack_odds, check_armies, illegal_fault, odds_table
from ..ruleset import Ruleset
from .common import JsonOpt, emit_json, fail, fail_faults, ruleset_or_fail

RulesetOption = Annotated[
    str | None,
    typer.Option("--ruleset", "-r", metavar="R", help="Ruleset preset (default club-milano)."),
]


_fail = fail

NOT_NEGATIVE = define("cli.not_negative", "", "{option} is a number (>= 0), not {value}")
ODDS_BOTH = define("cli.odds_both", "", "give either A D or --table N, not both")
TABLE_SMALL = define("cli.odds_table_small", "", "--table needs N >= 2, not {value}")
ODDS_MISSING = define("cli.odds_missing", "",
                      "give the armies A (attacker) and D (defender), e.g. `risiko odds 5 3`, "
                      "or --table N")
ODDS_ARMIES = define("cli.odds_armies", "R7",
                     "a territory holds at least 1 army, not A={a}, D={d}")
CARD_TWICE = define("cli.card_twice", "R9", "the deck has one {card} card, given twice")
SET_THREE = define("cli.set_three", "R9", "a set is 3 cards, not {count}")
HAND_MISSING = define("cli.hand_missing", "R9",
                      "give --hand N, the cards in hand at the trade (N >= 3)")
HAND_SMALL = define("cli.hand_small", "R9",
                    "--hand must be at least 3 (the set itself), not {value}")
MAY_NOT_START = define("cli.odds_may_not_start", "", "The attack may not start: {fault}.")
CLOSING_FROM_ONE = define("cli.closing_from_one", "R2", "closing rounds count from 1, not {value}")


def _ruleset(name: str | None) -> Ruleset:
    """The ruleset of ``--ruleset``; a bare name (or none) is its newest version, as for a
    game created now: the odds, sets and closing dice of the regulation in force."""
    return ruleset_or_fail(name, new=True)


_emit_json = emit_json


def _pct(p: float) -> str:
    """A chance as a percentage in the language of ``--lang`` (``41,7 %``, ``41.7%``)."""
    return percent_text(p, 1, current_language())


def _dec(value: float, places: int) -> str:
    return decimal_text(value, places, current_language())


# --- odds -------------------------------------------------------------------------------


#: the words of the odds tables, said in the language of ``--lang``
OW = {key: define(f"cli.odds_{key}", "", text) for key, text in {
    "conquest": "conquest", "stopped_one": "stopped: 1 army left",
    "stopped_r7": "stopped: R7 (dice parity)", "stopped_r8": "stopped: R8 (superiority)",
    "stopped": "stopped", "ruleset": "ruleset", "sides": "attacker / defender",
    "sides_value": "{attacker} v {defender} armies", "support": "support (R8)",
    "support_value": "{support} armies on other bordering territories",
    "legal": "legal at start", "legal_no": "no: not allowed{clause}", "legal_yes": "yes",
    "p_conquer": "P(conquer)", "attacker_losses": "expected attacker losses",
    "defender_losses": "expected defender losses", "final_states": "Final states",
    "attacker_left": "attacker left", "defender_left": "defender left", "end": "end",
    "table_title": "P(conquer) in %, {ruleset}", "table_support": ", support {support}",
}.items()}


#: the words of ``tris`` and ``closing``, said in the language of ``--lang``
TW = {key: define(f"cli.tris_{key}", "", text) for key, text in {
    "ruleset": "ruleset", "cards": "cards", "kind": "kind", "value": "value",
    "value_text": "{value} ({hand} cards in hand)", "bonus": "bonus",
    "owned": "{bonus} (owned: {territories})", "total": "total",
    "total_text": "{total} armies",
    "closing_title": "Closing round {round} ({ruleset}): sums {low}..{high} end the game",
    "closing_title_one": "Closing round {round} ({ruleset}): the sum {low} ends the game",
    "sum": "sum", "ways": "ways", "one_roll": "One roll closes: {ways}/36 = {p}",
    "rollers": "With {rollers} seats rolling, the round ends the game: {p}",
}.items()}
#: the kinds of card set (``set_kind``), said in the language of ``--lang``
define_words("set_kind", ("fante", "cannone", "cavaliere", "mixed", "jolly"))


def _tw(key: str, **params: Any) -> str:
    """The word ``key`` of :data:`TW` in the language of ``--lang``."""
    return TW[key](None, **params).message()


def _ow(key: str, **params: Any) -> str:
    """The word ``key`` of :data:`OW` in the language of ``--lang``."""
    return OW[key](None, **params).message()


def _outcome_label(a_left: int, d_left: int, ruleset: Ruleset, support: int) -> str:
    if d_left == 0:
        return _ow("conquest")
    if a_left < 2:
        return _ow("stopped_one")
    fault = illegal_fault(a_left, d_left, ruleset, support)
    if fault is not None and fault.clause == "R7":
        return _ow("stopped_r7")
    if fault is not None and fault.clause == "R8":
        return _ow("stopped_r8")
    return _ow("stopped")


def _print_odds(odds: AttackOdds, ruleset: Ruleset, support: int) -> None:
    console = Console()
    summary = Table(box=box.SIMPLE, show_header=False)
    summary.add_column(style="bold")
    summary.add_column()
    summary.add_row(_ow("ruleset"), ruleset.label)
    summary.add_row(_ow("sides"), _ow("sides_value", attacker=odds.attacker,
                                              defender=odds.defender))
    if support:
        summary.add_row(_ow("support"), _ow("support_value", support=support))
    fault = illegal_fault(odds.attacker, odds.defender, ruleset, support)
    if fault is not None:
        clause = f" ({fault.clause})" if fault.clause else ""
        summary.add_row(_ow("legal"), _ow("legal_no", clause=clause))
        console.print(summary)
        console.print(escape(MAY_NOT_START(fault=fault.to_dict()).message()),  # in --lang
                      highlight=False)
        return
    summary.add_row(_ow("legal"), _ow("legal_yes"))
    summary.add_row(_ow("p_conquer"), f"{_pct(odds.p_conquer)} ({_dec(odds.p_conquer, 6)})")
    summary.add_row(_ow("attacker_losses"), _dec(odds.expected_attacker_losses, 3))
    summary.add_row(_ow("defender_losses"), _dec(odds.expected_defender_losses, 3))
    console.print(summary)
    dist = Table(title=_ow("final_states"), box=box.SIMPLE_HEAD)
    dist.add_column(_ow("attacker_left"), justify="right")
    dist.add_column(_ow("defender_left"), justify="right")
    dist.add_column("p", justify="right")
    dist.add_column(_ow("end"))
    for (a_left, d_left), p in odds.distribution:
        label = _outcome_label(a_left, d_left, ruleset, support)
        dist.add_row(str(a_left), str(d_left), _pct(p), label)
    console.print(dist)


def _print_table(n: int, table: list[list[float]], ruleset: Ruleset, support: int) -> None:
    title = _ow("table_title", ruleset=ruleset.label)
    if support:
        title += _ow("table_support", support=support)
    grid = Table(title=title, box=box.SIMPLE_HEAD, pad_edge=False)
    grid.add_column("A \\ D", justify="right", style="bold")
    for d in range(1, n + 1):
        grid.add_column(str(d), justify="right")
    for a in range(2, n + 1):
        grid.add_row(str(a), *(_dec(100 * p, 1) for p in table[a - 1]))
    # wide enough never to squeeze the columns: the table is meant to be printed
    width = 6 + 7 * n
    Console(width=max(80, width)).print(grid)


def odds_command(
    a: Annotated[
        int | None, typer.Argument(metavar="A", help="Armies on the attacking territory.")
    ] = None,
    d: Annotated[
        int | None, typer.Argument(metavar="D", help="Armies on the defending territory.")
    ] = None,
    ruleset: RulesetOption = None,
    support: Annotated[
        int,
        typer.Option(
            "--support",
            "-s",
            metavar="N",
            help="Attacker's armies on his OTHER territories bordering the target (R8).",
        ),
    ] = 0,
    table: Annotated[
        int | None,
        typer.Option(
            "--table", metavar="N", help="Table of P(conquer): attacker 2..N, defender 1..N."
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Exact odds of attacking D armies from one territory with A armies (R7, R8).

    The attack goes on until conquest or until the next roll is illegal; both sides always
    roll the maximum dice.
    """
    rs = _ruleset(ruleset)
    if support < 0:
        _fail(NOT_NEGATIVE(option="--support", value=support))
    try:  # before anything is computed: the cost grows as A * D (a table as N * N)
        check_armies(**{k: v for k, v in (("attacker", a), ("defender", d), ("support", support),
                                          ("table", table)) if v is not None})
    except RisikoError as err:
        fail_faults(err, code=2, as_json=as_json)
    if table is not None:
        if a is not None or d is not None:
            _fail(ODDS_BOTH())
        if table < 2:
            _fail(TABLE_SMALL(value=table))
        grid = odds_table(table, rs, support)
        if as_json:
            _emit_json(
                {
                    "ruleset": rs.label,
                    "support": support,
                    "attackers": list(range(2, table + 1)),
                    "defenders": list(range(1, table + 1)),
                    "p_conquer": grid[1:],
                }
            )
        else:
            _print_table(table, grid, rs, support)
        return
    if a is None or d is None:
        _fail(ODDS_MISSING())
    if a < 1 or d < 1:
        _fail(ODDS_ARMIES(a=a, d=d))
    odds = attack_odds(a, d, rs, support)
    if as_json:
        data = odds.to_dict()
        data["ruleset"] = rs.label
        data["support"] = support
        fault = illegal_fault(a, d, rs, support)
        if fault is not None:
            data["illegal_reason"] = fault.message("en")
            data["faults"] = faults_json([fault])
        _emit_json(data)
    else:
        _print_odds(odds, rs, support)


# --- tris -------------------------------------------------------------------------------


def _parse_cards(names: list[str]) -> list[Card]:
    cards: list[Card] = []
    for name in names:
        try:
            card = parse_card(name)
        except ValueError as e:
            _fail(e)
        if card in cards and is_jolly(card):
            # "jolly jolly": the deck has two of them
            card = JOLLY_CARDS[1] if card == JOLLY_CARDS[0] else JOLLY_CARDS[0]
        if card in cards:
            _fail(CARD_TWICE(card=card_name(card)))
        cards.append(card)
    return cards


def tris_command(
    cards: Annotated[
        list[str],
        typer.Argument(metavar="CARD CARD CARD", help="Three territory names or jolly."),
    ],
    hand: Annotated[
        int | None,
        typer.Option(
            "--hand", metavar="N", help="Cards in hand at the trade, these three included (R9)."
        ),
    ] = None,
    own: Annotated[
        list[str] | None,
        typer.Option(
            "--own", metavar="TERRITORY", help="A territory the player owns (repeatable)."
        ),
    ] = None,
    ruleset: RulesetOption = None,
    as_json: JsonOpt = False,
) -> None:
    """Armies of a card set (R9): base value by cards in hand, +2 per owned territory card."""
    rs = _ruleset(ruleset)
    if len(cards) != 3:
        _fail(SET_THREE(count=len(cards)))
    if hand is None:
        _fail(HAND_MISSING())
    if hand < 3:
        _fail(HAND_SMALL(value=hand))
    trio = _parse_cards(cards)
    owned_territories: list[int] = []
    for name in own or []:
        try:
            owned_territories.append(parse_territory(name))
        except ValueError as e:
            _fail(e)
    kind = set_kind(trio)
    if kind is None:
        base, bonus = 0, 0
    else:
        base, bonus = set_value(rs, trio, hand, mask_of(owned_territories))
    described = [
        {
            "card": card_name(c),
            "name": "jolly" if is_jolly(c) else territory_name(c),
            "symbol": card_symbol(c),
        }
        for c in trio
    ]
    fault = None if kind is not None else INVALID_SET(
        cards=[f"{c['name']} ({c['symbol']})" for c in described]
    )
    if as_json:
        data: dict[str, Any] = {
            "ruleset": rs.label,
            "cards": described,
            "hand": hand,
            "valid": kind is not None,
            "kind": kind,
            "value": base,
            "bonus": bonus,
            "total": base + bonus,
        }
        if fault is not None:
            data["faults"] = faults_json([fault])
        _emit_json(data)
        if fault is not None:
            raise typer.Exit(1)
        return
    console = Console()
    shown = ", ".join(f"{c['name']} ({c['symbol']})" for c in described)
    if fault is not None:
        Console(stderr=True).print(fault.message(), highlight=False)
        raise typer.Exit(1)
    out = Table(box=box.SIMPLE, show_header=False)
    out.add_column(style="bold")
    out.add_column()
    out.add_row(_tw("ruleset"), rs.label)
    out.add_row(_tw("cards"), shown)
    out.add_row(_tw("kind"), word("set_kind", str(kind), current_language()))
    out.add_row(_tw("value"), _tw("value_text", value=base, hand=hand))
    owned_cards = [
        territory_name(c) for c in trio if not is_jolly(c) and c in owned_territories
    ]
    out.add_row(_tw("bonus"), _tw("owned", bonus=bonus, territories=", ".join(owned_cards))
                if bonus else str(bonus))
    out.add_row(_tw("total"), _tw("total_text", total=base + bonus))
    console.print(out)


# --- closing ----------------------------------------------------------------------------


def closing_command(
    k: Annotated[int, typer.Argument(metavar="K", help="Closing round, from 1 (R2).")],
    rollers: Annotated[
        int | None,
        typer.Option(
            "--rollers",
            metavar="N",
            help="Seats that roll in that round: adds the chance the round ends the game.",
        ),
    ] = None,
    ruleset: RulesetOption = None,
    as_json: JsonOpt = False,
) -> None:
    """The sums of two dice that end the game in closing round K, and their chances (R2)."""
    rs = _ruleset(ruleset)
    if k < 1:
        _fail(CLOSING_FROM_ONE(value=k))
    if rollers is not None and rollers < 0:
        _fail(NOT_NEGATIVE(option="--rollers", value=rollers))
    low, high = closing_band(rs, k)
    sums = closing_round_table(rs, k)
    p_close = closing_probability(rs, k)
    p_round = None if rollers is None else p_game_closes_in_round(rs, k, rollers)
    if as_json:
        data: dict[str, Any] = {
            "ruleset": rs.label,
            "closing_round": k,
            "band": [low, high],
            "sums": [{"sum": s, "p": p} for s, p in sums],
            "p_close": p_close,
        }
        if rollers is not None:
            data["rollers"] = rollers
            data["p_round_closes"] = p_round
        _emit_json(data)
        return
    console = Console()
    console.print(_tw("closing_title" if min(high, 12) > low else "closing_title_one",
                      round=k, ruleset=rs.label, low=low, high=min(high, 12)), highlight=False)
    out = Table(box=box.SIMPLE_HEAD)
    out.add_column(_tw("sum"), justify="right")
    out.add_column(_tw("ways"), justify="right")
    out.add_column("p", justify="right")
    for s, p in sums:
        out.add_row(str(s), f"{closing_ways(s)}/36", _pct(p))
    console.print(out)
    ways = sum(closing_ways(s) for s, _ in sums)
    console.print(_tw("one_roll", ways=ways, p=_pct(p_close)), highlight=False)
    if rollers is not None and p_round is not None:
        console.print(_tw("rollers", rollers=rollers, p=_pct(p_round)), highlight=False)


def register(app: typer.Typer) -> None:
    """Add ``odds``, ``tris`` and ``closing`` to ``app``."""
    app.command("odds")(odds_command)
    app.command("tris")(tris_command)
    app.command("closing")(closing_command)
