"""Every check on a tournament's facts that needs no ranking: a list of faults.

Each fault is a :class:`~risiko.faults.Fault` whose subjects name the evening
(``evening``: its date, with its ``stage``), the table when there is one, the ``field`` of the
season file it concerns (``arrivals``, ``penalties``, ``carry_over``, ...) and the player; its
message starts with where it is (``evening 2027-03-02 (qualifying), table 2: ...``). The
checks (clause in brackets):

- names: a player registered twice; an unknown player anywhere (with the closest names);
- evenings: two on one date; more than one semifinal or final; a qualifying evening after
  the semifinal, a semifinal after the final, a final without a semifinal (when the format
  has one); a stage the format does not have;
- seating: a player seated twice in an evening; an arrival excluded by R3 seated; a player
  listed absent seated; a player expelled from the tournament or the club on an earlier
  evening seated (R10); a table of fewer than 3 or more than 6 seats;
- results: ``scores`` not naming exactly the table's players; a score above the maximum
  (R1); a sheet whose players are not the table's; ``risiko`` with a sheet (RisiKo! comes
  from the board) or naming a player not at the table; an abandoned player (R13) not at
  the table or with a score other than 0; a sheet of another ruleset;
- penalties: a table penalty for a player not at that table; points not negative; a
  reduced appeal not between the penalty and 0, an appeal without the points it reduces to;
- winners and order of elimination (:func:`risiko.tournament.ranking.winner_faults`): a
  named winner not seated, who left (R13) or below the highest table score; an eliminated
  player not seated or listed twice; with a formula that needs the order of elimination, a
  sheet's eliminated seat missing from it;
- discipline: an expulsion from a table the player does not sit at;
- carry-over and draws: unknown players, a player twice in one draw.
"""

from __future__ import annotations

import datetime as _dt
import difflib
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Literal

from ..faults import Fault, FaultKind, RisikoError, define, define_words
from ..names import name_key
from .model import STAGES, Evening, Penalty, SeatResult, Table, Tournament
from .ranking import ELIMINATION_ORDER_MISSING, winner_faults
from .schedule import classify
from .seating import MAX_TABLE, MIN_TABLE, expelled_before

__all__ = ["tournament_faults", "unknown_player"]

define_words("unit", ("table", "ranking"))
define_words("level", ("warning", "table", "tournament", "club"))


def _k(code: str, clause: str, template: str) -> FaultKind:
    return define(f"tournament.{code}", clause, template, located=True)


UNKNOWN_PLAYER = _k("unknown_player", "", "unknown player {player!r} (not in 'players')")
UNKNOWN_PLAYER_CLOSE = _k("unknown_player_close", "",
                          "unknown player {player!r} (did you mean {close:or}?)")
ARRIVALS_TWICE = _k("arrivals_twice", "R3", "{player} has {count} arrivals")
ABSENT_ARRIVED = _k("absent_arrived", "", "{player} is listed absent but has an arrival")
TABLE_SIZE = _k("table_size", "", "{count} seats (a table has {min} to {max})")
SEATED_TIMES = _k("seated_times", "", "{player} is seated {count} times at this table")
SEATED_ABSENT = _k("seated_absent", "", "{player} is seated but listed absent")
SEATED_EXPELLED = _k("seated_expelled", "R10",
                     "{player} is seated but was expelled from the {level} on {date} (R10)")
SEATED_EXCLUDED = _k("seated_excluded", "R3", "{player} is seated but {reason}")
SHEET_AND_SCORES = _k("sheet_and_scores", "", "both a sheet and scores; give one result")
SCORE_NOT_SEATED = _k("score_not_seated", "",
                      "a score for {player}, who is not seated at this table")
NO_SCORE = _k("no_score", "", "no score for {player}")
SCORE_ABOVE = _k("score_above", "R1", "{player} scores {score}, above the maximum table "
                 "score of {limit} (R1)")
SCORE_BELOW = _k("score_below", "R5", "{player} scores {score}, below the lowest possible "
                 "table score of {limit} (R5; referee penalties are entered as penalties)")
ABANDONED_SCORES = _k("abandoned_scores", "R13", "{player} left the game (R13) but scores "
                      "{score}: a seat that leaves scores 0")
SHEET_NOT_SEATED = _k("sheet_not_seated", "",
                      "the sheet lists {player}, who is not seated at this table")
SHEET_NO_SEAT = _k("sheet_no_seat", "", "the sheet has no seat for {player}")
RISIKO_WITH_SHEET = _k("risiko_with_sheet", "R1", "'risiko' is given with a sheet; the sheet "
                       "decides RisiKo! from the board")
