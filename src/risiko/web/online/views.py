"""Pages of the online tables: lobby, table, join, guest links, replay, member invitations,
online evenings of a tournament. The game itself travels over the WebSocket (consumers)."""

from __future__ import annotations

import contextlib
import datetime as dt
import secrets
import unicodedata
from typing import Any

import segno
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from risiko.faults import Fault, RisikoError
from risiko.online import adapter
from risiko.online import log as olog
from risiko.web import services as club
from risiko.web.clubs import request_club
from risiko.web.core.tokens import once
from risiko.web.players.models import Player
from risiko.web.site.permissions import committee_required, is_referee, referee_required

from . import services
from .models import Member, MemberInvite, OnlineResult, OnlineSeat, OnlineTable

SESSION_KEY = "online_tokens"
#: the invitation a browser opened (its token, exchanged from the link at once)
INVITE_KEY = "online_invite"


def _lang() -> str:
    return "en" if (get_language() or "it").startswith("en") else "it"


def _words() -> dict[str, Any]:
    return {
        "connecting": _("connecting…"), "reconnecting": _("connection lost: reconnecting…"),
        "status": {"lobby": _("waiting for players"), "playing": _("playing"),
                   "paused": _("paused"), "over": _("game over")},
        "phase": {"setup": _("initial placement"), "reinforce": _("reinforcements"),
                  "attack": _("attacks"), "move": _("conquest move"), "over": _("over")},
        "seat_status": {"eliminated": _("eliminated"), "abandoned": _("left (R13)")},
        "round": _("round"), "to_act": _("to act"), "last_round": _("LAST round:"),
        "last_round_over": _("Last round:"),
        "closing": _("closing dice band"), "territories": _("territories"),
        "armies": _("armies"), "cards": _("cards"), "territory": _("territory"),
        "army": _("army"), "card": _("card"), "open_seat": _("free seat"),
        "away": _("away"), "stand_in_level": _("a level %(level)s bot plays"),
        "trade": _("Trade"), "vs": _("against"), "dice": _("dice"),
        "conquest": _("chance of conquest"), "clock_off": _("no turn clock"),
        "hint_place": _("Tap your territory to place the armies."),
        "hint_attack": _("Tap your territory, then the enemy one: the odds, then Roll."),
        "hint_fortify": _("Strategic move: tap the source, then the target."),
        "end": {"risiko": _("objective completed (RisiKo!)"),
                "closing_dice": _("closing dice (R2)"),
                "referee": _("ended by the referee (R2)"),
                "all_others_eliminated": _("all the others eliminated")},
        "zoom_in": _("Zoom in"), "zoom_out": _("Zoom out"),
        # the leave button's question, by what leaving does (services.leave)
        "leave_lobby": _("Leave your seat? It becomes free for someone else."),
        "leave_stand_in": _("Leave the table? A bot plays for you until you come back."),
        "leave_r13": _("Leave the table? Leaving the table is abandoning the game (R13): "
                       "the referee is asked to declare it."),
    }


def _tokens(request: HttpRequest) -> dict[str, str]:
    value = request.session.get(SESSION_KEY)
    return dict(value) if isinstance(value, dict) else {}


def _member(request: HttpRequest) -> Member | None:
    if not request.user.is_authenticated:
        return None
    return Member.objects.filter(user=request.user).select_related("player").first()


def _table(request: HttpRequest, code: str, **where: Any) -> OnlineTable:
    """The table of ``code`` of the request's club (issue 21 item 1); Http404 for another
    club's table or none."""
    return get_object_or_404(OnlineTable.objects.select_related("club"), code=code,
                             club=request_club(request), **where)


def lobby(request: HttpRequest) -> HttpResponse:
    """The request's club's open tables and, for a logged-in user, the form of a new table."""
    return render(request, "online/lobby.html", {
        "tables": services.lobby_tables(request_club(request)),
        "finished": OnlineTable.objects.filter(
            status="over", club=request_club(request)).order_by("-finished")[:20],
        "can_create": request.user.is_authenticated,
    })


