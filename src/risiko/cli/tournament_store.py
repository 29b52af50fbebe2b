"""Where ``risiko tournament`` reads and writes: the database or a season file.

:class:`DatabaseStore` calls :mod:`risiko.web.services` (Django started once by
:func:`risiko.cli.common.start_django`; every change audit-logged with ``--by``).
:class:`FileStore` reads a season file with :mod:`risiko.tournament.season` and applies a
change as a command of :mod:`risiko.tournament.commands` (the one check the services run
too), writing the file back only when asked (``--write``); it never imports Django.

Both answer in plain values (names, lists of tables, dicts of the JSON contracts), so the
commands render them once. A refusal ends the command: one line per fault, exit 1.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, Protocol, runtime_checkable

from ..faults import define
from ..names import clean_name, name_key
from ..names import key_values as _key_values
from .common import CANNOT_READ, console, fail, fail_faults, os_reason, start_django, who

if TYPE_CHECKING:
    from ..tournament.clubsheet import SheetRow
    from ..tournament.commands import Command

__all__ = ["DatabaseStore", "FileStore", "Store", "clubs_having", "key_values"]


#: ``--club`` names no club (R: issue 21 item 1)
UNKNOWN_CLUB = define("cli.unknown_club", "", "no club {club}: the clubs are {known}")
#: a tournament named without ``--club`` that two or more clubs have
CLUB_AMBIGUOUS = define("cli.club_ambiguous", "",
                        "{tournament} is a tournament of more than one club ({clubs}): "
                        "choose one with --club")
POINTS_NOT_WHOLE = define("cli.points_not_whole", "",
                          "{player}={value}: the points must be a whole number")


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


@runtime_checkable
class Store(Protocol):
    """The operations of ``risiko tournament``; ``tournament`` is the TOURNAMENT argument
    (ignored by a file store: the file is the tournament). Two stores answer them:
    :class:`DatabaseStore` (the web services) and :class:`FileStore` (a season file: each
    write a :mod:`risiko.tournament.commands` command applied, then dumped). A refusal ends
    the command (one line per fault, exit 1)."""

    def create(self, name: str, *, ruleset: str | None, format: Mapping[str, Any] | None,
               previous: str | None, by: str) -> dict[str, Any]:
        ...

    def tournaments(self) -> list[dict[str, Any]]:
        ...

    def set_current(self, tournament: str, *, by: str) -> str:
        ...

    def add_players(self, tournament: str, names: Sequence[str], *, by: str
                    ) -> tuple[list[str], list[str]]:
        """Register ``names``; the players registered now and those registered already
        (each once, as the tournament writes them)."""
        ...

    def export(self, tournament: str) -> dict[str, Any]:
        ...

    def import_sheet(self, tournament: str, rows: Sequence[SheetRow], *, by: str
                     ) -> dict[str, Any]:
        """Add a club sheet's rows (:func:`risiko.tournament.clubsheet.read_rows`) as
        qualifying evenings; what was added (:func:`sheet_summary`)."""
        ...

    def open_evening(self, tournament: str, date: str, *, stage: str, chief: str,
                     by: str) -> tuple[str, str]:
        """Open an evening; its date (ISO) and stage."""
        ...

    def arrive(self, tournament: str, date: str, player: str, at: str, *, phoned: bool,
               phoned_at: str | None, by: str, reason: str = "") -> tuple[str, dict[str, Any]]:
        ...

    def seat(self, tournament: str, date: str, *, seed: str | None, by: str
             ) -> list[list[str]]:
        ...

    def seat_by_hand(self, tournament: str, date: str, tables: list[list[str]], *, by: str,
                     reason: str = "") -> list[list[str]]:
        ...

    def swap(self, tournament: str, date: str, a: str, b: str, *, by: str, reason: str = ""
             ) -> list[list[str]]:
        ...

    def seat_stage(self, tournament: str, stage: str, date: str, *, by: str
                   ) -> list[list[str]]:
        ...

    def enter_sheet(self, tournament: str, date: str, table: int, sheet: dict[str, Any], *,
                    abandoned: list[str], by: str, reason: str = "") -> bool:
        """Enter or correct a table's result from a sheet; True when that result was the
        table's already (nothing written)."""
        ...

    def enter_scores(self, tournament: str, date: str, table: int, scores: dict[str, int], *,
                     risiko: list[str], abandoned: list[str], by: str, reason: str = "") -> bool:
        """Enter or correct a table's scores; True when that result was the table's already
        (nothing written)."""
        ...

    def penalty(self, tournament: str, date: str, player: str, points: int, *, unit: str,
                reason: str, referee: str, by: str) -> tuple[int, str]:
        ...

    def appeal(self, tournament: str, penalty_id: int, outcome: str, *, points: int | None,
               referee: str, reason: str, by: str) -> None:
        ...

    def discipline(self, tournament: str, date: str, player: str, level: str, *,
                   reason: str, referee: str, table: int | None, by: str) -> str:
        ...

    def carry_over(self, tournament: str, player: str, points: int, *, referee: str,
                   by: str) -> str:
        ...

    def draw(self, tournament: str, stage: str, order: Sequence[str], *, referee: str,
             by: str) -> list[str]:
        ...

    def report(self, tournament: str = "") -> dict[str, Any]:
        ...

    def merge_players(self, keep: str, twin: str, *, by: str) -> str:
        ...

    def log(self, tournament: str, limit: int) -> list[dict[str, Any]]:
        ...


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