SHEET_RULESET = _k("sheet_ruleset", "", "the sheet is scored under {sheet_ruleset!r}, the "
                   "tournament under {ruleset!r}")
TWO_RISIKO = _k("two_risiko", "R1", "{players:and} both completed the objective, but the "
                "game ends at the first RisiKo! (R1)")
RISIKO_NOT_SEATED = _k("risiko_not_seated", "",
                       "risiko names {player}, who is not seated at this table")
ABANDONED_NOT_SEATED = _k("abandoned_not_seated", "R13",
                          "abandoned names {player}, who is not seated at this table")
FLAGS_WITHOUT_RESULT = _k("flags_without_result", "",
                          "risiko or abandoned given without a result")
TABLE_PENALTY_NOT_SEATED = _k("table_penalty_not_seated", "", "table penalty for {player}, "
                              "who is not seated at this table (a ranking penalty goes on "
                              "the evening)")
PENALTY_NOT_NEGATIVE = _k("penalty_not_negative", "", "penalty for {player} of {points} "
                          "{unit} points: a penalty is a negative number of points (e.g. -7)")
APPEAL_NO_POINTS = _k("appeal_no_points", "", "appeal of {player} 'reduced' needs the points "
                      "it reduces the penalty to")
APPEAL_RANGE = _k("appeal_range", "", "appeal of {player} reduces {points} to {reduced}: a "
                  "reduction lies between {points} (excluded) and 0")
APPEAL_POINTS = _k("appeal_points", "", "appeal of {player} is {outcome!r}: only a 'reduced' "
                   "appeal gives points")
SEATED_TWICE = _k("seated_twice", "", "{player} is seated twice (tables {tables:and})")
NO_SUCH_TABLE = _k("discipline_no_table", "R10", "{player}: there is no table {number}")
NOT_AT_TABLE = _k("discipline_not_at_table", "R10",
                  "{player} is not seated at table {number}")
EXPULSION_NEEDS_TABLE = _k("discipline_needs_table", "R10", "expulsion of {player} from a "
                           "table needs the table number")
LISTED_TIMES = _k("listed_times", "", "{player} is listed {count} times")
DRAW_STAGE = _k("draw_stage", "R18", "a draw of lots seats the semifinal or the final")
DRAWN_TIMES = _k("drawn_times", "R18", "{player} is drawn {count} times")
DRAW_SHORT = _k("draw_short", "R18", "a draw orders at least 2 different players")
EVENINGS_ON_DATE = _k("evenings_on_date", "", "{count} evenings on {date}")
STAGE_TWICE = _k("stage_twice", "R18",
                 "{count} {stage} evenings ({dates}); a tournament has one")
NO_SEMIFINAL_IN_FORMAT = _k("no_semifinal_in_format", "R18",
                            "format {format} has no semifinal")
FINAL_WITHOUT_SEMIFINAL = _k("final_without_semifinal", "R18",
                             "a final without a semifinal evening")
QUALIFYING_AFTER = _k("qualifying_after", "R18",
                      "a qualifying evening on or after the {later} ({date})")
FINAL_BEFORE_SEMIFINAL = _k("final_before_semifinal", "R18",
                            "the final is not after the semifinal ({date})")
define_words("later", ("semifinal", "final"))


def unknown_player(name: str, known: Iterable[str], **where: Any) -> Fault:
    """The fault ``unknown player 'Alab' (did you mean Alba?)``, with ``where`` (evening,
    table, field) as subjects."""
    known = list(known)
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.6)
    if not close:
        close = [k for k in known if name_key(k) == name_key(name)]
    if close:
        return UNKNOWN_PLAYER_CLOSE({**where, "player": name}, close=close)
    return UNKNOWN_PLAYER({**where, "player": name})


def _penalty_faults(p: Penalty, where: Mapping[str, Any], unit: Literal["table", "ranking"]
                    ) -> list[Fault]:
    out: list[Fault] = []
    at = {**where, "player": p.player}
    if p.points >= 0:
        out.append(PENALTY_NOT_NEGATIVE(at, points=p.points, unit=unit))
    a = p.appeal
    if a is not None and a.outcome == "reduced":
        if a.points is None:
            out.append(APPEAL_NO_POINTS(at))
        elif not p.points < a.points <= 0:
            out.append(APPEAL_RANGE(at, points=p.points, reduced=a.points))
    if a is not None and a.outcome != "reduced" and a.points is not None:
        out.append(APPEAL_POINTS(at, outcome=a.outcome))
    return out


