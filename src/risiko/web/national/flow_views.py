"""The publish → approve flow's doors (see :mod:`.publishing`).

- ``national_receive`` (``POST /nazionale/api/pubblica/``): a club server's signed report.
  CSRF-exempt (no cookie is involved: the HMAC with the club key is the authentication),
  limited per client address (``RISIKO_PUBLISH_MAX_PER_ADDRESS``, checked before anything
  else) and per key (``RISIKO_PUBLISH_MAX_PER_KEY``, counted once the signature is good) in
  ``RISIKO_LOGIN_WINDOW`` seconds.
  Answers JSON: 201 ``{"tournament", "revision", "status", "unchanged", "id"}`` (200 when
  unchanged); a refusal ``{"faults": [{"code", ..., "message" (Italian), "messages": {"it",
  "en"}}]}`` with 400 (a bad body or report), 401 (unknown key, bad signature), 403 (another
  club's report), 409 (a replayed or older revision), 429 (too many).
- ``national_officer`` (``/nazionale/ufficiale/``): the national officer's page
  (``national.approve_report``): reports waiting, each approved or refused with a reason
  (one-time form tokens), the last decisions.
- ``console_publish`` (``/arbitro/t/<slug>/nazionale/``): a referee publishes a finished
  tournament of this server.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponseBase, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from risiko.faults import Fault, RisikoError
from risiko.national.categories import Category
from risiko.national.report import ReportError
from risiko.web.console.common import refused, tournament_or_404, who
from risiko.web.core.tokens import once
from risiko.web.site.permissions import officer_required, referee_required
from risiko.web.site.ratelimit import client_ip, take_slot

from . import publishing
from .models import CATEGORY_NAMES, Club, RevisionStatus, TournamentRevision

#: the HTTP status of each refusal's code (others: 400)
STATUS = {
    publishing.UNKNOWN_KEY.code: 401,
    publishing.BAD_SIGNATURE.code: 401,
    publishing.WRONG_CLUB.code: 403,
    publishing.STALE.code: 409,
    publishing.TOO_MANY.code: 429,
}


def _fault_json(fault: Fault) -> dict[str, Any]:
    out = fault.to_dict("it")
    out["messages"] = {"it": fault.message("it"), "en": fault.message("en")}
    return out


def _refused(faults: list[Fault]) -> JsonResponse:
    status = STATUS.get(faults[0].code, 400)
    return JsonResponse({"faults": [_fault_json(f) for f in faults]}, status=status,
                        json_dumps_params={"ensure_ascii": False})


@csrf_exempt
@require_POST
def national_receive(request: HttpRequest) -> JsonResponse:
    """A club server's signed report (see the module)."""
    key_id = request.headers.get("X-Risiko-Key", "").strip()
    if not take_slot("publish-address", client_ip(request),
                     settings.RISIKO_PUBLISH_MAX_PER_ADDRESS):
        return _refused([publishing.TOO_MANY()])

    def admit(key: str) -> bool:
        return take_slot("publish-key", key, settings.RISIKO_PUBLISH_MAX_PER_KEY)

    try:
        done = publishing.receive(request.body, key_id,
                                  request.headers.get("X-Risiko-Signature", ""), admit)
    except (publishing.PublishError, ReportError) as e:
        return _refused(list(e.faults))
    return JsonResponse(done.to_json(), status=200 if done.unchanged else 201,
                        json_dumps_params={"ensure_ascii": False})


def _row(r: TournamentRevision) -> dict[str, Any]:
    return {"id": r.pk, "tournament": str(r.tournament), "name": r.tournament.name,
            "club": r.tournament.club.name, "number": r.number, "by": r.by,
            "received": r.received, "category": CATEGORY_NAMES[Category(r.category)],
            "tables": r.tables, "last_date": r.last_date, "status": r.get_status_display(),
            "decided_by": r.decided_by, "decided_at": r.decided_at, "reason": r.reason,
            "in_force": r.tournament.current}