def _int(value: Any, default: int | None, bad: Fault) -> int | None:
    """A whole number as typed (``" 4 "``), ``default`` when empty; ``bad`` raised for
    anything else (``2.5``, ``abc``): nothing is rounded or replaced."""
    text = "" if value is None else str(value).strip()
    if not text:
        return default
    try:
        return int(text)
    except ValueError:
        raise services.OnlineError(bad) from None


def _clock_seconds(value: Any) -> int:
    """The turn clock (R11) typed in whole minutes, 0 to 30, as seconds (3 minutes when
    empty); OnlineError otherwise."""
    most = services.MOST_CLOCK_MINUTES
    minutes = _int(value, 3, services.CLOCK_RANGE(most=most, value=value)) or 0
    if not 0 <= minutes <= most:
        raise services.OnlineError(services.CLOCK_RANGE(most=most, value=minutes))
    return minutes * 60


@login_required
@require_POST
@once
def create(request: HttpRequest) -> HttpResponse:
    """Create a casual table from the lobby's form; a bad value is refused by its label, in
    the page's language, and nothing is written."""
    p = request.POST
    try:
        seats = _int(p.get("seats"), 4, services.SEATS_RANGE(value=p.get("seats"))) or 0
        bots = {pos: str(p.get(f"bot{pos}")) for pos in range(1, min(seats, 6) + 1)
                if p.get(f"bot{pos}")}
        settings: dict[str, Any] = {"clock_seconds": _clock_seconds(p.get("clock_minutes")),
                                    "bot_for_absent": p.get("bot_for_absent") == "on"}
        if p.get("stand_in_level"):  # the level of the bot that plays for an absent person
            level = str(p.get("stand_in_level"))
            settings["stand_in_level"] = int(level) if level.isdigit() else level
        if p.get("call_mode") == "round":
            settings["call_round"] = _int(
                p.get("call_round"), None,
                services.CALL_ROUND_RANGE(most=services.MOST_CALL_ROUND,
                                          value=p.get("call_round")))
        elif p.get("call_mode") == "time" and p.get("call_at"):
            settings["call_at"] = str(p.get("call_at"))
        table = services.create_table(
            name=str(p.get("name") or ""), seats=seats, bots=bots, settings=settings,
            ruleset=str(p.get("ruleset") or "club-milano"), who=request.user.get_username(),
            club=request_club(request))
    except RisikoError as e:
        return render(request, "online/lobby.html", {
            "tables": services.lobby_tables(request_club(request)), "can_create": True,
            "errors": e.messages(_lang())}, status=400)
    return HttpResponseRedirect(reverse("online_table", args=[table.code]))


def _qr(url: str) -> str:
    return str(segno.make(url, error="m").svg_inline(scale=4, dark="#111", light="#fff"))


def table_page(request: HttpRequest, code: str) -> HttpResponse:
    """The table: lobby (seats, invitation link and QR code), the live board, the log."""
    table = _table(request, code)
    token = _tokens(request).get(code)
    found = services.identify(code, request.user, token, club=table.club)
    actor = found[1] if found else services.Actor("spectator")
    member = _member(request)
    invite_url = request.build_absolute_uri(reverse("online_table", args=[code]))
    guest_link = None
    if token:
        guest_link = request.build_absolute_uri(reverse("online_seat_link", args=[token]))
    return render(request, "online/table.html", {
        "table": table,
        "my_seat": actor.role == "seat",
        # a member sits as his player; at a casual table any account (a referee, the
        # committee) may sit as himself
        "can_join_as_member": member is not None or (
            request.user.is_authenticated and table.kind == "casual"),
        "member_name": member.player.name if member else (
            request.user.get_full_name() or request.user.get_username()
            if request.user.is_authenticated else ""),
        "can_start": table.status == "lobby" and table.kind == "casual" and (
            request.user.get_username() == table.created_by
            or is_referee(request.user, table.club)),
        "invite_url": invite_url,
        "qr_svg": _qr(invite_url),
        "guest_link": guest_link,
        "board_name": "club-milano" if table.ruleset.startswith("club-milano") else "official",
        "words": _words(),
    })


