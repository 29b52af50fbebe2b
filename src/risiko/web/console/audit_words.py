"""The audit log in the reader's language: an entry's action and summary rendered from its
values, never the words the service wrote.

An :class:`~risiko.web.auditlog.models.AuditEntry` keeps a code (``action``: ``"enter
result"``, ``"swap seats"`` ...) and, since issue 18, the values of its summary (``params``:
the player, the time, the R3 class, the table ...). :func:`action_text` gives the action's
name and :func:`summary_text` its one line in the page's language, the domain's codes said
by :mod:`risiko.web.core.choices` (``on_time``: in orario). An entry written before
(no ``params``) or of an action without a template shows the summary it was written with.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from risiko.web.auditlog.models import AuditEntry
from risiko.web.core import choices

#: the name of each action, by its code
ACTIONS: dict[str, Promise] = {
    "create tournament": _("tournament created"),
    "set current tournament": _("current tournament chosen"),
    "change format": _("format changed"),
    "add player": _("player registered"),
    "carry over": _("carry-over"),
    "draw of lots": _("draw of lots"),
    "open evening": _("evening opened"),
    "arrival": _("arrival"),
    "correct arrival": _("arrival corrected"),
    "seat evening": _("tables seated by the optimiser"),
    "set tables": _("tables seated by hand"),
    "swap seats": _("seats swapped"),
    "enter result": _("result entered"),
    "correct result": _("result corrected"),
    "penalty": _("penalty"),
    "void penalty": _("penalty voided"),
    "appeal": _("appeal decided"),
    "discipline": _("disciplinary record"),
    "merge players": _("players merged"),
    "closing dice": _("closing dice"),
    "closing dice undo": _("closing dice voided"),
    "turn clock": _("turn clock"),
    "admin add": _("added in the administration"),
    "admin change": _("changed in the administration"),
    "online create": _("online table created"),
    "online start": _("online table started"),
    "online evening": _("online tables opened"),
    "online result waiting": _("online result waiting"),
    "online result kept": _("online result decided"),
    "online invite": _("online invitation"),
    "online member": _("online account created"),
    # the referee's commands at an online table (online.services.referee.HANDLERS)
    "online pause": _("online table paused"),
    "online resume": _("online table resumed"),
    "online call": _("last two rounds called online (R2)"),
    "online widen": _("closing dice widened online"),
    "online end_game": _("online game ended by the referee"),
    "online abandon": _("abandon at an online table (R13)"),
    "online expel": _("expulsion from an online table"),
    "online penalty": _("penalty at an online table"),
    "online undo": _("move undone at an online table"),
}


def action_text(entry: AuditEntry) -> str:
    """The entry's action in the page's language (its code when unknown)."""
    return str(ACTIONS.get(entry.action, entry.action))


#: where an imported evening came from
SOURCES: dict[str, Promise] = {
    "a season file": _("a season file"),
    "a club sheet": _("a club sheet"),
}


def _evening(p: Mapping[str, Any]) -> str:
    return _g("evening %(date)s (%(stage)s)") % {
        "date": p.get("date", ""), "stage": choices.label(choices.Stage, p.get("stage", ""))}


def _opened(p: Mapping[str, Any]) -> str:
    if "source" not in p:
        return _evening(p)
    return _g("%(evening)s from %(source)s: %(arrivals)s arrivals, %(tables)s tables, "
              "%(results)s results, %(penalties)s penalties") % {
        "evening": _evening(p), "source": str(SOURCES.get(p["source"], p["source"])),
        **{k: p.get(k, 0) for k in ("arrivals", "tables", "results", "penalties")}}


def _arrival(p: Mapping[str, Any]) -> str:
    text = _g("%(player)s arrived at %(at)s: %(class)s") % {
        "player": p.get("player", ""), "at": p.get("at", ""),
        "class": choices.label(choices.ArrivalClass, p.get("class", ""))}
    return text + (f" ({_g('phoned')})" if p.get("phoned") else "")


def _result(p: Mapping[str, Any]) -> str:
    kind = _g("end-of-game sheet") if p.get("kind") == "sheet" else _g("scores typed in")
    return _g("%(evening)s, table %(table)s: %(kind)s") % {
        "evening": _evening(p), "table": p.get("table", ""), "kind": kind}


def _swap(p: Mapping[str, Any]) -> str:
    return _g("%(a)s (table %(table_a)s, seat %(seat_a)s) and %(b)s (table %(table_b)s, "
              "seat %(seat_b)s)") % {k: p.get(k, "") for k in (
                  "a", "b", "table_a", "table_b", "seat_a", "seat_b")}


def _tables(p: Mapping[str, Any]) -> str:
    n = int(p.get("tables", 0) or 0)
    return ngettext("%(n)d table", "%(n)d tables", n) % {"n": n}


def _penalty(p: Mapping[str, Any]) -> str:
    return _g("%(player)s %(points)s %(unit)s") % {
        "player": p.get("player", ""), "points": p.get("points", ""),
        "unit": choices.label(choices.PenaltyUnit, p.get("unit", ""))}


def _appeal(p: Mapping[str, Any]) -> str:
    return _g("penalty of %(player)s (%(points)s): %(outcome)s") % {
        "player": p.get("player", ""), "points": p.get("points", ""),
        "outcome": choices.label(choices.AppealOutcome, p.get("outcome", ""))}


def _discipline(p: Mapping[str, Any]) -> str:
    return _g("%(player)s: %(level)s") % {
        "player": p.get("player", ""),
        "level": choices.label(choices.DisciplineLevel, p.get("level", ""))}


def _tournament(p: Mapping[str, Any]) -> str:
    return _g("%(name)s (%(ruleset)s, format %(format)s)") % {
        k: p.get(k, "") for k in ("name", "ruleset", "format")}


def _format(p: Mapping[str, Any]) -> str:
    return f"{p.get('old', '?')} → {p.get('new', '?')}"


def _draw(p: Mapping[str, Any]) -> str:
    return f"{choices.label(choices.Stage, p.get('stage', ''))}: {', '.join(p.get('players', ()))}"


def _merge(p: Mapping[str, Any]) -> str:
    return _g("%(merged)s merged into %(kept)s") % {
        "merged": p.get("merged", ""), "kept": p.get("kept", "")}


def _table(p: Mapping[str, Any]) -> str:
    return _g("%(evening)s, table %(table)s") % {"evening": _evening(p), "table": p.get("table")}


def _closing(p: Mapping[str, Any]) -> str:
    """R2's closing dice: the round, the band and what happened."""
    values = {"player": p.get("player", ""), "total": p.get("total"),
              "conquests": p.get("conquests", 0)}
    what = {
        "roll": _g("%(player)s rolled %(total)s (%(conquests)s conquests)"),
        "skip": _g("%(player)s: no roll (%(conquests)s conquests)"),
        "widen": _g("band widened"),
        "end": _g("game ended"),
        "out": _g("%(player)s out of play"),
        "back": _g("%(player)s back in play"),
    }.get(str(p.get("kind")), str(p.get("kind"))) % values
    if p.get("closed"):
        what += " · " + _g("game closed")
    return _g("%(table)s, closing round %(round)s (band %(low)s-%(high)s): %(what)s") % {
        "table": _table(p), "round": p.get("round"), "low": p.get("low"),
        "high": p.get("high"), "what": what}


