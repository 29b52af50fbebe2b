"""The flow of a club's report to the national list: published → approved or refused.

- :func:`publish_report`: a club's referee publishes a finished tournament (the console's
  button, ``risiko national publish``, or a club's own server through :func:`receive`): the
  report is stored as a new revision **waiting** for the national officer (status
  ``published``); the list in force does not change; the player's page shows the estimate
  (:func:`risiko.web.national.services.ranking` with ``estimate=True``).
- :func:`approve` / :func:`refuse`: the national officer (the ``national.approve_report``
  permission) decides; an approval puts the revision in force at once, so the next read of
  the list is recomputed with it (the list is never stored). A refusal needs a reason. An
  approved revision is replaced only by a newer approved one: approving a revision older
  than the one in force is refused (``national.approve_stale``).
- Club keys (``national.manage_club_keys``): :func:`issue_key`, :func:`rotate_key`,
  :func:`revoke_key`. A key is a public id (``ck_`` and 24 hex digits) and a secret the club
  keeps; the server stores the id only and derives the secret when it checks a signature:
  ``HMAC-SHA256(RISIKO_CLUB_KEY_SECRET, "risiko.national.club_key" + id)`` (Django's
  ``salted_hmac``). A copy of the database alone therefore gives no club's key; the master
  secret (a setting, like ``SECRET_KEY``) gives them all, and changing it invalidates every
  key (each club then needs a rotated one). HMAC needs the secret on both sides, so a hash
  as for passwords cannot be used; deriving it is storing it encrypted under the master
  secret without storing it at all.
- :func:`receive`: a POSTed envelope (:mod:`risiko.national.publish`) with the headers
  ``X-Risiko-Key`` (the key id) and ``X-Risiko-Signature`` (``sha256=`` HMAC of the body):
  the key must be in force and its club the report's ``club.id``; the revision number must be
  above every one received for that tournament (a replay or an older report is refused).

Every refusal is a :class:`~risiko.faults.Fault` (code, it/en words). Every write is one
transaction with the tournament's row locked (SQLite's IMMEDIATE transactions serialise
writers; PostgreSQL ``SELECT ... FOR UPDATE``), and its status changes with a conditional
``UPDATE ... WHERE status = 'published'``: a double approval, or two officers deciding at
once, writes once; the same revision sent twice at once is stored once (the
``national_club_revision_once`` constraint is the last guard).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.crypto import salted_hmac

from risiko.faults import RisikoError, define, define_words
from risiko.national.categories import Category
from risiko.national.publish import (
    Registered,
    read_envelope,
    signature_ok,
    tournament_report,
)
from risiko.national.report import Report

from ..auditlog.services import audit
from ..core.writes import touch_national
from ..tournaments.models import Tournament
from .models import Club, ClubKey, NationalTournament, RevisionStatus, TournamentRevision
from .services import register_lookup, store_revision

__all__ = [
    "PublishError",
    "Published",
    "anonymous_players",
    "approve",
    "club_report",
    "club_secret",
    "issue_key",
    "publish_report",
    "receive",
    "refuse",
    "revoke_key",
    "rotate_key",
]

_SALT = "risiko.national.club_key"

NO_SUCH_REVISION = define("national.no_such_revision", "",
                          "report {revision}: there is no such report")
ALREADY_DECIDED = define("national.already_decided", "",
                         "{tournament}, revision {number}: already {decision} by {by}")
define_words("decision", ("approved", "refused"))
STALE_APPROVAL = define("national.approve_stale", "",
                        "{tournament}, revision {number}: revision {current}, newer, is in "
                        "force; an approved revision is replaced only by a newer one")
NO_REASON = define("national.refuse_reason", "", "a refusal needs its reason")
NO_CLUB = define("national.no_such_club", "", "club {club}: not registered")
KEY_IN_FORCE = define("national.key_in_force", "",
                      "club {club} already has a key in force ({key}): rotate it")
NO_KEY = define("national.no_key", "", "club {club} has no key in force")
UNKNOWN_KEY = define("national.publish_unknown_key", "",
                     "the club key is unknown or revoked")
BAD_SIGNATURE = define("national.publish_signature", "",
                       "the signature does not match the body and the club key")
WRONG_CLUB = define("national.publish_wrong_club", "",
                    "the report is of club {given}, the key of club {club}")
STALE = define("national.publish_stale", "",
               "{tournament}: this report was already sent (club revision {given_said}; "
               "the national server has already received club revision {last_said}, the "
               "same or a newer one): nothing written")


def club_revision_said(number: int) -> str:
    """A club's revision number as a person reads it: the default one (``national
    publish --to`` without ``--revision``) is the sending time in milliseconds since 1970,
    said as that time (UTC) with the number after it; a small one as it is.

    >>> club_revision_said(7)
    '7'
    >>> club_revision_said(1796146816915)
    '01/12/2026 17:40:16 UTC (1796146816915)'
    """
    from datetime import UTC, datetime

    if number < 10**12:  # before 2001 in milliseconds: a number the club chose
        return str(number)
    try:
        when = datetime.fromtimestamp(number / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return str(number)
    return f"{when:%d/%m/%Y %H:%M:%S} UTC ({number})"
TOO_MANY = define("national.publish_too_many", "",
                  "too many reports sent: try again later")


class PublishError(RisikoError):
    """A refused publication, approval, refusal or key change (nothing written)."""


@dataclass(frozen=True)
class Published:
    """What a publication did: the tournament's ``label``, the revision ``number`` (the one
    found equal when ``unchanged``: nothing written), its ``status`` and ``id`` (the report's
    id on the national server: ``risiko national approve ID``)."""

    label: str
    number: int
    status: str
    unchanged: bool
    id: int

    def to_json(self) -> dict[str, object]:
        """``{"tournament", "revision", "status", "unchanged", "id"}``."""
        return {"tournament": self.label, "revision": self.number, "status": self.status,
                "unchanged": self.unchanged, "id": self.id}


def publish_report(report: Report, *, by: str, source: str = "",
                   club_revision: int | None = None) -> Published:
    """Store ``report`` as a revision waiting for the officer (see the module); with
    ``club_revision`` (a club's server), refuse it (``national.publish_stale``) unless it is
    above every revision number received for its tournament. Raises :class:`PublishError`
    or :class:`~risiko.national.report.ReportError`; nothing written then."""

    def fresh(tournament: NationalTournament) -> None:
        if club_revision is None:
            return
        last = tournament.revisions.aggregate(n=Max("club_revision"))["n"]
        if last is not None and club_revision <= last:
            raise PublishError(STALE(tournament=str(tournament), given=club_revision,
                                     last=last, given_said=club_revision_said(club_revision),
                                     last_said=club_revision_said(last)))

    try:
        with transaction.atomic():
            stored = store_revision(report, source=source, by=by, approved=False,
                                    club_revision=club_revision, check=fresh)
    except IntegrityError:  # the same club revision stored by a concurrent request
        raise PublishError(STALE(tournament=f"{report.dates[0]:%Y%m%d} - {report.club_id} - "
                                 f"{report.name}", given=club_revision,
                                 last=club_revision,
                                 given_said=club_revision_said(club_revision or 0),
                                 last_said=club_revision_said(club_revision or 0))) from None
    return Published(stored.label, stored.number, str(stored.status), stored.unchanged,
                     stored.id)


def _decide(revision_id: int, by: str, status: RevisionStatus, reason: str = ""
            ) -> TournamentRevision:
    with transaction.atomic():
        found = TournamentRevision.objects.filter(pk=revision_id).values_list(
            "tournament_id", flat=True).first()
        if found is None:
            raise PublishError(NO_SUCH_REVISION(revision=revision_id))
        tournament = NationalTournament.objects.select_for_update().get(pk=found)
        revision = TournamentRevision.objects.get(pk=revision_id)
        label = str(tournament)
        if revision.status != RevisionStatus.PUBLISHED:
            raise PublishError(ALREADY_DECIDED(
                tournament=label, number=revision.number, decision=str(revision.status),
                by=revision.decided_by))
        if status == RevisionStatus.APPROVED and tournament.current > revision.number:
            raise PublishError(STALE_APPROVAL(tournament=label, number=revision.number,
                                              current=tournament.current))
        now = timezone.now()
        written = TournamentRevision.objects.filter(
            pk=revision_id, status=RevisionStatus.PUBLISHED).update(
            status=status, decided_by=by[:150], decided_at=now, reason=reason[:500])
        if written != 1:  # decided by another officer in between (never under the lock)
            revision.refresh_from_db()
            raise PublishError(ALREADY_DECIDED(
                tournament=label, number=revision.number, decision=str(revision.status),
                by=revision.decided_by))
        revision.refresh_from_db()
        decided = "approve" if status == RevisionStatus.APPROVED else "refuse"
        touch_national({revision.last_date.year, tournament.year},  # the live pages
                       service=f"national_{decided}", who=by)
        if status == RevisionStatus.APPROVED:
            tournament.current, tournament.year = revision.number, revision.last_date.year
            tournament.save(update_fields=["current", "year"])
        audit(by, f"national.{'approve' if status == RevisionStatus.APPROVED else 'refuse'}",
              target=revision, summary=f"{label}: revisione {revision.number} "
              + ("approvata" if status == RevisionStatus.APPROVED else f"rifiutata: {reason}"),
              data={"number": revision.number, "reason": reason},
              params={"tournament": label, "number": revision.number, "reason": reason})
    return revision


def approve(revision_id: int, *, by: str) -> TournamentRevision:
    """The officer ``by`` approves the waiting revision ``revision_id``: it is in force at
    once. Raises :class:`PublishError` (``national.no_such_revision``,
    ``national.already_decided``, ``national.approve_stale``)."""
    return _decide(revision_id, by, RevisionStatus.APPROVED)


def refuse(revision_id: int, *, by: str, reason: str) -> TournamentRevision:
    """The officer ``by`` refuses the waiting revision ``revision_id`` for ``reason``
    (required, ``national.refuse_reason``); it never counts. Raises :class:`PublishError`."""
    reason = " ".join(reason.split())
    if not reason:
        raise PublishError(NO_REASON())
    return _decide(revision_id, by, RevisionStatus.REFUSED, reason)


# ------------------------------------------------------------------------------ club keys

def club_secret(key_id: str) -> str:
    """The secret of the club key ``key_id`` (64 hex digits), derived, never stored (see the
    module's docstring)."""
    master = settings.RISIKO_CLUB_KEY_SECRET or settings.SECRET_KEY
    return salted_hmac(_SALT, key_id, secret=master, algorithm="sha256").hexdigest()


CLUB_REGISTERED = define("national.club_registered", "",
                         "club {club} is already registered ({name})")
CLUB_SLUG_TAKEN = define("national.club_slug_taken", "",
                         "the URL name {slug} is another club's: choose another (--slug)")
CLUB_FIELD = define("national.club_field", "",
                    "{field}: 1 to {limit} characters, not {length}")
CLUB_KEY_FORM = define("national.club_key_form", "",
                       "identifier {club}: lowercase letters a-z, digits and hyphens only, a "
                       "letter or digit first and last (the pattern {pattern}), e.g. milano, "
                       "roma-2")
CLUB_KEY_IS_SLUG = define("national.club_key_is_slug", "",
                          "identifier {club} is the URL name of club {other} ({name}): --club "
                          "would name both; choose another identifier")
CLUB_SLUG_IS_KEY = define("national.club_slug_is_key", "",
                          "the URL name {slug} is the identifier of club {other} ({name}): "
                          "--club would name both; choose another (--slug)")
define_words("field", ("identifier", "name", "URL name"))


def register_club(club_key: str, name: str, *, by: str, slug: str = "",
                  own: Club | None = None) -> Club:
    """Register the club ``club_key`` (its identifier in the national ranking, a report's
    ``club.id``) named ``name`` ("MILANO [Club Milano]"), with the URL name ``slug``
    (default: a free one made from the identifier): the step before its first key
    (:func:`issue_key`). The identifier has the form :data:`~.models.CLUB_KEY_PATTERN`
    (lowercase letters, digits, hyphens: ``national.club_key_form``), is no other club's
    whatever its case (``ROMA`` is ``roma``: a database constraint, so of two
    registrations at once one is refused) and no other club's URL name, nor is the URL name
    another club's identifier (``--club`` names a club by either:
    ``national.club_key_is_slug``, ``national.club_slug_is_key``, naming both clubs). The
    server's own club (the default club, ``RISIKO_CLUB_ID``) is registered already (``own``:
    that club when the caller has it, else made here first). Raises :class:`PublishError`
    (also ``national.club_registered``, ``national.club_slug_taken``,
    ``national.club_field``); nothing written then."""
    from django.utils.text import slugify

    from risiko.web.clubs import default_club

    from .models import free_club_slug

    club_key, name, slug = club_key.strip(), " ".join(name.split()), slugify(slug)
    for field, value, limit in (("identifier", club_key, 60), ("name", name, 120),
                                ("URL name", slug or "x", 60)):
        if not 1 <= len(value) <= limit:
            raise PublishError(CLUB_FIELD(field=field, limit=limit, length=len(value)))
    check_club_key_form(club_key)
    # the server's own club first (made from RISIKO_CLUB_ID on its first need): on a fresh
    # data dir started with RISIKO_CLUB_ID=milano, `club add milano` is that club, refused
    if own is None:
        default_club()
    try:
        with transaction.atomic():
            _check_new_club(club_key, slug)
            club = Club.objects.create(key=club_key, name=name,
                                       slug=slug or free_club_slug(club_key))
            audit(by, "national.club_add", target=club, summary=f"{club_key}: {name}",
                  params={"club": club_key, "name": name, "slug": club.slug})
    except IntegrityError:  # registered by a concurrent request
        _check_new_club(club_key, slug)
        raise PublishError(CLUB_SLUG_TAKEN(slug=slug or club_key)) from None
    return club


def check_club_key_form(club_key: str) -> None:
    """Refuse a new identifier not of the form :data:`~.models.CLUB_KEY_PATTERN`
    (``national.club_key_form``, saying the pattern)."""
    from .models import CLUB_KEY_PATTERN

    if not re.fullmatch(CLUB_KEY_PATTERN, club_key):
        raise PublishError(CLUB_KEY_FORM({"club": club_key}, pattern=CLUB_KEY_PATTERN))


def _check_new_club(club_key: str, slug: str, *, pk: int | None = None) -> None:
    """Refuse a new club ``club_key`` with the URL name ``slug`` (empty: one made free)
    whose identifier or URL name another club has (see :func:`register_club`); ``pk``: the
    club itself when it is changed (the admin), never its own obstacle. The clubs that
    could stand in its way are read in one query (one snapshot: a club of the same
    identifier registered meanwhile is said as registered, never as a URL name's owner)."""
    near = Q(key__iexact=club_key) | Q(slug__iexact=club_key)
    if slug:
        near |= Q(slug=slug) | Q(key__iexact=slug)
    found = Club.objects.filter(near)
    if pk is not None:
        found = found.exclude(pk=pk)
    clubs = list(found.order_by("key_case_twin", "pk"))
    folded = club_key.lower()
    for other in clubs:
        if other.key.lower() == folded:
            raise PublishError(CLUB_REGISTERED(club=other.key, name=other.name))
    for other in clubs:
        if slug and other.slug == slug:
            raise PublishError(CLUB_SLUG_TAKEN(slug=slug))
    for other in clubs:
        if other.slug.lower() == folded:
            raise PublishError(CLUB_KEY_IS_SLUG({"club": club_key, "other": other.key},
                                                name=other.name))
    if clubs:  # what is left: a club whose identifier is the URL name
        other = clubs[0]
        raise PublishError(CLUB_SLUG_IS_KEY({"slug": slug, "other": other.key},
                                            name=other.name))


def check_club_change(club_key: str, slug: str, *, pk: int | None,
                      key_changed: bool) -> None:
    """The admin's check of a club added or changed ("Club del ranking"): a new or changed
    identifier has the form :data:`~.models.CLUB_KEY_PATTERN` (a stored one left as it is
    stays), and neither the identifier nor the URL name is another club's (as
    :func:`register_club`). Raises :class:`PublishError`."""
    if key_changed:
        check_club_key_form(club_key)
    _check_new_club(club_key, slug, pk=pk)


def _club(club_key: str) -> Club:
    club = Club.objects.select_for_update().filter(key=club_key).first()
    if club is None:
        raise PublishError(NO_CLUB(club=club_key))
    return club


def _new_key(club: Club, by: str) -> tuple[ClubKey, str]:
    key = ClubKey.objects.create(club=club, key_id="ck_" + secrets.token_hex(12),
                                 issued_by=by[:150])
    audit(by, "national.key_issue", target=key, summary=f"{club.key}: chiave {key.key_id}",
          params={"club": club.key, "key": key.key_id})
    return key, club_secret(key.key_id)


def issue_key(club_key: str, *, by: str) -> tuple[ClubKey, str]:
    """A first key for the club ``club_key``: ``(key, secret)``; the secret is shown once to
    the officer, who gives it to the club. Refused when the club has a key in force
    (``national.key_in_force``: rotate it) or is not registered."""
    with transaction.atomic():
        club = _club(club_key)
        in_force = club.keys.filter(revoked__isnull=True).first()
        if in_force is not None:
            raise PublishError(KEY_IN_FORCE(club=club.key, key=in_force.key_id))
        return _new_key(club, by)


def _revoke(club: Club, by: str) -> ClubKey:
    key = club.keys.filter(revoked__isnull=True).first()
    if key is None:
        raise PublishError(NO_KEY(club=club.key))
    ClubKey.objects.filter(pk=key.pk, revoked__isnull=True).update(
        revoked=timezone.now(), revoked_by=by[:150])
    audit(by, "national.key_revoke", target=key, summary=f"{club.key}: chiave {key.key_id}",
          params={"club": club.key, "key": key.key_id})
    return key


def rotate_key(club_key: str, *, by: str) -> tuple[ClubKey, str]:
    """Revoke the club's key in force and issue a new one, in one transaction: reports signed
    with the old key are refused from now on. Raises :class:`PublishError`."""
    with transaction.atomic():
        club = _club(club_key)
        _revoke(club, by)
        return _new_key(club, by)


def revoke_key(club_key: str, *, by: str) -> ClubKey:
    """Revoke the club's key in force (the club can no longer publish over HTTP until a new
    one is issued). Raises :class:`PublishError`."""
    with transaction.atomic():
        return _revoke(_club(club_key), by)


# ------------------------------------------------------------------------- over HTTPS

def receive(body: bytes, key_id: str, signature: str,
            admit: Callable[[str], bool] = lambda key_id: True) -> Published:
    """A club server's POST: check the key (in force), the signature over ``body``, then
    ``admit(key_id)`` (the per-key rate limit: counted only for signed requests, so a
    stranger who knows a key id cannot use up the club's slots; False:
    ``national.publish_too_many``), the envelope and the report (read only once signed),
    that the report is of the key's club, then :func:`publish_report` with the envelope's
    revision number. Raises :class:`PublishError` or
    :class:`~risiko.national.report.ReportError` (nothing written)."""
    key = (ClubKey.objects.select_related("club")
           .filter(key_id=key_id[:40], revoked__isnull=True).first()) if key_id else None
    if key is None:
        raise PublishError(UNKNOWN_KEY())
    if not signature_ok(body, club_secret(key.key_id), signature):
        raise PublishError(BAD_SIGNATURE())
    if not admit(key.key_id):
        raise PublishError(TOO_MANY())
    revision, report = read_envelope(body)
    if report.club_id != key.club.key:
        raise PublishError(WRONG_CLUB(given=report.club_id, club=key.club.key))
    return publish_report(report, by=f"{key.club.key} ({key.key_id})",
                          source=f"https {key.key_id}", club_revision=revision)



def club_report(tournament: Tournament, *, club_id: str, club_name: str,
                category: Category = Category.CAMPIONATO,
                national_ids: Mapping[str, int] | None = None) -> Report:
    """The ``risiko-report/1`` of one of this server's own finished tournaments
    (:func:`risiko.national.publish.tournament_report`), its players named by
    ``national_ids`` (the club's list: :func:`risiko.names.name_key` of a name -> national
    id; a club's own server has no national register) or else by the national register on
    this server (:func:`.services.register_lookup`); unknown: anonymous. The national server
    checks each id against its register's name. Raises
    :class:`~risiko.national.report.ReportError` (not finished, no game, a bad report)."""
    from risiko.names import name_key
    from risiko.tournament.finals import compute_stages
    from risiko.web.selectors import load_tournament

    listed = dict(national_ids or {})

    def register(name: str) -> Registered | None:
        number = listed.get(name_key(name))
        if number is None:
            return register_lookup(name)
        first, _sep, rest = name.partition(" ")
        return (number, first, rest or "-", None)

    domain = load_tournament(tournament)
    return tournament_report(domain, compute_stages(domain), club_id=club_id,
                             club_name=club_name, category=category, register=register)


def anonymous_players(report: Report) -> list[str]:
    """The report's players the register does not know (they go as anonymous), as the club
    names them (a one-word name's surname ``-`` left out)."""
    return [p.name if p.surname == "-" else p.full_name
            for p in report.players if p.national_id is None]