def clubs_having(tournament: str) -> list[tuple[Any, Any]]:
    """``(club, its tournament)`` for every club with a tournament named ``tournament`` (id,
    slug or name, as :meth:`TournamentQuerySet.by_key` reads it), by club slug; Django
    started by the caller."""
    from risiko.web.clubs import club_scope
    from risiko.web.national.models import Club
    from risiko.web.tournaments.models import Tournament

    having = []
    for club in Club.objects.filter(club_tournaments__isnull=False).distinct().order_by("slug"):
        with club_scope(club):
            found = Tournament.objects.by_key(tournament)
        if found is not None:
            having.append((club, found))
    return having


class DatabaseStore:
    """The tournaments of the database, through :mod:`risiko.web.services` (imported after
    :func:`~risiko.cli.common.start_django`, the one place the command line starts the web
    app; a refusal ends the command with its faults)."""

    def __init__(self, club: str | None = None) -> None:
        #: ``--club``: the slug of the club whose tournaments are read and written (None:
        #: the tournament's own club when one club has it, a new one goes to the default club)
        self.club = club

    def _club(self, tournament: str | None) -> Any:
        """The club to act as: ``--club``'s (an unknown slug ends the command); without it
        the one club that has ``tournament`` (two or more: the command ends naming them),
        else the default club (:func:`risiko.web.clubs.default_club`)."""
        from risiko.web.clubs import default_club
        from risiko.web.national.models import Club

        if self.club is not None:
            found = Club.objects.filter(slug=self.club).first()
            if found is None:
                known = ", ".join(Club.objects.order_by("slug").values_list("slug", flat=True))
                fail(UNKNOWN_CLUB(club=self.club[:60], known=known or "-"))
            return found
        if tournament:
            having = [club for club, _found in clubs_having(tournament)]
            if len(having) > 1:
                fail(CLUB_AMBIGUOUS(tournament=tournament[:80],
                                    clubs=", ".join(f"{c.slug} ({c.name})" for c in having)))
            if having:
                return having[0]
        return default_club()

    @contextmanager
    def _refusals(self, tournament: str | None = None) -> Iterator[None]:
        """Start Django and act as the club of :meth:`_club` (its club scope); a
        ServiceError inside the block ends the command."""
        start_django()
        from risiko.web.clubs import club_scope
        from risiko.web.core.faults import ServiceError

        try:
            with club_scope(self._club(tournament)):
                yield
        except ServiceError as e:
            fail_faults(e)

    def acting(self, tournament: str | None = None) -> AbstractContextManager[None]:
        """Act as the club of :meth:`_club` (``risiko backup``/``restore`` of a season file):
        Django started, that club's scope; a ServiceError inside ends the command."""
        return self._refusals(tournament)

    def create(self, name: str, *, ruleset: str | None, format: Mapping[str, Any] | None,
               previous: str | None, by: str) -> dict[str, Any]:
        from ..ruleset import NEW_TOURNAMENT_RULESET

        with self._refusals():
            from risiko.web import services as s

            prev = s.get_tournament(previous) if previous else None
            t = s.create_tournament(name, ruleset=ruleset or NEW_TOURNAMENT_RULESET,
                                    format=format, previous=prev, who=who(by))
        return {"id": t.pk, "slug": t.slug, "name": t.name,
                "ruleset": t.ruleset_label}

    def tournaments(self) -> list[dict[str, Any]]:
        with self._refusals():
            from risiko.web.tournaments import selectors

            return selectors.summaries()

    def set_current(self, tournament: str, *, by: str) -> str:
        with self._refusals(tournament):
            from risiko.web import services as s

            return s.set_current(s.get_tournament(tournament), who=who(by)).name

    def add_players(self, tournament: str, names: Sequence[str], *, by: str
                    ) -> tuple[list[str], list[str]]:
        with self._refusals(tournament):
            from risiko.web import services as s

            return s.register_players(s.get_tournament(tournament), names, who=who(by))

    def import_file(self, path: Path, *, name: str | None, by: str) -> dict[str, Any]:
        """Create a tournament from the season file ``path`` (repeated keys refused)."""
        from ..tournament.season import read_season_json

        data = _read_season_data(path, read_season_json)
        with self._refusals():
            from risiko.web import services as s

            t = s.import_season(data, who=who(by), name=name)
        return {"name": t.name, "slug": t.slug}

    def export(self, tournament: str) -> dict[str, Any]:
        with self._refusals(tournament):
            from risiko.web import services as s

            return s.export_season(s.get_tournament(tournament))

    def import_sheet(self, tournament: str, rows: Sequence[SheetRow], *, by: str
                     ) -> dict[str, Any]:
        with self._refusals(tournament):
            from risiko.web import services as s

            t = s.get_tournament(tournament)
            before = t.entries.count()
            s.import_sheet(t, rows, who=who(by))
            return sheet_summary(rows, t.entries.count() - before)

    def open_evening(self, tournament: str, date: str, *, stage: str, chief: str,
                     by: str) -> tuple[str, str]:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.open_evening(s.get_tournament(tournament), date, stage=stage,
                               chief_referee=chief, who=who(by))
        return e.date.isoformat(), e.stage

    def arrive(self, tournament: str, date: str, player: str, at: str, *, phoned: bool,
               phoned_at: str | None, by: str, reason: str = "") -> tuple[str, dict[str, Any]]:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.get_evening(s.get_tournament(tournament), date)
            row, ruling = s.record_arrival(e, player, at, phoned=phoned, phoned_at=phoned_at,
                                           reason=reason, who=who(by))
        return row.player.name, ruling.to_dict()

    def seat(self, tournament: str, date: str, *, seed: str | None, by: str
             ) -> list[list[str]]:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.get_evening(s.get_tournament(tournament), date)
            s.seat_evening(e, seed=seed, who=who(by))
            return _tables_of(e)

    def seat_by_hand(self, tournament: str, date: str, tables: list[list[str]], *, by: str,
                     reason: str = "") -> list[list[str]]:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.get_evening(s.get_tournament(tournament), date)
            s.set_tables(e, tables, reason=reason, who=who(by))
            return _tables_of(e)

    def swap(self, tournament: str, date: str, a: str, b: str, *, by: str, reason: str = ""
             ) -> list[list[str]]:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.get_evening(s.get_tournament(tournament), date)
            s.swap_seats(e, a, b, reason=reason, who=who(by))
            return _tables_of(e)

    def merge_players(self, keep: str, twin: str, *, by: str) -> str:
        with self._refusals():
            from risiko.web import services as s

            return s.merge_players(keep, twin, who=who(by)).name

    def seat_stage(self, tournament: str, stage: str, date: str, *, by: str
                   ) -> list[list[str]]:
        with self._refusals(tournament):
            from risiko.web import services as s

            return _tables_of(s.seat_stage(s.get_tournament(tournament), date, stage,
                                           who=who(by)))

    def enter_sheet(self, tournament: str, date: str, table: int, sheet: dict[str, Any], *,
                    abandoned: list[str], by: str, reason: str = "") -> bool:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.get_evening(s.get_tournament(tournament), date)
            row = s.enter_sheet(s.get_table(e, table), sheet, abandoned=abandoned,
                                reason=reason, who=who(by))
            return bool(getattr(row, "already_recorded", False))

    def enter_scores(self, tournament: str, date: str, table: int, scores: dict[str, int], *,
                     risiko: list[str], abandoned: list[str], by: str, reason: str = "") -> bool:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.get_evening(s.get_tournament(tournament), date)
            row = s.enter_scores(s.get_table(e, table), scores, risiko=risiko,
                                 abandoned=abandoned, reason=reason, who=who(by))
            return bool(getattr(row, "already_recorded", False))

    def penalty(self, tournament: str, date: str, player: str, points: int, *, unit: str,
                reason: str, referee: str, by: str) -> tuple[int, str]:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.get_evening(s.get_tournament(tournament), date)
            row = s.add_penalty(e, player, points, unit=unit, reason=reason,
                                referee=referee or who(by), who=who(by))
        return row.pk, row.player.name

    def appeal(self, tournament: str, penalty_id: int, outcome: str, *, points: int | None,
               referee: str, reason: str, by: str) -> None:
        with self._refusals(tournament):
            from risiko.web import services as s
            from risiko.web.results.selectors import penalty_count, penalty_of

            from ..tournament.commands import NO_PENALTY

            t = s.get_tournament(tournament)
            pen = penalty_of(t, penalty_id)
            if pen is None:
                count = penalty_count(t)
                fail(NO_PENALTY({"tournament": t.name}, number=penalty_id, count=count), code=1)
            s.decide_appeal(pen, outcome, points=points, referee=referee or who(by),
                            reason=reason, who=who(by))

    def discipline(self, tournament: str, date: str, player: str, level: str, *,
                   reason: str, referee: str, table: int | None, by: str) -> str:
        with self._refusals(tournament):
            from risiko.web import services as s

            e = s.get_evening(s.get_tournament(tournament), date)
            row = s.add_discipline(e, player, level, reason=reason,
                                   referee=referee or who(by), table_number=table, who=who(by))
        return row.player.name

    def carry_over(self, tournament: str, player: str, points: int, *, referee: str,
                   by: str) -> str:
        with self._refusals(tournament):
            from risiko.web import services as s

            row = s.set_carry_over(s.get_tournament(tournament), player, points,
                                   referee=referee or who(by), who=who(by))
        return row.player.name

    def draw(self, tournament: str, stage: str, order: Sequence[str], *, referee: str,
             by: str) -> list[str]:
        with self._refusals(tournament):
            from risiko.web import services as s

            row = s.record_draw(s.get_tournament(tournament), stage, order,
                                referee=referee or who(by), who=who(by))
        return [str(n) for n in row.order]

    def report(self, tournament: str = "") -> dict[str, Any]:
        with self._refusals(tournament):
            from risiko.web import selectors
            from risiko.web import services as s

            return selectors.season_report_of(s.get_tournament(tournament))

    def log(self, tournament: str, limit: int) -> list[dict[str, Any]]:
        with self._refusals(tournament):
            from django.utils import timezone

            from risiko.web import services as s
            from risiko.web.auditlog.selectors import entries_of

            t = s.get_tournament(tournament)
            return [{"when": timezone.localtime(a.when).isoformat(), "who": a.who,
                     "action": a.action, "target": a.target, "summary": a.summary}
                    for a in entries_of(t.name, limit)]


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


