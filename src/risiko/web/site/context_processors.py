"""Template context of every page: club name and the user's roles."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .permissions import is_committee, is_referee


def site(request: HttpRequest) -> dict[str, Any]:
    """``club_name`` (the request's club; the default club: the site's setting), ``current_club``
    (the request's club or None), ``is_referee``, ``is_committee`` at that club (lazily)."""
    user = getattr(request, "user", None)
    club = getattr(request, "club", None)
    name = (club.name if club is not None and not club.is_default
            else getattr(settings, "RISIKO_CLUB_NAME", "Risiko! Club Milano"))
    return {
        "club_name": name,
        "current_club": club,
        "is_referee": SimpleLazyObject(lambda: is_referee(user, club)),
        "is_committee": SimpleLazyObject(lambda: is_committee(user, club)),
    }


def csp_nonce(request: HttpRequest) -> dict[str, Any]:
    """``csp_nonce``: this request's Content-Security-Policy nonce (for an inline
    ``<style nonce="...">``; empty outside the middleware)."""
    return {"csp_nonce": getattr(request, "csp_nonce", "")}
