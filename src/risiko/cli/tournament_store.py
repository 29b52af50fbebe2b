"""Where ``risiko tournament`` reads and writes: the database or a season file.

:class:`DatabaseStore` calls :mod:`risiko.web.services` (Django started once by
:func:`risiko.cli.common.start_django`; every change audit-logged with ``--by``).
:class:`FileStore` reads a season file with :mod:`risiko.tournament.season` and applies a
change with :mod:`risiko.tournament.edit` (the same checks as the services), writing the
file back only when asked (``--write``); it never imports Django.

Both answer in plain values (names, lists of tables, dicts of the JSON contracts), so the
commands render them once. A refusal ends the command: one line per fault, exit 1.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from ..faults import define
from ..names import clean_name, name_key
from ..names import key_values as _key_values
from .common import CANNOT_READ, console, fail, fail_faults, os_reason, start_django, who

__all__ = ["DatabaseStore", "FileStore", "Store", "key_values"]

T = TypeVar("T")

POINTS_NOT_WHOLE = define("cli.points_not_whole", "",
                          "{player}={value}: the points must be a whole number")
NO_PENALTY = define("cli.no_penalty", "", "{tournament}: no penalty {penalty}")


def key_values(items: Sequence[str]) -> dict[str, int]:
    """``PLAYER=POINTS`` arguments as ``{player: points}``; a name given twice (however
    typed), an item without ``=`` or points that are not a whole number end the command."""
    from ..faults import RisikoError

    try:
        raw = _key_values(items)
    except RisikoError as e:
        fail_faults(e, code=2)
    out: dict[str, int] = {}
    for name, value in raw.items():
        try:
            out[name] = int(value)
        except ValueError:
            fail(POINTS_NOT_WHOLE({"player": name}, value=value))
    return out


class Store:
    """The operations of ``risiko tournament``; ``tournament`` is the TOURNAMENT argument
    (ignored by a file store: the file is the tournament)."""

    def _no(self, what: str) -> NoReturn:
        fail(what, code=2)

    def create(self, name: str, *, ruleset: str | None, format: Mapping[str, Any] | None,
               previous: str | None, by: str) -> dict[str, Any]:
        raise NotImplementedError

    def tournaments(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def set_current(self, tournament: str, *, by: str) -> str:
        raise NotImplementedError

    def add_players(self, tournament: str, names: Sequence[str], *, by: str
                    ) -> tuple[list[str], list[str]]:
        """Register ``names``; the players registered now and those registered already
        (each once, as the tournament writes them)."""
        raise NotImplementedError

    def export(self, tournament: str) -> dict[str, Any]:
        raise NotImplementedError

    def import_sheet(self, tournament: str, rows: Sequence[Any], *, by: str
                     ) -> dict[str, Any]:
        """Add a club sheet's rows (:func:`risiko.tournament.clubsheet.read_rows`) as
        qualifying evenings; what was added (:func:`sheet_summary`)."""
        raise NotImplementedError

    def open_evening(self, tournament: str, date: str, *, stage: str, chief: str,
                     by: str) -> tuple[str, str]:
        """Open an evening; its date (ISO) and stage."""
        raise NotImplementedError

    def arrive(self, tournament: str, date: str, player: str, at: str, *, phoned: bool,
               phoned_at: str | None, by: str, reason: str = "") -> tuple[str, dict[str, Any]]:
        raise NotImplementedError

    def seat(self, tournament: str, date: str, *, seed: str | None, by: str
             ) -> list[list[str]]:
        raise NotImplementedError

    def seat_by_hand(self, tournament: str, date: str, tables: list[list[str]], *, by: str,
                     reason: str = "") -> list[list[str]]:
        raise NotImplementedError

    def swap(self, tournament: str, date: str, a: str, b: str, *, by: str, reason: str = ""
             ) -> list[list[str]]:
        raise NotImplementedError

    def seat_stage(self, tournament: str, stage: str, date: str, *, by: str
                   ) -> list[list[str]]:
        raise NotImplementedError

    def enter_sheet(self, tournament: str, date: str, table: int, sheet: dict[str, Any], *,
                    abandoned: list[str], by: str, reason: str = "") -> bool:
        """Enter or correct a table's result from a sheet; True when that result was the
        table's already (nothing written)."""
        raise NotImplementedError

    def enter_scores(self, tournament: str, date: str, table: int, scores: dict[str, int], *,
                     risiko: list[str], abandoned: list[str], by: str, reason: str = "") -> bool:
        """Enter or correct a table's scores; True when that result was the table's already
        (nothing written)."""
        raise NotImplementedError

    def penalty(self, tournament: str, date: str, player: str, points: int, *, unit: str,
                reason: str, referee: str, by: str) -> tuple[int, str]:
        raise NotImplementedError

    def appeal(self, tournament: str, penalty_id: int, outcome: str, *, points: int | None,
               referee: str, reason: str, by: str) -> None:
        raise NotImplementedError

    def discipline(self, tournament: str, date: str, player: str, level: str, *,
                   reason: str, referee: str, table: int | None, by: str) -> str:
        raise NotImplementedError

    def carry_over(self, tournament: str, player: str, points: int, *, referee: str,
                   by: str) -> str:
        raise NotImplementedError

    def draw(self, tournament: str, stage: str, order: Sequence[str], *, referee: str,
             by: str) -> list[str]:
        raise NotImplementedError

    def report(self, tournament: str = "") -> dict[str, Any]:
        raise NotImplementedError

    def merge_players(self, keep: str, twin: str, *, by: str) -> str:
        raise NotImplementedError

    def log(self, tournament: str, limit: int) -> list[dict[str, Any]]:
        raise NotImplementedError


