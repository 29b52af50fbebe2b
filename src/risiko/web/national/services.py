"""Writing and reading the national ranking's store.

- :func:`import_report`: one checked report in one transaction: the club (a workbook's
  organiser is the registered club of that name) and new players registered, the
  tournament found by club, name and first date (created the first time), a new revision
  when the report differs from the one in force (the same report again writes nothing), its
  results; audit-logged. A national id the register knows under another
  name refuses the whole report (a fault per player), nothing written; so does a report
  naming a merged-away national id and the id it was merged into (one player twice).
- :func:`tournament_results` / :func:`ranking`: the year's list recomputed from the revisions
  in force (:func:`risiko.national.ranking.national_ranking`), tournaments in the order they
  were first published.

Concurrency: the tournament row is locked (``select_for_update``; SQLite's IMMEDIATE
transactions serialise writers) before its revision number is read; the constraints
``national_tournament_once``, ``national_revision_once`` and ``national_result_once`` are the
"only one" behind each rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import F, Max, Q
from django.utils import timezone

from risiko.faults import Fault, current_language, define, define_words, word
from risiko.names import name_key
from risiko.national.categories import Category
from risiko.national.ranking import (
    Exclusion as ExclusionRule,
)
from risiko.national.ranking import (
    NationalRanking,
    Participation,
    PlayerRanking,
    TournamentResult,
    national_ranking,
)
from risiko.national.report import Report, ReportError
from risiko.tournament.dates import EVENING_YEARS

from ..auditlog.services import audit
from ..core.writes import touch_national
from .duplicates_models import MergedPlayer
from .models import (
    Club,
    Exclusion,
    NationalPlayer,
    NationalResult,
    NationalTournament,
    RevisionStatus,
    TournamentRevision,
)

__all__ = ["ClubYear", "Imported", "Stored", "club_year", "exclusions", "find_club",
           "find_player", "import_report", "ranking", "register_lookup", "store_revision",
           "tournament_results"]

REGISTER_NAME = define(
    "national.register_name", "",
    "{at}: national id {national_id} is {registered} in the register, not {given}")
REGISTER_BIRTH = define(
    "national.register_birth", "",
    "{at}: national id {national_id} was born on {registered} in the register, not {given}")
REGISTER_MERGED_TWICE = define(
    "national.register_merged_twice", "",
    "{at}: national ids {national_id} and {into} are one player, {player} ({national_id} was "
    "merged into {into}): the report names him twice")


@dataclass(frozen=True)
class Imported:
    """What an import did: the ``tournament`` (its label), the revision ``number`` in force
    after it, ``new`` (the tournament was not known) and ``unchanged`` (the same report was
    in force already: nothing written)."""

    tournament: str
    number: int
    new: bool
    unchanged: bool


def _players(report: Report) -> dict[str, NationalPlayer]:
    """The register's player of each named key (new ones created); refuses the report when
    a national id is registered under another name or birth date, or when it names a
    merged-away national id and the one it was merged into
    (``national.register_merged_twice``: one player twice in one tournament)."""
    faults = []
    people: dict[str, NationalPlayer] = {}
    merged = dict(MergedPlayer.objects.filter(
        national_id__in=[p.national_id for p in report.players if p.national_id is not None])
        .values_list("national_id", "into__national_id"))
    named = {p.national_id: i for i, p in enumerate(report.players) if p.national_id is not None}
    for i, p in enumerate(report.players):
        if p.national_id is None:
            continue
        if p.national_id in merged and merged[p.national_id] in named:
            into = NationalPlayer.objects.get(national_id=merged[p.national_id])
            faults.append(REGISTER_MERGED_TWICE(
                at=f"players[{i}]", national_id=p.national_id, into=into.national_id,
                player=f"{into.name} {into.surname}"))
            continue
        if p.national_id in merged:  # merged into another player: his (no name check)
            people[p.key] = NationalPlayer.objects.get(national_id=merged[p.national_id])
            continue
        known, created = NationalPlayer.objects.get_or_create(
            national_id=p.national_id,
            defaults={"name": p.name, "surname": p.surname, "birth_date": p.birth_date})
        if not created and name_key(f"{known.name} {known.surname}") != name_key(p.full_name):
            faults.append(REGISTER_NAME(at=f"players[{i}]", national_id=p.national_id,
                                        registered=f"{known.name} {known.surname}",
                                        given=p.full_name))
        elif (not created and known.birth_date and p.birth_date
              and known.birth_date != p.birth_date):
            faults.append(REGISTER_BIRTH(at=f"players[{i}]", national_id=p.national_id,
                                         registered=known.birth_date.isoformat(),
                                         given=p.birth_date.isoformat()))
        people[p.key] = known
    if faults:
        raise ReportError(faults)
    return people


def _club(report: Report) -> Club:
    """The report's club, registered the first time. A GestioneTorneo workbook read without
    ``--club`` names its club by its organiser only (the report's id is its name): it is the
    registered club of that name when there is exactly one (so the project's own export of a
    report imports as the same tournament); a report with an id arriving for a club first
    registered from such a workbook (key = name) gives that club its id. An id differing
    from a registered club's by case only is that club (``ROMA`` is ``roma``: the
    identifiers are unique whatever their case)."""
    known = (Club.objects.select_for_update().filter(key=report.club_id).first()
             or Club.objects.select_for_update().filter(key__iexact=report.club_id)
             .order_by("key_case_twin", "pk").first())
    if known is not None:
        return known
    named = list(Club.objects.select_for_update().filter(name=report.club_name)[:2])
    if len(named) == 1:
        if report.club_id == report.club_name:
            return named[0]
        if named[0].key == named[0].name:  # registered from a workbook: now its real id
            named[0].key = report.club_id
            named[0].save(update_fields=["key"])
            return named[0]
    club, _ = Club.objects.get_or_create(key=report.club_id,
                                         defaults={"name": report.club_name})
    return club


def import_report(report: Report, *, source: str = "", by: str) -> Imported:
    """Store ``report`` (checked by :func:`risiko.national.report.read_report`) as the
    revision in force of its tournament; see the module's docstring. Raises
    :class:`~risiko.national.report.ReportError` (nothing written) when the register
    disagrees with it. The committee's import: the revision is approved by ``by`` at once
    (a club's report waits for the officer: :func:`.publishing.publish_report`)."""
    with transaction.atomic():
        stored = store_revision(report, source=source, by=by, approved=True)
    return Imported(stored.label, stored.number, stored.new, stored.unchanged)


@dataclass(frozen=True)
class Stored:
    """What :func:`store_revision` did: the tournament's ``label``, the revision ``number``
    written (or the one found equal: ``unchanged``), ``new`` tournament, ``revision`` (the
    row; None when unchanged), its ``status`` and ``id`` (the row's, or the one found equal)."""

    label: str
    number: int
    new: bool
    unchanged: bool
    revision: TournamentRevision | None
    status: str
    id: int


def store_revision(report: Report, *, source: str, by: str, approved: bool,
                   club_revision: int | None = None,
                   check: Callable[[NationalTournament], None] | None = None) -> Stored:
    """Write ``report`` as the next revision of its tournament, inside the caller's
    transaction, the tournament's row locked first: ``approved`` puts it in force at once
    (the committee's import), else it waits as ``published``. The same report as the newest
    revision that is in force or waiting writes nothing (``unchanged``). ``check`` is called
    with the locked tournament before anything is compared (it raises to refuse). Raises
    :class:`~risiko.national.report.ReportError` when the register disagrees. The club is
    stored as registered: its identifier (a workbook names only its organiser) and its name
    (a report's ``club.name`` never puts a tournament's players under another club's name on
    the list: the register names the clubs)."""
    club = _club(report)
    if club.key != report.club_id:  # a workbook's organiser: the registered club's id
        report = replace(report, club_id=club.key)
    if club.name != report.club_name:  # the register's name, never the report's
        report = replace(report, club_name=club.name)
    canonical = report.to_json()
    people = _players(report)
    found, new = NationalTournament.objects.get_or_create(
        club=club, name=report.name, first_date=report.dates[0],
        defaults={"year": report.year, "current": 0})
    tournament = NationalTournament.objects.select_for_update().get(pk=found.pk)
    label = str(tournament)
    if check is not None:
        check(tournament)
    latest = (tournament.revisions.exclude(status=RevisionStatus.REFUSED)
              .filter(number__gte=tournament.current).order_by("-number").first())
    if latest is not None and latest.report == canonical and (
            latest.status == RevisionStatus.PUBLISHED or latest.number == tournament.current):
        if approved and latest.status == RevisionStatus.PUBLISHED:
            pass  # the committee imports what a club published: a new, approved revision
        else:
            return Stored(label, latest.number, False, True, None, latest.status, latest.pk)
    number = (tournament.revisions.aggregate(n=Max("number"))["n"] or 0) + 1
    now = timezone.now()
    revision = TournamentRevision.objects.create(
        tournament=tournament, number=number, report=canonical, source=source[:300],
        by=by[:150], category=report.category.value, rounds=report.rounds,
        last_date=report.dates[-1], finished=report.finished, tables=report.tables,
        has_standings=bool(report.standings), club_revision=club_revision,
        status=RevisionStatus.APPROVED if approved else RevisionStatus.PUBLISHED,
        decided_by=by[:150] if approved else "", decided_at=now if approved else None)
    result = report.result()
    keys = {p.national_id: p.key for p in report.players if p.national_id is not None}
    NationalResult.objects.bulk_create(
        NationalResult(revision=revision, player=people[keys[part.national_id]],
                       name=part.name[:170], club=part.club[:120], games=part.games,
                       wins=part.wins, position=part.position)
        for part in result.participants)
    touch_national({report.year, tournament.year},  # the live pages (issue 21 item 8)
                   service="national_import" if approved else "national_publish", who=by)
    if approved:
        tournament.current, tournament.year = number, report.year
        tournament.save(update_fields=["current", "year"])
        audit(by, "national.import", target=revision,
              summary=f"{label}: revisione {number}",
              data={"source": source, "number": number, "tables": report.tables})
    else:
        audit(by, "national.publish", target=revision,
              summary=f"{label}: revisione {number} pubblicata",
              data={"source": source, "number": number, "tables": report.tables,
                    "club_revision": club_revision},
              params={"tournament": label, "number": number})
    return Stored(label, number, new, False, revision, revision.status, revision.pk)


def find_player(name: str, surname: str, born: date) -> int | None:
    """The national id of the registered player of this name, surname (compared as
    :func:`risiko.names.name_key` does) and birth date; None when there is none or more than
    one."""
    key = name_key(f"{name} {surname}")
    found = [p.national_id for p in NationalPlayer.objects.filter(birth_date=born)
             if name_key(f"{p.name} {p.surname}") == key]
    return found[0] if len(found) == 1 else None


def exclusions() -> dict[int, ExclusionRule]:
    """Every player's exclusion, by national id."""
    out: dict[int, ExclusionRule] = {}
    for e in Exclusion.objects.select_related("player"):
        years = frozenset(int(y) for y in e.years.replace(" ", "").split(",") if y)
        out[e.player.national_id] = ExclusionRule(years, e.start, e.end, e.reason)
    return out


def tournament_results(year: int, *, estimate: bool = False) -> list[TournamentResult]:
    """The tournaments of ``year`` as their revisions in force give them, in the order they
    were first published. ``estimate``: as if every report waiting for the officer were
    approved (a tournament's newest waiting revision above the one in force stands for it;
    a tournament with none in force yet enters the list): the player's "estimate"."""
    in_force = Q(number=F("tournament__current"))
    if estimate:
        chosen = (in_force | Q(status=RevisionStatus.PUBLISHED,
                               number__gt=F("tournament__current")))
        revisions = TournamentRevision.objects.filter(chosen, last_date__year=year)
    else:
        revisions = TournamentRevision.objects.filter(in_force, tournament__year=year)
    picked: dict[int, tuple[Any, ...]] = {}
    for row in (revisions.order_by("tournament_id", "number")
                .values_list("id", "tournament_id", "tournament__club__name",
                             "tournament__club__key", "tournament__name",
                             "tournament__first_date", "category", "rounds", "last_date",
                             "finished", "tables", "has_standings")):
        picked[row[1]] = row  # the newest chosen revision of each tournament
    rows = list(picked.values())
    by_revision: dict[int, list[Participation]] = {r[0]: [] for r in rows}
    for revision_id, national_id, name, club, games, wins, position in (
            NationalResult.objects.filter(revision_id__in=list(by_revision))
            .order_by("id")
            .values_list("revision_id", "player__national_id", "name", "club", "games",
                         "wins", "position")):
        by_revision[revision_id].append(
            Participation(national_id, name, club, games, wins, position))
    out = []
    for (revision_id, _t, club_name, club_key, name, first, category, rounds, last, finished,
         tables, has_standings) in rows:
        first_date: date = first
        out.append(TournamentResult(
            f"{first_date:%Y%m%d} - {club_key} - {name}", club_name, name,
            Category(category), rounds, first_date, last, finished, tables, has_standings,
            tuple(by_revision[revision_id])))
    return out


NO_YEAR = define("national.no_year", "",
                 "{year}: no tournament of the national ranking that year (years with "
                 "tournaments: {known})")
define_words("known", ("none yet",))  # no year at all: said in the message's language


YEAR_OUTSIDE = define("national.year_outside", "",
                      "{year}: outside the years of the national ranking ({low} to {high})")
NOBODY_LISTED_ONE = define(
    "national.nobody_listed_one", "",
    "1 tournament, no player with a national id: anonymous players are not in the ranking")
NOBODY_LISTED = define(
    "national.nobody_listed", "",
    "{tournaments} tournaments, no player with a national id: anonymous players are not in "
    "the ranking")


def years() -> list[int]:
    """The years that have a tournament in force (a revision approved), oldest first."""
    return sorted(set(NationalTournament.objects.filter(current__gt=0)
                      .values_list("year", flat=True)))


def year_fault(year: int, lang: str | None = None) -> Fault | None:
    """None when ``year`` has a tournament published (in force, or a report waiting for the
    officer: its page exists, empty until the approval, so a phone can follow it live), else
    the ``national.no_year`` fault naming it and the years that have one in force: params
    ``known`` (the years as text, "none yet" said in ``lang``, default the current
    language, when none has: the trial read ``"known": "none yet"`` in an Italian answer)
    and ``years`` (the same as a list of numbers, ``[]`` when none). A year outside the
    project's calendar (:data:`~risiko.tournament.dates.EVENING_YEARS`, 2000 to 2099: no
    tournament can fall there) is the ``national.year_outside`` fault, the one rule of the
    page, its JSON and CSV and ``risiko national ranking --year`` (1999: "1999: outside the
    years of the national ranking (2000 to 2099)")."""
    low, high = EVENING_YEARS
    if not low <= year <= high:
        return YEAR_OUTSIDE(year=year, low=low, high=high)
    if NationalTournament.objects.filter(year=year).exists():
        return None
    known = years()
    none = word("known", "none yet", lang or current_language())
    return NO_YEAR(year=year, known=", ".join(map(str, known)) or none, years=known)


def nobody_listed(year: int, listed: NationalRanking) -> Fault | None:
    """Why the list of ``year`` is empty although tournaments are in force: none of their
    players has a national id (anonymous players are not in the ranking), as
    ``national.nobody_listed_one`` ("1 tournament, ...") or ``national.nobody_listed``
    (``tournaments``: how many); None when the list has players, or no tournament is in
    force, or some player with a national id is there (a suspension left him out)."""
    if listed.players:
        return None
    tournaments = tournament_results(year)
    if not tournaments or any(t.participants for t in tournaments):
        return None
    if len(tournaments) == 1:
        return NOBODY_LISTED_ONE()
    return NOBODY_LISTED(tournaments=len(tournaments))


def player_counts(year: int) -> dict[tuple[str, str, date], tuple[int, int]]:
    """Each tournament of ``year`` in force, by (club name, name, first date): (players of
    its report, how many of them anonymous: no national id, not in the ranking)."""
    out: dict[tuple[str, str, date], tuple[int, int]] = {}
    for club, name, first, report in TournamentRevision.objects.filter(
            number=F("tournament__current"), tournament__year=year).values_list(
            "tournament__club__name", "tournament__name", "tournament__first_date", "report"):
        players = report.get("players", [])
        out[(club, name, first)] = (
            len(players), sum(1 for p in players if p.get("national_id") is None))
    return out


def ranking(year: int, *, estimate: bool = False) -> NationalRanking:
    """The national list of ``year`` from the store (exclusions included); ``estimate``: as
    if the reports waiting for the officer were approved (:func:`tournament_results`)."""
    return national_ranking(year, tournament_results(year, estimate=estimate), exclusions())


def register_lookup(name: str) -> tuple[int, str, str, date | None] | None:
    """The national register's player whose "name surname" is ``name`` (compared as
    :func:`risiko.names.name_key` does): (national id, name, surname, birth date), or None
    when there is none or more than one (a club's player then goes as anonymous)."""
    key = name_key(name)
    found = [p for p in NationalPlayer.objects.all().only(
        "national_id", "name", "surname", "birth_date")
        if name_key(f"{p.name} {p.surname}") == key]
    if len(found) != 1:
        return None
    p = found[0]
    return (p.national_id, p.name, p.surname, p.birth_date)


@dataclass(frozen=True)
class ClubYear:
    """A club's page of a year's national list (issue 21 item 4, "per club"): the ``club``,
    its ``players`` (the year's list entries whose club, as the ranking gives it, is the
    club's name; their national positions kept) and its ``tournaments`` of the year, each
    a dict ``{"name", "category", "first_date", "last_date", "finished", "revision",
    "status", "status_revision"}`` (``revision``: the number in force, 0 when none is yet;
    ``status``: the newest revision's, ``approved``, ``published`` (waiting for the
    officer) or ``refused``; ``status_revision``: that newest revision's number, the one
    the page shows beside its status, as the CLI and the officer's page number it), by
    first date."""

    year: int
    club: Club
    players: tuple[PlayerRanking, ...]
    tournaments: tuple[dict[str, Any], ...]

    def to_json(self) -> dict[str, Any]:
        """``{"year", "club": {"id", "name"}, "players": [...], "tournaments": [...]}``,
        each player as the year list's JSON has him (``position`` his national one)."""
        return {"year": self.year, "club": {"id": self.club.key, "name": self.club.name},
                "players": [p.to_json() for p in self.players],
                "tournaments": [{**t, "first_date": t["first_date"].isoformat(),
                                 "last_date": t["last_date"].isoformat()}
                                for t in self.tournaments]}


def find_club(text: str) -> Club | None:
    """The club whose identifier (``key``) is ``text``, else the one whose URL name
    (``slug``) is, else the one club whose URL name or identifier is ``text`` in any case
    (``ROMA`` finds the club ``roma``; two clubs that differ only by case: neither); None
    when there is none."""
    exact = (Club.objects.filter(key=text).first()
             or Club.objects.filter(slug=text).first())
    if exact is not None:
        return exact
    for lookup in ({"slug__iexact": text}, {"key__iexact": text}):
        found = list(Club.objects.filter(**lookup)[:2])
        if len(found) == 1:
            return found[0]
    return None


def club_year(club: Club, year: int, ranking_: NationalRanking | None = None) -> ClubYear:
    """``club``'s players in the national list of ``year`` and its tournaments of the year
    (:class:`ClubYear`); ``ranking_``: the year's list when the caller has it already."""
    listed = ranking_ if ranking_ is not None else ranking(year)
    players = tuple(p for p in listed.players if p.club == club.name)
    tournaments = []
    for t in (NationalTournament.objects.filter(club=club, year=year)
              .order_by("first_date", "name", "pk")):
        newest = t.revisions.order_by("-number").first()
        shown = (t.revisions.filter(number=t.current).first() if t.current else None) or newest
        if shown is None or newest is None:
            continue
        tournaments.append({"name": t.name, "category": shown.category,
                            "first_date": t.first_date, "last_date": shown.last_date,
                            "finished": shown.finished, "revision": t.current,
                            "status": newest.status, "status_revision": newest.number})
    return ClubYear(year, club, players, tuple(tournaments))