def _closing_undo(p: Mapping[str, Any]) -> str:
    return _g("%(table)s: %(player)s") % {"table": _table(p), "player": p.get("player", "")}


def _clock(p: Mapping[str, Any]) -> str:
    state = _g("on") if p.get("on") else _g("off")
    return _g("%(table)s: turn clock %(state)s (R11)") % {"table": _table(p), "state": state}


def _online_table(p: Mapping[str, Any]) -> str:
    """An online table by its code, its evening's table when it is a tournament's."""
    text = _g("online table %(code)s") % {"code": p.get("code", "")}
    if p.get("date"):
        text = _g("%(table)s (%(online)s)") % {"table": _table(p), "online": text}
    return text


def _online_create(p: Mapping[str, Any]) -> str:
    n = int(p.get("seats", 0) or 0)
    return _g("%(table)s: %(seats)s") % {
        "table": _online_table(p),
        "seats": ngettext("%(n)d seat", "%(n)d seats", n) % {"n": n}}


def _online_evening(p: Mapping[str, Any]) -> str:
    n = int(p.get("tables", 0) or 0)
    return _g("%(evening)s: %(tables)s") % {
        "evening": _evening(p),
        "tables": ngettext("%(n)d online table", "%(n)d online tables", n) % {"n": n}}


def _online_waiting(p: Mapping[str, Any]) -> str:
    return _g("%(table)s: the online result waits beside the one entered by %(by)s") % {
        "table": _online_table(p), "by": p.get("by", "")}


def _online_kept(p: Mapping[str, Any]) -> str:
    text = (_g("%(table)s: the online result kept") if p.get("keep") == "online"
            else _g("%(table)s: the referee's result kept"))
    return text % {"table": _online_table(p)}


def _online_command(p: Mapping[str, Any]) -> str:
    """A referee's command at an online table: the table, the seat and its player, the
    points of a penalty."""
    text = _online_table(p)
    if p.get("seat"):
        text = _g("%(table)s, seat %(seat)s (%(player)s)") % {
            "table": text, "seat": p.get("seat"), "player": p.get("player", "")}
    if p.get("points") is not None:
        text = _g("%(what)s: %(points)s points") % {"what": text, "points": p.get("points")}
    return text