async def _send(outbox: services.Outbox | None) -> None:
    from channels.layers import get_channel_layer

    from .consumers import send_outbox

    await send_outbox(get_channel_layer(), outbox)


def _deliver(outbox: services.Outbox | None) -> None:
    """Send an outbox from a synchronous view, once the view's transaction (its one-time
    token's, :func:`once`) has committed: a client that reads on receiving it sees it."""
    from asgiref.sync import async_to_sync

    if outbox is not None and outbox.messages:
        transaction.on_commit(lambda: async_to_sync(_send)(outbox))


@require_POST
def join(request: HttpRequest, code: str) -> HttpResponse:
    """Sit down: as the logged-in member, or as a guest with a name (a secret link). A form
    sent twice sits once without a one-time token: one seat per user and per browser
    session (:func:`services.join`, behind constraints), the second post is refused."""
    table = _table(request, code)
    as_member = request.POST.get("as") == "member"
    if not request.session.session_key:
        request.session.save()  # a key for this browser: one seat per browser session
    try:
        _seat, token, outbox = services.join(
            table.pk, user=request.user, session_key=request.session.session_key,
            guest_name=None if as_member else str(request.POST.get("guest_name") or ""))
    except RisikoError as e:
        from django.contrib import messages

        for line in e.messages(_lang()):
            messages.error(request, line)
        return HttpResponseRedirect(reverse("online_table", args=[code]))
    if token:
        tokens = _tokens(request)
        tokens[code] = token
        request.session[SESSION_KEY] = tokens
    _deliver(outbox)
    return HttpResponseRedirect(reverse("online_table", args=[code]))


def seat_link(request: HttpRequest, token: str) -> HttpResponse:
    """A guest's secret link: this browser holds the seat again. The token goes into the
    session at once and the browser is sent to the table's address, without it (no secret
    in an address that is logged or kept in the history)."""
    seat = OnlineSeat.objects.filter(
        token_hash=services.token_hash(token), table__club=request_club(request),
    ).select_related("table").first()
    if seat is None:
        raise Http404("no such seat")
    tokens = _tokens(request)
    tokens[seat.table.code] = token
    request.session[SESSION_KEY] = tokens
    return HttpResponseRedirect(reverse("online_table", args=[seat.table.code]))


@login_required
@require_POST
@once
def start(request: HttpRequest, code: str) -> HttpResponse:
    """Start a casual table now: bots take the free seats."""
    table = _table(request, code)
    if (request.user.get_username() != table.created_by
            and not is_referee(request.user, table.club)):
        raise Http404("not your table")
    with contextlib.suppress(RisikoError):
        _deliver(services.start_now(table.pk, who=request.user.get_username()))
    return HttpResponseRedirect(reverse("online_table", args=[code]))


def replay(request: HttpRequest, code: str) -> HttpResponse:
    """A finished table step by step or by turn, with the dice and the scores."""
    table = _table(request, code, status="over")
    game = adapter.new_game(
        [s.name for s in table.seat_set.select_related("player").order_by("position")],
        table.ruleset, bytes.fromhex(table.seed),
        late=services.settings_of(table).get("late") or (),
        last_rounds_at=services.settings_of(table).get("call_round"))
    frames = [{"text": "", "turn": 0, "view": adapter.public_view(game)}]
    events = table.events.filter(undone=False).exclude(text__startswith="#").order_by("seq")
    for line, said in events.values_list("text", "value"):
        adapter.replay_lines(game, [line])
        # what people read: the entry said in the page's language (the record keeps the line)
        frames.append({"text": olog.message(said, _lang()) if said else line,
                       "turn": adapter.turn_number(game),
                       "view": _slim(adapter.public_view(game))})
    return render(request, "online/replay.html", {
        "table": table, "frames": frames, "final": adapter.public_view(game),
        "board_name": "club-milano" if table.ruleset.startswith("club-milano") else "official",
    })


