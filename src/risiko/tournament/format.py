"""A tournament's format: how a club turns evenings into a ranking, a semifinal and a final
(R18 and other clubs' formats), as data: :class:`TournamentFormat`, its JSON form, the
checks of its parameters (each fault naming the format and the parameter) and the shipped
formats (:data:`FORMATS`, :func:`get_format`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any, Literal, get_args

from ..faults import Fault, InvalidInputError, define, define_words, value_param
from .ranking import RankingPoints, ranking_points_faults

__all__ = [
    "CLUB_MILANO_FORMAT",
    "ENTRANT_FIELDS",
    "FORMATS",
    "RETIRED_FORMATS",
    "EntrantsOverride",
    "FinalistsRule",
    "TournamentFormat",
    "format_words",
    "get_format",
]

FinalistsRule = Literal["top", "table_winners"]


FORMAT_UNKNOWN = define("format.unknown", "",
                        "unknown tournament format {name!r} (known: {known})", located=True)
FORMAT_UNKNOWN_FIELDS = define("format.unknown_fields", "",
                               "unknown format fields: {fields} (known: {known})", located=True)
FORMAT_BAD_VALUE = define("format.bad_value", "",
                          "format {parameter} must be {expected}, not {value!r}", located=True)
FORMAT_UNKNOWN_TIE_BREAK = define("format.unknown_tie_break", "R18", "format {format}: "
                                  "unknown tie-break {metric!r} (known: {known})", located=True)
FORMAT_NEGATIVE = define("format.negative", "",
                         "format {format}: {parameter} must not be negative", located=True)
FORMAT_ENTRANT_NUMBERS = define("format.entrant_numbers", "R18", "format {format}: "
                                "semifinal_tables must number the entrants 1..{count} once "
                                "each", located=True)
FORMAT_PROBLEMS = {
    "no_tie_break": define("format.no_tie_break", "R18", "format {format}: "
                  "tie_breaks needs at least one metric", located=True),
    "best_of_low": define("format.best_of_low", "R18", "format {format}: "
                  "best_of must be at least 1", located=True),
    "best_of_and_discard": define("format.best_of_and_discard", "R18", "format {format}: "
                  "use best_of or discard_worst, not both", located=True),
    "semifinal_size": define("format.semifinal_size", "R18", "format {format}: "
                  "a semifinal table has 3 to 6 seats", located=True),
    "ripescati_over": define("format.ripescati_over", "R18", "format {format}: "
                  "more ripescati than semifinal seats", located=True),
    "ripescati_no_semifinal": define("format.ripescati_no_semifinal", "R18", "format {format}: "
                  "ripescati need a semifinal", located=True),
    "final_size": define("format.final_size", "R18", "format {format}: "
                  "the final table has 3 to 6 seats", located=True),
    "direct_over": define("format.direct_over", "R18", "format {format}: "
                  "more players straight to the final than seats", located=True),
    "winners_no_semifinal": define("format.winners_no_semifinal", "R18", "format {format}: "
                  "table_winners needs a semifinal", located=True),
    "winners_over": define("format.winners_over", "R18", "format {format}: "
                  "more table winners than final seats", located=True),
    "entrants_short": define("format.entrants_short", "R18", "format {format}: "
                  "fewer semifinal entrants than final seats to fill", located=True),
    "discard_from_alone": define("format.discard_from_alone", "", "format {format}: "
                  "discard_from_evening needs discard_worst", located=True),
    "entrants_max_players": define("format.entrants_max_players", "", "format {format}: "
                  "max_players must be at least 1", located=True),
    "entrants_semifinal": define("format.entrants_semifinal", "", "format {format}: "
                  "by_entrants may not add or remove the semifinal", located=True),
    "entrants_order": define("format.entrants_order", "", "format {format}: "
                  "by_entrants items go by increasing max_players, each once", located=True),
    "entrants_fields": define("format.entrants_fields", "", "by_entrants may change "
                  "{known}, not {fields}", located=True),
}
define_words("expected", ("a list of metric names", "lists of entrant numbers", "text",
                          "one of top, table_winners", "an integer or null", "an integer"))


#: the format fields a ``by_entrants`` override may change (the stages after qualifying)
ENTRANT_FIELDS = ("direct_to_final", "semifinal_tables", "ripescati", "ripescati_min_evenings",
                  "finalists", "finalists_rule")


@dataclass(frozen=True)
class EntrantsOverride:
    """One item of ``by_entrants``: with at most ``max_players`` eligible players at the end
    of the qualifying stage, the format fields of ``changes`` (a subset of
    :data:`ENTRANT_FIELDS`, JSON values as pairs) replace the format's."""

    max_players: int
    changes: tuple[tuple[str, Any], ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON form: ``{"max_players": N, field: value ...}``."""
        out: dict[str, Any] = {"max_players": self.max_players}
        for key, value in self.changes:
            out[key] = [list(t) for t in value] if key == "semifinal_tables" else value
        return out


@dataclass(frozen=True)
class TournamentFormat:
    """How a club turns evenings into a ranking, a semifinal and a final (data, not code).

    Qualifying ranking (R18 reading): ``ranking_points`` says how a table's scores become
    ranking points (:class:`risiko.tournament.ranking.RankingPoints`; default ``table``:
    ranking points = table points, Club Milano); ``tie_breaks`` names the metrics of
    :data:`risiko.tournament.standings.METRICS`, compared in order; ``best_of`` N counts only
    the N best qualifying tables (an absence counts as the worst, i.e. 0 and dropped
    first); ``discard_worst`` drops that many worst evenings (only once more evenings than
    that have been held, and ``discard_from_evening`` evenings or more); ``min_evenings``
    is the number of qualifying evenings played to be eligible for the next stages.

    Next stages: the first ``direct_to_final`` eligible players go straight to the final; the
    next ones, then ``ripescati`` players picked by best single table score among the others
    ("ripescato", who must have played ``ripescati_min_evenings`` qualifying evenings), are
    the semifinal *entrants*, numbered 1..E in that order; ``semifinal_tables`` lists the
    entrant numbers of each semifinal table (R18: 1, 2, 8, 9, 10 and 3..7); an empty tuple
    means no semifinal. ``finalists`` players play the final: with ``finalists_rule``
    ``top`` the first ones after the semifinal; with ``table_winners`` each semifinal
    table's winner, then the best others. ``by_entrants`` changes these stage fields by the
    number of eligible players at the end of the qualifying stage (:meth:`for_entrants`).
    """

    name: str = "club-milano"
    tie_breaks: tuple[str, ...] = ("points", "risiko", "best", "penalties")
    best_of: int | None = None
    discard_worst: int = 0
    min_evenings: int = 0
    direct_to_final: int = 0
    semifinal_tables: tuple[tuple[int, ...], ...] = ((1, 2, 8, 9, 10), (3, 4, 5, 6, 7))
    ripescati: int = 0
    finalists: int = 5
    finalists_rule: FinalistsRule = "top"
    ranking_points: RankingPoints = field(default_factory=RankingPoints)
    discard_from_evening: int = 0
    ripescati_min_evenings: int = 0
    by_entrants: tuple[EntrantsOverride, ...] = ()

    @property
    def entrants(self) -> int:
        """Number of semifinal entrants (E, the seats of all semifinal tables)."""
        return sum(len(t) for t in self.semifinal_tables)

    @property
    def qualified_by_rank(self) -> int:
        """Semifinal entrants taken by qualifying rank (E minus the ripescati)."""
        return self.entrants - self.ripescati

    def for_entrants(self, players: int) -> TournamentFormat:
        """The format that applies with ``players`` eligible players at the end of the
        qualifying stage: the first ``by_entrants`` item with ``max_players`` >= players
        changes the stage fields; none fits: this format.

        >>> f = TournamentFormat.from_dict({"by_entrants": [
        ...     {"max_players": 18, "direct_to_final": 1,
        ...      "semifinal_tables": [[1, 4, 5, 8, 9, 12], [2, 3, 6, 7, 10, 11]]}]})
        >>> f.for_entrants(18).direct_to_final, f.for_entrants(18).entrants
        (1, 12)
        >>> f.for_entrants(19).direct_to_final, f.for_entrants(19).entrants
        (0, 10)
        """
        for item in self.by_entrants:
            if players <= item.max_players:
                return self._apply(item)
        return self

    def _apply(self, item: EntrantsOverride) -> TournamentFormat:
        changes: dict[str, Any] = {}
        for key, value in item.changes:
            changes[key] = (tuple(tuple(t) for t in value) if key == "semifinal_tables"
                            else value)
        return replace(self, **changes)

    def problems(self) -> list[Fault]:
        """Inconsistencies of the parameters ([] when usable), each naming the format."""
        out: list[Fault] = []
        from .standings import METRICS  # late import: standings imports this module

        f = {"format": self.name}
        for name in self.tie_breaks:
            if name not in METRICS:
                out.append(FORMAT_UNKNOWN_TIE_BREAK(f, metric=name, known=list(METRICS)))
        if not self.tie_breaks:
            out.append(FORMAT_PROBLEMS["no_tie_break"](f))
        out += ranking_points_faults(self.ranking_points.to_dict(), self.name)
        if self.best_of is not None and self.best_of < 1:
            out.append(FORMAT_PROBLEMS["best_of_low"](f))
        if self.best_of is not None and self.discard_worst:
            out.append(FORMAT_PROBLEMS["best_of_and_discard"](f))
        for label, value in (("discard_worst", self.discard_worst),
                             ("min_evenings", self.min_evenings),
                             ("direct_to_final", self.direct_to_final),
                             ("ripescati", self.ripescati),
                             ("discard_from_evening", self.discard_from_evening),
                             ("ripescati_min_evenings", self.ripescati_min_evenings)):
            if value < 0:
                out.append(FORMAT_NEGATIVE(f, parameter=label))
        if self.discard_from_evening and not self.discard_worst:
            out.append(FORMAT_PROBLEMS["discard_from_alone"](f))
        out += self._stage_problems()
        sizes = [item.max_players for item in self.by_entrants]
        for item in self.by_entrants:
            at = {"format": f"{self.name} (by_entrants, max_players {item.max_players})"}
            if item.max_players < 1:
                out.append(FORMAT_PROBLEMS["entrants_max_players"](at))
            other = replace(self._apply(item), name=at["format"])
            if bool(other.semifinal_tables) != bool(self.semifinal_tables):
                out.append(FORMAT_PROBLEMS["entrants_semifinal"](at))
            out += other._stage_problems()
        if sizes != sorted(set(sizes)):
            out.append(FORMAT_PROBLEMS["entrants_order"](f))
        return out

    def _stage_problems(self) -> list[Fault]:
        out: list[Fault] = []
        f = {"format": self.name}
        numbers = sorted(n for t in self.semifinal_tables for n in t)
        if numbers != list(range(1, len(numbers) + 1)):
            out.append(FORMAT_ENTRANT_NUMBERS(f, count=len(numbers)))
        if any(not 3 <= len(t) <= 6 for t in self.semifinal_tables):
            out.append(FORMAT_PROBLEMS["semifinal_size"](f))
        if self.semifinal_tables and self.ripescati > self.entrants:
            out.append(FORMAT_PROBLEMS["ripescati_over"](f))
        if not self.semifinal_tables and self.ripescati:
            out.append(FORMAT_PROBLEMS["ripescati_no_semifinal"](f))
        if not 3 <= self.finalists <= 6:
            out.append(FORMAT_PROBLEMS["final_size"](f))
        if self.direct_to_final > self.finalists:
            out.append(FORMAT_PROBLEMS["direct_over"](f))
        if self.finalists_rule == "table_winners":
            if not self.semifinal_tables:
                out.append(FORMAT_PROBLEMS["winners_no_semifinal"](f))
            elif self.direct_to_final + len(self.semifinal_tables) > self.finalists:
                out.append(FORMAT_PROBLEMS["winners_over"](f))
        if self.semifinal_tables and (self.finalists - self.direct_to_final) > self.entrants:
            out.append(FORMAT_PROBLEMS["entrants_short"](f))
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON form (tuples as lists)."""
        return {
            "name": self.name,
            "tie_breaks": list(self.tie_breaks),
            "best_of": self.best_of,
            "discard_worst": self.discard_worst,
            "min_evenings": self.min_evenings,
            "direct_to_final": self.direct_to_final,
            "semifinal_tables": [list(t) for t in self.semifinal_tables],
            "ripescati": self.ripescati,
            "finalists": self.finalists,
            "finalists_rule": self.finalists_rule,
            "ranking_points": self.ranking_points.to_dict(),
            "discard_from_evening": self.discard_from_evening,
            "ripescati_min_evenings": self.ripescati_min_evenings,
            "by_entrants": [item.to_dict() for item in self.by_entrants],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], base: TournamentFormat | None = None
                  ) -> TournamentFormat:
        """``base`` (default: club-milano) with the fields of ``data`` replaced.

        Raises :class:`~risiko.faults.InvalidInputError` (a ValueError) for an unknown field,
        a value of the wrong type or parameters that do not fit together (see
        :meth:`problems`).
        """
        start = base or CLUB_MILANO_FORMAT
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInputError(FORMAT_UNKNOWN_FIELDS({"field": "format"}, fields=unknown,
                                                          known=sorted(known)))
        changes: dict[str, Any] = {}
        faults: list[Fault] = []
        for key, value in data.items():
            if key == "ranking_points":
                try:
                    changes[key] = RankingPoints.from_dict(
                        value, str(data.get("name", start.name)))
                except InvalidInputError as e:
                    faults.extend(e.faults)
            elif key == "by_entrants":
                entrants = _entrants(value, faults)
                if entrants is not None:
                    changes[key] = entrants
            else:
                ok, checked = _field_value(key, value, faults)
                if ok:
                    changes[key] = checked
        if faults:
            raise InvalidInputError(faults)
        fmt = replace(start, **changes)
        problems = fmt.problems()
        if problems:
            raise InvalidInputError(problems)
        return fmt