def _online_invite(p: Mapping[str, Any]) -> str:
    return _g("invitation for %(player)s") % {"player": p.get("player", "")}


def _online_member(p: Mapping[str, Any]) -> str:
    return _g("account %(username)s is %(player)s") % {
        "username": p.get("username", ""), "player": p.get("player", "")}


#: the summary of each action with values, built in the page's language
SUMMARIES: dict[str, Callable[[Mapping[str, Any]], str]] = {
    "create tournament": _tournament,
    "change format": _format,
    "draw of lots": _draw,
    "open evening": _opened,
    "arrival": _arrival,
    "correct arrival": _arrival,
    "seat evening": _tables,
    "set tables": _tables,
    "swap seats": _swap,
    "enter result": _result,
    "correct result": _result,
    "penalty": _penalty,
    "appeal": _appeal,
    "discipline": _discipline,
    "merge players": _merge,
    "closing dice": _closing,
    "closing dice undo": _closing_undo,
    "turn clock": _clock,
    "online create": _online_create,
    "online start": _online_table,
    "online evening": _online_evening,
    "online result waiting": _online_waiting,
    "online result kept": _online_kept,
    "online invite": _online_invite,
    "online member": _online_member,
    **{f"online {kind}": _online_command for kind in (
        "pause", "resume", "call", "widen", "end_game", "abandon", "expel", "penalty",
        "undo")},
}


#: the keys of an entry's values (``data``), said in the page's language; a key not listed
#: shows as written
DATA_KEYS: dict[str, Promise] = {
    "new": _("new values"),
    "old": _("previous values"),
    "replaced": _("replaced"),
    "reason": _("reason"),
    "scores": _("scores"),
    "sheet": _("sheet"),
    "risiko": _("RisiKo! marks"),
    "abandoned": _("abandoned (R13)"),
    "winners": _("winners"),
    "eliminated": _("eliminated"),
    "tables": _("tables"),
    "table": _("table"),
    "points": _("points"),
    "player": _("player"),
    "players": _("players"),
    "stage": _("stage"),
    "date": _("date"),
    "kept": _("kept"),
    "merged": _("merged"),
    "moved": _("moved"),
    "unit": _("unit"),
    "level": _("level"),
    "outcome": _("outcome"),
    "phoned": _("phoned"),
    "format": _("format"),
    "name": _("name"),
    "ruleset": _("ruleset"),
    "source": _("source"),
    "rows": _("rows"),
    "evenings": _("evenings"),
    "before": _("before"),
    "after": _("after"),
    "changed": _("changed"),
    "superseded": _("superseded"),
    "settings": _("settings"),
    "bots": _("bots"),
    "commitment": _("seed commitment"),
    "command": _("command"),
    "seq": _("event number"),
    "beside": _("beside the result"),
    "keep": _("kept result"),
    "online_table": _("online table"),
}


#: the keys whose values are keyed by player names (said as typed, never translated)
NAMED = frozenset({"scores"})


def _value_text(value: Any, indent: str, *, names: bool = False) -> str:
    """One value of :func:`data_text`: a mapping on its own indented lines (``names``: its
    keys are players' names, kept as typed), a list of plain values comma separated,
    anything else as JSON."""
    if isinstance(value, Mapping):
        lines = []
        for k, v in value.items():
            text = _value_text(v, indent + "  ", names=k in NAMED)
            gap = "" if text.startswith("\n") else " "
            lines.append(f"\n{indent}{k if names else _key_text(k)}:{gap}{text}")
        return "".join(lines)
    if isinstance(value, list) and all(not isinstance(v, Mapping | list) for v in value):
        return ", ".join(_scalar_text(v) for v in value) if value else "—"
    if isinstance(value, list):
        return "".join(f"\n{indent}- {_value_text(v, indent + '  ').lstrip()}"
                       for v in value)
    return _scalar_text(value)


def _scalar_text(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _g("yes") if value else _g("no")
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _key_text(key: Any) -> str:
    return str(DATA_KEYS.get(str(key), key))


def data_text(data: Mapping[str, Any]) -> str:
    """An entry's values (``data``: what was entered, what it replaced, the reason) as
    indented lines, each key said in the page's language (``nuovi valori:``, ``punteggi:``,
    ``motivo:``); "" when there are none."""
    return _value_text(dict(data), "").lstrip("\n") if data else ""


def summary_text(entry: AuditEntry) -> str:
    """The entry's one line in the page's language, its reason (as typed) after a dash; the
    stored summary when the entry has no values (written before) or no template."""
    params = entry.params or {}
    build = SUMMARIES.get(entry.action)
    if build is None or not params:
        return entry.summary
    text = build(params)
    reason = str(params.get("reason") or "")
    return f"{text} — {reason}" if reason else text