def _evening_faults(t: Tournament, e: Evening, known: set[str]) -> list[Fault]:
    rs = t.ruleset
    faults: list[Fault] = []
    ev = e.subjects

    def check_name(name: str, **where: Any) -> bool:
        if name not in known:
            faults.append(unknown_player(name, known, **ev, **where))
            return False
        return True

    for a in e.arrivals:
        check_name(a.player, field="arrivals")
    arrived = [a.player for a in e.arrivals]
    for p in sorted({p for p in arrived if arrived.count(p) > 1}):
        faults.append(ARRIVALS_TWICE({**ev, "field": "arrivals", "player": p},
                                     count=arrived.count(p)))
    for p in sorted(e.absent):
        check_name(p, field="absent")
        if p in arrived:
            faults.append(ABSENT_ARRIVED({**ev, "player": p}))
    expelled = expelled_before(t, e)
    tables_of: dict[str, list[int]] = {}
    for number, table in enumerate(e.tables, start=1):
        where = {**ev, "table": number}
        if not MIN_TABLE <= len(table.seats) <= MAX_TABLE:
            faults.append(TABLE_SIZE(where, count=len(table.seats), min=MIN_TABLE,
                                     max=MAX_TABLE))
        seats = set(table.seats)
        for p in table.seats:
            if check_name(p, table=number):
                tables_of.setdefault(p, []).append(number)
        for p in sorted(seats):
            at = {**where, "player": p}
            if table.seats.count(p) > 1:
                faults.append(SEATED_TIMES(at, count=table.seats.count(p)))
            if p in e.absent:
                faults.append(SEATED_ABSENT(at))
            if p in expelled:
                level, day = expelled[p]
                faults.append(SEATED_EXPELLED(at, level=level, date=day))
            arrival = e.arrival_of(p)
            if arrival is not None:
                ruling = classify(e.schedule, arrival)
                if not ruling.admitted:
                    faults.append(SEATED_EXCLUDED(at, reason=ruling.note.to_dict()))
        if table.sheet is not None and table.scores is not None:
            faults.append(SHEET_AND_SCORES(where))
        if table.scores is not None:
            scored = [p for p, _ in table.scores]
            for p in sorted(set(scored) - seats):
                faults.append(SCORE_NOT_SEATED({**where, "player": p}))
            for p in table.seats:
                if p not in scored:
                    faults.append(NO_SCORE({**where, "player": p}))
            lowest = 0 if rs.scores_floor_at_zero else -rs.army_limit_penalty
            for p, s in table.scores:
                at = {**where, "player": p}
                if s > rs.objective_score:
                    faults.append(SCORE_ABOVE(at, score=s, limit=rs.objective_score))
                if s < lowest:
                    faults.append(SCORE_BELOW(at, score=s, limit=lowest))
                if p in table.abandoned and s != 0:
                    faults.append(ABANDONED_SCORES(at, score=s))
        if table.sheet is not None:
            sheet_players = [s.player for s in table.sheet.seats]
            for p in sheet_players:
                if p not in seats:
                    faults.append(SHEET_NOT_SEATED({**where, "player": p}))
            for p in table.seats:
                if p not in sheet_players:
                    faults.append(SHEET_NO_SEAT({**where, "player": p}))
            if table.risiko:
                faults.append(RISIKO_WITH_SHEET(where))
            if table.sheet.ruleset.split("@")[0] != t.ruleset_name:
                faults.append(SHEET_RULESET(where, sheet_ruleset=table.sheet.ruleset,
                                            ruleset=t.ruleset_name))
        if len(table.risiko) > 1:
            faults.append(TWO_RISIKO(where, players=sorted(table.risiko)))
        for p in sorted(table.risiko - seats):
            faults.append(RISIKO_NOT_SEATED({**where, "player": p}))
        for p in sorted(table.abandoned - seats):
            faults.append(ABANDONED_NOT_SEATED({**where, "player": p}))
        if (table.risiko or table.abandoned) and not table.played:
            faults.append(FLAGS_WITHOUT_RESULT(where))
        faults += _winner_faults(t, table, where)
        for pen in table.penalties:
            if pen.player not in seats and check_name(pen.player, table=number):
                faults.append(TABLE_PENALTY_NOT_SEATED({**where, "player": pen.player}))
            faults += _penalty_faults(pen, where, "table")
    for p, numbers in sorted(tables_of.items()):
        if len(numbers) > 1:
            faults.append(SEATED_TWICE({**ev, "player": p}, tables=numbers))
    for pen in e.penalties:
        if check_name(pen.player, field="penalties"):
            faults += _penalty_faults(pen, {**ev, "field": "penalties"}, "ranking")
    for d in e.discipline:
        if not check_name(d.player, field="discipline"):
            continue
        at = {**ev, "field": "discipline", "player": d.player}
        if d.table is not None:
            if not 1 <= d.table <= len(e.tables):
                faults.append(NO_SUCH_TABLE(at, number=d.table))
            elif d.player not in e.tables[d.table - 1].seats:
                faults.append(NOT_AT_TABLE(at, number=d.table))
        elif d.level == "table":
            faults.append(EXPULSION_NEEDS_TABLE(at))
    return faults


