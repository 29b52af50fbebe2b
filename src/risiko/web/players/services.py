"""Writes of the players app: merging two players who are one person (the committee)."""

from __future__ import annotations

from typing import Any

from django.apps import apps

from risiko.names import clean_name, name_key
from risiko.web.auditlog.services import audit
from risiko.web.core import faults as F
from risiko.web.core.faults import ServiceError
from risiko.web.core.limits import check_text
from risiko.web.core.repair import merge_player
from risiko.web.core.writes import lock_tournament, write

from .models import Player


def get_player(name: str) -> Player:
    """The player called ``name`` however it is typed (first the exact name, then the key);
    ServiceError otherwise."""
    text = clean_name(check_text("player", name, 200))
    found = (Player.objects.filter(name=text).first()
             or Player.objects.filter(key=name_key(text)).first())
    if found is None:
        raise ServiceError(F.NOT_A_PLAYER({"player": text}, tournament="club"))
    return found


def _model(app: str, name: str) -> Any:
    return apps.get_model(app, name)


@write
def merge_players(keep: str, twin: str, *, who: str) -> Player:
    """Merge the player ``twin`` into ``keep`` (one person registered twice, e.g. ``Luè``
    and ``LUÈ``): every fact of ``twin`` (entries, arrivals, seats, penalties, discipline,
    carry-over, and the name in results and draws) becomes ``keep``'s; ``twin``'s row stays,
    holding nothing. Refused when both have a fact only one player can have (both arrived or
    seated the same evening, both a carry-over in one tournament): correct that first.
    One audit entry (action ``merge players``) per tournament concerned."""
    from risiko.web.core.repair import merge_conflicts
    from risiko.web.tournaments.models import Entry

    a, b = get_player(keep), get_player(twin)
    if a.pk == b.pk:
        raise ServiceError(F.MERGE_SAME({"player": a.name}, other=b.name))
    tournaments = sorted(set(Entry.objects.filter(player__in=[a, b])
                             .values_list("tournament_id", flat=True)))
    for tid in tournaments:
        lock_tournament(tid)
    problems = []
    for kind, where in merge_conflicts(_model, a, b):
        maker = {"arrived": F.MERGE_BOTH_ARRIVED, "seated": F.MERGE_BOTH_SEATED,
                 "carry": F.MERGE_BOTH_CARRY}[kind]
        subject = "tournament" if kind == "carry" else "evening"
        problems.append(maker({"player": a.name, subject: where}, other=b.name))
    if problems:
        raise ServiceError(*problems)
    moved = merge_player(_model, a, b, who=who)
    from risiko.web.tournaments.models import Tournament

    for t in Tournament.all_clubs.filter(pk__in=tournaments):  # every club's log
        audit(who, "merge players", t, a, f"{b.name!r} merged into {a.name!r}",
              {"kept": a.pk, "merged": b.pk, "moved": moved},
              params={"merged": b.name, "kept": a.name})
    if not tournaments:
        audit(who, "merge players", None, a, f"{b.name!r} merged into {a.name!r}",
              {"kept": a.pk, "merged": b.pk, "moved": moved},
              params={"merged": b.name, "kept": a.name})
    a.refresh_from_db()
    return a
