"""Middleware of the site: the first run and the club's language.

First run: while the database has no user, every page leads to "create the first referee".

Static files, the language switch and the first-run page itself are let through. Tests of
other pages either create a user first or set ``RISIKO_FIRST_RUN_CHECK = False`` (the
``settings`` fixture of pytest-django).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.urls import reverse


def no_user_yet() -> bool:
    """True while the database holds no user at all."""
    return not get_user_model()._default_manager.exists()


class FirstRunMiddleware:
    """Redirects every request to the first-run page while there is no user."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def _exempt(self, path: str) -> bool:
        static = "/" + settings.STATIC_URL.lstrip("/") if settings.STATIC_URL else None
        return path in (reverse("first_run"), reverse("set_language")) or bool(
            static and path.startswith(static)
        )

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if (
            getattr(settings, "RISIKO_FIRST_RUN_CHECK", True)
            and not request.user.is_authenticated
            and not self._exempt(request.path_info)
            and no_user_yet()
        ):
            response: HttpResponse = HttpResponseRedirect(reverse("first_run"))
            if request.headers.get("HX-Request"):
                response["HX-Redirect"] = reverse("first_run")
            return response
        return self.get_response(request)


class ClubLanguageMiddleware:
    """Italian unless the visitor chose otherwise with the language switch: the browser's
    ``Accept-Language`` is ignored (set ``RISIKO_BROWSER_LANGUAGE = True`` to honour it).
    Sits before Django's ``LocaleMiddleware``, which then reads the cookie or LANGUAGE_CODE.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not getattr(settings, "RISIKO_BROWSER_LANGUAGE", False):
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