def _winner_faults(t: Tournament, table: Table, where: Mapping[str, Any]) -> list[Fault]:
    """Faults of a table's named winners and order of elimination (:mod:`.ranking`)."""
    formula = t.format.ranking_points
    needs_order = formula.spec.needs_elimination_order and table.sheet is not None
    if not table.winners and not table.eliminated and not needs_order:
        return []
    try:
        seats = table.results(t.ruleset) if table.played else ()
    except ValueError:  # a sheet that cannot be scored is reported on its own
        return []
    if not table.played:
        seats = tuple(SeatResult(p, 0, 0, 0, False, p in table.abandoned)
                      for p in table.seats)
    out = winner_faults(seats, table.winners, table.eliminated, table.played, where)
    if needs_order and table.sheet is not None:
        for seat in table.sheet.seats:
            if seat.is_eliminated and seat.player not in table.eliminated:
                out.append(ELIMINATION_ORDER_MISSING({**where, "player": seat.player},
                                                     formula=formula.formula))
    return out


def tournament_faults(t: Tournament, *, only: _dt.date | None = None) -> list[Fault]:
    """Every fault of ``t`` that needs no ranking ([] when clean), in a fixed order:
    the ruleset and format, players, carry-over, draws, evenings, then each evening by date
    (``only``: of the evenings, only the one on that date - a write checking the evening it
    changed; the faults of the tournament as a whole all the same).

    Faults that depend on the ranking (stage tables not matching the qualified players,
    cuts waiting for a draw of lots) come from :func:`risiko.tournament.finals.compute_stages`.
    """
    faults: list[Fault] = []
    try:
        t.ruleset  # noqa: B018 - loads and checks the name and version
    except RisikoError as err:
        return [f.at(field="ruleset") for f in err.faults]
    faults += t.format.problems()
    names = [p.name for p in t.players]
    listed = Counter(names)  # not names.count(n) per name: 20,000 players are 4e8 steps
    for p in sorted(n for n, times in listed.items() if times > 1):
        faults.append(LISTED_TIMES({"field": "players", "player": p}, count=listed[p]))
    known = set(names)
    for c in t.carry_over:
        if c.player not in known:
            faults.append(unknown_player(c.player, known, field="carry_over"))
    for i, d in enumerate(t.draws, start=1):
        where = {"field": "draws", "draw": i, "stage": d.stage}
        if d.stage not in ("semifinal", "final"):
            faults.append(DRAW_STAGE(where))
        for p in d.order:
            if p not in known:
                faults.append(unknown_player(p, known, **where))
        for p in sorted({p for p in d.order if d.order.count(p) > 1}):
            faults.append(DRAWN_TIMES({**where, "player": p}, count=d.order.count(p)))
        if len(d.order) < 2:
            faults.append(DRAW_SHORT(where))
    dates = Counter(e.date for e in t.evenings)
    for day in sorted(d for d, times in dates.items() if times > 1):
        faults.append(EVENINGS_ON_DATE({"field": "evenings"}, count=dates[day],
                                       date=day.isoformat()))
    by_stage = {s: t.stage_evenings(s) for s in STAGES}
    for stage in ("semifinal", "final"):
        if len(by_stage[stage]) > 1:
            faults.append(STAGE_TWICE({"field": "evenings"}, count=len(by_stage[stage]),
                                      stage=stage, dates=[e.date.isoformat()
                                                          for e in by_stage[stage]]))
    semi = by_stage["semifinal"][0] if by_stage["semifinal"] else None
    final = by_stage["final"][0] if by_stage["final"] else None
    if semi is not None and not t.format.semifinal_tables:
        faults.append(NO_SEMIFINAL_IN_FORMAT(semi.subjects, format=t.format.name))
    if final is not None and semi is None and t.format.semifinal_tables:
        faults.append(FINAL_WITHOUT_SEMIFINAL(final.subjects))
    for e in by_stage["qualifying"]:
        for later in (semi, final):
            if later is not None and e.date >= later.date:
                faults.append(QUALIFYING_AFTER(e.subjects, later=later.stage,
                                               date=later.date.isoformat()))
    if semi is not None and final is not None and final.date <= semi.date:
        faults.append(FINAL_BEFORE_SEMIFINAL(final.subjects, date=semi.date.isoformat()))
    for e in sorted(t.evenings, key=lambda e: e.date):
        if only is None or e.date == only:
            faults += _evening_faults(t, e, known)
    return faults