def _bad(faults: list[Fault], key: str, expected: str, value: Any) -> None:
    faults.append(FORMAT_BAD_VALUE({"field": "format"}, parameter=key, expected=expected,
                                   value=value_param(value)))


def _field_value(key: str, value: Any, faults: list[Fault]) -> tuple[bool, Any]:
    """A format field's value from JSON: ``(True, value)``, or ``(False, None)`` with a
    fault added when it has the wrong type."""
    if key == "tie_breaks":
        if not _str_list(value):
            _bad(faults, key, "a list of metric names", value)
            return False, None
        return True, tuple(value)
    if key == "semifinal_tables":
        if not isinstance(value, list) or not all(
                isinstance(t, list) and all(_is_int(n) for n in t) for t in value):
            _bad(faults, key, "lists of entrant numbers", value)
            return False, None
        return True, tuple(tuple(t) for t in value)
    if key == "name":
        if not isinstance(value, str) or not value:
            _bad(faults, key, "text", value)
            return False, None
        return True, value
    if key == "finalists_rule":
        if value not in get_args(FinalistsRule):
            _bad(faults, key, "one of top, table_winners", value)
            return False, None
        return True, value
    if key == "best_of":
        if value is not None and not _is_int(value):
            _bad(faults, key, "an integer or null", value)
            return False, None
        return True, value
    if not _is_int(value):
        _bad(faults, key, "an integer", value)
        return False, None
    return True, value


