"""The season file: a whole tournament as one JSON document, checked and computed.

The format is described by ``season.schema.json`` (JSON Schema 2020-12, shipped in this
package: :func:`season_schema`) and in docs/tournament.md::

    {"name": "Torneo 2027", "ruleset": "club-milano", "format": "club-milano",
     "players": ["Alba", "Bice", ...],
     "carry_over": {"Rita": 37},
     "draws": [{"stage": "semifinal", "order": ["Ugo", "Vera"], "referee": "Luca"}],
     "evenings": [
      {"date": "2027-03-02", "stage": "qualifying",
       "arrivals": {"Alba": "21:05", "Ciro": {"at": "21:26", "phoned": true}},
       "absent": ["Nino"],
       "tables": [{"seats": ["Alba", "Bice", "Ciro", "Dora", "Ezio"],
                   "sheet": {...a sheet of `risiko score`...}  or  "scores": {"Alba": 57, ...},
                   "risiko": ["Alba"], "abandoned": ["Dora"],
                   "winners": ["Alba"], "eliminated": ["Ezio", "Ciro"],
                   "penalties": [{"player": "Alba", "points": -7, "reason": "R5"}]}],
       "penalties": [{"player": "Bice", "points": -10, "reason": "...", "referee": "Luca",
                      "appeal": {"outcome": "reduced", "points": -5}}],
       "discipline": [{"player": "Bice", "level": "warning", "reason": "..."}]},
      {"date": "...", "stage": "semifinal", "tables": [...]},
      {"date": "...", "stage": "final", "tables": [...]}]}

Table ``penalties`` are table points; evening ``penalties`` are ranking points. Every fault
of the file is collected - structure first, then :func:`risiko.tournament.checks.tournament_faults`,
then (only when the rest is clean, since they depend on the ranking) the stage faults of
:func:`risiko.tournament.finals.compute_stages` - and raised together as one
:class:`SeasonError`, one line per fault naming the evening, table and player.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
from collections.abc import Mapping
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from .. import jsonread
from ..faults import Fault, FaultKind, InvalidInputError, RisikoError, define, define_words
from ..names import clean_name, name_key
from ..ruleset import Ruleset, get_ruleset
from ..sheet import Sheet, SheetError, parse_sheet
from .checks import SHEET_AND_SCORES, tournament_faults
from .dates import clock_name, evening_date_fault, parse_clock
from .finals import Stages, compute_stages
from .format import TournamentFormat, get_format
from .model import (
    APPEAL_OUTCOMES,
    DISCIPLINE_LEVELS,
    STAGES,
    Appeal,
    Arrival,
    CarryOver,
    Discipline,
    Draw,
    Evening,
    Penalty,
    Player,
    Stage,
    Table,
    Tournament,
    scores_in_seat_order,
)
from .schedule import Schedule, classify

__all__ = [
    "SeasonError",
    "compute_season",
    "dump_season",
    "load_season",
    "parse_season",
    "parse_season_text",
    "read_season_json",
    "season_report",
    "season_schema",
]

_TOP_KEYS = ("$schema", "name", "ruleset", "format", "players", "carry_over", "draws",
             "evenings")
_EVENING_KEYS = ("date", "stage", "schedule", "arrivals", "absent", "tables", "penalties",
                 "discipline", "note")
_TABLE_KEYS = ("seats", "sheet", "scores", "risiko", "abandoned", "penalties", "winners",
               "eliminated", "note")
_PENALTY_KEYS = ("player", "points", "reason", "referee", "at", "appeal")
_APPEAL_KEYS = ("outcome", "points", "referee", "reason")
_ARRIVAL_KEYS = ("at", "phoned", "phoned_at")
_DISCIPLINE_KEYS = ("player", "level", "reason", "referee", "table")
_DRAW_KEYS = ("stage", "order", "referee", "note")
_CARRY_KEYS = ("points", "referee", "note")
_PLAYER_KEYS = ("name", "accepted_ruleset", "accepted_on")


class SeasonError(InvalidInputError):
    """A season file that cannot be computed: ``faults`` is every problem found, each
    naming the evening, table and player concerned (``str(error)``: one English line
    each)."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _k(code: str, template: str, clause: str = "") -> FaultKind:
    return define(f"season.{code}", clause, template, located=True)


NOT_OBJECT = _k("not_object", "{what} must be an object, not {value}")
ARRIVAL_NOT_OBJECT = _k("arrival_not_object",
                        "the arrival of {player} must be an object, not {value}")