def sheet_summary(rows: Sequence[Any], new_players: int) -> dict[str, Any]:
    """What a club sheet added: ``rows``, ``evenings`` (dates), ``tables``, ``new_players``."""
    dates = sorted({r.date.isoformat() for r in rows})
    return {"rows": len(rows), "evenings": dates,
            "tables": len({(r.date, r.table) for r in rows}), "new_players": new_players}


# --------------------------------------------------------------------------------------------
# the database


def _tables_of(evening: Any) -> list[list[str]]:
    return [[s.player.name for s in tb.seats.current().order_by("position")]
            for tb in evening.tables.order_by("number")]


def _added_and_already(before: set[str], registered: list[str]) -> tuple[list[str], list[str]]:
    """The names of ``registered`` (in order, each once) not in ``before``, and those in it."""
    names = list(dict.fromkeys(registered))
    return [n for n in names if n not in before], [n for n in names if n in before]


def _unchanged(before: Any, after: Any) -> tuple[Any, bool]:
    """``after`` and whether it is ``before`` (a result sent again: nothing changes)."""
    return after, after == before


class DatabaseStore(Store):
    """The tournaments of the database, through :mod:`risiko.web.services`."""

    def _run(self, fn: Callable[[Any], T]) -> T:
        services = start_django()
        try:
            return fn(services)
        except services.ServiceError as e:
            fail_faults(e)

    def create(self, name: str, *, ruleset: str | None, format: Mapping[str, Any] | None,
               previous: str | None, by: str) -> dict[str, Any]:
        def go(s: Any) -> Any:
            prev = s.get_tournament(previous) if previous else None
            from ..ruleset import NEW_TOURNAMENT_RULESET

            return s.create_tournament(name, ruleset=ruleset or NEW_TOURNAMENT_RULESET,
                                       format=format, previous=prev, who=who(by))

        t = self._run(go)
        return {"id": t.pk, "slug": t.slug, "name": t.name,
                "ruleset": f"{t.ruleset_name}@{t.ruleset_version}"}

    def tournaments(self) -> list[dict[str, Any]]:
        start_django()
        from risiko.web.tournaments.models import Tournament

        return [{"id": t.pk, "slug": t.slug, "name": t.name,
                 "ruleset": f"{t.ruleset_name}@{t.ruleset_version}",
                 "players": t.entries.count(), "evenings": t.evenings.count()}
                for t in Tournament.objects.order_by("created")]

    def set_current(self, tournament: str, *, by: str) -> str:
        t = self._run(lambda s: s.set_current(s.get_tournament(tournament), who=who(by)))
        return str(t.name)

    def add_players(self, tournament: str, names: Sequence[str], *, by: str
                    ) -> tuple[list[str], list[str]]:
        answer: tuple[list[str], list[str]] = self._run(
            lambda s: s.register_players(s.get_tournament(tournament), names, who=who(by)))
        return answer

    def import_file(self, path: Path, *, name: str | None, by: str) -> dict[str, Any]:
        """Create a tournament from the season file ``path`` (repeated keys refused)."""
        from ..tournament.season import read_season_json

        data = _read_season_data(path, read_season_json)
        t = self._run(lambda s: s.import_season(data, who=who(by), name=name))
        return {"name": t.name, "slug": t.slug}

    def export(self, tournament: str) -> dict[str, Any]:
        data: dict[str, Any] = self._run(
            lambda s: s.export_season(s.get_tournament(tournament)))
        return data

    def import_sheet(self, tournament: str, rows: Sequence[Any], *, by: str
                     ) -> dict[str, Any]:
        def go(s: Any) -> int:
            t = s.get_tournament(tournament)
            before = t.entries.count()
            s.import_sheet(t, rows, who=who(by))
            return int(t.entries.count() - before)

        return sheet_summary(rows, self._run(go))

    def open_evening(self, tournament: str, date: str, *, stage: str, chief: str,
                     by: str) -> tuple[str, str]:
        e = self._run(lambda s: s.open_evening(s.get_tournament(tournament), date, stage=stage,
                                               chief_referee=chief, who=who(by)))
        return e.date.isoformat(), e.stage

    def arrive(self, tournament: str, date: str, player: str, at: str, *, phoned: bool,
               phoned_at: str | None, by: str, reason: str = "") -> tuple[str, dict[str, Any]]:
        def go(s: Any) -> Any:
            t = s.get_tournament(tournament)
            return s.record_arrival(s.get_evening(t, date), player, at, phoned=phoned,
                                    phoned_at=phoned_at, reason=reason, who=who(by))

        row, ruling = self._run(go)
        return str(row.player.name), ruling.to_dict()

    def seat(self, tournament: str, date: str, *, seed: str | None, by: str
             ) -> list[list[str]]:
        def go(s: Any) -> list[list[str]]:
            e = s.get_evening(s.get_tournament(tournament), date)
            s.seat_evening(e, seed=seed, who=who(by))
            return _tables_of(e)

        return self._run(go)

    def seat_by_hand(self, tournament: str, date: str, tables: list[list[str]], *, by: str,
                     reason: str = "") -> list[list[str]]:
        def go(s: Any) -> list[list[str]]:
            e = s.get_evening(s.get_tournament(tournament), date)
            s.set_tables(e, tables, reason=reason, who=who(by))
            return _tables_of(e)

        return self._run(go)

    def swap(self, tournament: str, date: str, a: str, b: str, *, by: str, reason: str = ""
             ) -> list[list[str]]:
        def go(s: Any) -> list[list[str]]:
            e = s.get_evening(s.get_tournament(tournament), date)
            s.swap_seats(e, a, b, reason=reason, who=who(by))
            return _tables_of(e)

        return self._run(go)

    def merge_players(self, keep: str, twin: str, *, by: str) -> str:
        return str(self._run(lambda s: s.merge_players(keep, twin, who=who(by))).name)

    def seat_stage(self, tournament: str, stage: str, date: str, *, by: str
                   ) -> list[list[str]]:
        def go(s: Any) -> list[list[str]]:
            e = s.seat_stage(s.get_tournament(tournament), date, stage, who=who(by))
            return _tables_of(e)

        return self._run(go)

    def enter_sheet(self, tournament: str, date: str, table: int, sheet: dict[str, Any], *,
                    abandoned: list[str], by: str, reason: str = "") -> bool:
        def go(s: Any) -> bool:
            e = s.get_evening(s.get_tournament(tournament), date)
            return bool(s.enter_sheet(s.get_table(e, table), sheet, abandoned=abandoned,
                                      reason=reason, who=who(by)).already_recorded)

        return self._run(go)

    def enter_scores(self, tournament: str, date: str, table: int, scores: dict[str, int], *,
                     risiko: list[str], abandoned: list[str], by: str, reason: str = "") -> bool:
        def go(s: Any) -> bool:
            e = s.get_evening(s.get_tournament(tournament), date)
            return bool(s.enter_scores(s.get_table(e, table), scores, risiko=risiko,
                                       abandoned=abandoned, reason=reason,
                                       who=who(by)).already_recorded)

        return self._run(go)

    def penalty(self, tournament: str, date: str, player: str, points: int, *, unit: str,
                reason: str, referee: str, by: str) -> tuple[int, str]:
        def go(s: Any) -> Any:
            e = s.get_evening(s.get_tournament(tournament), date)
            return s.add_penalty(e, player, points, unit=unit, reason=reason,
                                 referee=referee or who(by), who=who(by))

        row = self._run(go)
        return int(row.pk), str(row.player.name)

    def appeal(self, tournament: str, penalty_id: int, outcome: str, *, points: int | None,
               referee: str, reason: str, by: str) -> None:
        def go(s: Any) -> Any:
            from risiko.web.results.models import Penalty

            t = s.get_tournament(tournament)
            pen = Penalty.objects.filter(pk=penalty_id, evening__tournament=t).first()
            if pen is None:
                fail(NO_PENALTY({"tournament": t.name}, penalty=penalty_id), code=1)
            return s.decide_appeal(pen, outcome, points=points, referee=referee or who(by),
                                   reason=reason, who=who(by))

        self._run(go)

    def discipline(self, tournament: str, date: str, player: str, level: str, *,
                   reason: str, referee: str, table: int | None, by: str) -> str:
        row = self._run(lambda s: s.add_discipline(
            s.get_evening(s.get_tournament(tournament), date), player, level, reason=reason,
            referee=referee or who(by), table_number=table, who=who(by)))
        return str(row.player.name)

    def carry_over(self, tournament: str, player: str, points: int, *, referee: str,
                   by: str) -> str:
        row = self._run(lambda s: s.set_carry_over(s.get_tournament(tournament), player,
                                                   points, referee=referee or who(by),
                                                   who=who(by)))
        return str(row.player.name)

    def draw(self, tournament: str, stage: str, order: Sequence[str], *, referee: str,
             by: str) -> list[str]:
        row = self._run(lambda s: s.record_draw(s.get_tournament(tournament), stage, order,
                                                referee=referee or who(by), who=who(by)))
        return [str(n) for n in row.order]

    def report(self, tournament: str = "") -> dict[str, Any]:
        def go(s: Any) -> dict[str, Any]:
            from risiko.web import selectors

            report: dict[str, Any] = selectors.season_report_of(s.get_tournament(tournament))
            return report

        return self._run(go)

    def log(self, tournament: str, limit: int) -> list[dict[str, Any]]:
        def go(s: Any) -> list[dict[str, Any]]:
            from django.utils import timezone

            from risiko.web.auditlog.models import AuditEntry

            t = s.get_tournament(tournament)
            return [{"when": timezone.localtime(a.when).isoformat(), "who": a.who,
                     "action": a.action, "target": a.target, "summary": a.summary}
                    for a in AuditEntry.objects.filter(tournament=t.name)[:limit]]

        return self._run(go)