def _entrants(value: Any, faults: list[Fault]) -> tuple[EntrantsOverride, ...] | None:
    """``by_entrants`` from JSON, or None with the faults added."""
    if not isinstance(value, list) or not all(
            isinstance(item, Mapping) and _is_int(item.get("max_players")) for item in value):
        _bad(faults, "by_entrants", 'a list of {"max_players": N, ...}', value)
        return None
    out: list[EntrantsOverride] = []
    before = len(faults)
    for item in value:
        unknown = sorted(k for k in item if k != "max_players" and k not in ENTRANT_FIELDS)
        if unknown:
            faults.append(FORMAT_PROBLEMS["entrants_fields"](
                {"field": "format"}, fields=unknown, known=list(ENTRANT_FIELDS)))
            continue
        changes = []
        for key in sorted(k for k in item if k != "max_players"):
            ok, checked = _field_value(key, item[key], faults)
            if ok:
                changes.append((key, checked))
        out.append(EntrantsOverride(item["max_players"], tuple(changes)))
    return tuple(out) if len(faults) == before else None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


CLUB_MILANO_FORMAT = TournamentFormat()


def _preset(name: str, ranking: dict[str, Any], tie_breaks: tuple[str, ...]
            ) -> TournamentFormat:
    return replace(CLUB_MILANO_FORMAT, name=name, tie_breaks=tie_breaks,
                   ranking_points=RankingPoints.from_dict(ranking, name))


