"""Writing and reading interclub events (the rules: :mod:`risiko.national.interclub`).

Every write is a :func:`~risiko.web.core.writes.write` (one transaction; a constraint the
database refuses becomes a :class:`~risiko.web.core.faults.ServiceError`) that first locks
the event's row (:func:`_lock`: ``SELECT ... FOR UPDATE``; SQLite's IMMEDIATE transactions
serialise writers), then checks, then writes and audits. Refusals are fault values (codes
``interclub.*``, words in ``risiko/locale/{it,en}/LC_MESSAGES/interclub.po``); nothing is
written by a refused call.

- :func:`create_event`, :func:`add_team` (a regional event takes only its region's clubs),
  :func:`add_member` (a roster has at most 12 players; a player is in one team per event:
  the constraint ``interclub_player_once`` behind the check);
- :func:`remove_member`: out of a roster, until he has been fielded;
- :func:`field_players`: a team's 4 players of a round (replaced until the round is seated);
- :func:`seat_round`: the tables of a round, 4 players of 4 clubs each, from the fielded
  players (:func:`risiko.national.interclub.seat_round`, fewest repeated meetings);
- :func:`record_table`: a table's result (table points, RisiKo!), its scores computed; a
  result changed later needs a reason, the old values go to the audit log;
- :func:`standings`: team (best ``counted_games``) and individual standings, of one region
  when asked (a regional championship across clubs).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from risiko.faults import define
from risiko.national import interclub as rules

from ..auditlog.services import audit
from ..core.faults import ServiceError
from ..core.limits import check_text
from ..core.writes import CONFLICTS, write
from .interclub_models import (
    InterclubEvent,
    InterclubFielded,
    InterclubMember,
    InterclubRound,
    InterclubSeat,
    InterclubTeam,
)
from .models import Club, NationalPlayer

__all__ = ["Standings", "add_member", "add_team", "create_event", "field_players",
           "record_table", "remove_member", "seat_round", "standings", "standings_json"]

NAME_MISSING = define("interclub.name_missing", "", "an interclub event needs a name")
BAD_NUMBER = define("interclub.bad_number", "",
                    "{field} must be a whole number from {low} to {high}, not {value}")
TEAM_REGION = define(
    "interclub.team_region", "",
    "{club} is in the region '{region}': the event '{event}' is the championship of "
    "'{event_region}'")
ROSTER_FULL = define("interclub.roster_full", "",
                     "{team} has {count} players already: a roster has at most {most}")
ROSTER_SHORT = define("interclub.roster_short", "",
                      "{team} has {count} players: a roster needs at least {least}")
IN_A_TEAM = define("interclub.in_a_team", "",
                   "{player} is in the team {team} already: a player plays for one team of "
                   "an event")
NOT_A_MEMBER = define("interclub.not_a_member", "",
                      "{player} is not in the roster of {team}")
MEMBER_FIELDED = define("interclub.member_fielded", "",
                        "{player} is fielded in round {round}: he stays in the roster of "
                        "{team}")
FIELDED_COUNT = define("interclub.fielded_count", "",
                       "{team} fields {count} players in round {round}: a team fields {fielded}")
NO_PLAYER = define("interclub.no_player", "", "no player with national id {national_id}")
BAD_ROUND = define("interclub.bad_round", "",
                   "round {round}: the event '{event}' has rounds 1 to {rounds}")
ROUND_SEATED = define("interclub.round_seated", "",
                      "round {round} is seated already: its players can no longer change")
ROUND_NOT_SEATED = define("interclub.round_not_seated", "", "round {round} is not seated yet")
NOTHING_FIELDED = define("interclub.nothing_fielded", "",
                         "round {round}: no team has fielded its players yet")
NO_TABLE = define("interclub.no_table", "", "round {round} has no table {table}")
NOT_AT_TABLE = define("interclub.not_at_table", "",
                      "table {table} of round {round} seats {seated}; the result names "
                      "{given}")
REASON_NEEDED = define("interclub.reason_needed", "",
                       "table {table} of round {round} has a result already: say why it "
                       "changes")
CONFLICT_MEMBER = define(
    "interclub.conflict_member", "",
    "another request put this player in a team of the event at the same moment "
    "({constraint}): reload the page")
CONFLICT_SEATING = define(
    "interclub.conflict_seating", "",
    "another request changed this round at the same moment ({constraint}): reload the page")
CONFLICT_TEAM = define(
    "interclub.conflict_team", "",
    "the club has a team in this event already ({constraint})")
CONFLICT_EVENT = define(
    "interclub.conflict_event", "",
    "an interclub event of this name and year exists already ({constraint})")

CONFLICTS.update({
    "interclub_player_once": CONFLICT_MEMBER,
    "interclub_fielded_once": CONFLICT_SEATING,
    "interclub_seat_once": CONFLICT_SEATING,
    "interclub_place_once": CONFLICT_SEATING,
    "interclub_round_once": CONFLICT_SEATING,
    "interclub_team_once": CONFLICT_TEAM,
    "interclub_event_once": CONFLICT_EVENT,
})


def _lock(event: InterclubEvent) -> InterclubEvent:
    """The event's row, locked: every write of the event waits here for the one before."""
    return InterclubEvent.objects.select_for_update().get(pk=event.pk)


