"""Every check on a tournament's facts that needs no ranking: one line per fault.

Each fault names the evening (``evening 2027-03-02 (qualifying)``), the table when there is
one, and the player. The checks (clause in brackets):

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
- discipline: an expulsion from a table the player does not sit at;
- carry-over and draws: unknown players, a player twice in one draw.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Literal

from .model import STAGES, Evening, Penalty, Tournament
from .schedule import classify
from .seating import MAX_TABLE, MIN_TABLE, expelled_before

__all__ = ["tournament_faults", "unknown_player"]


def unknown_player(name: str, known: Iterable[str]) -> str:
    """``unknown player 'Alab' (did you mean Alba?)``."""
    close = difflib.get_close_matches(name, list(known), n=3, cutoff=0.6)
    if not close:
        close = [k for k in known if k.casefold() == name.casefold()]
    hint = f" (did you mean {' or '.join(close)}?)" if close else " (not in 'players')"
    return f"unknown player {name!r}{hint}"


def _penalty_faults(p: Penalty, where: str, unit: Literal["table", "ranking"]) -> list[str]:
    out: list[str] = []
    if p.points >= 0:
        out.append(f"{where}: penalty for {p.player} of {p.points} {unit} points: a penalty "
                   "is a negative number of points (e.g. -7)")
    a = p.appeal
    if a is not None and a.outcome == "reduced":
        if a.points is None:
            out.append(f"{where}: appeal of {p.player} 'reduced' needs the points it reduces "
                       "the penalty to")
        elif not p.points < a.points <= 0:
            out.append(f"{where}: appeal of {p.player} reduces {p.points} to {a.points}: a "
                       f"reduction lies between {p.points} (excluded) and 0")
    if a is not None and a.outcome != "reduced" and a.points is not None:
        out.append(f"{where}: appeal of {p.player} is {a.outcome!r}: only a 'reduced' appeal "
                   "gives points")
    return out


def _evening_faults(t: Tournament, e: Evening, known: set[str]) -> list[str]:
    rs = t.ruleset
    faults: list[str] = []
    ev = f"evening {e.label}"

    def check_name(name: str, where: str) -> bool:
        if name not in known:
            faults.append(f"{where}: {unknown_player(name, known)}")
            return False
        return True

    for a in e.arrivals:
        check_name(a.player, f"{ev}, arrivals")
    arrived = [a.player for a in e.arrivals]
    for p in sorted({p for p in arrived if arrived.count(p) > 1}):
        faults.append(f"{ev}, arrivals: {p} has {arrived.count(p)} arrivals")
    for p in sorted(e.absent):
        check_name(p, f"{ev}, absent")
        if p in arrived:
            faults.append(f"{ev}: {p} is listed absent but has an arrival")
    expelled = expelled_before(t, e)
    tables_of: dict[str, list[int]] = {}
    for number, table in enumerate(e.tables, start=1):
        where = f"{ev}, table {number}"
        if not MIN_TABLE <= len(table.seats) <= MAX_TABLE:
            faults.append(f"{where}: {len(table.seats)} seats (a table has {MIN_TABLE} to "
                          f"{MAX_TABLE})")
        seats = set(table.seats)
        for p in table.seats:
            if check_name(p, where):
                tables_of.setdefault(p, []).append(number)
        for p in sorted(seats):
            if table.seats.count(p) > 1:
                faults.append(f"{where}: {p} is seated {table.seats.count(p)} times at this "
                              "table")
            if p in e.absent:
                faults.append(f"{where}: {p} is seated but listed absent")
            if p in expelled:
                faults.append(f"{where}: {p} is seated but was {expelled[p]} (R10)")
            arrival = e.arrival_of(p)
            if arrival is not None:
                ruling = classify(e.schedule, arrival)
                if not ruling.admitted:
                    faults.append(f"{where}: {p} is seated but {ruling.reason}")
        if table.sheet is not None and table.scores is not None:
            faults.append(f"{where}: both a sheet and scores; give one result")
        if table.scores is not None:
            scored = [p for p, _ in table.scores]
            for p in sorted(set(scored) - seats):
                faults.append(f"{where}: a score for {p}, who is not seated at this table")
            for p in table.seats:
                if p not in scored:
                    faults.append(f"{where}: no score for {p}")
            lowest = 0 if rs.scores_floor_at_zero else -rs.army_limit_penalty
            for p, s in table.scores:
                if s > rs.objective_score:
                    faults.append(f"{where}: {p} scores {s}, above the maximum table score "
                                  f"of {rs.objective_score} (R1)")
                if s < lowest:
                    faults.append(f"{where}: {p} scores {s}, below the lowest possible table "
                                  f"score of {lowest} (R5; referee penalties are entered as "
                                  "penalties)")
                if p in table.abandoned and s != 0:
                    faults.append(f"{where}: {p} left the game (R13) but scores {s}: a seat "
                                  "that leaves scores 0")
        if table.sheet is not None:
            sheet_players = [s.player for s in table.sheet.seats]
            for p in sheet_players:
                if p not in seats:
                    faults.append(f"{where}: the sheet lists {p}, who is not seated at this "
                                  "table")
            for p in table.seats:
                if p not in sheet_players:
                    faults.append(f"{where}: the sheet has no seat for {p}")
            if table.risiko:
                faults.append(f"{where}: 'risiko' is given with a sheet; the sheet decides "
                              "RisiKo! from the board")
            if table.sheet.ruleset.split("@")[0] != t.ruleset_name:
                faults.append(f"{where}: the sheet is scored under {table.sheet.ruleset!r}, "
                              f"the tournament under {t.ruleset_name!r}")
        if len(table.risiko) > 1:
            faults.append(f"{where}: {' and '.join(sorted(table.risiko))} both completed "
                          "the objective, but the game ends at the first RisiKo! (R1)")
        for p in sorted(table.risiko - seats):
            faults.append(f"{where}: risiko names {p}, who is not seated at this table")
        for p in sorted(table.abandoned - seats):
            faults.append(f"{where}: abandoned names {p}, who is not seated at this table")
        if (table.risiko or table.abandoned) and not table.played:
            faults.append(f"{where}: risiko or abandoned given without a result")
        for pen in table.penalties:
            if pen.player not in seats and check_name(pen.player, where):
                faults.append(f"{where}: table penalty for {pen.player}, who is not "
                              "seated at this table (a ranking penalty goes on the "
                              "evening)")
            faults += _penalty_faults(pen, where, "table")
    for p, numbers in sorted(tables_of.items()):
        if len(numbers) > 1:
            faults.append(f"{ev}: {p} is seated twice (tables "
                          f"{' and '.join(str(n) for n in numbers)})")
    for pen in e.penalties:
        if check_name(pen.player, f"{ev}, penalties"):
            faults += _penalty_faults(pen, f"{ev}, penalties", "ranking")
    for d in e.discipline:
        if not check_name(d.player, f"{ev}, discipline"):
            continue
        if d.table is not None:
            if not 1 <= d.table <= len(e.tables):
                faults.append(f"{ev}, discipline: {d.player}: there is no table {d.table}")
            elif d.player not in e.tables[d.table - 1].seats:
                faults.append(f"{ev}, discipline: {d.player} is not seated at table "
                              f"{d.table}")
        elif d.level == "table":
            faults.append(f"{ev}, discipline: expulsion of {d.player} from a table needs the "
                          "table number")
    return faults


def tournament_faults(t: Tournament) -> list[str]:
    """Every fault of ``t`` that needs no ranking, one line each ([] when clean).

    Faults that depend on the ranking (stage tables not matching the qualified players,
    cuts waiting for a draw of lots) come from :func:`risiko.tournament.finals.compute_stages`.
    """
    faults: list[str] = []
    try:
        t.ruleset  # noqa: B018 - loads and checks the name and version
    except ValueError as err:
        return [str(err)]
    faults += t.format.problems()
    names = [p.name for p in t.players]
    for p in sorted({n for n in names if names.count(n) > 1}):
        faults.append(f"players: {p} is listed {names.count(p)} times")
    known = set(names)
    for c in t.carry_over:
        if c.player not in known:
            faults.append(f"carry_over: {unknown_player(c.player, known)}")
    for i, d in enumerate(t.draws, start=1):
        where = f"draws, draw {i} ({d.stage})"
        if d.stage not in ("semifinal", "final"):
            faults.append(f"{where}: a draw of lots seats the semifinal or the final")
        for p in d.order:
            if p not in known:
                faults.append(f"{where}: {unknown_player(p, known)}")
        for p in sorted({p for p in d.order if d.order.count(p) > 1}):
            faults.append(f"{where}: {p} is drawn {d.order.count(p)} times")
        if len(d.order) < 2:
            faults.append(f"{where}: a draw orders at least 2 players")
    dates = [e.date for e in t.evenings]
    for day in sorted({d for d in dates if dates.count(d) > 1}):
        faults.append(f"evenings: {dates.count(day)} evenings on {day.isoformat()}")
    by_stage = {s: t.stage_evenings(s) for s in STAGES}
    for stage in ("semifinal", "final"):
        if len(by_stage[stage]) > 1:
            faults.append(f"evenings: {len(by_stage[stage])} {stage} evenings ("
                          f"{', '.join(e.date.isoformat() for e in by_stage[stage])}); a "
                          "tournament has one")
    semi = by_stage["semifinal"][0] if by_stage["semifinal"] else None
    final = by_stage["final"][0] if by_stage["final"] else None
    if semi is not None and not t.format.semifinal_tables:
        faults.append(f"evening {semi.label}: format {t.format.name} has no semifinal")
    if final is not None and semi is None and t.format.semifinal_tables:
        faults.append(f"evening {final.label}: a final without a semifinal evening")
    for e in by_stage["qualifying"]:
        for later in (semi, final):
            if later is not None and e.date >= later.date:
                faults.append(f"evening {e.label}: a qualifying evening on or after the "
                              f"{later.stage} ({later.date.isoformat()})")
    if semi is not None and final is not None and final.date <= semi.date:
        faults.append(f"evening {final.label}: the final is not after the semifinal "
                      f"({semi.date.isoformat()})")
    for e in sorted(t.evenings, key=lambda e: e.date):
        faults += _evening_faults(t, e, known)
    return faults
