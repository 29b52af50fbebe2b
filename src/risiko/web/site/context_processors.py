"""Template context of every page: club name and the user's roles."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from .permissions import is_committee, is_referee


def site(request: HttpRequest) -> dict[str, Any]:
    """``club_name``, ``is_referee``, ``is_committee`` (the last two lazily)."""
    user = getattr(request, "user", None)
    return {
        "club_name": getattr(settings, "RISIKO_CLUB_NAME", "Risiko! Club Milano"),
        "is_referee": SimpleLazyObject(lambda: is_referee(user)),
        "is_committee": SimpleLazyObject(lambda: is_committee(user)),
    }


def csp_nonce(request: HttpRequest) -> dict[str, Any]:
    """``csp_nonce``: this request's Content-Security-Policy nonce (for an inline
    ``<style nonce="...">``; empty outside the middleware)."""
    return {"csp_nonce": getattr(request, "csp_nonce", "")}