def _read_season_data(path: Path, reader: Callable[[str], Any]) -> Any:
    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        fail(CANNOT_READ(path=str(path), reason=os_reason(e)), code=1)
    try:
        return reader(text)
    except ValueError as e:  # SeasonError: not JSON
        fail_faults(e)


# --------------------------------------------------------------------------------------------
# a season file


class FileStore(Store):
    """A season file (``-``: standard input, read only). Changes are checked like the
    database's and written back to the file only when ``write`` is set."""

    def __init__(self, path: Path | None, *, write: bool = False) -> None:
        self.path = Path("-") if path is None else path
        self.write = write
        self._tournament: Any = None

    @property
    def stdin(self) -> bool:
        return str(self.path) == "-"

    def load(self) -> Any:
        """The file's :class:`~risiko.tournament.model.Tournament` (faults end the command)."""
        if self._tournament is None:
            from ..tournament.season import load_season

            try:
                self._tournament = load_season(sys.stdin if self.stdin else self.path)
            except ValueError as e:  # SeasonError: every fault of the file
                fail_faults(e)
        return self._tournament

    def _save(self, tournament: Any) -> None:
        """Write ``tournament`` back (with ``--write``), or say it was only checked."""
        from ..tournament.season import dump_season

        self._tournament = tournament
        if not self.write or self.stdin:
            console.print(f"(checked; {self.path} not changed: add --write to write it)",
                          highlight=False, markup=False)
            return
        text = json.dumps(dump_season(tournament), indent=2, ensure_ascii=False) + "\n"
        part = self.path.with_name(self.path.name + ".part")
        part.write_text(text, encoding="utf-8")
        os.replace(part, self.path)  # all or nothing

    def _edit(self, fn: Callable[[Any], T]) -> T:
        from ..faults import RisikoError

        try:
            return fn(self.load())
        except RisikoError as e:
            fail_faults(e)

    def tournaments(self) -> list[dict[str, Any]]:
        t = self.load()
        return [{"id": str(self.path), "slug": str(self.path), "name": t.name,
                 "ruleset": f"{t.ruleset_name}@{t.ruleset_version}",
                 "players": len(t.players), "evenings": len(t.evenings)}]

    def set_current(self, tournament: str, *, by: str) -> str:
        self._no("the current tournament is the database's (the public pages): run it "
                 "without --file")

    def export(self, tournament: str) -> dict[str, Any]:
        from ..tournament.season import dump_season

        data: dict[str, Any] = dump_season(self.load())
        return data

    def report(self, tournament: str = "") -> dict[str, Any]:
        from ..tournament.season import season_report

        return season_report(self.load())

    def log(self, tournament: str, limit: int) -> list[dict[str, Any]]:
        self._no("a season file has no audit log: the log is the database's")

    def merge_players(self, keep: str, twin: str, *, by: str) -> str:
        self._no("players are merged in the database (a season file lists names)")

    # writes: risiko.tournament.edit (the same checks as the services)
    def _change(self, fn: Callable[[Any], tuple[Any, Any]]) -> Any:
        """Apply ``fn`` to the file's tournament; ``fn`` returns (tournament, answer); the
        answer is returned, the tournament saved (with ``--write``)."""
        from ..faults import RisikoError

        try:
            changed, answer = fn(self.load())
        except RisikoError as e:
            fail_faults(e)
        self._save(changed)
        return answer

    def create(self, name: str, *, ruleset: str | None, format: Mapping[str, Any] | None,
               previous: str | None, by: str) -> dict[str, Any]:
        from ..faults import RisikoError
        from ..ruleset import NEW_TOURNAMENT_RULESET
        from ..tournament.edit import new_tournament

        if self.stdin:
            self._no("create writes a new season file: give its name with --file")
        if self.path.exists():
            self._no(f"{self.path} exists already: a new tournament needs a new file")
        if previous:
            self._no("--previous links tournaments in the database: run it without --file")
        try:
            t = new_tournament(name, ruleset=ruleset or NEW_TOURNAMENT_RULESET, format=format)
        except RisikoError as e:
            fail_faults(e)
        self._save(t)
        label = f"{t.ruleset_name}@{t.ruleset_version}"
        return {"id": str(self.path), "slug": str(self.path), "name": t.name,
                "ruleset": label}

    def add_players(self, tournament: str, names: Sequence[str], *, by: str
                    ) -> tuple[list[str], list[str]]:
        from ..tournament import edit

        def go(t: Any) -> tuple[Any, tuple[list[str], list[str]]]:
            changed, _added = edit.add_players(t, names)
            registered = {name_key(p.name): p.name for p in changed.players}
            return changed, _added_and_already(
                {p.name for p in t.players},
                [registered[name_key(clean_name(n))] for n in names])

        answer: tuple[list[str], list[str]] = self._change(go)
        return answer

    def import_sheet(self, tournament: str, rows: Sequence[Any], *, by: str
                     ) -> dict[str, Any]:
        from ..tournament.clubsheet import apply_rows

        def go(t: Any) -> tuple[Any, int]:
            changed = apply_rows(t, rows)
            return changed, len(changed.players) - len(t.players)

        added: int = self._change(go)
        return sheet_summary(rows, added)

    def open_evening(self, tournament: str, date: str, *, stage: str, chief: str,
                     by: str) -> tuple[str, str]:
        from ..tournament import edit

        self._change(lambda t: (edit.open_evening(t, date, stage=stage), None))
        return date, stage

    def arrive(self, tournament: str, date: str, player: str, at: str, *, phoned: bool,
               phoned_at: str | None, by: str, reason: str = "") -> tuple[str, dict[str, Any]]:
        from ..tournament import edit

        def go(t: Any) -> Any:
            changed, ruling = edit.record_arrival(t, date, player, at, phoned=phoned,
                                                  phoned_at=phoned_at)
            return changed, (edit.player_of(t, player), ruling.to_dict())

        answer: tuple[str, dict[str, Any]] = self._change(go)
        return answer

    def _tables(self, date: str) -> list[list[str]]:
        from ..tournament import edit

        return [list(tb.seats) for tb in edit.evening_of(self.load(), date).tables]

    def seat(self, tournament: str, date: str, *, seed: str | None, by: str
             ) -> list[list[str]]:
        from ..tournament import edit

        self._change(lambda t: edit.seat_tables(t, date, seed=seed))
        return self._tables(date)

    def seat_by_hand(self, tournament: str, date: str, tables: list[list[str]], *, by: str,
                     reason: str = "") -> list[list[str]]:
        from ..tournament import edit

        self._change(lambda t: (edit.set_tables(t, date, tables), None))
        return self._tables(date)

    def swap(self, tournament: str, date: str, a: str, b: str, *, by: str, reason: str = ""
             ) -> list[list[str]]:
        from ..tournament import edit

        self._change(lambda t: (edit.swap_seats(t, date, a, b), None))
        return self._tables(date)

    def seat_stage(self, tournament: str, stage: str, date: str, *, by: str
                   ) -> list[list[str]]:
        from ..tournament import edit

        self._change(lambda t: (edit.seat_stage(t, stage, date), None))
        return self._tables(date)

    def enter_sheet(self, tournament: str, date: str, table: int, sheet: dict[str, Any], *,
                    abandoned: list[str], by: str, reason: str = "") -> bool:
        from ..tournament import edit

        return bool(self._change(lambda t: _unchanged(
            t, edit.enter_sheet(t, date, table, sheet, abandoned=abandoned))))

    def enter_scores(self, tournament: str, date: str, table: int, scores: dict[str, int], *,
                     risiko: list[str], abandoned: list[str], by: str, reason: str = "") -> bool:
        from ..tournament import edit

        return bool(self._change(lambda t: _unchanged(
            t, edit.enter_scores(t, date, table, scores, risiko=risiko, abandoned=abandoned))))

    def penalty(self, tournament: str, date: str, player: str, points: int, *, unit: str,
                reason: str, referee: str, by: str) -> tuple[int, str]:
        from ..tournament import edit

        def go(t: Any) -> Any:
            changed, number = edit.add_penalty(t, date, player, points, unit=unit,
                                               reason=reason, referee=referee or who(by))
            return changed, (number, edit.player_of(t, player))

        answer: tuple[int, str] = self._change(go)
        return answer

    def appeal(self, tournament: str, penalty_id: int, outcome: str, *, points: int | None,
               referee: str, reason: str, by: str) -> None:
        from ..tournament import edit

        self._change(lambda t: (edit.decide_appeal(t, penalty_id, outcome, points=points,
                                                   referee=referee or who(by),
                                                   reason=reason), None))

    def discipline(self, tournament: str, date: str, player: str, level: str, *,
                   reason: str, referee: str, table: int | None, by: str) -> str:
        from ..tournament import edit

        self._change(lambda t: (edit.add_discipline(t, date, player, level, reason=reason,
                                                    referee=referee or who(by),
                                                    table=table), None))
        return edit.player_of(self.load(), player)

    def carry_over(self, tournament: str, player: str, points: int, *, referee: str,
                   by: str) -> str:
        from ..tournament import edit

        self._change(lambda t: (edit.set_carry_over(t, player, points,
                                                    referee=referee or who(by)), None))
        return edit.player_of(self.load(), player)

    def draw(self, tournament: str, stage: str, order: Sequence[str], *, referee: str,
             by: str) -> list[str]:
        from ..tournament import edit

        self._change(lambda t: (edit.record_draw(t, stage, order,
                                                 referee=referee or who(by)), None))
        return [edit.player_of(self.load(), n) for n in order]
