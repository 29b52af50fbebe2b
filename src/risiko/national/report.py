"""The report a club sends for one tournament: the ``risiko-report/1`` file (a contract).

Shape (JSON, UTF-8)::

    {"format": "risiko-report/1",
     "club": {"id", "name"},
     "tournament": {"name", "category", "rounds", "dates": ["YYYY-MM-DD", one per round],
                    "finished"},
     "players": [{"key", "national_id" (int, or null: anonymous), "name", "surname",
                  "birth_date" ("YYYY-MM-DD" or null), "club" (optional: the club he played
                  for; default the report's club)}],
     "games": [{"round", "table", "seats": [{"player": key, "points"}], "winners": [key]}],
     "standings": [{"player": key, "position"}]}

``category``: our name, GestioneTorneo's code or its label (:mod:`.categories`; written back
as our name). ``club.id``: the club's identifier on the national server (text; a number is
read as its text). T, the tournament's games, is the number of ``games``; its year is the
year of its last date; games and wins per player come from ``games``. The same tournament
is the same club id, name and first date (:attr:`Report.identity`).

:func:`read_report` checks every field and names every bad one (``players[3].national_id:
...``) in one :class:`ReportError`; nothing of a bad report is used. The checks follow
GestioneTorneo's ``ExcelValidator`` where it has one (dates in order, one national id per
player, a position within the standings, a player in the standings has played, standings
required once the last round is played for the categories that have them) and
RisiKoDataManager's reading of "finished" (``TorneoPubblicato.isConcluso``: a game in the last
planned round). :func:`write_report` writes the canonical text (keys in contract order).

>>> report = read_report({
...     "format": "risiko-report/1", "club": {"id": "mi", "name": "MILANO [Club Milano]"},
...     "tournament": {"name": "Open", "category": "OPN", "rounds": 1,
...                    "dates": ["2024-03-02"], "finished": True},
...     "players": [{"key": k, "national_id": n, "name": k, "surname": "X",
...                  "birth_date": None} for k, n in (("a", 1), ("b", 2), ("c", None))],
...     "games": [{"round": 1, "table": 1, "winners": ["a"], "seats": [
...         {"player": "a", "points": 90}, {"player": "b", "points": 40},
...         {"player": "c", "points": 20}]}],
...     "standings": [{"player": "a", "position": 1}, {"player": "b", "position": 2},
...                   {"player": "c", "position": 3}]})
>>> report.category, report.identity
(<Category.OPEN: 'open'>, ('mi', 'Open', datetime.date(2024, 3, 2)))
>>> [(p.national_id, p.games, p.wins, p.position) for p in report.result().participants]
[(1, 1, 1, 1), (2, 1, 0, 2)]
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from ..faults import Fault, InvalidInputError, define, define_words, word
from .categories import CODES, Category, parse_category
from .ranking import Participation, TournamentResult

__all__ = [
    "FORMAT",
    "Report",
    "ReportError",
    "ReportGame",
    "ReportPlayer",
    "parse_report",
    "read_report",
    "write_report",
]

#: the format's name and version, the file's ``format`` field
FORMAT = "risiko-report/1"

NOT_JSON = define("national.report_not_json", "",
                  "not valid JSON (line {line}, column {column})")
BAD_FORMAT = define("national.report_format", "",
                    "format: {value!r}, expected risiko-report/1")
MISSING = define("national.report_missing", "", "{at}: missing")
UNKNOWN = define("national.report_unknown", "", "{at}: unknown field")
NOT_OBJECT = define("national.report_not_object", "", "{at}: must be an object")
NOT_LIST = define("national.report_not_list", "", "{at}: must be a list")
NOT_TEXT = define("national.report_not_text", "", "{at}: must be a non-empty text")
NOT_COUNT = define("national.report_not_count", "",
                   "{at}: {value!r} must be a whole number from {low}")
NOT_NUMBER = define("national.report_not_number", "", "{at}: {value!r} must be a number")
NOT_BOOL = define("national.report_not_bool", "", "{at}: must be true or false")
NOT_DATE = define("national.report_not_date", "", "{at}: {value!r} is not a date YYYY-MM-DD")
BAD_CATEGORY = define("national.report_category", "",
                      "{at}: {value!r} is not a category ({known})")
DATES_COUNT = define("national.report_dates_count", "",
                     "tournament.dates: {count} dates for {rounds} rounds (one per round)")
DATES_ORDER = define("national.report_dates_order", "",
                     "{at}: {later} is before the previous round's {earlier}")
DUPLICATE = define("national.report_duplicate", "", "{at}: {value!r} again (first at {first})")
NO_SUCH_PLAYER = define("national.report_no_such_player", "", "{at}: no player {value!r}")
ROUND_RANGE = define("national.report_round_range", "",
                     "{at}: round {value} of a tournament of {rounds} rounds")
SEATS = define("national.report_seats", "", "{at}: {count} seats (2 to 6)")
TWICE_IN_ROUND = define("national.report_twice_in_round", "",
                        "{at}: {player} already plays in round {round} ({first})")
NOT_SEATED = define("national.report_not_seated", "",
                    "{at}: {player} does not sit at this game")
POSITION_RANGE = define("national.report_position_range", "",
                        "{at}: position {value}, but {count} players in the standings")
STANDING_NO_GAMES = define("national.report_standing_no_games", "",
                           "{at}: {player} is in the standings but played no game")
NO_STANDINGS = define("national.report_no_standings", "",
                      "standings: a finished {category} tournament needs its standings")
NOT_FINISHED = define("national.report_last_round", "",
                      "tournament.finished: no game in round {rounds}, the last one")


#: the words a club's sheet fills a player's name and surname with when it does not name
#: him (GestioneTorneo's "Anonimo Anonimo"), compared case-folded
NOBODY = frozenset({"anonimo", "anonymous"})
#: such a player, said once in the list's language (:meth:`ReportPlayer.shown_name`)
define_words("anonymous_player", ("Anonymous",))


class ReportError(InvalidInputError):
    """A bad report: one fault per bad field (each with its place ``at``)."""


@dataclass(frozen=True)
class ReportPlayer:
    """A player of the report (``national_id`` None: anonymous)."""

    key: str
    national_id: int | None
    name: str
    surname: str
    birth_date: date | None
    club: str | None = None

    @property
    def full_name(self) -> str:
        """Name and surname, as lists show them ("Anna Bassi")."""
        return f"{self.name} {self.surname}"

    def shown_name(self, lang: str | None = None) -> str:
        """The player as a list of the report's players says him, in ``lang`` (default:
        the current language): his name and surname, a one-word name's surname ``-`` left
        out; an anonymous player (no national id) whose sheet filled name and surname with
        the word for nobody (GestioneTorneo's "Anonimo Anonimo") is that word once, in
        ``lang``. The report itself is never changed.

        >>> nobody = ReportPlayer("p8", None, "Anonimo", "Anonimo", None)
        >>> nobody.shown_name("it"), nobody.shown_name("en")
        ('Anonimo', 'Anonymous')
        >>> ReportPlayer("p1", None, "Anna", "-", None).shown_name("en")
        'Anna'
        """
        placeholder = {self.name.strip().casefold(), self.surname.strip().casefold()}
        if self.national_id is None and placeholder <= NOBODY | {"-"} and placeholder & NOBODY:
            return word("anonymous_player", "Anonymous", lang)
        return self.name if self.surname == "-" else self.full_name


@dataclass(frozen=True)
class ReportGame:
    """A game: its ``round`` and ``table``, ``seats`` as (player key, table points) and the
    ``winners``' keys."""

    round: int
    table: int
    seats: tuple[tuple[str, int | float], ...]
    winners: tuple[str, ...]


@dataclass(frozen=True)
class Report:
    """A checked ``risiko-report/1`` (see the module's docstring)."""

    club_id: str
    club_name: str
    name: str
    category: Category
    rounds: int
    dates: tuple[date, ...]
    finished: bool
    players: tuple[ReportPlayer, ...]
    games: tuple[ReportGame, ...]
    standings: tuple[tuple[str, int], ...]

    @property
    def identity(self) -> tuple[str, str, date]:
        """What makes it the same tournament: club id, name and first date."""
        return (self.club_id, self.name, self.dates[0])

    @property
    def year(self) -> int:
        """The year it counts in: the year of its last date."""
        return self.dates[-1].year

    @property
    def tables(self) -> int:
        """T: the games of the whole tournament."""
        return len(self.games)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON, keys in the contract's order."""
        return {
            "format": FORMAT,
            "club": {"id": self.club_id, "name": self.club_name},
            "tournament": {"name": self.name, "category": self.category.value,
                           "rounds": self.rounds,
                           "dates": [d.isoformat() for d in self.dates],
                           "finished": self.finished},
            "players": [
                {"key": p.key, "national_id": p.national_id, "name": p.name,
                 "surname": p.surname,
                 "birth_date": p.birth_date.isoformat() if p.birth_date else None,
                 **({"club": p.club} if p.club is not None else {})}
                for p in self.players],
            "games": [
                {"round": g.round, "table": g.table,
                 "seats": [{"player": k, "points": v} for k, v in g.seats],
                 "winners": list(g.winners)}
                for g in self.games],
            "standings": [{"player": k, "position": v} for k, v in self.standings],
        }

    def result(self, key: str | None = None) -> TournamentResult:
        """The tournament as the ranking reads it (anonymous players left out), under
        ``key`` (default: ``"YYYYMMDD - club id - name"``)."""
        games: dict[str, int] = {}
        wins: dict[str, int] = {}
        for g in self.games:
            for k, _ in g.seats:
                games[k] = games.get(k, 0) + 1
            for k in g.winners:
                wins[k] = wins.get(k, 0) + 1
        places = dict(self.standings)
        people = tuple(
            Participation(p.national_id, p.full_name, p.club or self.club_name,
                          games[p.key], wins.get(p.key, 0), places.get(p.key))
            for p in self.players if p.national_id is not None and p.key in games)
        return TournamentResult(
            key or f"{self.dates[0]:%Y%m%d} - {self.club_id} - {self.name}", self.club_name,
            self.name, self.category, self.rounds, self.dates[0], self.dates[-1],
            self.finished, self.tables, bool(self.standings), people)


# ----------------------------------------------------------------------------- reading

class _Reader:
    """Collects the faults of one report."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def add(self, fault: Fault) -> None:
        self.faults.append(fault)

    def fields(self, data: Any, at: str, required: Sequence[str],
               optional: Sequence[str] = ()) -> Mapping[str, Any] | None:
        if not isinstance(data, Mapping):
            self.add(NOT_OBJECT(at=at or "report"))
            return None
        for name in required:
            if name not in data:
                self.add(MISSING(at=f"{at}.{name}" if at else name))
        for name in data:
            if name not in required and name not in optional:
                self.add(UNKNOWN(at=f"{at}.{name}" if at else str(name)))
        return data

    def items(self, data: Mapping[str, Any], name: str, at: str) -> list[Any]:
        value = data.get(name)
        if name in data and not isinstance(value, list):
            self.add(NOT_LIST(at=at))
            return []
        return list(value or [])

    def text(self, data: Mapping[str, Any], name: str, at: str) -> str | None:
        if name not in data:
            return None
        value = data[name]
        if not isinstance(value, str) or not value.strip():
            self.add(NOT_TEXT(at=at))
            return None
        return " ".join(value.split())

    def count(self, data: Mapping[str, Any], name: str, at: str, low: int = 1
              ) -> int | None:
        if name not in data:
            return None
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, int) or value < low:
            self.add(NOT_COUNT(at=at, value=value, low=low))
            return None
        return value

    def day(self, value: Any, at: str) -> date | None:
        if isinstance(value, str) and len(value) == 10:
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        self.add(NOT_DATE(at=at, value=value))
        return None


def _players(r: _Reader, raw: list[Any]) -> dict[str, ReportPlayer]:
    players: dict[str, ReportPlayer] = {}
    where_key: dict[str, str] = {}
    where_id: dict[int, str] = {}
    for i, item in enumerate(raw):
        at = f"players[{i}]"
        data = r.fields(item, at, ("key", "national_id", "name", "surname", "birth_date"),
                        ("club",))
        if data is None:
            continue
        key = r.text(data, "key", f"{at}.key")
        national_id = None
        if data.get("national_id") is not None:
            national_id = r.count(data, "national_id", f"{at}.national_id")
        name = r.text(data, "name", f"{at}.name")
        surname = r.text(data, "surname", f"{at}.surname")
        birth = data.get("birth_date")
        born = None if birth is None else r.day(birth, f"{at}.birth_date")
        club = r.text(data, "club", f"{at}.club") if "club" in data else None
        if key is not None and key in where_key:
            r.add(DUPLICATE(at=f"{at}.key", value=key, first=where_key[key]))
            continue
        if national_id is not None and national_id in where_id:
            r.add(DUPLICATE(at=f"{at}.national_id", value=national_id,
                            first=where_id[national_id]))
        if key is None or name is None or surname is None:
            continue
        where_key[key] = at
        if national_id is not None:
            where_id.setdefault(national_id, at)
        players[key] = ReportPlayer(key, national_id, name, surname, born, club)
    return players


def _games(r: _Reader, raw: list[Any], players: Mapping[str, ReportPlayer],
           rounds: int | None) -> list[ReportGame]:
    games: list[ReportGame] = []
    tables: dict[tuple[int, int], str] = {}
    seated: dict[tuple[int, str], str] = {}
    for i, item in enumerate(raw):
        at = f"games[{i}]"
        data = r.fields(item, at, ("round", "table", "seats", "winners"))
        if data is None:
            continue
        rnd = r.count(data, "round", f"{at}.round")
        if rnd is not None and rounds is not None and rnd > rounds:
            r.add(ROUND_RANGE(at=f"{at}.round", value=rnd, rounds=rounds))
        table = r.count(data, "table", f"{at}.table")
        if rnd is not None and table is not None:
            if (rnd, table) in tables:
                r.add(DUPLICATE(at=f"{at}.table", value=table, first=tables[rnd, table]))
            tables.setdefault((rnd, table), at)
        seats: list[tuple[str, int | float]] = []
        raw_seats = r.items(data, "seats", f"{at}.seats")
        if "seats" in data and isinstance(data["seats"], list) and not 2 <= len(raw_seats) <= 6:
            r.add(SEATS(at=f"{at}.seats", count=len(raw_seats)))
        for j, seat in enumerate(raw_seats):
            sat = f"{at}.seats[{j}]"
            s = r.fields(seat, sat, ("player", "points"))
            if s is None:
                continue
            key = s.get("player")
            if "player" in s and key not in players:
                r.add(NO_SUCH_PLAYER(at=f"{sat}.player", value=key))
                key = None
            points = s.get("points")
            if "points" in s and (isinstance(points, bool)
                                  or not isinstance(points, int | float)
                                  or not math.isfinite(points)):
                r.add(NOT_NUMBER(at=f"{sat}.points", value=points))
                points = None
            if not isinstance(key, str) or points is None:
                continue
            if rnd is not None:
                first = seated.get((rnd, key))
                if first is not None:
                    r.add(TWICE_IN_ROUND(at=f"{sat}.player", player=key, round=rnd,
                                         first=first))
                    continue
                seated[rnd, key] = sat
            seats.append((key, points))
        winners: list[str] = []
        for j, key in enumerate(r.items(data, "winners", f"{at}.winners")):
            if key not in {k for k, _ in seats}:
                r.add(NOT_SEATED(at=f"{at}.winners[{j}]", player=key))
            elif key not in winners:
                winners.append(key)
        if rnd is not None and table is not None:
            games.append(ReportGame(rnd, table, tuple(seats), tuple(winners)))
    return games


def _standings(r: _Reader, raw: list[Any], players: Mapping[str, ReportPlayer],
               played: set[str]) -> list[tuple[str, int]]:
    rows: list[tuple[str, int]] = []
    where: dict[str, str] = {}
    for i, item in enumerate(raw):
        at = f"standings[{i}]"
        data = r.fields(item, at, ("player", "position"))
        if data is None:
            continue
        key = data.get("player")
        position = r.count(data, "position", f"{at}.position")
        if "player" in data and key not in players:
            r.add(NO_SUCH_PLAYER(at=f"{at}.player", value=key))
            continue
        if not isinstance(key, str) or position is None:
            continue
        if key in where:
            r.add(DUPLICATE(at=f"{at}.player", value=key, first=where[key]))
            continue
        where[key] = at
        if position > len(raw):
            r.add(POSITION_RANGE(at=f"{at}.position", value=position, count=len(raw)))
        if key not in played:
            r.add(STANDING_NO_GAMES(at=f"{at}.player", player=key))
        rows.append((key, position))
    return rows


def read_report(data: Any) -> Report:
    """A :class:`Report` from the JSON value of a report; raises :class:`ReportError` with
    one fault per bad field (``at`` names it: ``games[2].seats[1].player``)."""
    r = _Reader()
    top = r.fields(data, "", ("format", "club", "tournament", "players", "games",
                              "standings"))
    if top is None:
        raise ReportError(r.faults)
    if "format" in top and top["format"] != FORMAT:
        r.add(BAD_FORMAT(value=top["format"]))
    club = r.fields(top.get("club", {}), "club", ("id", "name")) if "club" in top else None
    club_id = club_name = None
    if club is not None:
        raw_id = club.get("id")
        if isinstance(raw_id, int) and not isinstance(raw_id, bool):
            club_id = str(raw_id)
        else:
            club_id = r.text(club, "id", "club.id")
        club_name = r.text(club, "name", "club.name")
    t = (r.fields(top["tournament"], "tournament",
                  ("name", "category", "rounds", "dates", "finished"))
         if "tournament" in top else None)
    name = category = rounds = finished = None
    dates: list[date] = []
    if t is not None:
        name = r.text(t, "name", "tournament.name")
        if "category" in t:
            try:
                category = parse_category(t["category"])
            except InvalidInputError:
                r.add(BAD_CATEGORY(at="tournament.category", value=t["category"],
                                   known=", ".join(f"{c.value} ({CODES[c]})"
                                                   for c in Category)))
        rounds = r.count(t, "rounds", "tournament.rounds")
        raw_dates = r.items(t, "dates", "tournament.dates")
        for i, value in enumerate(raw_dates):
            day = r.day(value, f"tournament.dates[{i}]")
            if day is not None:
                if dates and day < dates[-1]:
                    r.add(DATES_ORDER(at=f"tournament.dates[{i}]", later=day.isoformat(),
                                      earlier=dates[-1].isoformat()))
                dates.append(day)
        if rounds is not None and "dates" in t and len(raw_dates) != rounds:
            r.add(DATES_COUNT(count=len(raw_dates), rounds=rounds))
        if "finished" in t:
            if isinstance(t["finished"], bool):
                finished = t["finished"]
            else:
                r.add(NOT_BOOL(at="tournament.finished"))
    players = _players(r, r.items(top, "players", "players"))
    games = _games(r, r.items(top, "games", "games"), players, rounds)
    played = {k for g in games for k, _ in g.seats}
    standings = _standings(r, r.items(top, "standings", "standings"), players, played)
    if finished and rounds is not None and not any(g.round == rounds for g in games):
        r.add(NOT_FINISHED(rounds=rounds))
    if (finished and category is not None and not standings and "standings" in top
            and category not in (Category.SQUADRE, Category.DUE_VS_DUE, Category.AMICHEVOLE)):
        r.add(NO_STANDINGS(category=category.value))  # ExcelValidator: prevedeClassifica
    if r.faults:
        raise ReportError(r.faults)
    assert club_id is not None and club_name is not None and name is not None
    assert category is not None and rounds is not None and finished is not None and dates
    return Report(club_id, club_name, name, category, rounds, tuple(dates), finished,
                  tuple(players.values()), tuple(games), tuple(standings))


def parse_report(text: str) -> Report:
    """A :class:`Report` from a report's text; :class:`ReportError` when it is not JSON or
    any field is bad."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReportError(NOT_JSON(line=e.lineno, column=e.colno)) from None
    return read_report(data)


def write_report(report: Report) -> str:
    """The report's canonical text (indented JSON, UTF-8 names kept, a final newline):
    ``parse_report(write_report(r)) == r``."""
    return json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n"
