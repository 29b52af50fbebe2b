"""What a change sends: a public page's ``<main>`` rendered once per language, the referees'
notice once per language.

A page is rendered by its own view, with a request like a phone's (anonymous, ``GET``, in
the page's language), so the fragment is exactly what the poll or a reload would show.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import io
import re
from collections.abc import Sequence

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.handlers.wsgi import WSGIRequest
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import resolve
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from risiko.web.clubs import club_named, club_of_path, serving
from risiko.web.core.writes import Change

from .groups import Page

#: what a change was, by the service that wrote it (Italian in the catalogue)
WHAT = {
    "enter_scores": _("a result"), "enter_sheet": _("a result"),
    "mark_abandoned": _("a result"), "add_penalty": _("a penalty"),
    "void_penalty": _("a penalty"), "add_discipline": _("a penalty"),
    "decide_appeal": _("an appeal"), "record_arrival": _("an arrival"),
    "seat_evening": _("the tables"), "set_tables": _("the tables"),
    "swap_seats": _("the tables"), "seat_stage": _("the tables"),
    "open_evening": _("an evening"),
}
_MAIN = re.compile(r'<main id="main"[^>]*>(.*)</main>', re.S)
_CLOCK = re.compile(r"<time>[^<]*</time>")


class NotRendered(Exception):
    """The page answered something else than 200 (gone, moved): nothing to send."""


def _host() -> str:
    for host in settings.ALLOWED_HOSTS:
        if host and host != "*" and not host.startswith("."):
            return str(host).strip("[]")
    return "localhost"


def page_fragment(page: Page) -> str:
    """The inner HTML of ``page``'s ``<main>`` as an anonymous phone in ``page.lang`` gets it
    now (raises :class:`NotRendered` on an answer other than 200, and what the view raises)."""
    request = WSGIRequest({
        "REQUEST_METHOD": "GET", "PATH_INFO": page.path, "SERVER_NAME": _host(),
        "SERVER_PORT": "80", "wsgi.input": io.BytesIO(), "wsgi.url_scheme": "http",
    })
    request.user = AnonymousUser()
    request.LANGUAGE_CODE = page.lang
    club_part, rest = club_of_path(page.path)  # a club's page: in its scope and prefix
    try:
        club_named(club_part)
    except Http404:
        raise NotRendered(f"{page.path}: no such club") from None
    with serving(club_part) as club, translation.override(page.lang):
        request.club = club  # type: ignore[attr-defined]
        request.path_info = rest
        match = resolve(rest)
        response = match.func(request, *match.args, **match.kwargs)
        if response.status_code != 200:
            raise NotRendered(f"{page.path}: {response.status_code}")
    found = _MAIN.search(response.content.decode())
    if found is None:
        raise NotRendered(f"{page.path}: no <main>")
    return found.group(1)


def digest(fragment: str) -> str:
    """A fragment's fingerprint without its clock (``<time>HH:MM:SS</time>``): the same
    digest means nothing on the page changed, nothing to send."""
    return hashlib.sha256(_CLOCK.sub("", fragment).encode()).hexdigest()


def notice(changes: Sequence[Change], lang: str, *, at: _dt.datetime | None = None) -> str:
    """The referees' notice of ``changes`` (coalesced: every writer and what each wrote,
    once), in ``lang``: "Aggiornato da X alle 21:03:05: un risultato." and a button to
    reload."""
    when = timezone.localtime(at or timezone.now())
    with translation.override(lang):
        who = ", ".join(dict.fromkeys(c.who or "?" for c in changes))
        what = ", ".join(dict.fromkeys(str(WHAT.get(c.service, _("a change")))
                                       for c in changes))
        return render_to_string("live/_notice.html", {
            "who": who, "what": what, "at": when.strftime("%H:%M:%S")})