def _slim(view: dict[str, Any]) -> dict[str, Any]:
    return {"owners": [t["owner"] for t in view["territories"]],
            "armies": [t["armies"] for t in view["territories"]],
            "round": view["round"], "to_act": view["to_act"], "phase": view["phase"],
            "scores": view["scores"], "outcome": view["outcome"]}


def record(request: HttpRequest, code: str) -> HttpResponse:
    """The record of a finished table as text (``risiko replay --verify`` checks it)."""
    table = _table(request, code, status="over")
    response = HttpResponse(table.record, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="online-{code}.txt"'
    return response


# ---------------------------------------------------------------------------- members
@committee_required
@require_http_methods(["GET", "POST"])
@once
def invites(request: HttpRequest) -> HttpResponse:
    """The committee invites a member: a one-time link tied to his player record."""
    link = None
    error = None
    if request.method == "POST":
        name = str(request.POST.get("player") or "").strip()
        # a NUL byte would be a 500 on PostgreSQL: no player has a control character
        player = (None if any(unicodedata.category(c) == "Cc" for c in name)
                  else Player.objects.filter(name=name).first())
        if player is None:
            error = _("No player named %(name)s.") % {"name": name}
        elif Member.objects.filter(player=player).exists():
            error = _("%(name)s already has an account.") % {"name": name}
        else:
            token = secrets.token_urlsafe(24)
            MemberInvite.objects.create(token_hash=services.token_hash(token), player=player,
                                        created_by=request.user.get_username())
            club.audit(request.user.get_username(), "online invite", None, player,
                       f"invitation for {player.name}", params={"player": player.name})
            link = request.build_absolute_uri(reverse("online_accept", args=[token]))
    return render(request, "online/invites.html", {
        "link": link, "error": error,
        "invites": MemberInvite.objects.select_related("player").order_by("-created")[:50],
        "players": Player.objects.order_by("name").values_list("name", flat=True),
    })


def _username_errors(username: str) -> list[str]:
    """What is wrong with a new member's username, in the page's language, before any
    query (a NUL byte is a 500 on PostgreSQL): the names rules of the rest of the product
    (:func:`services.checked_name`: control characters, length, invisible characters, a
    right-to-left override, HTML, look-alike letters), then Django's own (150 characters,
    letters, digits and @ . + - _)."""
    if not username:
        return [_("Choose another username.")]
    field = User._meta.get_field("username")
    try:
        services.checked_name(username, "username", int(field.max_length or 150))
    except RisikoError as e:
        return e.messages(_lang())
    try:
        field.run_validators(username)
    except ValidationError as e:
        return list(e.messages)
    return []


def _invite(token: Any) -> MemberInvite:
    """The unused invitation of ``token``; Http404 otherwise."""
    invite = None
    if isinstance(token, str) and token:
        invite = MemberInvite.objects.filter(
            token_hash=services.token_hash(token)).select_related("player").first()
    if invite is None or invite.used is not None:
        raise Http404("invitation unknown or already used")
    return invite


def accept(request: HttpRequest, token: str) -> HttpResponse:
    """A member opens his invitation link: its token goes into this browser's session and
    the browser is sent to the form's address, without it (no secret in a logged URL)."""
    _invite(token)
    request.session[INVITE_KEY] = token
    return HttpResponseRedirect(reverse("online_accept_form"), status=303)


@require_http_methods(["GET", "POST"])
@once
def accept_form(request: HttpRequest) -> HttpResponse:
    """The invitation this browser opened: username and password; the account is his
    player's."""
    invite = _invite(request.session.get(INVITE_KEY))
    errors: list[str] = []
    if request.method == "POST":
        username = str(request.POST.get("username") or "").strip()
        p1, p2 = str(request.POST.get("password1") or ""), str(request.POST.get("password2") or "")
        errors.extend(_username_errors(username))
        if not errors and User.objects.filter(username=username).exists():
            errors.append(_("Choose another username."))
        if p1 != p2:
            errors.append(_("The two passwords differ."))
        if not errors:
            try:
                validate_password(p1, User(username=username))
            except ValidationError as e:
                errors.extend(e.messages)
        if not errors:
            with transaction.atomic():
                fresh = MemberInvite.objects.select_for_update().get(pk=invite.pk)
                if fresh.used is not None:
                    raise Http404("invitation already used")
                user = User.objects.create_user(username=username, password=p1)
                Member.objects.create(user=user, player=invite.player,
                                      invited_by=invite.created_by)
                fresh.used, fresh.user = timezone.now(), user
                fresh.save()
                club.audit(username, "online member", None, invite.player,
                           f"{username} is {invite.player.name}",
                           params={"username": username, "player": invite.player.name})
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            request.session.pop(INVITE_KEY, None)
            return HttpResponseRedirect(reverse("online_lobby"))
    return render(request, "online/accept.html", {"invite": invite, "errors": errors})


# ---------------------------------------------------------------------------- evenings
@login_required
@require_POST
def evening_arrive(request: HttpRequest, slug: str, date: str) -> HttpResponse:
    """A member arrives at an online evening by taking his online seat there (R3, timed on
    the club's clock as at the venue): then his table. Refused with the fault (400, the
    lobby's page), nothing written: an evening without online tables, no seat of his there,
    outside that evening's times, excluded by R3. His seat already taken: his table."""
    member = _member(request)
    if member is None:
        raise Http404("members only")
    try:
        ev = club.get_evening(club.get_tournament(slug), date)
    except club.ServiceError as e:
        raise Http404(str(e)) from None
    try:
        table = services.evening_table(ev, member.player)
        if not OnlineSeat.objects.filter(table=table, user_id=member.user_id).exists():
            _seat, _token, outbox = services.join(table.pk, user=request.user)
            _deliver(outbox)
    except RisikoError as e:
        return render(request, "online/lobby.html", {
            "tables": services.lobby_tables(request_club(request)), "can_create": True,
            "errors": e.messages(_lang())}, status=400)
    return HttpResponseRedirect(reverse("online_table", args=[table.code]))


@referee_required
@require_http_methods(["GET", "POST"])
@once
def evening(request: HttpRequest, slug: str, date: str) -> HttpResponse:
    """An online evening of a tournament: one online table per seated table."""
    try:
        t = club.get_tournament(slug)
        ev = club.get_evening(t, date)
    except club.ServiceError as e:
        raise Http404(str(e)) from None
    if request.method == "POST":
        try:
            services.open_evening(
                ev, who=request.user.get_username(),
                settings={"clock_seconds": _clock_seconds(request.POST.get("clock_minutes"))})
        except RisikoError as e:
            from django.contrib import messages

            for line in e.messages(_lang()):
                messages.error(request, line)
        return HttpResponseRedirect(reverse("online_evening", args=[slug, date]))
    tables = []
    for gt in ev.tables.order_by("number"):
        online = OnlineTable.objects.filter(game_table=gt).first()
        tables.append({"table": gt, "online": online,
                       "players": [s.player.name
                                   for s in gt.seats.current().order_by("position")]})
    return render(request, "online/evening.html", {
        "tournament": t, "evening": ev, "tables": tables,
        "date": dt.date.isoformat(ev.date)})


@referee_required
@require_POST
@once
def keep_result(request: HttpRequest, pk: int) -> HttpResponse:
    """The referee keeps one of a table's two results (its online result waiting beside
    his), with a reason; back to the console's evening page (issue 20 item 4)."""
    from django.contrib import messages

    waiting = get_object_or_404(  # another club's result: not found (issue 21 item 1)
        OnlineResult.objects.select_related("game_table__evening__tournament", "table"), pk=pk,
        table__club=request_club(request))
    ev = waiting.game_table.evening
    try:
        services.keep_result(waiting, str(request.POST.get("keep") or ""),
                             reason=str(request.POST.get("reason") or ""),
                             who=request.user.get_username())
    except RisikoError as e:
        for line in e.messages(_lang()):
            messages.error(request, line)
    else:
        messages.success(request, _("Table %(n)d: the result you kept counts.")
                         % {"n": waiting.game_table.number})
    return HttpResponseRedirect(reverse("console_evening",
                                        args=[ev.tournament.slug, dt.date.isoformat(ev.date)]))
