"""Writes of the tournaments app: tournaments, their players, carry-over (R17), draws of lots
(R18), and the lookups every service starts from.

Every write runs in one transaction (:func:`~risiko.web.core.writes.write`) that first takes
its tournament's write lock, is checked field by field (:mod:`risiko.web.core.limits`) and adds
one audit entry. Refusals raise :class:`~risiko.web.core.faults.ServiceError`.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from risiko.names import clean_name, name_key
from risiko.ruleset import new_ruleset
from risiko.tournament import commands as cmds
from risiko.tournament.format import TournamentFormat, get_format
from risiko.web.auditlog.services import audit
from risiko.web.core import faults as F
from risiko.web.core.faults import ServiceError, error_faults
from risiko.web.core.limits import check_json, check_number, check_text, create
from risiko.web.core.repair import draw_players_key
from risiko.web.core.writes import lock_tournament, write
from risiko.web.players.models import Player

from .models import CarryOver, Draw, Entry, Tournament


# ------------------------------------------------------------------------------ the check
def decide(t: Tournament, cmd: cmds.Command, *, evening: Any = None) -> cmds.Applied[Any]:
    """``cmd`` checked on ``t`` as it is stored (:func:`risiko.tournament.commands.run`):
    the changed domain tournament and the command's answer, or ServiceError with every
    fault (nothing written). Call it inside a write, after :func:`lock_tournament`.

    ``evening`` (the row the command changes; None: the tournament's own facts): a
    qualifying evening's command loads that evening's facts only (its checks read nothing
    else), a semifinal's or final's the whole tournament (the stages come from the
    ranking, R18), as does a semifinal or final opened and a change of format."""
    from risiko.web.selectors import load_tournament

    stage = evening.stage if evening is not None else getattr(cmd, "stage", "qualifying")
    if isinstance(cmd, cmds.SetFormat) or (isinstance(cmd, cmds.OpenEvening)
                                           and stage != "qualifying"):
        domain = load_tournament(t)
    elif evening is None:
        domain = load_tournament(t, facts_of=0)
    elif stage == "qualifying":
        domain = load_tournament(t, facts_of=evening.pk)
    else:
        domain = load_tournament(t)
    try:
        return cmds.run(domain, cmd, partial=True)
    except (ValueError, TypeError) as err:  # RisikoError, or a value the library cannot read
        raise ServiceError(*error_faults(err)) from None


# ------------------------------------------------------------------------------ lookups
def get_tournament(key: str | int) -> Tournament:
    """A tournament by id, slug or name; ServiceError naming the known ones."""
    found = Tournament.objects.by_key(key)
    if found is None:
        known = ", ".join(Tournament.objects.values_list("slug", flat=True)[:20]) or "none yet"
        raise ServiceError(F.NO_TOURNAMENT(key=str(key)[:80], known=known))
    return found


def parse_date(value: str | _dt.date) -> _dt.date:
    """A date, or ``YYYY-MM-DD`` text; ServiceError otherwise."""
    if isinstance(value, _dt.date):
        return value
    try:
        return _dt.date.fromisoformat(value)
    except (TypeError, ValueError):
        raise ServiceError(cmds.BAD_DATE(value=str(value)[:40])) from None


def entry_player(t: Tournament, name: str) -> Player:
    """The player of ``t`` called ``name`` however it is typed (NFC, case); ServiceError
    naming the tournament and the name otherwise."""
    text = check_text("player", name, None)
    player = Player.objects.filter(key=name_key(text), entries__tournament=t).first()
    if player is None:
        raise ServiceError(F.NOT_A_PLAYER({"player": clean_name(text)[:80]}, tournament=t.name))
    return player


def players_by_key(t: Tournament) -> dict[str, Player]:
    """Every player of ``t`` by name key (one query)."""
    return {p.key: p for p in Player.objects.filter(entries__tournament=t)}


def _unique_slug(name: str) -> str:
    base = (slugify(name) or "torneo")[:100]
    slug = base
    n = 2
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{base}-{n}"
        n += 1
    return slug


# ------------------------------------------------------------------------------ writes
@write
def create_tournament(
    name: str,
    *,
    ruleset: str = "club-milano",
    format: Mapping[str, Any] | None = None,
    previous: Tournament | None = None,
    who: str,
) -> Tournament:
    """A new tournament under a ruleset preset and a format (the club-milano format by
    default; ``format`` as the JSON of TournamentFormat). ``ruleset`` is typed now: a bare
    name is the newest version (``club-milano`` -> ``club-milano@2``), ``name@version`` as
    given. ServiceError for a taken name, an unknown ruleset or a bad format."""
    name = clean_name(check_text("tournament", name, Tournament._meta.get_field("name")
                                 .max_length))
    if not name:
        raise ServiceError(F.TOURNAMENT_NAME_MISSING())
    if Tournament.objects.filter(name=name).exists():
        raise ServiceError(F.TOURNAMENT_EXISTS(tournament=name))
    if format is not None:
        check_json("format", format)
    try:
        # a bare name typed for a new tournament: the newest version
        rs = new_ruleset(check_text("ruleset", ruleset, 60))
        fmt = TournamentFormat.from_dict(dict(format)) if format else get_format(None)
    except (ValueError, TypeError, KeyError) as e:
        raise ServiceError(*error_faults(e)) from None
    try:
        with transaction.atomic():
            t = create(
                Tournament,
                name=name,
                slug=_unique_slug(name),
                ruleset_name=rs.name,
                ruleset_version=rs.version,
                format=fmt.to_dict(),
                previous=previous,
                # the tournament players see stays the same until a referee changes it
                is_current=not Tournament.objects.filter(is_current=True).exists(),
            )
    except IntegrityError:
        raise ServiceError(F.TOURNAMENT_EXISTS(tournament=name)) from None
    audit(who, "create tournament", t, t, f"{name} ({rs.label}, format {fmt.name})",
          params={"name": name, "ruleset": rs.label, "format": fmt.name})
    return t


@write
def set_current(t: Tournament, *, who: str) -> Tournament:
    """Make ``t`` the tournament the public pages show (the only current one)."""
    lock_tournament(t.pk)
    Tournament.objects.exclude(pk=t.pk).filter(is_current=True).update(is_current=False)
    if not t.is_current:
        t.is_current = True
        t.save(update_fields=["is_current"])
    audit(who, "set current tournament", t, t, t.name)
    return t


@write
def set_format(t: Tournament, format: Mapping[str, Any], *, committee: bool,
               expected: Mapping[str, Any] | None = None, reason: str = "",
               who: str) -> Tournament:
    """Change ``t``'s format (ranking points, tie-breaks, discards, stages; the
    JSON of :class:`~risiko.tournament.format.TournamentFormat`). Before the first evening
    any referee may; once the tournament has an evening only the committee (``committee``
    True), saying why (``reason``). ``expected`` is the format the change was prepared
    against (the console's comparison): refused when someone changed it meanwhile. Refused
    when the recorded facts disagree with the new format (a semifinal already seated
    otherwise, ...). The same format again writes nothing. Audit-logged with the old and
    the new format."""
    lock_tournament(t.pk)
    t.refresh_from_db(fields=["format"])
    check_json("format", format)
    reason = check_text("reason", reason or "", 300).strip()
    if expected is not None and dict(expected) != t.format:
        raise ServiceError(F.FORMAT_CHANGED(tournament=t.name))
    try:
        fmt = TournamentFormat.from_dict(dict(format))
    except (ValueError, TypeError, KeyError) as e:
        raise ServiceError(*error_faults(e)) from None
    new = fmt.to_dict()
    if new == t.format:
        return t
    if t.evenings.exists():
        if not committee:
            raise ServiceError(F.FORMAT_COMMITTEE(tournament=t.name))
        if not reason:
            raise ServiceError(F.FORMAT_REASON(tournament=t.name))
    decide(t, cmds.SetFormat(new))
    old = t.format
    t.format = new
    t.save(update_fields=["format"])
    audit(who, "change format", t, t,
          f"{old.get('name', '?')} -> {fmt.name}" + (f" — {reason}" if reason else ""),
          {"old": old, "new": new, "reason": reason},
          params={"old": old.get("name", "?"), "new": fmt.name, "reason": reason})
    return t


@write
def add_players(t: Tournament, names: Iterable[str], *, who: str, audit_each: bool = True
                ) -> list[Player]:
    """Register players in ``t``, in order: names in NFC with single spaces; a player the
    club knows (any tournament, the name however typed) is the same player; already
    registered ones are left as they are. ServiceError for an empty name, or a name that
    is a registered player's written differently. One audit entry per player registered,
    unless ``audit_each`` is False (an import's one entry names them)."""
    lock_tournament(t.pk)
    limit = Player._meta.get_field("name").max_length
    cleaned = []
    for raw in names:
        name = clean_name(check_text("player", raw, None))
        if not name:
            raise ServiceError(cmds.EMPTY_NAME())
        cleaned.append(check_text("player", name, limit))
    # a few queries whatever the number of names (an import registers thousands)
    known = _players_with_keys({name_key(n) for n in cleaned})
    entered = set(t.entries.values_list("player_id", flat=True))
    spelt = {name_key(n): n for n in reversed(cleaned)}  # the first spelling of each
    missing = [Player(name=n, key=k) for k, n in spelt.items() if k not in known]
    if missing:  # ignore_conflicts: one created at the same moment by another request
        Player.objects.bulk_create(missing, ignore_conflicts=True)
        known.update(_players_with_keys({p.key for p in missing}))
    order = t.entries.count()
    out: list[Player] = []
    new: list[Player] = []
    for name in cleaned:
        player = known[name_key(name)]
        if player.pk in entered:
            if player.name != name:
                raise ServiceError(F.PLAYER_TWIN({"player": name}, tournament=t.name,
                                                 twin=player.name))
        else:
            entered.add(player.pk)
            new.append(player)
        out.append(player)
    Entry.objects.bulk_create([Entry(tournament=t, player=p, order=order + i)
                               for i, p in enumerate(new, start=1)])
    if audit_each:
        for player in new:
            audit(who, "add player", t, player, player.name)
    return out


def _players_with_keys(keys: Iterable[str]) -> dict[str, Player]:
    """The players of ``keys`` (name keys), by key (in batches: a query holds a few
    hundred parameters on every database)."""
    wanted = sorted(keys)
    found: dict[str, Player] = {}
    for start in range(0, len(wanted), 500):
        found.update((p.key, p) for p in Player.objects.filter(key__in=wanted[start:start + 500]))
    return found


@write
def register_players(t: Tournament, names: Iterable[str], *, who: str
                     ) -> tuple[list[str], list[str]]:
    """:func:`add_players`, saying what it did: the names of the players registered now and
    of those registered already (each once, in the order given, as stored). The same
    ServiceErrors."""
    lock_tournament(t.pk)
    before = set(t.entries.values_list("player_id", flat=True))
    players = list({p.pk: p for p in add_players(t, names, who=who)}.values())
    return ([p.name for p in players if p.pk not in before],
            [p.name for p in players if p.pk in before])


@write
def set_carry_over(
    t: Tournament, player: str, points: int, *, referee: str, note: str = "", who: str
) -> CarryOver:
    """R17: confirm the points a new member keeps (replaces an earlier confirmation)."""
    lock_tournament(t.pk)
    p = entry_player(t, player)
    check_number("carry-over points", points, "points")
    decide(t, cmds.CarryOver(p.name, points, referee, note))
    old = list(CarryOver.objects.current().filter(tournament=t, player=p))
    CarryOver.objects.filter(pk__in=[c.pk for c in old]).update(superseded=True)
    row = create(CarryOver, tournament=t, player=p, points=points, referee=referee, note=note)
    audit(who, "carry over", t, row, f"{p.name}: {points} (R17)",
          {"points": points, "replaced": [c.points for c in old]})
    return row


@write
def record_draw(
    t: Tournament, stage: str, order: Sequence[str], *, referee: str, note: str = "", who: str
) -> Draw:
    """Record a draw of lots ordering tied players at a cut (R18 reading); a new draw of the
    same players for the same stage replaces the earlier one."""
    lock_tournament(t.pk)
    names = [entry_player(t, check_text("player", name, None)).name for name in order]
    names = decide(t, cmds.Draw(stage, tuple(names), referee, note)).answer
    key = draw_players_key(names)
    old = list(Draw.objects.current().filter(tournament=t, stage=stage, players_key=key))
    Draw.objects.filter(pk__in=[d.pk for d in old]).update(superseded=True)
    row = create(Draw, tournament=t, stage=stage, order=names, players_key=key,
                 referee=referee, note=note)
    audit(who, "draw of lots", t, row, f"{stage}: {', '.join(names)}",
          {"replaced": [d.order for d in old]}, params={"stage": stage, "players": names})
    return row