#: Shipped formats by name: ``club-milano`` (the default) and presets of other Italian
#: clubs' ranking points (the stages stay Club Milano's until changed): ``win-bonus``
#: (+50 to the winner shared by tied winners, x1.25 at 5-player tables; points, wins,
#: best), and GestioneTorneo's types: ``raduno@2`` (Raduno / Nazionale), ``master``
#: (Master / Victory: thousandths), ``torneo-gufo``, ``campionato-gufo@2`` (Campionato
#: Gufo / Spartac) and ``placement``. A preset whose meaning changed carries its version
#: (``name@version``, as rulesets); the old meaning stays readable under the bare name
#: (:data:`RETIRED_FORMATS`) so stored tournaments keep their standings. Other formats
#: are objects in the season file (see docs/tournament.md).
#:
#: ``raduno@2`` is GestioneTorneo's Raduno as its code computes it
#: (``ExcelAccess.getClassificaRadunoNazionale2020``): ``ScorePlayerRaduno`` gives the
#: table points (no factor at 5-player tables) + 50 to a sole winner, + 25 to each of two
#: (``numeroVincitori() == 1`` / ``== 2``), and ``ScoreRadunoNazionale2020Comparator``
#: breaks ties on the total, then the results sorted best first (best, 2nd, 3rd ...),
#: then the round-by-round results, as the manual's "punteggio classifica più alto nella
#: migliore / seconda / terza prestazione; posizione in classifica al turno precedente".
#: The last tie-break follows the manual (``previous_position``, as ``master``): the
#: comparator's code compares the results round by round instead, first round first.
#: ``campionato-gufo@2`` counts a RisiKo! 100 table points (200 to its winner), as
#: ``ScorePlayerCampionatoGufo`` does (see :func:`risiko.tournament.ranking.winner_gap`).
FORMATS: dict[str, TournamentFormat] = {f.name: f for f in (
    CLUB_MILANO_FORMAT,
    _preset("win-bonus", {"formula": "win_bonus", "win_bonus": 50, "five_seat_factor": 1.25},
            ("points", "wins", "best")),
    _preset("raduno@2", {"formula": "win_bonus", "win_bonus": 50, "max_sharing": 2},
            ("points", "best_ranking", "second_best_ranking", "third_best_ranking",
             "previous_position")),
    _preset("master", {"formula": "thousandths"},
            ("points", "best_ranking", "second_best_ranking", "third_best_ranking",
             "previous_position")),
    _preset("torneo-gufo", {"formula": "placement_bonus"}, ("points", "wins", "best_ranking")),
    _preset("campionato-gufo@2", {"formula": "winner_gap", "risiko_points": 100},
            ("points", "wins", "table_points")),
    _preset("placement", {"formula": "placement"}, ("points", "wins", "best")),
)}

