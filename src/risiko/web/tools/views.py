"""The referee tools at the table (phone-sized pages; referees only).

- ``referee_tools``: the index, with the tables of the latest evening.
- ``board_entry`` (+ ``board_score``, ``board_save``): the clickable board of a table; the
  live score; saving the sheet through :func:`risiko.web.services.enter_sheet`.
- ``closing_dice``: the table's closing dice (R2, R12, R13).
- ``attack_check`` (+ ``attack_api``, JSON): R7/R8 legality and the exact odds;
  ``attack_position`` (+ ``attack_position_api``, JSON): every attack of the seat to act in
  a position, the forbidden ones with the clause and its numbers.
- ``card_set`` (+ ``card_set_api``, JSON): the value of a set (R9).
- ``turn_clock``: the table's 3-minute turn clock (R11).
- ``board_map``: the board alone (official or club board).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

from django.contrib import messages
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBase,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from risiko.board import territory_name
from risiko.cards import NUM_CARDS
from risiko.closing import ClosingError, ClosingState, p_game_closes_in_round
from risiko.objectives import OBJECTIVES
from risiko.ruleset import Ruleset, get_ruleset
from risiko.web import services as web_services
from risiko.web.core.limits import loads
from risiko.web.core.tokens import once
from risiko.web.evenings.models import Evening
from risiko.web.results.models import GameTable
from risiko.web.results.selectors import current_result, seated
from risiko.web.site.permissions import referee_required
from risiko.web.tournaments.models import Tournament

from ..console.forms import fault_messages
from . import services
from .calc import AttackCheck, CardSet, card_set_value, check_attack, position_attacks
from .forms import AttackForm, CardSetForm, PositionForm
from .preview import Preview, SeatState, parse_state, preview
from .templatetags.board_tags import board_context

#: seat colours, by seat number (position): RisiKo! army colours
SEAT_COLOURS = ("red", "blue", "yellow", "green", "black", "purple")


def _lang() -> str:
    return "en" if (get_language() or "it").startswith("en") else "it"


def _who(request: HttpRequest) -> str:
    return request.user.get_username() or "?"


def _table(slug: str, date: str, number: int) -> GameTable:
    """The table, or 404."""
    tournament = get_object_or_404(Tournament, slug=slug)
    try:
        day = dt.date.fromisoformat(date)
    except ValueError:
        raise Http404 from None
    evening = get_object_or_404(Evening, tournament=tournament, date=day)
    return get_object_or_404(GameTable, evening=evening, number=number)


def _table_args(table: GameTable) -> list[Any]:
    evening = table.evening
    return [evening.tournament.slug, evening.date.isoformat(), table.number]


def _seat_colour_names() -> dict[str, str]:
    return {
        "red": _("red"), "blue": _("blue"), "yellow": _("yellow"), "green": _("green"),
        "black": _("black"), "purple": _("purple"),
    }


# ------------------------------------------------------------------------------ index
@referee_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The tools, and the tables of an evening (``?t=<slug>&date=YYYY-MM-DD``; default the
    latest evening of the current tournament) with links to each table's tools."""
    tournaments = list(Tournament.objects.order_by("-is_current", "-created"))
    tournament = None
    slug = request.GET.get("t")
    if slug:
        tournament = next((t for t in tournaments if t.slug == slug), None)
    if tournament is None and tournaments:
        tournament = tournaments[0]
    evenings = list(tournament.evenings.order_by("-date")) if tournament else []
    evening = None
    date = request.GET.get("date")
    if date:
        evening = next((e for e in evenings if e.date.isoformat() == date), None)
    if evening is None and evenings:
        evening = evenings[0]
    tables = []
    if evening is not None:
        for table in evening.tables.order_by("number"):
            tables.append({
                "table": table,
                "args": _table_args(table),
                "players": seated(table),
                "has_result": current_result(table) is not None,
            })
    return render(request, "tools/index.html", {
        "tournaments": tournaments,
        "tournament": tournament,
        "evenings": evenings,
        "evening": evening,
        "tables": tables,
    })