@officer_required
@require_http_methods(["GET"])
def national_officer(request: HttpRequest) -> HttpResponseBase:
    """The reports waiting for the officer, and the last 30 decisions."""
    base = TournamentRevision.objects.select_related("tournament", "tournament__club")
    waiting = base.filter(status=RevisionStatus.PUBLISHED).order_by("received", "pk")
    decided = base.exclude(status=RevisionStatus.PUBLISHED).exclude(decided_at=None).order_by(
        "-decided_at", "-pk")[:30]
    return render(request, "national/officer.html", {
        "waiting": [_row(r) for r in waiting], "decided": [_row(r) for r in decided]})


@officer_required
@require_POST
@once
def national_decide(request: HttpRequest, revision: int) -> HttpResponseBase:
    """Approve (``decision=approve``) or refuse (``decision=refuse`` with ``reason``) one
    waiting report; a refusal is said at the top of the officer's page."""
    by = request.user.get_username()
    try:
        if request.POST.get("decision") == "approve":
            done = publishing.approve(revision, by=by)
            messages.success(request, _("%(tournament)s, revision %(number)s: approved, the "
                                        "list is recomputed.") % {
                "tournament": done.tournament, "number": done.number})
        else:
            done = publishing.refuse(revision, by=by, reason=request.POST.get("reason", ""))
            messages.success(request, _("%(tournament)s, revision %(number)s: refused.") % {
                "tournament": done.tournament, "number": done.number})
    except RisikoError as e:
        for fault in e.faults:
            messages.error(request, fault.message(request.LANGUAGE_CODE))
    return redirect("national_officer")


def _default_club() -> str:
    return str(getattr(settings, "RISIKO_NATIONAL_CLUB_ID", "") or "")


@referee_required
@require_http_methods(["GET", "POST"])
@once
def console_publish(request: HttpRequest, slug: str) -> HttpResponseBase:
    """A referee publishes a finished tournament of this server to the national ranking
    (``/arbitro/t/<slug>/nazionale/``): the report (its players named by the register, the
    others said anonymous) waits for the national officer. Fields: ``club`` (a registered
    club's identifier; default ``RISIKO_NATIONAL_CLUB_ID``; a tournament that has its own
    ``club`` is published for it, nothing else offered) and ``category``."""
    t = tournament_or_404(slug)
    own = getattr(t, "club", None)  # a tournament owned by its club (clubs on one server)
    clubs = [own] if isinstance(own, Club) else list(Club.objects.order_by("name"))
    club_key = (own.key if isinstance(own, Club) else request.POST.get("club")
                or _default_club() or (clubs[0].key if len(clubs) == 1 else ""))
    category_value = request.POST.get("category") or Category.CAMPIONATO.value
    errors: list[str] = []
    report = None
    club = next((c for c in clubs if c.key == club_key), None)
    try:
        category = Category(category_value)
    except ValueError:
        category = Category.CAMPIONATO
        errors.append(_("Unknown category."))
    if club is None:
        errors.append(_("Choose the club the tournament is published for (a club registered "
                        "in the national ranking)."))
    else:
        try:
            report = publishing.club_report(t, club_id=club.key, club_name=club.name,
                                            category=category)
        except RisikoError as e:
            errors += [f.message(request.LANGUAGE_CODE) for f in e.faults]
    if request.method == "POST" and report is not None and not errors:
        try:
            done = publishing.publish_report(report, by=who(request),
                                             source=f"console {t.slug}")
        except RisikoError as e:
            errors += [f.message(request.LANGUAGE_CODE) for f in e.faults]
        else:
            if done.unchanged:
                messages.info(request, _("Already published (revision %(number)s): nothing "
                                         "written.") % {"number": done.number})
            else:
                messages.success(request, _("Published: %(tournament)s, revision %(number)s, "
                                            "waiting for the national officer's approval.")
                                 % {"tournament": done.label, "number": done.number})
            return redirect("console_national_publish", t.slug)
    response = render(request, "national/publish.html", {
        "tournament": t, "clubs": clubs, "club_key": club_key, "errors": errors,
        "categories": [(c.value, CATEGORY_NAMES[c]) for c in Category],
        "category": category.value,
        "anonymous": publishing.anonymous_said(report, request.LANGUAGE_CODE) if report
        else [],
        "players": len(report.players) if report else 0,
        "games": report.tables if report else 0,
        "revisions": TournamentRevision.objects.filter(
            tournament__club__key=club_key, tournament__name=t.name).select_related(
            "tournament").order_by("-number")[:10]})
    return refused(request, response) if errors else response