#: Presets replaced by a newer version, still read by their stored name (a bare name is
#: version 1): ``raduno`` (x1.25 at 5-player tables, tie-break on the best ranking points
#: only) and ``campionato-gufo`` (a RisiKo! counts its own table points: 186 under rtu
#: scoring). Never offered for a new tournament.
RETIRED_FORMATS: dict[str, TournamentFormat] = {f.name: f for f in (
    _preset("raduno", {"formula": "win_bonus", "win_bonus": 50, "five_seat_factor": 1.25,
                       "max_sharing": 2}, ("points", "best_ranking")),
    _preset("campionato-gufo", {"formula": "winner_gap"}, ("points", "wins", "table_points")),
)}


#: What a person reads for each shipped format: a human name and one line on what it means,
#: English here, Italian in the catalogue (``locale/it/LC_MESSAGES/format.po``, contexts
#: ``format.title.<name>`` and ``format.meaning.<name>``); forms offer the name, the code
#: stays the value stored.
_DESCRIPTIONS: dict[str, tuple[str, str]] = {
    "club-milano": ("Club Milano",
                    "ranking points are the table points of each qualifying evening; "
                    "semifinal and final as R18 says"),
    "win-bonus": ("Winner's bonus",
                  "table points, ×1.25 at 5-player tables, +50 to the table's winner "
                  "(shared by tied winners)"),
    "raduno@2": ("Raduno / Nazionale",
                 "table points, +50 to a sole winner, +25 to each of two tied, nothing to "
                 "more; ties: best, 2nd and 3rd best results, previous position"),
    "raduno": ("Raduno (version 1)",
               "table points, ×1.25 at 5-player tables, +50 to a sole winner, +25 to each of "
               "two tied, nothing to more"),
    "master": ("Master / Victory",
               "table points in thousandths, +1 to the table's winner"),
    "torneo-gufo": ("Torneo Gufo",
                    "a bonus by place at the table plus the table points in hundredths"),
    "campionato-gufo@2": ("Campionato Gufo / Spartac",
                          "the table's winner 100 plus his table points (a RisiKo! 100: "
                          "200), the others 100 minus their gap to the winner"),
    "campionato-gufo": ("Campionato Gufo / Spartac (version 1)",
                        "the table's winner 100 plus his table points, the others 100 minus "
                        "their gap to the winner"),
    "placement": ("By place at the table",
                  "points by place at the table and table size (100 to the winner)"),
}
_TITLES = {name: define(f"format.title.{name}", "", title)
           for name, (title, _m) in _DESCRIPTIONS.items()}
_MEANINGS = {name: define(f"format.meaning.{name}", "", meaning)
             for name, (_t, meaning) in _DESCRIPTIONS.items()}


def format_words(name: str, lang: str | None = None) -> tuple[str, str]:
    """A shipped format's human name and one line on what it means, in ``lang`` (default:
    :func:`~risiko.faults.current_language`); InvalidInputError (a ValueError) for a name
    not shipped, as :func:`get_format`.

    >>> format_words("win-bonus", "it")[0]
    'Bonus al vincitore'
    """
    code = get_format(name).name
    return (Fault(_TITLES[code].code).message(lang), Fault(_MEANINGS[code].code).message(lang))


def get_format(name: str | None = None) -> TournamentFormat:
    """A shipped format by name (``club-milano`` when None); InvalidInputError (a
    ValueError) naming the known ones."""
    if name is None:
        return CLUB_MILANO_FORMAT
    key = name.strip().lower()
    fmt = FORMATS.get(key) or RETIRED_FORMATS.get(key.removesuffix("@1"))
    if fmt is None:
        raise InvalidInputError(FORMAT_UNKNOWN({"field": "format"}, name=name,
                                               known=list(FORMATS)))
    return fmt