# ------------------------------------------------------------------------------ board
def _seated(table: GameTable) -> list[tuple[int, str]]:
    return [(s.position, s.player.name)
            for s in table.seats.current().order_by("position").select_related("player")]


def _state_from_sheet(sheet: Any, seated: list[tuple[int, str]]) -> dict[str, Any]:
    """The page's state from a stored sheet (players matched to the seats by name)."""
    by_name = {name: pos for pos, name in seated}
    seats = []
    for seat in (sheet or {}).get("seats", []):
        pos = by_name.get(seat.get("player"))
        if pos is None:
            continue
        seats.append({
            "position": pos,
            "objective": seat.get("objective"),
            "abandoned": bool(seat.get("abandoned")),
            "armies": dict(seat.get("armies", {})),
        })
    return {"seats": seats}


def _state_dict(seats: list[SeatState]) -> dict[str, Any]:
    """The page's state (territories by number) from parsed seats."""
    return {
        "seats": [
            {"position": s.position, "objective": s.objective, "abandoned": s.abandoned,
             "armies": {str(t): n for t, n in sorted(s.armies.items())}}
            for s in seats
        ]
    }


def _board_page(
    request: HttpRequest,
    table: GameTable,
    seats: list[SeatState],
    result: Preview,
    *,
    save_errors: list[str] | None = None,
    status: int = 200,
) -> HttpResponse:
    ruleset = services.table_ruleset(table)
    lang = _lang()
    colours = _seat_colour_names()
    seat_rows = [
        {"position": s.position, "player": s.player, "objective": s.objective,
         "abandoned": s.abandoned, "colour": SEAT_COLOURS[(s.position - 1) % 6],
         "colour_name": colours[SEAT_COLOURS[(s.position - 1) % 6]]}
        for s in seats
    ]
    existing = current_result(table)
    context = {
        "table": table,
        "evening": table.evening,
        "tournament": table.evening.tournament,
        "args": _table_args(table),
        "ruleset": ruleset,
        "seats": seat_rows,
        "objectives": [(o.number, o.name) for o in OBJECTIVES],
        "state": _state_dict(seats),
        "state_json": json.dumps(_state_dict(seats)),
        "preview": result,
        "score_rows": _score_rows(result),
        "save_errors": save_errors or [],
        "existing": existing,
        "reason": str(request.POST.get("reason", ""))[:300] if request.method == "POST" else "",
        "territory_names": [territory_name(t, lang) for t in range(42)],
        **board_context(ruleset.board_name, interactive=True, lang=lang),
    }
    return render(request, "tools/board_entry.html", context, status=status)


def _score_rows(result: Preview) -> list[dict[str, Any]]:
    rows = []
    for line in result.seats:
        s = line.score
        rows.append({
            "position": line.state.position,
            "player": line.state.player,
            "colour": SEAT_COLOURS[(line.state.position - 1) % 6],
            "objective": line.objective,
            "territories": line.territories,
            "armies": line.armies,
            "score": s,
            "continents": ", ".join(
                f"{c.name}{'*' if c.in_objective else ''} {c.points}" for c in s.continents
            ) if s else "",
        })
    return rows


