"""Semifinal and final (R18), and the other Italian clubs' variants as format parameters.

Club-milano (R18 and the readings chosen in RULES.md):

- Semifinal: table 1 = ranked 1st, 2nd, 8th, 9th, 10th; table 2 = ranked 3rd to 7th (among
  the players eligible for the next stages).
- After the semifinal: the 10 semifinalists ordered by qualifying points + semifinal table
  score (+ ranking penalties of the semifinal evening, R13 included), ties to the better
  qualifying rank; then everyone else in qualifying order.
- Finalists: the first 5 of that order, in seat-choice order (the first chooses his seat
  first).
- Final (starts at 20:30): the highest final table score wins, ties to the better rank
  after the semifinal. Final standings: the winner, then everyone else in the order after
  the semifinal (if the 4th wins: 4th, 1st, 2nd, 3rd, 5th, 6th ...).
- A shared position (1, 1, 3) that straddles a cut - between semifinal tables, between the
  semifinal and the rest, between two seat-choice ranks of the final or between the
  finalists and the rest - needs a recorded draw of lots (:class:`Draw`, ``stage`` = the
  stage it seats); until it is made the next stage is not seated (:class:`CutError`).

Variants (:class:`TournamentFormat`): ``direct_to_final`` (the 1st or first 2 straight to
the final, ahead of everyone in the order after the semifinal), ``ripescati`` (the best
single table score among those not qualified fills the last semifinal seats, ties to the
better qualifying rank; with ``ripescati_min_evenings`` only players who played that many
qualifying evenings), ``finalists_rule="table_winners"`` (each semifinal table's winner,
highest semifinal table score with ties to the better rank after the semifinal, then the
best others), any ``semifinal_tables`` layout, no semifinal at all (the final seats the
first of the qualifying ranking). With ``table_winners`` the final standings are the
winner, the other finalists, then everyone else, each part in the order after the
semifinal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..faults import (
    Fault,
    FaultKind,
    IllegalActionError,
    Severity,
    define,
    define_words,
    faults_json,
)
from .checks import NO_SEMIFINAL_IN_FORMAT
from .model import Evening, Stage, Tournament
from .ranking import Number, number, rank_table
from .schedule import classify
from .seating import expelled_before
from .standings import (
    Standings,
    apply_draws,
    compute_standings,
    draws_for,
    flatten,
    straddling_groups,
    tied_groups,
)

__all__ = [
    "CutError",
    "FinalResult",
    "SemifinalSeating",
    "Stages",
    "absent_players",
    "after_semifinal",
    "choose_finalists",
    "compute_stages",
    "final_result",
    "ordinal",
    "seat_semifinal",
]


class CutError(IllegalActionError):
    """The next stage cannot be seated: ``faults`` says why (a shared position straddling
    a cut without a draw of lots, too few eligible players)."""


def _k(code: str, clause: str, template: str) -> FaultKind:
    return define(f"stage.{code}", clause, template, located=True)


TOO_FEW_ELIGIBLE = _k("too_few_eligible", "R18",
                      "{count} eligible players are ranked; the semifinal needs {need}")
TOO_FEW_RIPESCABLE = _k("too_few_ripescable", "R18",
                        "{count} players can be picked for the ripescato (at least "
                        "{evenings} qualifying evenings played); the semifinal needs {need}")
TOO_FEW_RANKED = _k("too_few_ranked", "R18",
                    "{count} players are ranked; the final needs {need}")
SHARED_QUALIFYING = _k("shared_place_qualifying", "R18", "{players:and} share the "
                       "{place:ordinal} place of the qualifying ranking, across a cut of the "
                       "{cut}: record a draw of lots (draws: stage {cut!r}, order of these "
                       "players)")
SHARED_RIPESCATO = _k("shared_place_ripescato", "R18", "{players:and} share the "
                      "{place:ordinal} place for the ripescato (best single game), across a "
                      "cut of the {cut}: record a draw of lots (draws: stage {cut!r}, order "
                      "of these players)")
SHARED_AFTER = _k("shared_place_after_semifinal", "R18", "{players:and} share the "
                  "{place:ordinal} place after the semifinal, across a cut of the {cut}: "
                  "record a draw of lots (draws: stage {cut!r}, order of these players)")
WINNERS_TIE = _k("table_winners_tie", "R18", "{players:and} tie for the win of semifinal "
                 "table {number} with {score} and share a rank after the semifinal: record a "
                 "draw of lots (draws: stage 'final')")
CANNOT_SEAT = _k("cannot_seat", "R18", "cannot seat the {stage}: {reason}")
NO_RESULT = _k("no_result", "", "no result yet")
WAITING_SEMIFINAL = _k("waiting_semifinal", "R18", "after the semifinal: waiting for the "
                       "result of semifinal table {tables:and}")
NO_SEMIFINAL_EVENING = _k("no_semifinal_evening", "R18",
                          "after the semifinal: no semifinal evening yet")
WAITING_FINAL = _k("waiting_final", "R18",
                   "final standings: waiting for the result of the final")
NO_FINAL_EVENING = _k("no_final_evening", "R18", "final standings: no final evening yet")
NOT_QUALIFIED = _k("not_qualified", "R18",
                   "{player} is seated but is not qualified for the {stage} ({info})")
NOT_SEATED_TABLE = _k("qualified_not_seated", "R18", "{player} ({info}) qualified for "
                      "{stage} table {number} but is not seated (list him in 'absent' if he "
                      "did not come)")
NOT_SEATED_FINAL = _k("finalist_not_seated", "R18", "{player} ({info}) qualified for the "
                      "final but is not seated (list him in 'absent' if he did not come)")
TABLE_COUNT = _k("table_count", "R18", "{count} tables, the {stage} has {expected}")
WRONG_TABLE = _k("wrong_table", "R18", "{player} ({info}) belongs at {stage} table {number}, "
                 "with {mates:and}")
FINALISTS_UNKNOWN = _k("finalists_unknown", "R18", "the final is recorded but the finalists "
                       "are not known yet (the semifinal has no result)")
RANKED = define("stage.ranked", "R18", "ranked {place:ordinal}")
PLACE_AFTER = define("stage.place_after_semifinal", "R18",
                     "{place:ordinal} after the semifinal")
NOT_RANKED = define("stage.not_ranked", "R18", "not ranked")
define_words("cut", ("semifinal", "final"))


def _nested(f: Fault) -> dict[str, Any]:
    """A fault as a param of another (said in the same language)."""
    subjects = {k: v for k, v in f.subjects.items() if k != "stage"}  # said by the outer
    return {"code": f.code, "subjects": subjects, "params": dict(f.params)}


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ``11th``, ``21st`` ..."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _join(names: Sequence[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _tie_faults(groups: Sequence[Sequence[str]], slot_of: Callable[[int], object],
                kind: FaultKind, stage: Stage) -> list[Fault]:
    return [kind({"stage": stage}, players=list(players), place=pos, cut=stage)
            for pos, players in straddling_groups(groups, slot_of)]


@dataclass(frozen=True)
class SemifinalSeating:
    """Who goes where after the qualifying evenings: ``direct`` (straight to the final, in
    order), ``entrants`` (semifinal entrants 1..E), ``tables`` (players of each semifinal
    table, in the layout's order), ``ripescati`` (entrants picked by best single game),
    ``qualifying`` (the qualifying ranking as tied groups, draws applied) and ``rank_of``
    (each eligible player's qualifying position among eligible players, 1-based)."""

    direct: tuple[str, ...]
    entrants: tuple[str, ...]
    tables: tuple[tuple[str, ...], ...]
    ripescati: tuple[str, ...]
    qualifying: tuple[tuple[str, ...], ...]
    rank_of: dict[str, int] = field(default_factory=dict)


def _eligible_groups(standings: Standings, tournament: Tournament, stage: Stage
                     ) -> list[list[str]]:
    return apply_draws(standings.groups(eligible_only=True), draws_for(tournament, stage))


def _positions(groups: Sequence[Sequence[str]]) -> dict[str, int]:
    """Shared positions (1, 1, 3) of tied groups."""
    out: dict[str, int] = {}
    pos = 1
    for g in groups:
        for p in g:
            out[p] = pos
        pos += len(g)
    return out


def seat_semifinal(tournament: Tournament, standings: Standings | None = None
                   ) -> SemifinalSeating:
    """The semifinal tables (and the players straight to the final) from the qualifying
    ranking, R18 by default.

    Raises :class:`CutError` when fewer eligible players are ranked than the semifinal
    needs, or when a shared position straddles a cut without a recorded draw (stage
    ``semifinal``), and ValueError if the format has no semifinal.
    """
    fmt = tournament.format
    if not fmt.semifinal_tables:
        raise IllegalActionError(NO_SEMIFINAL_IN_FORMAT(format=fmt.name))
    table_rows = standings or compute_standings(tournament)
    groups = _eligible_groups(table_rows, tournament, "semifinal")
    seeded = flatten(groups)
    d, q, r = fmt.direct_to_final, fmt.qualified_by_rank, fmt.ripescati
    need = d + q + r
    if len(seeded) < need:
        raise CutError(TOO_FEW_ELIGIBLE({"stage": "semifinal"}, count=len(seeded), need=need))
    table_of_entrant = {n: i for i, t in enumerate(fmt.semifinal_tables) for n in t}

    def slot(pos: int) -> object:
        if pos <= d:
            return ("direct", pos)
        if pos <= d + q:
            return ("table", table_of_entrant[pos - d])
        return "out"

    faults = _tie_faults(groups, slot, SHARED_QUALIFYING, "semifinal")
    group_index = {p: i for i, g in enumerate(groups) for p in g}
    chosen = seeded[d:d + q]
    ripescati: list[str] = []
    if r:
        played = {row.player: row.games for row in table_rows.rows}
        others = [p for p in seeded[d + q:]
                  if played.get(p, 0) >= fmt.ripescati_min_evenings]
        if len(others) < r:
            raise CutError(TOO_FEW_RIPESCABLE({"stage": "semifinal"}, count=len(others),
                                              evenings=fmt.ripescati_min_evenings, need=r))
        best = {p: table_rows.row(p).best for p in others}
        key = {p: (-(b if (b := best[p]) is not None else -10**9), group_index[p])
               for p in others}
        order = sorted(others, key=lambda p: (key[p], p.casefold()))
        rgroups = apply_draws(tied_groups(order, key.__getitem__),
                              draws_for(tournament, "semifinal"))

        def rslot(pos: int) -> object:
            return ("table", table_of_entrant[q + pos]) if pos <= r else "out"

        faults += _tie_faults(rgroups, rslot, SHARED_RIPESCATO, "semifinal")
        ripescati = flatten(rgroups)[:r]
    if faults:
        raise CutError(faults)
    entrants = tuple(chosen + ripescati)
    tables = tuple(tuple(entrants[n - 1] for n in t) for t in fmt.semifinal_tables)
    rank_of = {p: i for i, p in enumerate(seeded, start=1)}
    return SemifinalSeating(tuple(seeded[:d]), entrants, tables, tuple(ripescati),
                            tuple(tuple(g) for g in groups), rank_of)


def _stage_scores(tournament: Tournament, evening: Evening) -> tuple[dict[str, int],
                                                                       dict[str, int]]:
    """(table score, ranking points) of each player at a stage evening: the table score of
    his seat, and the evening's ranking penalties plus the R13 abandonment penalty."""
    rs = tournament.ruleset
    table: dict[str, int] = {}
    ranking: dict[str, int] = {}
    for t in evening.tables:
        for seat in t.results(rs):
            table[seat.player] = seat.score
            if seat.abandoned:
                ranking[seat.player] = ranking.get(seat.player, 0) - rs.abandon_ranking_penalty
    for p in evening.penalties:
        ranking[p.player] = ranking.get(p.player, 0) + p.effective
    return table, ranking


def _stage_ranking_points(tournament: Tournament, evening: Evening) -> dict[str, Number]:
    """Each player's ranking points at a stage evening's table under the format's formula
    (the table score under Club Milano's ``table``)."""
    formula = tournament.format.ranking_points
    out: dict[str, Number] = {}
    for t in evening.tables:
        results = t.results(tournament.ruleset)
        if not results:
            continue
        ranked = rank_table(results, formula, t.winners, t.eliminated)
        for seat in results:
            out[seat.player] = (seat.score if formula.is_table
                                else number(ranked[seat.player].points))
    return out


def _named_winners(evening: Evening) -> set[str]:
    """The winners the stage evening's tables name (``winners``), if any."""
    return {p for t in evening.tables for p in t.winners}


def after_semifinal(tournament: Tournament, seating: SemifinalSeating, standings: Standings,
                    semifinal: Evening) -> list[list[str]]:
    """The order after the semifinal as tied groups: the players straight to the final,
    then the entrants by qualifying points + the semifinal table's ranking points (its
    table score under Club Milano) + semifinal ranking penalties (ties: the better
    qualifying rank; then draws of stage ``final``), then everyone else in qualifying
    order (ineligible players included)."""
    _, ranking = _stage_scores(tournament, semifinal)
    table = _stage_ranking_points(tournament, semifinal)
    group_index = {p: i for i, g in enumerate(seating.qualifying) for p in g}
    total = {p: standings.row(p).points + table.get(p, 0) + ranking.get(p, 0)
             for p in seating.entrants}
    key = {p: (-total[p], group_index[p]) for p in seating.entrants}
    order = sorted(seating.entrants, key=lambda p: (key[p], p.casefold()))
    entrant_groups = apply_draws(tied_groups(order, key.__getitem__),
                                 draws_for(tournament, "final"))
    taken = set(seating.direct) | set(seating.entrants)
    rest_groups = apply_draws(standings.groups(), draws_for(tournament, "semifinal"))
    rest = [[p for p in g if p not in taken] for g in rest_groups]
    return ([[p] for p in seating.direct] + entrant_groups + [g for g in rest if g])


def choose_finalists(tournament: Tournament, after: Sequence[Sequence[str]],
                     seating: SemifinalSeating | None, semifinal: Evening | None
                     ) -> list[str]:
    """The finalists in seat-choice order (R18: the first of the order after the semifinal
    chooses first).

    ``top``: the first ``finalists`` of ``after``; ``table_winners``: the players straight
    to the final, each semifinal table's winner, then the best others, all in ``after``
    order. Raises :class:`CutError` when a shared position decides who plays or who
    chooses first and no draw (stage ``final``) settles it.
    """
    fmt = tournament.format
    flat = flatten(after)
    position = {p: i for i, p in enumerate(flat, start=1)}
    if len(flat) < fmt.finalists:
        raise CutError(TOO_FEW_RANKED({"stage": "final"}, count=len(flat),
                                      need=fmt.finalists))
    faults: list[Fault] = []
    if fmt.finalists_rule == "top" or seating is None or semifinal is None:
        chosen = set(flat[:fmt.finalists])
    else:
        table, _ = _stage_scores(tournament, semifinal)
        named = _named_winners(semifinal)
        chosen = set(seating.direct)
        group_of = {p: i for i, g in enumerate(after) for p in g}
        for number, players in enumerate(seating.tables, start=1):
            scored = [p for p in players if p in table]
            if not scored:
                continue
            said = [p for p in scored if p in named]
            if len(said) == 1:  # the table names its winner
                chosen.add(said[0])
                continue
            top = max(table[p] for p in scored)
            best = [p for p in scored if table[p] == top]
            first = min(best, key=lambda p: position[p])
            tied = [p for p in best if group_of[p] == group_of[first]]
            if len(tied) > 1:
                faults.append(WINNERS_TIE({"stage": "final"}, players=tied, number=number,
                                          score=top))
            chosen.add(first)
        for p in flat:
            if len(chosen) >= fmt.finalists:
                break
            chosen.add(p)
    finalists = [p for p in flat if p in chosen]
    choice = {p: i for i, p in enumerate(finalists, start=1)}

    def slot(pos: int) -> object:
        return choice.get(flat[pos - 1], "out")

    faults += _tie_faults(after, slot, SHARED_AFTER, "final")
    if faults:
        raise CutError(faults)
    return finalists


@dataclass(frozen=True)
class FinalResult:
    """The final: ``winner`` and ``standings`` (players in final order), ``scores`` the
    final table scores."""

    winner: str
    standings: tuple[str, ...]
    scores: dict[str, int]


def final_result(tournament: Tournament, finalists: Sequence[str],
                 after: Sequence[Sequence[str]], final: Evening) -> FinalResult | None:
    """The winner (the one the final table names in ``winners``, else the highest final
    table score, ties to the better rank after the semifinal, i.e. the earlier finalist)
    and the final standings (the winner, the other finalists,
    then everyone else, in the order after the semifinal); None until the final table has
    a result."""
    if not final.tables or not all(t.played for t in final.tables):
        return None
    table, _ = _stage_scores(tournament, final)
    played = [p for p in finalists if p in table]
    if not played:
        return None
    top = max(table[p] for p in played)
    said = [p for p in played if p in _named_winners(final)]
    winner = said[0] if len(said) == 1 else next(p for p in played if table[p] == top)
    rest = [p for p in finalists if p != winner]
    others = [p for p in flatten(after) if p not in finalists]
    return FinalResult(winner, (winner, *rest, *others), table)


def absent_players(tournament: Tournament, evening: Evening) -> dict[str, str]:
    """Players who cannot sit this evening, with the reason: listed ``absent``, an arrival
    excluded by R3, expelled earlier (R10)."""
    out: dict[str, str] = {p: "absent" for p in evening.absent}
    for a in evening.arrivals:
        ruling = classify(evening.schedule, a)
        if not ruling.admitted:
            out.setdefault(a.player, "excluded (R3)")
    for p, (level, day) in expelled_before(tournament, evening).items():
        out.setdefault(p, f"expelled from the {level} on {day}")
    return out


def _table_faults(tournament: Tournament, evening: Evening,
                  expected: Sequence[Sequence[str]], info: dict[str, Fault]) -> list[Fault]:
    """Faults of a semifinal or final evening whose tables do not match ``expected``."""
    ev = evening.subjects
    faults: list[Fault] = []
    where = {p: i for i, t in enumerate(expected) for p in t}
    seated = {p: j for j, t in enumerate(evening.tables) for p in t.seats}
    away = absent_players(tournament, evening)

    def about(p: str) -> dict[str, Any]:
        return _nested(info.get(p, NOT_RANKED()))

    for j, t in enumerate(evening.tables, start=1):
        for p in t.seats:
            if p not in where:
                faults.append(NOT_QUALIFIED({**ev, "table": j, "player": p}, info=about(p)))
    for p, i in where.items():
        if p not in seated and p not in away:
            if len(expected) > 1:
                faults.append(NOT_SEATED_TABLE({**ev, "player": p}, info=about(p),
                                               number=i + 1))
            else:
                faults.append(NOT_SEATED_FINAL({**ev, "player": p}, info=about(p)))
    if len(evening.tables) != len(expected):
        faults.append(TABLE_COUNT(ev, count=len(evening.tables), expected=len(expected)))
        return faults
    for j, t in enumerate(evening.tables, start=1):
        mine = [where[p] for p in t.seats if p in where]
        if not mine:
            continue
        majority = Counter(mine).most_common(1)[0][0]
        for p in t.seats:
            if p in where and where[p] != majority:
                mates = [q for q in expected[where[p]] if q != p]
                faults.append(WRONG_TABLE({**ev, "table": j, "player": p}, info=about(p),
                                          number=where[p] + 1, mates=mates))
    return faults


@dataclass(frozen=True)
class Stages:
    """Everything after the qualifying ranking, as far as the facts go.

    ``semifinal_tables`` (once enough eligible players are ranked and no tie straddles a
    cut), ``direct`` (straight to the final), ``after_semifinal`` (players in order, once
    every semifinal table has a result), ``finalists`` (seat-choice order),
    ``final_winner`` and ``final_standings`` (once the final has a result); ``pending``
    says why a later stage is not available yet (values with a code, ``warning`` severity:
    a page says them in its language); ``faults`` are stage evenings of the tournament that
    contradict the regulation (tables not matching the qualified players, a stage seated
    while a cut waits for a draw of lots).
    """

    standings: Standings
    semifinal_tables: tuple[tuple[str, ...], ...] | None = None
    direct: tuple[str, ...] = ()
    after_semifinal: tuple[str, ...] | None = None
    finalists: tuple[str, ...] | None = None
    final_winner: str | None = None
    final_standings: tuple[str, ...] | None = None
    pending: tuple[Fault, ...] = ()
    faults: tuple[Fault, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON form: the contract of ``risiko season --json`` (lists of players;
        ``pending`` English lines, with their values in the sibling list ``faults``)."""
        def lst(x: tuple[str, ...] | None) -> list[str] | None:
            return None if x is None else list(x)

        return {
            "standings": self.standings.to_list(),
            "semifinal_tables": (None if self.semifinal_tables is None
                                 else [list(t) for t in self.semifinal_tables]),
            "direct_to_final": list(self.direct),
            "after_semifinal": lst(self.after_semifinal),
            "finalists": lst(self.finalists),
            "final_winner": self.final_winner,
            "final_standings": lst(self.final_standings),
            "pending": [f.message("en") for f in self.pending],
            "faults": faults_json(self.pending),
        }


def _warning(f: Fault) -> Fault:
    return replace(f, severity=Severity.WARNING)


def compute_stages(tournament: Tournament) -> Stages:
    """The qualifying ranking, semifinal tables, order after the semifinal, finalists and
    final standings of ``tournament``, as far as its facts go (see :class:`Stages`).

    Expects a tournament that passed :func:`risiko.tournament.checks.tournament_faults`
    (at most one semifinal and one final evening).
    """
    standings = compute_standings(tournament, draws=draws_for(tournament, "semifinal"))
    eligible = sum(1 for r in standings.rows if r.eligible)
    fmt = tournament.format.for_entrants(eligible)
    if fmt != tournament.format:  # by_entrants: only stage fields change, not the ranking
        tournament = replace(tournament, format=fmt)
    semis = tournament.stage_evenings("semifinal")
    finals = tournament.stage_evenings("final")
    semifinal = semis[0] if semis else None
    final = finals[0] if finals else None
    pending: list[Fault] = [
        NO_RESULT({**e.subjects, "table": n}, Severity.WARNING)
        for e in tournament.stage_evenings("qualifying")
        for n, t in enumerate(e.tables, start=1) if not t.played]
    faults: list[Fault] = []
    seating: SemifinalSeating | None = None
    after: list[list[str]] | None = None
    out: dict[str, Any] = {}
    if fmt.semifinal_tables:
        try:
            seating = seat_semifinal(tournament, standings)
        except CutError as e:
            if semifinal is not None:
                faults += [CANNOT_SEAT(semifinal.subjects, reason=_nested(f))
                           for f in e.faults]
            else:
                pending += [_warning(f) for f in e.faults]
        if seating is not None:
            out["semifinal_tables"] = seating.tables
            out["direct"] = seating.direct
            if semifinal is not None:
                info = {p: RANKED(place=n) for p, n in seating.rank_of.items()}
                faults += _table_faults(tournament, semifinal, seating.tables, info)
                unplayed = [i for i, t in enumerate(semifinal.tables, start=1) if not t.played]
                if unplayed or not semifinal.tables:
                    pending.append(WAITING_SEMIFINAL(severity=Severity.WARNING,
                                                     tables=unplayed or [1]))
                elif not faults:
                    after = after_semifinal(tournament, seating, standings, semifinal)
                    out["after_semifinal"] = tuple(flatten(after))
            else:
                pending.append(NO_SEMIFINAL_EVENING(severity=Severity.WARNING))
    else:
        after = apply_draws(standings.groups(eligible_only=True), draws_for(tournament, "final"))
    finalists: list[str] | None = None
    if after is not None:
        try:
            finalists = choose_finalists(tournament, after, seating, semifinal)
            out["finalists"] = tuple(finalists)
        except CutError as e:
            if final is not None:
                faults += [CANNOT_SEAT(final.subjects, reason=_nested(f)) for f in e.faults]
            else:
                pending += [_warning(f) for f in e.faults]
    if final is not None:
        if finalists is None:
            if after is None and not faults:
                faults.append(FINALISTS_UNKNOWN(final.subjects))
        else:
            position = {p: i for i, p in enumerate(flatten(after or []), start=1)}
            info = {p: PLACE_AFTER(place=position[p]) for p in position}
            if not fmt.semifinal_tables:
                info = {p: RANKED(place=position[p]) for p in position}
            table_faults = _table_faults(tournament, final, [finalists], info)
            faults += table_faults
            if not table_faults and after is not None:
                if not fmt.semifinal_tables:  # everyone else, ineligible players included
                    after = after + [[r.player] for r in standings.rows if not r.eligible]
                result = final_result(tournament, finalists, after, final)
                if result is None:
                    pending.append(WAITING_FINAL(severity=Severity.WARNING))
                else:
                    out["final_winner"] = result.winner
                    out["final_standings"] = result.standings
    elif finalists is not None:
        pending.append(NO_FINAL_EVENING(severity=Severity.WARNING))
    return Stages(
        standings=standings,
        semifinal_tables=out.get("semifinal_tables"),
        direct=out.get("direct", ()),
        after_semifinal=out.get("after_semifinal"),
        finalists=out.get("finalists"),
        final_winner=out.get("final_winner"),
        final_standings=out.get("final_standings"),
        pending=tuple(pending),
        faults=tuple(faults),
    )