CARRY_NOT_OBJECT = _k("carry_not_object",
                      "the carry-over of {player} must be an object, not {value}")
KEY_TWICE = _k("key_twice", "key {key!r} is given twice")
UNKNOWN_KEY = _k("unknown_key", "unknown key {key!r} (known: {known})")
NOT_TEXT = _k("not_text", "{key} must be text, not {value}")
NOT_A_NAME = _k("not_a_name", "{what} must be a name, not {value}")
NOT_A_NAME_IN = _k("not_a_name_in", "each of {key} must be a name, not {value}")
NOT_NAMES = _k("not_names", "{key} must be a list of player names")
NOT_A_LIST = _k("not_a_list", "{key} must be a list")
PENALTY_POINTS = _k("penalty_points", "penalty of {player}: points must be an integer "
                    "({unit} points, e.g. -7), not {value}")
APPEAL_OUTCOME = _k("appeal_outcome", "appeal of {player}: outcome must be one of {known}, "
                    "not {value}")
APPEAL_POINTS = _k("appeal_points", "appeal of {player}: points must be an integer")
NO_SEATS = _k("no_seats", "'seats' must list the table's players in turn order")
SCORE_NOT_INT = _k("score_not_int", "score of {player} must be an integer (table points), "
                   "not {value}")
BAD_DATE = _k("bad_date", "date must be 'YYYY-MM-DD', not {value}")
BAD_STAGE = _k("bad_stage", "stage must be one of {known}, not {value}")
PHONED_FLAG = _k("phoned_flag", "phoned must be true or false", "R3")
BAD_LEVEL = _k("bad_level", "level must be one of {known}, not {value}", "R10")
BAD_TABLE_NUMBER = _k("bad_table_number", "table must be a table number")
NO_NAME = _k("no_name", "'name' must name the tournament")
RULESET_NOT_NAME = _k("ruleset_not_name", "ruleset must be a name, not {value}")
NO_PLAYERS = _k("no_players", "'players' must list the players' names")
NO_EVENINGS = _k("no_evenings", "'evenings' must be a list of evenings")
ACCEPTED_ON = _k("accepted_on", "accepted_on must be 'YYYY-MM-DD'")
ACCEPTED_RULESET = _k("accepted_ruleset", "accepted_ruleset must be 'name@version'")
CARRY_POINTS = _k("carry_points", "points must be an integer", "R17")
DRAW_STAGE = _k("draw_stage", "stage must be 'semifinal' or 'final' (the stage the draw "
                "seats), not {value}", "R18")
NOT_A_SEASON = _k("not_a_season", "not a season file")
NOT_JSON = _k("not_json", "not valid JSON: {reason} at line {line} column {column}")
CANNOT_READ = _k("cannot_read", "cannot read {path}: {reason}")
NOT_UTF8 = _k("not_utf8", "{path}: not UTF-8 text ({reason})")
define_words("what", (
    "a season file", "an evening", "a table", "schedule", "scores", "arrivals", "a player",
    "a draw of lots", "a disciplinary record", "a table penalty", "a ranking penalty",
    "an appeal", "carry_over", "a penalty's player"))

Where = dict[str, Any]


