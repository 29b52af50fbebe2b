"""Putting stored facts right: the duplicates the constraints forbid, names in NFC, twins
merged. Used by the data migration ``core 0002`` (with the migration's historical models)
and by :func:`risiko.web.players.services.merge_players` (with the real ones): every
function takes ``model(app_label, name)`` returning the model class to use.

Every change is one audit entry (``who`` :data:`WHO` for the migration) holding the ids and
the values replaced, so a referee can see it (console home, audit log) and it can be undone
by hand. The rule is the same every time: among rows that claim to be the current one, the
latest (highest id) stays current, the others are marked superseded.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from risiko.names import clean_name, name_key

#: ``who`` of the audit entries written by the migration
WHO = "migration"
#: their action names (the console home lists them)
RESOLVED = "resolve duplicate"
RENAMED = "normalise name"
MERGED = "merge players"
COLLISION = "name collision"
ACTIONS = (RESOLVED, RENAMED, MERGED, COLLISION)

ModelOf = Callable[[str, str], Any]


@dataclass
class Report:
    """What a repair changed (audit entries written) and the collisions it left."""

    changes: list[str] = field(default_factory=list)
    collisions: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.changes or self.collisions)


def _audit(model: ModelOf, who: str, action: str, tournament: str, target: str,
           summary: str, data: dict[str, Any]) -> None:
    model("auditlog", "AuditEntry").objects.create(
        who=who, action=action, tournament=tournament[:120], target=target[:120],
        summary=summary[:300], data=data,
    )


def draw_players_key(order: Iterable[str]) -> str:
    """The key of a draw's tied players: their name keys, sorted, one per line.

    >>> draw_players_key(["Ezio", "dora"])
    'dora\\nezio'
    """
    return "\n".join(sorted(name_key(str(n)) for n in order))


# ----------------------------------------------------------------------------- duplicates
@dataclass(frozen=True)
class _Shape:
    app: str
    model: str
    keys: tuple[str, ...]
    tournament: str  # the path to the tournament's name
    describe: Callable[[Any], str]


def _arrival(a: Any) -> str:
    return f"{a.player.name} {a.at} (evening {a.evening.date})"


def _seat(s: Any) -> str:
    return f"{s.player.name} table {s.table.number} seat {s.position} (evening {s.evening.date})"


def _result(r: Any) -> str:
    kind = "sheet" if r.sheet is not None else f"scores {r.scores}"
    return f"table {r.table.number} (evening {r.table.evening.date}): {kind}"


def _appeal(a: Any) -> str:
    return f"appeal on penalty {a.penalty_id}: {a.outcome}"


def _carry(c: Any) -> str:
    return f"{c.player.name}: {c.points} (R17)"


def _draw(d: Any) -> str:
    return f"{d.stage}: {', '.join(map(str, d.order))}"


SHAPES = (
    _Shape("evenings", "Arrival", ("evening_id", "player_id"), "evening__tournament__name",
           _arrival),
    _Shape("results", "TableResult", ("table_id",), "table__evening__tournament__name",
           _result),
    _Shape("results", "Appeal", ("penalty_id",), "penalty__evening__tournament__name",
           _appeal),
    _Shape("tournaments", "CarryOver", ("tournament_id", "player_id"), "tournament__name",
           _carry),
    _Shape("tournaments", "Draw", ("tournament_id", "stage", "players_key"),
           "tournament__name", _draw),
    _Shape("results", "Seat", ("table_id", "position"), "evening__tournament__name", _seat),
    _Shape("results", "Seat", ("evening_id", "player_id"), "evening__tournament__name", _seat),
)


def fill_new_columns(model: ModelOf) -> None:
    """The columns added before the constraints: a seat's evening, a draw's players key."""
    seat = model("results", "Seat")
    for table_id, evening_id in model("results", "GameTable").objects.values_list(
        "id", "evening_id"
    ):
        seat.objects.filter(table_id=table_id, evening_id__isnull=True).update(
            evening_id=evening_id
        )
    draw = model("tournaments", "Draw")
    for row in draw.objects.all():
        key = draw_players_key(row.order or ())
        if row.players_key != key:
            draw.objects.filter(pk=row.pk).update(players_key=key)


def resolve_duplicates(model: ModelOf, *, who: str = WHO) -> Report:
    """For each key that has more than one current row, the latest stays current and the
    others are superseded, each with an audit entry."""
    report = Report()
    for shape in SHAPES:
        cls = model(shape.app, shape.model)
        groups: dict[tuple[Any, ...], list[int]] = defaultdict(list)
        for row in cls.objects.filter(superseded=False).values("id", *shape.keys):
            groups[tuple(row[k] for k in shape.keys)].append(row["id"])
        for ids in groups.values():
            if len(ids) < 2:
                continue
            keep, *others = sorted(ids, reverse=True)
            kept = cls.objects.get(pk=keep)
            tournament = str(cls.objects.filter(pk=keep).values_list(
                shape.tournament, flat=True).first() or "")
            for pk in sorted(others):
                row = cls.objects.get(pk=pk)
                cls.objects.filter(pk=pk).update(superseded=True)
                summary = (f"{shape.model} {pk} superseded: {shape.describe(row)}; "
                           f"{shape.model} {keep} stays current: {shape.describe(kept)}")
                _audit(model, who, RESOLVED, tournament, f"{shape.app}.{shape.model}:{pk}",
                       summary, {"superseded": pk, "kept": keep, "key": list(map(str, shape.keys))})
                report.changes.append(summary)
    return report


# ----------------------------------------------------------------------------- names
def _renamed(value: Any, old: str, new: str) -> Any:
    if isinstance(value, str):
        return new if value == old else value
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {(new if k == old else k): (_renamed(v, old, new) if k == "player" or
                                          isinstance(v, list | dict) else v)
                for k, v in value.items()}
    return value


def rename_in_facts(model: ModelOf, tournament_ids: Iterable[int], old: str, new: str) -> int:
    """Replace the name ``old`` by ``new`` in the facts that hold names as text (results'
    scores, RisiKo!, left-the-game, winners and elimination lists, sheets, draws, closing
    dice events) of the tournaments ``tournament_ids``; the number of rows changed."""
    if old == new:
        return 0
    ids = list(tournament_ids)
    changed = 0
    result = model("results", "TableResult")
    # named winners and the order of elimination once the model has them
    fields = [f for f in ("sheet", "scores", "risiko", "abandoned", "winners", "eliminated")
              if f in {x.name for x in result._meta.get_fields()}]
    for row in result.objects.filter(table__evening__tournament_id__in=ids):
        values = {f: getattr(row, f) for f in fields}
        new_values = {f: _renamed(v, old, new) for f, v in values.items()}
        if new_values != values:
            result.objects.filter(pk=row.pk).update(**new_values)
            changed += 1
    draw = model("tournaments", "Draw")
    for row in draw.objects.filter(tournament_id__in=ids):
        order = _renamed(list(row.order or ()), old, new)
        if order != row.order:
            draw.objects.filter(pk=row.pk).update(order=order, players_key=draw_players_key(order))
            changed += 1
    closing = model("tools", "ClosingEvent")
    changed += int(closing.objects.filter(table__evening__tournament_id__in=ids, player=old)
                   .update(player=new))
    return changed


def _tournaments_of(model: ModelOf, player_id: int) -> list[int]:
    return list(model("tournaments", "Entry").objects.filter(player_id=player_id)
                .values_list("tournament_id", flat=True))


def merge_conflicts(model: ModelOf, keep: Any, twin: Any) -> list[tuple[str, str]]:
    """Why ``twin`` cannot be merged into ``keep``: facts of both that only one player can
    have, as ``(kind, where)``: ``("arrived", date)``, ``("seated", date)`` on the same
    evening, ``("carry", tournament)`` a carry-over in the same tournament."""
    out = []
    checks = (
        ("evenings", "Arrival", "evening_id", "arrived", "evening__date"),
        ("results", "Seat", "evening_id", "seated", "evening__date"),
        ("tournaments", "CarryOver", "tournament_id", "carry", "tournament__name"),
    )
    for app, name, scope, kind, label in checks:
        cls = model(app, name)
        mine = dict(cls.objects.filter(player_id=keep.pk, superseded=False)
                    .values_list(scope, label))
        theirs = dict(cls.objects.filter(player_id=twin.pk, superseded=False)
                      .values_list(scope, label))
        for both in sorted(set(mine) & set(theirs)):
            out.append((kind, str(mine[both])))
    return out


def merge_player(model: ModelOf, keep: Any, twin: Any, *, who: str) -> dict[str, Any]:
    """Move every fact of ``twin`` to ``keep`` (entries, arrivals, seats, penalties,
    discipline, carry-over; names in results and draws), then rename ``twin`` out of the
    way (``key`` ``<key>#merged-<id>``: its row stays, holding nothing). The caller checks
    :func:`merge_conflicts` first. Returns what moved, for the audit entry."""
    moved: dict[str, Any] = {}
    tournaments = sorted({*_tournaments_of(model, twin.pk), *_tournaments_of(model, keep.pk)})
    entry = model("tournaments", "Entry")
    mine = set(entry.objects.filter(player_id=keep.pk).values_list("tournament_id", flat=True))
    dropped = list(entry.objects.filter(player_id=twin.pk, tournament_id__in=mine)
                   .values_list("id", flat=True))
    entry.objects.filter(pk__in=dropped).delete()  # the same membership twice: one stays
    moved["entries"] = entry.objects.filter(player_id=twin.pk).update(player_id=keep.pk)
    moved["entries_merged"] = dropped
    for app, name in (("evenings", "Arrival"), ("results", "Seat"), ("results", "Penalty"),
                      ("results", "Discipline"), ("tournaments", "CarryOver")):
        moved[name] = model(app, name).objects.filter(player_id=twin.pk).update(
            player_id=keep.pk)
    moved["renamed_in_facts"] = rename_in_facts(model, tournaments, twin.name, keep.name)
    player = model("players", "Player")
    player.objects.filter(pk=twin.pk).update(
        key=f"{name_key(twin.name)}#merged-{twin.pk}"[:255])
    return moved


def normalise_names(model: ModelOf, *, who: str = WHO) -> Report:
    """Every player's name in NFC with single spaces and its key (NFC + case folding);
    players whose names are one name however typed are merged into the first registered
    (lowest id) when their facts allow it, else listed as collisions (their key marked
    ``#collision-<id>``, their name as it was) for the committee's "merge players"."""
    report = Report()
    player = model("players", "Player")
    groups: dict[str, list[Any]] = defaultdict(list)
    for p in player.objects.order_by("id"):
        groups[name_key(p.name)].append(p)
    for key, members in groups.items():
        keep, *twins = members
        for twin in twins:
            conflicts = merge_conflicts(model, keep, twin)
            if conflicts:
                player.objects.filter(pk=twin.pk).update(key=f"{key}#collision-{twin.pk}"[:255])
                why = "; ".join(f"both {kind} ({where})" for kind, where in conflicts)
                line = (f"{twin.name!r} (id {twin.pk}) is {keep.name!r} (id {keep.pk}) written "
                        f"differently, not merged: {why}")
                _audit(model, who, COLLISION, "", f"players.Player:{twin.pk}", line,
                       {"player": twin.pk, "same_as": keep.pk,
                        "conflicts": [list(c) for c in conflicts]})
                report.collisions.append(line)
                continue
            moved = merge_player(model, keep, twin, who=who)
            line = f"{twin.name!r} (id {twin.pk}) merged into {keep.name!r} (id {keep.pk})"
            _audit(model, who, MERGED, "", f"players.Player:{keep.pk}", line,
                   {"kept": keep.pk, "merged": twin.pk, "moved": moved})
            report.changes.append(line)
        clean = clean_name(keep.name)
        taken = player.objects.filter(name=clean).exclude(pk=keep.pk).exists()
        if clean != keep.name and not taken:
            rename_in_facts(model, _tournaments_of(model, keep.pk), keep.name, clean)
            line = f"player {keep.pk}: {keep.name!r} written in NFC as {clean!r}"
            _audit(model, who, RENAMED, "", f"players.Player:{keep.pk}", line,
                   {"old": keep.name, "new": clean})
            report.changes.append(line)
            player.objects.filter(pk=keep.pk).update(name=clean, key=key)
        else:
            player.objects.filter(pk=keep.pk).update(key=key)
    return report