@referee_required
@require_GET
def board_entry(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponse:
    """The clickable board of a table: pick a seat, click its territories, type the armies,
    choose its objective; the live score below (``board_score``), saved by ``board_save``.
    Starts from the table's current result when it is a sheet."""
    table = _table(slug, date, number)
    seated = _seated(table)
    existing = current_result(table)
    raw: Any = {}
    if existing is not None and existing.sheet:
        raw = _state_from_sheet(existing.sheet, seated)
    seats = parse_state(raw, seated)
    result = preview(seats, services.table_ruleset(table), _lang())
    return _board_page(request, table, seats, result)


def _posted_state(request: HttpRequest) -> Any:
    """The board's posted JSON, read safely (too deep, NUL: ServiceError naming it)."""
    text = request.POST.get("state", "")
    return loads("state", text) if text.strip() else {}


@referee_required
@require_POST
def board_score(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponse:
    """The live score of the posted board (``state`` = the page's JSON): an HTML fragment
    (JSON when the request accepts ``application/json``)."""
    table = _table(slug, date, number)
    try:
        seats = parse_state(_posted_state(request), _seated(table))
    except web_services.ServiceError as err:
        return HttpResponse("\n".join(fault_messages(err)), status=400,
                            content_type="text/plain; charset=utf-8")
    result = preview(seats, services.table_ruleset(table), _lang())
    if "application/json" in request.headers.get("Accept", ""):
        return JsonResponse(result.to_dict())
    return render(request, "tools/_board_scores.html", {
        "preview": result, "score_rows": _score_rows(result), "table": table,
    })


@referee_required
@require_POST
@once
def board_save(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponseBase:
    """Save the posted board as the table's result (``enter_sheet``; over a result already
    there, a correction: the field ``reason`` says why); refused, with the faults listed,
    while the sheet is incomplete or a correction says no reason."""
    table = _table(slug, date, number)
    try:
        seats = parse_state(_posted_state(request), _seated(table))
    except web_services.ServiceError as err:
        seats = parse_state({}, _seated(table))
        return _board_page(request, table, seats,
                           preview(seats, services.table_ruleset(table), _lang()),
                           save_errors=fault_messages(err), status=400)
    result = preview(seats, services.table_ruleset(table), _lang())
    if not result.complete or result.sheet is None:
        errors = [f["message"] for f in result.fault_rows if f["blocking"]]
        return _board_page(request, table, seats, result, save_errors=errors, status=400)
    try:
        web_services.enter_sheet(table, result.sheet, abandoned=result.abandoned,
                                 reason=str(request.POST.get("reason", "")), who=_who(request))
    except web_services.ServiceError as err:
        return _board_page(request, table, seats, result,
                           save_errors=fault_messages(err), status=400)
    messages.success(request, _("Table %(number)d: result saved.") % {"number": table.number})
    return redirect("board_entry", *_table_args(table))


# ------------------------------------------------------------------------------ closing dice
def _closing_message(code: str) -> str:
    return {
        "ended": _("The game has ended."),
        "out": _("That seat is not in play."),
        "conquests": _("R2: a seat that conquered 3 or more territories in its turn does not "
                       "roll: record it as \"no roll\"."),
        "penalised": _("Under these rules a penalised player does not roll."),
        "total": _("Two dice sum to 2 to 12."),
        "reason": _("Give the reason."),
        "back": _("That seat is in play."),
        "no_seat": _("No such seat at this table."),
        "number": _("Not a valid number for this field."),
    }.get(code, _("Refused."))


def _int(value: str | None, default: int | None = None) -> int | None:
    """A whole number typed in a field (empty: ``default``); ClosingError otherwise."""
    if value is None or not value.strip():
        return default
    text = value.strip()
    if not (text.lstrip("-").isascii() and text.lstrip("-").isdigit()) or len(text) > 9:
        raise ClosingError("number", f"not a whole number: {text[:20]!r}")
    return int(text)


@referee_required
@require_http_methods(["GET", "POST"])
@once
def closing_dice(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponseBase:
    """The closing dice of a table (R2): round and band, whose turn, who may roll, the rolls;
    POST ``action`` roll | skip | widen | end | out | back | undo."""
    table = _table(slug, date, number)
    if request.method == "POST":
        action = request.POST.get("action") or ("roll" if "total" in request.POST else "")
        who = _who(request)
        try:
            if action == "undo":
                if services.undo_closing(table, who=who) is None:
                    messages.info(request, _("Nothing to undo."))
            elif action in ("roll", "skip", "widen", "end", "out", "back"):
                total = _int(request.POST.get("total"))
                if action == "roll" and total is None:
                    raise ClosingError("total", "no total")
                row = services.record_closing(
                    table, action,
                    position=_int(request.POST.get("position")),
                    total=total,
                    conquests=_int(request.POST.get("conquests"), 0) or 0,
                    reason=request.POST.get("reason", ""),
                    who=who,
                )
                if row.closed:
                    messages.success(request, _("%(player)s rolled %(total)d: the game is "
                                                "over.") % {"player": row.player,
                                                            "total": row.total})
            else:
                raise ClosingError("action", "unknown action")
        except ClosingError as err:  # refused, nothing written: the page again, with why
            messages.error(request, _("Unknown action.") if err.code == "action"
                           else _closing_message(err.code))
            state = services.closing_state(table)
            return render(request, "tools/closing_dice.html", _closing_context(table, state),
                          status=400)
        return redirect("closing_dice", *_table_args(table))
    state = services.closing_state(table)
    return render(request, "tools/closing_dice.html", _closing_context(table, state))


def _closing_context(table: GameTable, state: ClosingState) -> dict[str, Any]:
    rs = state.ruleset
    low, high = state.band
    rollers = len(state.in_play)
    history = []
    for turn in reversed(state.turns):
        history.append({"turn": turn, "kind": turn.event.kind})
    return {
        "table": table,
        "evening": table.evening,
        "tournament": table.evening.tournament,
        "args": _table_args(table),
        "state": state,
        "ruleset": rs,
        "band_low": low,
        "band_high": high,
        "band_single": low == high,
        "probability": round(state.probability * 100, 1),
        "round_probability": round(
            p_game_closes_in_round(rs, state.band_round, rollers) * 100, 1),
        "totals": [{"value": v, "closes": low <= v <= high} for v in range(2, 13)],
        "seats": [
            {"seat": s, "in_play": s.position not in state.out,
             "current": s.position == state.current,
             "colour": SEAT_COLOURS[(s.position - 1) % 6]}
            for s in state.seats
        ],
        "skip_at": rs.closing_skip_if_conquered,
        "history": history,
        "next_bands": [
            {"round": k, "band": rs.closing_band(k + state.widened)}
            for k in range(state.closing_round + 1, state.closing_round + 4)
        ],
    }


# ------------------------------------------------------------------------------ attack
def _default_ruleset() -> str:
    current = Tournament.objects.current()
    return current.ruleset_name if current else "club-milano"


def _attack_reason(check: AttackCheck) -> str:
    if check.rule is None:
        return ""
    if check.rule == "armies":
        return _("The attacking territory needs at least 2 armies (it has %(a)d).") % {
            "a": check.attacker}
    if check.rule == "R7":
        return ngettext(
            "R7: %(i)d attacking die against %(j)d defending dice: the attacker must "
            "roll at least as many dice as the defender.",
            "R7: %(i)d attacking dice against %(j)d defending dice: the attacker must "
            "roll at least as many dice as the defender.",
            check.attacker_dice) % {"i": check.attacker_dice, "j": check.defender_dice}
    return _("R8: %(n)d armies bordering the target do not outnumber %(d)d, and the "
             "attacking territory holds %(w)d or fewer.") % {
        "n": check.bordering, "d": check.defender,
        "w": check.ruleset.superiority_waiver_above}


@referee_required
@require_GET
def attack_check(request: HttpRequest) -> HttpResponse:
    """Is the attack legal (R7, R8)? With the exact odds of conquest and expected losses.
    Answers a fragment to htmx."""
    form = AttackForm(request.GET or None,
                      initial={"ruleset": _default_ruleset(), "support": 0})
    check = None
    if form.is_bound and form.is_valid():
        check = check_attack(
            form.cleaned_data["attacker"], form.cleaned_data["defender"],
            get_ruleset(form.cleaned_data["ruleset"]), form.cleaned_data["support"] or 0,
        )
    context: dict[str, Any] = {
        "form": form,
        "check": check,
        "reason": _attack_reason(check) if check else "",
        "p_conquer": round(check.odds.p_conquer * 100, 1) if check else None,
        "outcomes": [
            {**o, "p": round(o["p"] * 100, 1)} for o in check.outcomes()
        ] if check and check.legal else [],
    }
    if request.headers.get("HX-Request"):
        return render(request, "tools/_attack_result.html", context)
    context["position_form"] = PositionForm()
    return render(request, "tools/attack_check.html", context)


@referee_required
@require_POST
def attack_position(request: HttpRequest) -> HttpResponse:
    """The attack check from a position (posted JSON, read only): every attack of the seat
    to act, the legal ones with their dice, the forbidden ones with the clause (R7, R8, R3)
    and its numbers - what settles a dispute at the table."""
    form = PositionForm(request.POST)
    found = None
    errors: list[str] = []
    if form.is_valid():
        try:
            found = position_attacks(loads("position", form.cleaned_data["position"]), _lang())
        except (web_services.ServiceError, ValueError) as err:
            errors = fault_messages(err)
    context = {
        "form": AttackForm(initial={"ruleset": _default_ruleset(), "support": 0}),
        "check": None,
        "position_form": form,
        "position": found,
        "position_errors": errors,
    }
    return render(request, "tools/attack_check.html", context, status=200 if found else 400)


@referee_required
@require_POST
def attack_position_api(request: HttpRequest) -> JsonResponse:
    """JSON: the body is a position -> ``risiko legal --json --explain`` of it (``to_act``,
    ``phase``, ``actions``, ``attacks``, ``forbidden_attacks``); 400 with ``faults`` for a
    bad position."""
    from risiko.faults import faults_json

    try:
        found = position_attacks(loads("position", request.body))
    except (web_services.ServiceError, ValueError) as err:
        faults = getattr(err, "faults", ())
        return JsonResponse({"error": "; ".join(fault_messages(err)),
                             "faults": faults_json(faults)}, status=400)
    return JsonResponse(found.report)


def _bad_request(message: str) -> JsonResponse:
    return JsonResponse({"error": message}, status=400)


def _refused(err: Exception) -> JsonResponse:
    """400: the refusal's English messages (``error``) and its ``faults`` (JSON is English)."""
    from risiko.faults import faults_json

    faults = list(getattr(err, "faults", None) or ())
    if not faults:
        return _bad_request(str(err))
    return JsonResponse({"error": "; ".join(f.message("en") for f in faults),
                         "faults": faults_json(faults)}, status=400)


def _whole(query: Any, field: str, default: int | None = None) -> int:
    """The whole number of the query parameter ``field`` (``default`` when absent or
    empty); ServiceError (``service.missing_field`` / ``service.not_whole``) naming it."""
    from risiko.web.core import faults as F

    text = str(query.get(field) or "").strip()
    if not text:
        if default is None:
            raise web_services.ServiceError(F.MISSING_FIELD({"field": field}))
        return default
    digits = text[1:] if text[:1] in "+-" else text
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 9:
        raise web_services.ServiceError(F.NOT_WHOLE({"field": field}, value=repr(text[:40])))
    return int(text)


@referee_required
@require_GET
def attack_api(request: HttpRequest) -> JsonResponse:
    """JSON: ``?attacker=A&defender=D[&support=S][&ruleset=club-milano]`` -> legal, rule,
    reason (the library's), dice, p_conquer, expected losses, most likely outcomes."""
    try:
        a = _whole(request.GET, "attacker")
        d = _whole(request.GET, "defender")
        support = _whole(request.GET, "support", 0)
        ruleset = get_ruleset(request.GET.get("ruleset") or "club-milano")
        check = check_attack(a, d, ruleset, support)
    except ValueError as err:  # ServiceError and the library's faults are ValueErrors
        return _refused(err)
    return JsonResponse(check.to_dict())


# ------------------------------------------------------------------------------ cards
@referee_required
@require_GET
def card_set(request: HttpRequest) -> HttpResponse:
    """The value of a set of three cards (R9): 8/10/12 by cards in hand, +2 per card
    showing an owned territory. Answers a fragment to htmx."""
    form = CardSetForm(request.GET or None, initial={"ruleset": _default_ruleset(), "hand": 3})
    result: CardSet | None = None
    if form.is_bound and form.is_valid():
        result = card_set_value(form.cards(), form.cleaned_data["hand"], form.owned(),
                                get_ruleset(form.cleaned_data["ruleset"]))
    context: dict[str, Any] = {"form": form, "result": result, "symbols": _symbol_names()}
    if result is not None:
        lang = _lang()
        context["cards"] = [
            {"name": _("Jolly") if c >= 42 else territory_name(c, lang),
             "symbol": _symbol_names()["jolly" if c >= 42 else _symbol_of(c)],
             "owned": c in result.owned_cards}
            for c in result.cards
        ]
        context["kind"] = _kind_names().get(result.kind or "", "")
    if request.headers.get("HX-Request"):
        return render(request, "tools/_card_result.html", context)
    return render(request, "tools/card_set.html", context)


def _symbol_of(card: int) -> str:
    from risiko.cards import card_symbol

    return card_symbol(card)


def _symbol_names() -> dict[str, str]:
    return {"fante": _("infantry"), "cannone": _("artillery"), "cavaliere": _("cavalry"),
            "jolly": _("jolly")}


def _kind_names() -> dict[str, str]:
    return {"fante": _("three infantry"), "cannone": _("three artillery"),
            "cavaliere": _("three cavalry"), "mixed": _("one of each symbol"),
            "jolly": _("jolly with two equal symbols")}


@referee_required
@require_GET
def card_set_api(request: HttpRequest) -> JsonResponse:
    """JSON: ``?cards=Alaska,Perù,jolly&hand=4[&owned=Alaska,...][&ruleset=...]`` -> valid,
    kind, value, bonus, total."""
    try:
        cards = [c.strip() for c in request.GET.get("cards", "").split(",") if c.strip()]
        owned = [c.strip() for c in request.GET.get("owned", "").split(",") if c.strip()]
        hand = _whole(request.GET, "hand", 3)
        if not 3 <= hand <= NUM_CARDS:  # as the page's form: a hand the deck can deal
            raise ValueError(f"hand is the cards in hand at the trade, 3 to {NUM_CARDS}")
        ruleset = get_ruleset(request.GET.get("ruleset") or "club-milano")
        result = card_set_value(cards, hand, owned, ruleset)
    except ValueError as err:
        return _refused(err)
    return JsonResponse(result.to_dict())


# ------------------------------------------------------------------------------ turn clock
@referee_required
@require_http_methods(["GET", "POST"])
@once
def turn_clock(request: HttpRequest, slug: str, date: str, number: int) -> HttpResponseBase:
    """The table's 3-minute turn clock (R11): POST ``on`` 1/0 switches the table's limit;
    the countdown runs in the browser (tools/clock.js)."""
    table = _table(slug, date, number)
    ruleset: Ruleset = services.table_ruleset(table)
    if request.method == "POST":
        on = request.POST.get("on") == "1"
        services.set_turn_clock(table, on, who=_who(request))
        messages.success(request, _("Turn clock switched on.") if on
                         else _("Turn clock switched off."))
        return redirect("turn_clock", *_table_args(table))
    seats = list(table.seats.current().order_by("position").select_related("player"))
    return render(request, "tools/turn_clock.html", {
        "table": table,
        "evening": table.evening,
        "tournament": table.evening.tournament,
        "args": _table_args(table),
        "seconds": ruleset.turn_time_limit_minutes * 60,
        "minutes": ruleset.turn_time_limit_minutes,
        "players": [s.player.name for s in seats],
    })


# ------------------------------------------------------------------------------ board map
@referee_required
@require_GET
def board_map(request: HttpRequest) -> HttpResponse:
    """The board alone: ``?board=official`` or the club's (R6) by default."""
    name = request.GET.get("board", "club-milano")
    if name not in ("official", "club-milano"):
        name = "club-milano"
    return render(request, "tools/board_map.html", {
        "board_name": name, **board_context(name, lang=_lang()),
        "board_url": reverse("board_map"),
    })