class FileStore:
    """A season file (``-``: standard input, read only). Changes are checked like the
    database's and written back to the file only when ``write`` is set."""

    def __init__(self, path: Path | None, *, write: bool = False) -> None:
        self.path = Path("-") if path is None else path
        self.write = write
        self._tournament: Any = None

    def _no(self, what: str) -> NoReturn:
        fail(what, code=2)

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

    # writes: a command of risiko.tournament.commands applied, then the file dumped
    def _apply(self, cmd: Command) -> Any:
        """Apply ``cmd`` to the file's tournament (faults end the command), save the
        result (with ``--write``) and return the command's answer."""
        from ..faults import RisikoError
        from ..tournament.commands import run

        before = self.load()
        try:
            done = run(before, cmd)
        except RisikoError as e:
            fail_faults(e)
        self._save(done.tournament)
        return done.answer

    def create(self, name: str, *, ruleset: str | None, format: Mapping[str, Any] | None,
               previous: str | None, by: str) -> dict[str, Any]:
        from ..faults import RisikoError
        from ..ruleset import NEW_TOURNAMENT_RULESET
        from ..tournament.commands import new_tournament

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
        from ..tournament.commands import AddPlayers

        before = {p.name for p in self.load().players}
        self._apply(AddPlayers(tuple(names)))
        registered = {name_key(p.name): p.name for p in self.load().players}
        return _added_and_already(before, [registered[name_key(clean_name(n))]
                                           for n in names])

    def import_sheet(self, tournament: str, rows: Sequence[SheetRow], *, by: str
                     ) -> dict[str, Any]:
        from ..faults import RisikoError
        from ..tournament.clubsheet import apply_rows

        t = self.load()
        try:
            changed = apply_rows(t, rows)
        except RisikoError as e:
            fail_faults(e)
        self._save(changed)
        return sheet_summary(rows, len(changed.players) - len(t.players))

    def open_evening(self, tournament: str, date: str, *, stage: str, chief: str,
                     by: str) -> tuple[str, str]:
        from ..tournament.commands import OpenEvening

        self._apply(OpenEvening(date, stage=stage, chief_referee=chief))
        return date, stage

    def arrive(self, tournament: str, date: str, player: str, at: str, *, phoned: bool,
               phoned_at: str | None, by: str, reason: str = "") -> tuple[str, dict[str, Any]]:
        from ..tournament.commands import RecordArrival

        name, ruling = self._apply(RecordArrival(date, player, at, phoned=phoned,
                                                 phoned_at=phoned_at, reason=reason))
        return name, ruling.to_dict()

    def _tables(self, date: str) -> list[list[str]]:
        from ..tournament.commands import evening_of

        return [list(tb.seats) for tb in evening_of(self.load(), date).tables]

    def seat(self, tournament: str, date: str, *, seed: str | None, by: str
             ) -> list[list[str]]:
        from ..tournament.commands import SeatTables

        self._apply(SeatTables(date, seed=seed))
        return self._tables(date)

    def seat_by_hand(self, tournament: str, date: str, tables: list[list[str]], *, by: str,
                     reason: str = "") -> list[list[str]]:
        from ..tournament.commands import SetTables

        self._apply(SetTables(date, tuple(tuple(tb) for tb in tables), reason=reason))
        return self._tables(date)

    def swap(self, tournament: str, date: str, a: str, b: str, *, by: str, reason: str = ""
             ) -> list[list[str]]:
        from ..tournament.commands import SwapSeats

        self._apply(SwapSeats(date, a, b, reason=reason))
        return self._tables(date)

    def seat_stage(self, tournament: str, stage: str, date: str, *, by: str
                   ) -> list[list[str]]:
        from ..tournament.commands import SeatStage

        self._apply(SeatStage(stage, date))
        return self._tables(date)

    def _result(self, cmd: Command) -> bool:
        """Apply a result; True when it was the table's already (nothing changes)."""
        before = self.load()
        self._apply(cmd)
        return bool(self.load() == before)

    def enter_sheet(self, tournament: str, date: str, table: int, sheet: dict[str, Any], *,
                    abandoned: list[str], by: str, reason: str = "") -> bool:
        from ..tournament.commands import EnterSheet

        return self._result(EnterSheet(date, table, sheet, abandoned=tuple(abandoned),
                                       reason=reason))

    def enter_scores(self, tournament: str, date: str, table: int, scores: dict[str, int], *,
                     risiko: list[str], abandoned: list[str], by: str, reason: str = "") -> bool:
        from ..tournament.commands import EnterScores

        return self._result(EnterScores(date, table, scores, risiko=tuple(risiko),
                                        abandoned=tuple(abandoned), reason=reason))

    def penalty(self, tournament: str, date: str, player: str, points: int, *, unit: str,
                reason: str, referee: str, by: str) -> tuple[int, str]:
        from ..tournament.commands import Penalty

        answer: tuple[int, str] = self._apply(Penalty(date, player, points, unit, reason,
                                                      referee=referee or who(by)))
        return answer

    def appeal(self, tournament: str, penalty_id: int, outcome: str, *, points: int | None,
               referee: str, reason: str, by: str) -> None:
        from ..tournament.commands import Appeal

        self._apply(Appeal(penalty_id, outcome, points=points, referee=referee or who(by),
                           reason=reason))

    def discipline(self, tournament: str, date: str, player: str, level: str, *,
                   reason: str, referee: str, table: int | None, by: str) -> str:
        from ..tournament.commands import Discipline

        return str(self._apply(Discipline(date, player, level, reason=reason,
                                          referee=referee or who(by), table=table)))

    def carry_over(self, tournament: str, player: str, points: int, *, referee: str,
                   by: str) -> str:
        from ..tournament.commands import CarryOver

        return str(self._apply(CarryOver(player, points, referee=referee or who(by))))

    def draw(self, tournament: str, stage: str, order: Sequence[str], *, referee: str,
             by: str) -> list[str]:
        from ..tournament.commands import Draw

        return list(self._apply(Draw(stage, tuple(order), referee=referee or who(by))))
