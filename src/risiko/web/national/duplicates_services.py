"""The register's care (issue 21 item 2): possible duplicates, merges, pairs declared
different, suspensions.

- :func:`duplicates`: the pairs RisiKoDataManager's rule lists
  (:func:`risiko.national.duplicates.possible_duplicates`: players with a result, within 4
  edits of name + surname + birth date, not declared different);
- :func:`declare_different`: a pair never listed again (constraint
  ``declared_different_once``);
- :func:`merge_players`: ``gone``'s results (and interclub rosters, exclusion) move to
  ``kept``, ``gone`` leaves the register and its national id is kept as a
  :class:`~.duplicates_models.MergedPlayer` (a report naming it again counts for ``kept``);
  refused when both played one tournament or one interclub event, or both have an
  exclusion; the audit entry holds everything the merge changed and why;
- :func:`suspend`: a player's suspension (an :class:`~.models.Exclusion` from a date, until
  a date or open, with a reason).

Every write locks the players' rows (``SELECT ... FOR UPDATE``) in national id order, so two
officers merging at once are served one after the other. Refusals are fault values (codes
``register.*``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.db.models import Exists, OuterRef

from risiko.faults import define
from risiko.national.duplicates import Candidate, possible_duplicates

from ..auditlog.services import audit
from ..core.faults import ServiceError
from ..core.limits import check_text
from ..core.writes import CONFLICTS, EVERY_YEAR, touch_national, write
from .duplicates_models import DeclaredDifferent, MergedPlayer
from .interclub_models import InterclubMember
from .models import Exclusion, NationalPlayer, NationalResult

__all__ = ["Duplicate", "declare_different", "duplicates", "merge_players", "suspend"]

NO_PLAYER = define("register.no_player", "", "no player with national id {national_id}")
SAME_PLAYER = define("register.same_player", "",
                     "national id {national_id} twice: choose two players")
REASON = define("register.reason", "", "say why: the reason is kept in the audit log")
BOTH_PLAYED = define("register.both_played", "",
                     "{kept} and {gone} both played {tournament}: they are two people")
BOTH_INTERCLUB = define("register.both_interclub", "",
                        "{kept} and {gone} are both in a team of {event}: they are two people")
BOTH_EXCLUDED = define("register.both_excluded", "",
                       "{kept} and {gone} both have an exclusion: keep one first")
DATES = define("register.suspension_dates", "",
               "a suspension ends on or after its first day ({start}), not on {end}")
CONFLICT_DIFFERENT = define("register.conflict_different", "",
                            "the pair was declared different already ({constraint})")

CONFLICTS["declared_different_once"] = CONFLICT_DIFFERENT


@dataclass(frozen=True)
class Duplicate:
    """A possible duplicate: the two players and their distance."""

    first: NationalPlayer
    second: NationalPlayer
    distance: int


def duplicates() -> list[Duplicate]:
    """The possible duplicates of the register, closest first (players with a result only,
    pairs declared different left out, as RisiKoDataManager)."""
    players = {p.national_id: p for p in NationalPlayer.objects.filter(
        Exists(NationalResult.objects.filter(player=OuterRef("pk"))))}
    different = {frozenset(pair) for pair in DeclaredDifferent.objects.values_list(
        "first__national_id", "second__national_id")}
    pairs = possible_duplicates(
        (Candidate(p.national_id, p.name, p.surname, p.birth_date) for p in players.values()),
        different)
    return [Duplicate(players[p.first], players[p.second], p.distance) for p in pairs]


def _locked(*national_ids: int) -> list[NationalPlayer]:
    found = {p.national_id: p for p in NationalPlayer.objects.select_for_update()
             .filter(national_id__in=sorted(set(national_ids))).order_by("national_id")}
    missing = [n for n in national_ids if n not in found]
    if missing:
        raise ServiceError(*(NO_PLAYER(national_id=n) for n in missing))
    return [found[n] for n in national_ids]


def _reason(reason: str) -> str:
    reason = check_text("reason", reason, 300).strip()
    if not reason:
        raise ServiceError(REASON())
    return reason


@write
def declare_different(a: int, b: int, *, reason: str, who: str) -> DeclaredDifferent:
    """Declare the players ``a`` and ``b`` (national ids) different people."""
    if a == b:
        raise ServiceError(SAME_PLAYER(national_id=a))
    reason = _reason(reason)
    first, second = _locked(min(a, b), max(a, b))
    row = DeclaredDifferent.objects.create(first=first, second=second, reason=reason,
                                           by=who[:150])
    audit(who, "register.different", target=row, summary=f"{first} ≠ {second}",
          data={"first": first.national_id, "second": second.national_id,
                "reason": reason})
    return row


@write
def merge_players(kept_id: int, gone_id: int, *, reason: str, who: str) -> NationalPlayer:
    """Merge ``gone_id`` into ``kept_id`` (see the module); answers the player kept."""
    if kept_id == gone_id:
        raise ServiceError(SAME_PLAYER(national_id=kept_id))
    reason = _reason(reason)
    kept, gone = _locked(kept_id, gone_id)
    faults = []
    shared = (NationalResult.objects.filter(player=gone, revision__results__player=kept)
              .select_related("revision__tournament").first())
    if shared is not None:
        faults.append(BOTH_PLAYED(kept=str(kept), gone=str(gone),
                                  tournament=str(shared.revision.tournament)))
    both = (InterclubMember.objects.filter(player=gone, event__members__player=kept)
            .select_related("event").first())
    if both is not None:
        faults.append(BOTH_INTERCLUB(kept=str(kept), gone=str(gone), event=str(both.event)))
    gone_exclusion = Exclusion.objects.filter(player=gone).first()
    if gone_exclusion is not None and Exclusion.objects.filter(player=kept).exists():
        faults.append(BOTH_EXCLUDED(kept=str(kept), gone=str(gone)))
    if faults:
        raise ServiceError(*faults)
    moved = list(NationalResult.objects.filter(player=gone).values_list("id", flat=True))
    NationalResult.objects.filter(player=gone).update(player=kept)
    rosters = list(InterclubMember.objects.filter(player=gone).values_list("id", flat=True))
    InterclubMember.objects.filter(player=gone).update(player=kept)
    if gone_exclusion is not None:
        gone_exclusion.player = kept
        gone_exclusion.save(update_fields=["player"])
    MergedPlayer.objects.filter(into=gone).update(into=kept)
    dropped = list(DeclaredDifferent.objects.filter(first=gone).values_list(
        "second__national_id", flat=True)) + list(DeclaredDifferent.objects.filter(
            second=gone).values_list("first__national_id", flat=True))
    record = {"national_id": gone.national_id, "name": gone.name, "surname": gone.surname,
              "birth_date": gone.birth_date.isoformat() if gone.birth_date else None}
    gone.delete()
    MergedPlayer.objects.create(national_id=gone_id, into=kept,
                                name=f"{record['name']} {record['surname']}"[:170],
                                reason=reason, by=who[:150])
    touch_national({EVERY_YEAR}, service="merge_players", who=who)
    audit(who, "register.merge", target=kept, summary=f"{gone_id} → {kept}",
          data={"kept": kept_id, "gone": record, "results": moved, "rosters": rosters,
                "exclusion": gone_exclusion is not None, "declared_different": dropped,
                "reason": reason})
    return kept


@write
def suspend(national_id: int, start: date, end: date | None, *, reason: str,
            who: str) -> Exclusion:
    """Suspend a player from ``start`` until ``end`` (None: open); his exclusion's years
    stay. The values replaced go to the audit log."""
    reason = _reason(reason)
    if end is not None and end < start:
        raise ServiceError(DATES(start=start.isoformat(), end=end.isoformat()))
    (player,) = _locked(national_id)
    row, created = Exclusion.objects.get_or_create(player=player)
    before = {"start": row.start.isoformat() if row.start else None,
              "end": row.end.isoformat() if row.end else None, "reason": row.reason}
    row.start, row.end, row.reason = start, end, reason
    row.save(update_fields=["start", "end", "reason"])
    touch_national({EVERY_YEAR}, service="suspend", who=who)
    audit(who, "register.suspend", target=row, summary=f"{player}",
          data={"start": start.isoformat(), "end": end.isoformat() if end else None,
                "reason": reason, "before": None if created else before})
    return row