def _number(field: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ServiceError(BAD_NUMBER(field=field, low=low, high=high, value=value))
    return value


@write
def create_event(name: str, year: int, *, region: str = "", rounds: int = 3,
                 counted_games: int = rules.COUNTED_GAMES, who: str,
                 club: Club | None = None) -> InterclubEvent:
    """A new event (``region`` empty: the national championship) organised by ``club``
    (None: the request's club, else the default club,
    :func:`risiko.web.clubs.club_for_new_row`)."""
    from risiko.web.clubs import club_for_new_row

    name = check_text("name", name, 200).strip()
    if not name:
        raise ServiceError(NAME_MISSING())
    region = check_text("region", region, 40).strip()
    event = InterclubEvent.objects.create(
        name=name, year=_number("year", year, 2000, 2099), region=region,
        rounds=_number("rounds", rounds, 1, 10),
        counted_games=_number("counted_games", counted_games, 1, 60),
        club=club or club_for_new_row())
    audit(who, "interclub.event", target=event, summary=f"{event}",
          data={"region": region, "rounds": rounds, "counted_games": counted_games,
                "club": event.club.key})
    return event


@write
def add_team(event: InterclubEvent, club: Club, *, name: str = "", who: str) -> InterclubTeam:
    """The club's team at ``event`` (named after the club unless ``name``); refused for a
    club of another region at a regional event, or a second team of the club."""
    event = _lock(event)
    if event.region and club.region.strip().lower() != event.region.lower():
        raise ServiceError(TEAM_REGION(club=club.name, region=club.region or "-",
                                       event=str(event), event_region=event.region))
    team = InterclubTeam.objects.create(
        event=event, club=club, name=check_text("name", name, 120).strip() or club.name)
    audit(who, "interclub.team", target=team, summary=f"{event}: {team}",
          data={"club": club.key})
    return team


@write
def add_member(team: InterclubTeam, national_id: int, *, who: str) -> InterclubMember:
    """Put the player ``national_id`` in ``team``'s roster; refused when the roster has 12
    players or the player is in a team of the event already (the constraint
    ``interclub_player_once`` stands behind the check for two requests at once)."""
    event = _lock(team.event)
    player = NationalPlayer.objects.filter(national_id=national_id).first()
    if player is None:
        raise ServiceError(NO_PLAYER(national_id=national_id))
    other = (InterclubMember.objects.filter(event=event, player=player)
             .select_related("team").first())
    if other is not None:
        raise ServiceError(IN_A_TEAM(player=str(player), team=other.team.name))
    count = team.members.count()
    if count >= rules.ROSTER_MAX:
        raise ServiceError(ROSTER_FULL(team=team.name, count=count, most=rules.ROSTER_MAX))
    member = InterclubMember.objects.create(event=event, team=team, player=player)
    audit(who, "interclub.member", target=member, summary=f"{event}: {player} → {team}",
          data={"national_id": national_id, "team": team.name})
    return member


@write
def remove_member(team: InterclubTeam, national_id: int, *, who: str) -> None:
    """Take the player ``national_id`` out of ``team``'s roster; refused once he has been
    fielded in a round (his games are the team's)."""
    event = _lock(team.event)
    member = (team.members.filter(player__national_id=national_id)
              .select_related("player").first())
    if member is None:
        raise ServiceError(NOT_A_MEMBER(player=str(national_id), team=team.name))
    fielded = member.fielded.select_related("round").first()
    if fielded is not None:
        raise ServiceError(MEMBER_FIELDED(player=str(member.player), round=fielded.round.number,
                                          team=team.name))
    audit(who, "interclub.member_removed", target=team,
          summary=f"{event}: {member.player} ← {team}",
          data={"national_id": national_id, "team": team.name})
    member.delete()


def _round(event: InterclubEvent, number: int) -> InterclubRound:
    if isinstance(number, bool) or not isinstance(number, int) \
            or not 1 <= number <= event.rounds:
        raise ServiceError(BAD_ROUND(round=number, event=str(event), rounds=event.rounds))
    found, _created = InterclubRound.objects.get_or_create(event=event, number=number)
    return found


@write
def field_players(team: InterclubTeam, number: int, national_ids: Sequence[int], *,
                  who: str) -> list[InterclubFielded]:
    """``team``'s players of round ``number``: exactly 4 of its roster (replacing the ones
    fielded before, until the round is seated)."""
    event = _lock(team.event)
    rnd = _round(event, number)
    if rnd.seats.exists():
        raise ServiceError(ROUND_SEATED(round=number))
    roster = {m.player.national_id: m for m in team.members.select_related("player")}
    if len(roster) < rules.ROSTER_MIN:
        raise ServiceError(ROSTER_SHORT(team=team.name, count=len(roster),
                                        least=rules.ROSTER_MIN))
    faults = [NOT_A_MEMBER(player=str(n), team=team.name) for n in national_ids
              if n not in roster]
    chosen = list(dict.fromkeys(national_ids))
    if len(chosen) != rules.FIELDED:
        faults.append(FIELDED_COUNT(team=team.name, count=len(chosen), round=number,
                                    fielded=rules.FIELDED))
    if faults:
        raise ServiceError(*faults)
    before = sorted(InterclubFielded.objects.filter(round=rnd, member__team=team)
                    .values_list("member__player__national_id", flat=True))
    InterclubFielded.objects.filter(round=rnd, member__team=team).delete()
    rows = InterclubFielded.objects.bulk_create(
        InterclubFielded(round=rnd, member=roster[n]) for n in chosen)
    audit(who, "interclub.field", target=rnd, summary=f"{rnd}: {team}",
          data={"team": team.name, "players": chosen, "before": before})
    return rows


def _met(event: InterclubEvent, before: int) -> dict[frozenset[str], int]:
    """How many times two players sat together in the rounds before ``before``."""
    tables: dict[tuple[int, int], list[str]] = {}
    for rnd, table, pid in (InterclubSeat.objects.filter(round__event=event,
                                                         round__number__lt=before)
                            .values_list("round__number", "table", "member_id")):
        tables.setdefault((rnd, table), []).append(str(pid))
    met: Counter[frozenset[str]] = Counter()
    for players in tables.values():
        for i, a in enumerate(players):
            for b in players[i + 1:]:
                met[frozenset((a, b))] += 1
    return dict(met)


@write
def seat_round(event: InterclubEvent, number: int, *, seed: int | None = None,
               who: str) -> list[list[InterclubSeat]]:
    """Seat round ``number`` once: every team that fielded players must have fielded 4;
    the tables have 4 players of 4 clubs (refused with the rules' faults when it cannot be
    done, nothing written)."""
    event = _lock(event)
    rnd = _round(event, number)
    if rnd.seats.exists():
        raise ServiceError(ROUND_SEATED(round=number))
    fielded = list(rnd.fielded.select_related("member__team__club"))
    if not fielded:
        raise ServiceError(NOTHING_FIELDED(round=number))
    per_team = Counter(f.member.team for f in fielded)
    short = [FIELDED_COUNT(team=t.name, count=c, round=number, fielded=rules.FIELDED)
             for t, c in sorted(per_team.items(), key=lambda tc: tc[0].name)
             if c != rules.FIELDED]
    if short:
        raise ServiceError(*short)
    members = {str(f.member.pk): f.member for f in fielded}
    seed = secrets.randbelow(2**31) if seed is None else seed
    try:
        tables = rules.seat_round(
            [(str(f.member.pk), f.member.team.club.name) for f in fielded],
            seed=seed, met=_met(event, number))
    except rules.InterclubError as err:
        raise ServiceError(*err.faults) from None
    rnd.seed = seed
    rnd.save(update_fields=["seed"])
    seats = [[InterclubSeat(round=rnd, member=members[key], table=i, position=j)
              for j, key in enumerate(table, start=1)]
             for i, table in enumerate(tables, start=1)]
    InterclubSeat.objects.bulk_create(s for t in seats for s in t)
    audit(who, "interclub.seat", target=rnd, summary=f"{rnd}: {len(tables)}",
          data={"seed": seed, "tables": [[members[k].player.national_id for k in t]
                                         for t in tables]})
    return seats


@write
def record_table(event: InterclubEvent, number: int, table: int,
                 results: Sequence[tuple[int, int, bool]], *, reason: str = "",
                 who: str) -> dict[int, Decimal]:
    """The result of table ``table`` of round ``number``: ``(national id, table points,
    RisiKo!)`` for each of its 4 players; the scores (placement points + table points /
    100, 13 for a RisiKo!) are computed and stored. A table with a result already needs a
    ``reason``; the values replaced go to the audit log. Answers the scores by national id."""
    event = _lock(event)
    rnd = _round(event, number)
    if not rnd.seats.exists():
        raise ServiceError(ROUND_NOT_SEATED(round=number))
    seats = list(rnd.seats.filter(table=table).select_related("member__player"))
    if not seats:
        raise ServiceError(NO_TABLE(round=number, table=table))
    by_id = {s.member.player.national_id: s for s in seats}
    given = [r[0] for r in results]
    if sorted(given) != sorted(by_id) or len(set(given)) != len(given):
        raise ServiceError(NOT_AT_TABLE(table=table, round=number,
                                        seated=", ".join(str(n) for n in sorted(by_id)),
                                        given=", ".join(str(n) for n in given)))
    reason = check_text("reason", reason, 300).strip()
    old = {n: (s.table_points, s.risiko) for n, s in by_id.items() if s.score is not None}
    if old and not reason:
        raise ServiceError(REASON_NEEDED(table=table, round=number))
    try:
        scores = rules.game_scores(
            [rules.GameSeat(str(n), points, risiko) for n, points, risiko in results],
            table=table)
    except rules.InterclubError as err:
        raise ServiceError(*err.faults) from None
    top = max(scores.values())
    for n, points, risiko in results:
        seat = by_id[n]
        seat.table_points, seat.risiko = points, risiko
        seat.score = scores[str(n)]
        seat.won = scores[str(n)] == top
    InterclubSeat.objects.bulk_update(list(by_id.values()),
                                      ["table_points", "risiko", "score", "won"])
    audit(who, "interclub.result", target=rnd, summary=f"{rnd}, {table}",
          data={"table": table, "results": [list(r) for r in results],
                "before": {str(n): list(v) for n, v in old.items()}, "reason": reason})
    return {int(k): v for k, v in scores.items()}


@dataclass(frozen=True)
class Standings:
    """An event's standings: ``teams`` (lines with ``name``, ``club``, ``region``) and
    ``players`` (lines with ``name``, ``national_id``, ``team``), of ``region`` when
    given."""

    event: InterclubEvent
    region: str
    teams: list[dict[str, Any]]
    players: list[dict[str, Any]]


def standings(event: InterclubEvent, region: str = "") -> Standings:
    """The team standings (best ``counted_games`` games) and the individual ones, from the
    results recorded; with ``region``, only the teams of that region's clubs and their
    players, positions counted among them (a regional championship across clubs)."""
    teams = {t.pk: t for t in event.teams.select_related("club")}
    if region:
        teams = {k: t for k, t in teams.items()
                 if t.club.region.strip().lower() == region.strip().lower()}
    played = []
    names: dict[str, tuple[str, int]] = {}
    for s in (InterclubSeat.objects.filter(round__event=event, score__isnull=False,
                                           member__team_id__in=list(teams))
              .select_related("member__player", "round")):
        key = str(s.member.player.national_id)
        names[key] = (f"{s.member.player.name} {s.member.player.surname}",
                      s.member.player.national_id)
        assert s.score is not None
        played.append(rules.Played(str(s.member.team_id), key, s.round.number,
                                   Decimal(s.score), s.won))
    team_lines = rules.team_standings([str(k) for k in teams], played, event.counted_games)
    player_lines = rules.player_standings(played)
    return Standings(event, region, [
        {"position": t.position, "name": teams[int(t.team)].name,
         "club": teams[int(t.team)].club.name, "region": teams[int(t.team)].club.region,
         "total": t.total, "all_games": t.all_games, "best": t.best, "games": t.games}
        for t in team_lines], [
        {"position": p.position, "name": names[p.player][0], "national_id": names[p.player][1],
         "team": teams[int(p.team)].name, "total": p.total, "games": p.games, "wins": p.wins,
         "best": p.best}
        for p in player_lines])


def _num(value: Decimal) -> float | int:
    return int(value) if value == value.to_integral_value() else float(value)


def standings_json(st: Standings) -> dict[str, Any]:
    """The JSON of the standings: ``{"event": {"name", "year", "region", "rounds",
    "counted_games"}, "region", "teams": [{"position", "name", "club", "region", "total",
    "all_games", "best", "games"}], "players": [{"position", "national_id", "name", "team",
    "total", "games", "wins", "best"}]}``; points are numbers with 2 decimals at most."""
    e = st.event
    return {
        "event": {"name": e.name, "year": e.year, "region": e.region, "rounds": e.rounds,
                  "counted_games": e.counted_games},
        "region": st.region,
        "teams": [{**t, **{k: _num(t[k]) for k in ("total", "all_games", "best")}}
                  for t in st.teams],
        "players": [{**p, **{k: _num(p[k]) for k in ("total", "best")}} for p in st.players],
    }