def _present(pairs: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    """The JSON object of ``pairs`` without the unset ones (None, empty text): what the
    reader takes as the default."""
    return {k: v for k, v in pairs if v is not None and v != ""}


class _Codec:
    """The season file's reader and writer, side by side per entity: ``read_x`` walks the
    JSON of an ``x``, builds the fact and collects the structural faults (:attr:`faults`);
    ``write_x`` is its inverse, writing only what differs from what the reader assumes
    (``parse_season(dump_season(t))`` gives back ``t``'s facts).

    Names are read as typed (NFC, single spaces) and, once the players are known, every
    name of the file is the registered spelling of the same name however typed (a
    decomposed accent, other capitals): ``Noe\\u0300 Galli`` in a table is ``Noè Galli``.
    ``ruleset`` is the tournament's (the reader learns it from the file): a table's sheet
    and an evening's schedule default to it.
    """

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        self.faults: list[Fault] = []
        self.canon: dict[str, str] = {}  # name key -> registered spelling
        self.ruleset = ruleset

    @property
    def rs(self) -> Ruleset:
        assert self.ruleset is not None, "the tournament's ruleset is read first"
        return self.ruleset

    # ---------------------------------------------------------------------------------------
    # reading helpers

    def add(self, fault: Fault) -> None:
        self.faults.append(fault)

    def player_name(self, name: str) -> str:
        """The registered spelling of ``name`` (``name`` cleaned if it is not registered)."""
        clean = clean_name(name)
        return self.canon.get(name_key(clean), clean)

    def obj(self, value: Any, where: Where, keys: tuple[str, ...], what: str,
            player: str | None = None, names: bool = False) -> Mapping[str, Any] | None:
        """``value`` as an object of ``keys`` (faults for another type, a key given twice,
        an unknown key; with ``names`` the keys are player names, a name given twice
        however typed is a key given twice)."""
        if not isinstance(value, Mapping):
            shown = json.dumps(value)
            if what == "the arrival" and player is not None:
                self.add(ARRIVAL_NOT_OBJECT({**where, "player": player}, value=shown))
            elif what == "the carry-over" and player is not None:
                self.add(CARRY_NOT_OBJECT({**where, "player": player}, value=shown))
            else:
                self.add(NOT_OBJECT(where, what=what, value=shown))
            return None
        repeated = jsonread.duplicate_keys(value)
        if names:
            seen: set[str] = set()
            for k in value:
                key = name_key(k) if isinstance(k, str) else k
                if key in seen and k not in repeated:
                    repeated.append(k)
                seen.add(key)
        for k in repeated:
            self.add(KEY_TWICE(where, key=k))
        if not names:
            for k in value:
                if k not in keys:
                    self.add(UNKNOWN_KEY(where, key=k, known=list(keys)))
        return value

    def text(self, value: Any, where: Where, key: str, default: str = "") -> str:
        if value is None:
            return default
        if not isinstance(value, str):
            self.add(NOT_TEXT(where, key=key, value=json.dumps(value)))
            return default
        return value

    def name(self, value: Any, where: Where, what: str = "a player",
             each_of: str | None = None) -> str | None:
        if isinstance(value, str) and clean_name(value):
            return self.player_name(value)
        if each_of is not None:
            self.add(NOT_A_NAME_IN(where, key=each_of, value=json.dumps(value)))
        else:
            self.add(NOT_A_NAME(where, what=what, value=json.dumps(value)))
        return None

    def names(self, value: Any, where: Where, key: str) -> list[str]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.add(NOT_NAMES(where, key=key))
            return []
        out: list[str] = []
        for v in value:
            n = self.name(v, where, each_of=key)
            if n is not None:
                out.append(n)
        return out

    def clock(self, value: Any, where: Where) -> int | None:
        try:
            return parse_clock(value)
        except RisikoError as e:
            self.faults += [f.at(**where) for f in e.faults]
            return None

    def items(self, value: Any, where: Where, key: str) -> list[Any]:
        if value is None:
            return []
        if not isinstance(value, list):
            self.add(NOT_A_LIST(where, key=key))
            return []
        return value

    # ---------------------------------------------------------------------------------------
    # the tournament

    def read_tournament(self, data: Any) -> Tournament | None:
        top = self.obj(data, {}, _TOP_KEYS, "a season file")
        if top is None:
            return None
        name = top.get("name")
        if not isinstance(name, str) or not clean_name(name):
            self.add(NO_NAME())
            name = "?"
        rs_raw = top.get("ruleset", "club-milano")
        if not isinstance(rs_raw, str):
            self.add(RULESET_NOT_NAME({"field": "ruleset"}, value=json.dumps(rs_raw)))
            return None
        try:
            self.ruleset = get_ruleset(rs_raw)
        except RisikoError as err:
            self.faults += [f.at(field="ruleset") for f in err.faults]
            return None
        fmt = self.read_format(top.get("format"))
        players: list[Player] = []
        raw_players = top.get("players")
        if not isinstance(raw_players, list):
            self.add(NO_PLAYERS({"field": "players"}))
            raw_players = []
        for raw in raw_players:
            p = self.read_player(raw)
            if p is not None:
                self.canon.setdefault(name_key(p.name), p.name)
                players.append(replace(p, name=self.canon[name_key(p.name)]))
        carry: list[CarryOver] = []
        raw_carry = top.get("carry_over")
        if raw_carry is not None:
            cdata = self.obj(raw_carry, {"field": "carry_over"}, (), "carry_over",
                             names=True)
            for player, value in (cdata or {}).items():
                c = self.read_carry(self.player_name(player), value)
                if c is not None:
                    carry.append(c)
        draws: list[Draw] = []
        for i, raw_draw in enumerate(self.items(top.get("draws"), {}, "draws"), 1):
            d = self.read_draw(raw_draw, {"field": "draws", "draw": i})
            if d is not None:
                draws.append(d)
        evenings: list[Evening] = []
        raw_evenings = top.get("evenings")
        if raw_evenings is None:
            raw_evenings = []
        if not isinstance(raw_evenings, list):
            self.add(NO_EVENINGS({"field": "evenings"}))
            raw_evenings = []
        for i, raw_e in enumerate(raw_evenings, start=1):
            e = self.read_evening(raw_e, i)
            if e is not None:
                evenings.append(e)
        return Tournament(
            name=clean_name(name),
            players=tuple(players),
            ruleset_name=self.rs.name,
            ruleset_version=self.rs.version,
            format=fmt,
            carry_over=tuple(carry),
            evenings=tuple(evenings),
            draws=tuple(draws),
        ).sorted()

    def write_tournament(self, t: Tournament) -> dict[str, Any]:
        rs = self.rs
        data: dict[str, Any] = {
            "name": t.name,
            "ruleset": rs.label,  # name@version, as everything written (a bare name read is @1)
            "format": self.write_format(t.format),
            "players": [self.write_player(p) for p in t.players],
        }
        if t.carry_over:
            data["carry_over"] = {c.player: self.write_carry(c) for c in t.carry_over}
        if t.draws:
            data["draws"] = [self.write_draw(d) for d in t.draws]
        data["evenings"] = [self.write_evening(e) for e in t.evenings]
        return data

    # ---------------------------------------------------------------------------------------
    # the format: a shipped one by name, or an object (``base`` and the fields changed)

    def read_format(self, raw: Any) -> TournamentFormat:
        try:
            if raw is None or isinstance(raw, str):
                return get_format(raw)
            if isinstance(raw, Mapping):
                base = get_format(raw["base"]) if isinstance(raw.get("base"), str) else None
                rest = {k: v for k, v in raw.items() if k != "base"}
                return TournamentFormat.from_dict(rest, base)
            raise InvalidInputError(NOT_OBJECT({"field": "format"}, what="format",
                                               value=json.dumps(raw)))
        except RisikoError as err:
            self.faults += [f.at(field="format") for f in err.faults]
            return get_format(None)

    def write_format(self, fmt: TournamentFormat) -> str | dict[str, Any]:
        try:
            shipped: TournamentFormat | None = get_format(fmt.name)
        except ValueError:
            shipped = None
        return fmt.name if fmt == shipped else fmt.to_dict()

    # ---------------------------------------------------------------------------------------
    # a player: a name, or an object when the regulation's acceptance is recorded

    def read_player(self, raw: Any) -> Player | None:
        where: Where = {"field": "players"}
        if isinstance(raw, str):
            n = self.name(raw, where)
            return None if n is None else Player(n)
        data = self.obj(raw, where, _PLAYER_KEYS, "a player")
        if data is None:
            return None
        n = self.name(data.get("name"), where)
        who = {**where, "player": n or "?"}
        accepted_on = None
        if data.get("accepted_on") is not None:
            try:
                accepted_on = _dt.date.fromisoformat(str(data["accepted_on"]))
            except ValueError:
                self.add(ACCEPTED_ON(who))
        accepted = data.get("accepted_ruleset")
        if accepted is not None and not isinstance(accepted, str):
            self.add(ACCEPTED_RULESET(who))
            accepted = None
        return None if n is None else Player(n, accepted, accepted_on)

    def write_player(self, p: Player) -> str | dict[str, Any]:
        if p.accepted_ruleset is None and p.accepted_on is None:
            return p.name
        out: dict[str, Any] = {"name": p.name}
        if p.accepted_ruleset is not None:
            out["accepted_ruleset"] = p.accepted_ruleset
        if p.accepted_on is not None:
            out["accepted_on"] = p.accepted_on.isoformat()
        return out

    # ---------------------------------------------------------------------------------------
    # a carry-over (R17): points, or an object when a referee or a note is recorded

    def read_carry(self, player: str, raw: Any) -> CarryOver | None:
        where: Where = {"field": "carry_over"}
        if isinstance(raw, int) and not isinstance(raw, bool):
            return CarryOver(player, raw)
        data = self.obj(raw, where, _CARRY_KEYS, "the carry-over", player=player)
        if data is None:
            return None
        points = data.get("points")
        if not isinstance(points, int) or isinstance(points, bool):
            self.add(CARRY_POINTS({**where, "player": player}))
            return None
        return CarryOver(player, points, self.text(data.get("referee"), where, "referee"),
                         self.text(data.get("note"), where, "note"))

    def write_carry(self, c: CarryOver) -> int | dict[str, Any]:
        if not (c.referee or c.note):
            return c.points
        return _present((("points", c.points), ("referee", c.referee), ("note", c.note)))

    # ---------------------------------------------------------------------------------------
    # a draw of lots (R18 reading)

    def read_draw(self, raw: Any, where: Where) -> Draw | None:
        data = self.obj(raw, where, _DRAW_KEYS, "a draw of lots")
        if data is None:
            return None
        stage = data.get("stage")
        if stage not in ("semifinal", "final"):
            self.add(DRAW_STAGE(where, value=json.dumps(stage)))
            return None
        order = self.names(data.get("order"), {**where, "stage": stage}, "order")
        return Draw(stage, tuple(order), self.text(data.get("referee"), where, "referee"),
                    self.text(data.get("note"), where, "note"))

    def write_draw(self, d: Draw) -> dict[str, Any]:
        return _present((("stage", d.stage), ("order", list(d.order)),
                         ("referee", d.referee), ("note", d.note)))

    # ---------------------------------------------------------------------------------------
    # an evening

    def read_evening(self, raw: Any, index: int) -> Evening | None:
        where: Where = {"evening": index}  # no date yet: "evening 3" (its place in the file)
        data = self.obj(raw, where, _EVENING_KEYS, "an evening")
        if data is None:
            return None
        date_raw = data.get("date")
        try:
            if not isinstance(date_raw, str):
                raise ValueError
            date = _dt.date.fromisoformat(date_raw)
        except ValueError:
            self.add(BAD_DATE(where, value=json.dumps(date_raw)))
            return None
        out_of_range = evening_date_fault(date, **where)
        if out_of_range is not None:
            self.add(out_of_range)
            return None
        stage = data.get("stage", "qualifying")
        if stage not in STAGES:
            self.add(BAD_STAGE({"evening": date_raw}, known=list(STAGES),
                               value=json.dumps(stage)))
            return None
        where = {"evening": date_raw, "stage": stage}
        schedule = self.read_schedule(data.get("schedule"), where, stage)
        arrivals: list[Arrival] = []
        raw_arrivals = data.get("arrivals")
        if raw_arrivals is not None:
            at_arrivals = {**where, "field": "arrivals"}
            adata = self.obj(raw_arrivals, at_arrivals, (), "arrivals", names=True)
            for player, value in (adata or {}).items():
                a = self.read_arrival(self.player_name(player), value, at_arrivals)
                if a is not None:
                    arrivals.append(a)
        tables = []
        for i, raw_table in enumerate(self.items(data.get("tables"), where, "tables"), 1):
            table = self.read_table(raw_table, {**where, "table": i})
            tables.append(table if table is not None else Table(seats=()))
        penalties = []
        for raw_pen in self.items(data.get("penalties"), where, "penalties"):
            p = self.read_penalty(raw_pen, {**where, "field": "penalties"}, "ranking")
            if p is not None:
                penalties.append(p)
        discipline = []
        for raw_d in self.items(data.get("discipline"), where, "discipline"):
            d = self.read_discipline(raw_d, {**where, "field": "discipline"})
            if d is not None:
                discipline.append(d)
        return Evening(
            date=date,
            stage=stage,
            schedule=schedule,
            arrivals=tuple(arrivals),
            tables=tuple(tables),
            penalties=tuple(penalties),
            discipline=tuple(discipline),
            absent=frozenset(self.names(data.get("absent"), where, "absent")),
        )

    def write_evening(self, e: Evening) -> dict[str, Any]:
        out: dict[str, Any] = {"date": e.date.isoformat(), "stage": e.stage}
        schedule = self.write_schedule(e.schedule, e.stage)
        if schedule:
            out["schedule"] = schedule
        if e.arrivals:
            out["arrivals"] = {a.player: self.write_arrival(a) for a in e.arrivals}
        if e.absent:
            out["absent"] = sorted(e.absent)
        out["tables"] = [self.write_table(t) for t in e.tables]
        if e.penalties:
            out["penalties"] = [self.write_penalty(p) for p in e.penalties]
        if e.discipline:
            out["discipline"] = [self.write_discipline(d) for d in e.discipline]
        return out

    # ---------------------------------------------------------------------------------------
    # an evening's schedule (R2, R3): only the times that differ from the ruleset's

    def read_schedule(self, raw: Any, where: Where, stage: Stage) -> Schedule:
        schedule = Schedule.from_ruleset(self.rs, stage)
        if raw is not None:
            sdata = self.obj(raw, where, tuple(f for f in Schedule.__dataclass_fields__),
                             "schedule")
            if sdata is not None:
                try:
                    schedule = schedule.with_times(sdata)
                except RisikoError as err:
                    self.faults += [f.at(**where) for f in err.faults]
        return schedule

    def write_schedule(self, schedule: Schedule, stage: Stage) -> dict[str, Any]:
        default = Schedule.from_ruleset(self.rs, stage).to_dict()
        return {k: v for k, v in schedule.to_dict().items() if default[k] != v}

    # ---------------------------------------------------------------------------------------
    # an arrival (R3): a time, or an object when the player phoned

    def read_arrival(self, player: str, value: Any, where: Where) -> Arrival | None:
        who = {**where, "player": player}
        if isinstance(value, str):
            at = self.clock(value, who)
            return None if at is None else Arrival(player, at)
        data = self.obj(value, where, _ARRIVAL_KEYS, "the arrival", player=player)
        if data is None:
            return None
        at = self.clock(data.get("at"), who)
        phoned = data.get("phoned", False)
        if not isinstance(phoned, bool):
            self.add(PHONED_FLAG(who))
            phoned = False
        phoned_at = None
        if data.get("phoned_at") is not None:
            phoned_at = self.clock(data["phoned_at"], {**who, "field": "phoned_at"})
            phoned = True
        return None if at is None else Arrival(player, at, phoned, phoned_at)

    def write_arrival(self, a: Arrival) -> str | dict[str, Any]:
        if not a.phoned and a.phoned_at is None:
            return clock_name(a.at)
        return _present((("at", clock_name(a.at)), ("phoned", a.phoned),
                         ("phoned_at", None if a.phoned_at is None
                          else clock_name(a.phoned_at))))

    # ---------------------------------------------------------------------------------------
    # a table: its seats and result (a sheet or scores)

    def read_table(self, raw: Any, where: Where) -> Table | None:
        data = self.obj(raw, where, _TABLE_KEYS, "a table")
        if data is None:
            return None
        seats = data.get("seats")
        if not isinstance(seats, list) or not seats:
            self.add(NO_SEATS(where))
            return None
        names = self.names(seats, where, "seats")
        sheet: Sheet | None = None
        scores: tuple[tuple[str, int], ...] | None = None
        if data.get("sheet") is not None and data.get("scores") is not None:
            self.add(SHEET_AND_SCORES(where))
        if data.get("sheet") is not None:
            raw_sheet = data["sheet"]
            override = None
            if isinstance(raw_sheet, Mapping) and "ruleset" not in raw_sheet:
                override = self.rs.label
            try:
                sheet = self.canon_sheet(parse_sheet(raw_sheet, ruleset=override))
            except SheetError as err:
                self.faults += [f.at(**where, field="sheet") for f in err.faults]
                scores = tuple((n, 0) for n in names)  # keeps later checks quiet
        if data.get("scores") is not None:
            raw_scores = data["scores"]
            sdata = self.obj(raw_scores, where, (), "scores", names=True)
            if sdata is not None:
                pairs: list[tuple[str, int]] = []
                for player, value in sdata.items():
                    name = self.player_name(player)
                    if not _is_int(value):
                        self.add(SCORE_NOT_INT({**where, "player": name},
                                               value=json.dumps(value)))
                        pairs.append((name, 0))  # keeps "no score for" quiet
                    else:
                        pairs.append((name, value))
                scores = scores_in_seat_order(names, pairs)
        penalties = []
        for raw_pen in self.items(data.get("penalties"), where, "penalties"):
            p = self.read_penalty(raw_pen, where, "table")
            if p is not None:
                penalties.append(p)
        return Table(
            seats=tuple(names),
            sheet=sheet,
            scores=scores,
            risiko=frozenset(self.names(data.get("risiko"), where, "risiko")),
            abandoned=frozenset(self.names(data.get("abandoned"), where, "abandoned")),
            penalties=tuple(penalties),
            winners=frozenset(self.names(data.get("winners"), where, "winners")),
            eliminated=tuple(self.names(data.get("eliminated"), where, "eliminated")),
        )

    def canon_sheet(self, sheet: Sheet) -> Sheet:
        """``sheet`` with its players' names spelled as registered."""
        seats = tuple(replace(s, player=self.player_name(s.player)) for s in sheet.seats)
        return sheet if seats == sheet.seats else replace(sheet, seats=seats)

    def write_table(self, t: Table) -> dict[str, Any]:
        out: dict[str, Any] = {"seats": list(t.seats)}
        if t.sheet is not None:
            out["sheet"] = t.sheet.to_dict()
            if t.sheet.ruleset.partition("@")[0] == self.rs.name:
                del out["sheet"]["ruleset"]  # the tournament's: the default
        if t.scores is not None:
            out["scores"] = dict(t.scores)
        if t.risiko:
            out["risiko"] = sorted(t.risiko)
        if t.abandoned:
            out["abandoned"] = sorted(t.abandoned)
        if t.penalties:
            out["penalties"] = [self.write_penalty(p) for p in t.penalties]
        if t.winners:
            out["winners"] = sorted(t.winners)
        if t.eliminated:
            out["eliminated"] = list(t.eliminated)
        return out

    # ---------------------------------------------------------------------------------------
    # a penalty (table points on a table, ranking points on an evening) and its appeal

    def read_penalty(self, raw: Any, where: Where, unit: str) -> Penalty | None:
        data = self.obj(raw, where, _PENALTY_KEYS, f"a {unit} penalty")
        if data is None:
            return None
        player = self.name(data.get("player"), where, "a penalty's player")
        who = {**where, "player": player or "?"}
        points = data.get("points")
        if not _is_int(points):
            self.add(PENALTY_POINTS(who, unit=unit, value=json.dumps(points)))
            points = None
        at = None if data.get("at") is None else self.clock(data["at"], {**who,
                                                                         "field": "at"})
        appeal = None if data.get("appeal") is None else self.read_appeal(data["appeal"],
                                                                          where, who)
        if player is None or points is None:
            return None
        return Penalty(player, points, self.text(data.get("reason"), where, "reason"),
                       self.text(data.get("referee"), where, "referee"), at, appeal)

    def write_penalty(self, p: Penalty) -> dict[str, Any]:
        out: dict[str, Any] = {"player": p.player, "points": p.points}
        out.update(_present((("reason", p.reason), ("referee", p.referee),
                             ("at", None if p.at is None else clock_name(p.at)))))
        if p.appeal is not None:
            out["appeal"] = self.write_appeal(p.appeal)
        return out

    def read_appeal(self, raw: Any, where: Where, who: Where) -> Appeal | None:
        data = self.obj(raw, where, _APPEAL_KEYS, "an appeal")
        if data is None:
            return None
        outcome = data.get("outcome")
        points = data.get("points")
        if outcome not in APPEAL_OUTCOMES:
            self.add(APPEAL_OUTCOME(who, known=list(APPEAL_OUTCOMES),
                                    value=json.dumps(outcome)))
            return None
        if points is not None and not _is_int(points):
            self.add(APPEAL_POINTS(who))
            return None
        return Appeal(outcome, points, self.text(data.get("referee"), where, "referee"),
                      self.text(data.get("reason"), where, "reason"))

    def write_appeal(self, a: Appeal) -> dict[str, Any]:
        return {"outcome": a.outcome, **_present((("points", a.points),
                                                  ("referee", a.referee), ("reason", a.reason)))}

    # ---------------------------------------------------------------------------------------
    # a disciplinary record (R10)

    def read_discipline(self, raw: Any, where: Where) -> Discipline | None:
        data = self.obj(raw, where, _DISCIPLINE_KEYS, "a disciplinary record")
        if data is None:
            return None
        player = self.name(data.get("player"), where)
        who = {**where, "player": player or "?"}
        level = data.get("level")
        if level not in DISCIPLINE_LEVELS:
            self.add(BAD_LEVEL(who, known=list(DISCIPLINE_LEVELS), value=json.dumps(level)))
            return None
        table = data.get("table")
        if table is not None and not _is_int(table):
            self.add(BAD_TABLE_NUMBER(who))
            table = None
        if player is None:
            return None
        return Discipline(player, level, self.text(data.get("reason"), where, "reason"),
                          self.text(data.get("referee"), where, "referee"), table)

    def write_discipline(self, d: Discipline) -> dict[str, Any]:
        return _present((("player", d.player), ("level", d.level), ("reason", d.reason),
                         ("referee", d.referee), ("table", d.table)))


def parse_season(data: Any) -> Tournament:
    """Check a season file given as a dict (as from ``json.load``) and return the
    :class:`Tournament`.

    Raises :class:`SeasonError` listing every fault (see the module docstring): structure
    (unknown keys, wrong types, bad dates and times, bad sheets), the checks of
    :func:`~risiko.tournament.checks.tournament_faults`, and - once those are clean - the
    stage faults (semifinal or final tables not matching the qualified players, a cut
    waiting for a draw of lots).
    """
    reader = _Codec()
    tournament = reader.read_tournament(data)
    faults = reader.faults
    if tournament is None:
        raise SeasonError(faults or [NOT_A_SEASON()])
    faults += [f for f in tournament_faults(tournament) if f not in faults]
    if faults:
        raise SeasonError(faults)
    stage_faults = compute_stages(tournament).faults
    if stage_faults:
        raise SeasonError(list(stage_faults))
    return tournament


def read_season_json(text: str) -> Any:
    """The JSON text of a season file as data for :func:`parse_season`: every object
    remembers a key given twice (``"Bruno"`` twice in a table's scores), which
    :func:`parse_season` refuses where plain ``json.loads`` would keep the last value.

    Raises :class:`SeasonError` for text that is not JSON (with the line and column), nested
    too deep or holding an absurdly long number (:mod:`risiko.jsonread`).
    """
    try:
        return jsonread.loads_keeping_duplicates(text.lstrip("\ufeff"))
    except json.JSONDecodeError as e:
        raise SeasonError(NOT_JSON(reason=e.msg, line=e.lineno, column=e.colno)) from e
    except InvalidInputError as e:
        raise SeasonError(list(e.faults)) from None


def parse_season_text(text: str) -> Tournament:
    """:func:`parse_season` for JSON text (a bad JSON gives its line and column; a key given
    twice is a fault)."""
    return parse_season(read_season_json(text))


def load_season(source: str | os.PathLike[str] | TextIO) -> Tournament:
    """Read and check a season file from a path or an open text handle (UTF-8)."""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise SeasonError(CANNOT_READ(path=str(path), reason=str(e.strerror or e))) from e
        except UnicodeDecodeError as e:
            raise SeasonError(NOT_UTF8(path=str(path), reason=e.reason)) from e
        return parse_season_text(text)
    return parse_season_text(source.read())


def season_report(tournament: Tournament, stages: Stages | None = None) -> dict[str, Any]:
    """The computed season (the contract of ``risiko season --json``).

    ``name``, ``ruleset`` (``name@version``), ``format`` (its parameters), ``standings``
    (``[{rank, player, points, games, risiko, best, penalties, eligible}]``),
    ``semifinal_tables`` (lists of players, None until enough eligible players are ranked
    or while a cut waits for a draw), ``direct_to_final``, ``after_semifinal``,
    ``finalists`` (seat-choice order), ``final_winner``, ``final_standings`` (None until
    the stage has results), ``pending`` (why a stage is not available yet) and
    ``evenings`` (date, stage, tables, and every arrival's R3 class and penalty turns).
    """
    st = stages if stages is not None else compute_stages(tournament)
    out: dict[str, Any] = {
        "name": tournament.name,
        "ruleset": tournament.ruleset.label,
        "format": tournament.format.to_dict(),
    }
    out.update(st.to_dict())
    evenings = []
    for e in tournament.evenings:
        arrivals = []
        for a in sorted(e.arrivals, key=lambda a: (a.at, a.player)):
            ruling = classify(e.schedule, a)
            arrivals.append({"player": a.player, "at": clock_name(a.at),
                             "class": ruling.arrival_class,
                             "penalty_turns": ruling.penalty_turns})
        evenings.append({"date": e.date.isoformat(), "stage": e.stage,
                         "tables": [list(t.seats) for t in e.tables],
                         "arrivals": arrivals})
    out["evenings"] = evenings
    return out


def compute_season(data: Any) -> dict[str, Any]:
    """:func:`parse_season` then :func:`season_report` (raises :class:`SeasonError`)."""
    return season_report(parse_season(data))


def dump_season(tournament: Tournament) -> dict[str, Any]:
    """The season file of ``tournament``: ``parse_season(dump_season(t))`` gives back the
    same facts (the schedule is written only where it differs from the ruleset's)."""
    return _Codec(tournament.ruleset).write_tournament(tournament)


def season_schema() -> dict[str, Any]:
    """The JSON Schema of the season file (``season.schema.json`` in this package)."""
    text = resources.files(__package__).joinpath("season.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema

