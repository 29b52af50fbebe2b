"""Clubs on one server (issue 21 item 1): which club a request, a read and a new row belong to.

One mechanism, in one place:

- :class:`ClubMiddleware` reads the club from the URL. ``/c/<slug>/...`` is the club
  ``<slug>`` (an unknown one: 404); the rest of the path is served by the same URL patterns as
  today, and the club's prefix becomes the script prefix, so every ``reverse()`` and
  ``{% url %}`` of that request stays inside ``/c/<slug>/``. Any other URL is the default
  club's (:func:`default_club`), so today's links keep working. It sets ``request.club`` (the
  :class:`~risiko.web.national.models.Club`, or None while a one-club server has not yet
  created its club) and the **club scope** of the request.
- The club scope (:func:`club_scope`, :func:`scoped_club`) is what the shared reads filter
  by: ``Tournament.objects`` (:class:`risiko.web.tournaments.models.TournamentManager`) reads
  only the scope's tournaments, so a lookup by slug, the current tournament, the list of
  tournaments and the console's ``tournament_or_404`` stay inside the club without any view
  changed. Outside a request (the command line, a background task) there is no scope: every
  club's tournaments are read, as a one-club server always did.
- A new tournament belongs to the scope's club, else the default club
  (:func:`club_for_new_row`).

Who may act on a club is :mod:`risiko.web.site.permissions`' business (memberships).
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponseBase
from django.urls import get_script_prefix, set_script_prefix
from django.utils.text import slugify

if TYPE_CHECKING:
    from risiko.web.national.models import Club

#: ``/c/<slug>/rest``: a club's URL (the slug as a Django ``slug`` converter reads it)
CLUB_PATH = re.compile(r"^/c/(?P<slug>[-a-zA-Z0-9_]+)(?P<rest>/.*)?$")


@dataclass(frozen=True)
class Scope:
    """The club a request reads: ``club`` (None: the default club, not yet created)."""

    club: Club | None

    @property
    def club_id(self) -> int | None:
        """The club's id (None: none)."""
        return None if self.club is None else int(self.club.pk)


_scope: ContextVar[Scope | None] = ContextVar("risiko_club_scope", default=None)


def scoped_club() -> Scope | None:
    """The club scope in force (None: no scope, every club is read)."""
    return _scope.get()


@contextlib.contextmanager
def club_scope(club: Club | None) -> Iterator[Scope]:
    """Read and create as ``club`` inside the ``with`` (None: as the default club when it
    does not exist yet: nothing is read)."""
    scope = Scope(club)
    token = _scope.set(scope)
    try:
        yield scope
    finally:
        _scope.reset(token)


def default_club_settings() -> tuple[str, str]:
    """The default club's identifier and name from the settings: ``RISIKO_CLUB_ID``
    (default: the name's slug) and ``RISIKO_CLUB_NAME``.

    >>> from django.test import override_settings
    >>> with override_settings(RISIKO_CLUB_NAME="MILANO [Club Milano]", RISIKO_CLUB_ID=""):
    ...     default_club_settings()
    ('milano-club-milano', 'MILANO [Club Milano]')
    """
    name = str(getattr(settings, "RISIKO_CLUB_NAME", "") or "Risiko! Club Milano")
    key = str(getattr(settings, "RISIKO_CLUB_ID", "") or "") or slugify(name) or "club"
    return key[:60], name[:120]


def find_default_club() -> Club | None:
    """The default club (the one today's URLs serve), or None when none is marked yet."""
    from risiko.web.national.models import Club

    return Club.objects.filter(is_default=True).first()


def default_club() -> Club:
    """The default club, created from the settings (:func:`default_club_settings`) the first
    time it is needed, or the registered club of that identifier marked default. Exactly
    once: two requests at once create one club (the ``one_default_club`` constraint)."""
    from risiko.web.national.models import Club

    found = find_default_club()
    if found is not None:
        return found
    key, name = default_club_settings()
    try:
        with transaction.atomic():
            club = Club.objects.select_for_update().filter(key=key).first()
            if club is None:
                return Club.objects.create(key=key, name=name, is_default=True)
            club.is_default = True
            club.save(update_fields=["is_default"])
            return club
    except IntegrityError:  # another request made it first
        return Club.objects.get(is_default=True)


def club_for_new_row() -> Club:
    """The club a new tournament belongs to: the scope's, else the default club."""
    scope = scoped_club()
    if scope is not None and scope.club is not None:
        return scope.club
    return default_club()


def club_of_path(path: str) -> tuple[str | None, str]:
    """``(club slug, the rest of the path)`` of a club's URL, ``(None, path)`` for the others.

    >>> club_of_path("/c/milano/arbitro/t/x/")
    ('milano', '/arbitro/t/x/')
    >>> club_of_path("/c/milano"), club_of_path("/arbitro/")
    (('milano', '/'), (None, '/arbitro/'))
    """
    m = CLUB_PATH.match(path)
    if m is None:
        return None, path
    return m["slug"], m["rest"] or "/"


def url_club(club: Club) -> str | None:
    """The club part of the URLs of ``club``'s pages: its slug (``/c/<slug>/``); None for the
    default club (today's URLs; its ``/c/<slug>/`` pages are the same)."""
    return None if club.is_default else str(club.slug)


def club_named(slug: str | None) -> Club | None:
    """The club of a URL's club part: ``slug`` (Http404 when no club has it), or the default
    club for None (None when it is not created yet)."""
    from risiko.web.national.models import Club

    if slug is None:
        return find_default_club()
    club = Club.objects.filter(slug=slug).first()
    if club is None:
        raise Http404
    return club


@contextlib.contextmanager
def serving(slug: str | None) -> Iterator[Club | None]:
    """Serve as the club of URL part ``slug`` (None: today's URLs, the default club): its club
    scope, and its ``/c/<slug>/`` as the script prefix (every ``reverse()`` inside stays in
    the club). Http404 for an unknown club."""
    club = club_named(slug)
    prefix = get_script_prefix()
    if slug is not None:
        set_script_prefix(f"{prefix}c/{slug}/")
    try:
        with club_scope(club):
            yield club
    finally:
        set_script_prefix(prefix)


class ClubMiddleware:
    """Sets ``request.club`` and the request's club scope from the URL (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response
        # STATIC_URL is made absolute with the script prefix the first time it is read: read
        # it now, outside any club's prefix
        str(settings.STATIC_URL)

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        slug, rest = club_of_path(request.path_info)
        with serving(slug) as club:
            if slug is not None:
                request.path_info = rest
            request.club = club  # type: ignore[attr-defined]
            return self.get_response(request)


def request_club(request: HttpRequest) -> Club | None:
    """The club of ``request`` (None: the default club, not yet created, or no middleware)."""
    return getattr(request, "club", None)
