"""Middleware of the site: the client's address behind a trusted proxy, the
Content-Security-Policy, the first run, the club's language and ``no-store`` on the pages
only referees see.

First run: while the database has no user, every page leads to "create the first referee".

Static files, the language switch and the first-run page itself are let through. Tests of
other pages either create a user first or set ``RISIKO_FIRST_RUN_CHECK = False`` (the
``settings`` fixture of pytest-django).
"""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Callable
from functools import lru_cache

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.urls import NoReverseMatch, reverse
from django.utils.cache import patch_cache_control

from .proxy import Network, client_address, is_trusted, parse_networks

#: The request headers a proxy uses to pass the client's address and scheme on.
FORWARDED_HEADERS = ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO", "HTTP_X_FORWARDED_HOST",
                     "HTTP_X_FORWARDED_PORT", "HTTP_X_REAL_IP", "HTTP_FORWARDED")
#: Set in ``request.META`` when a peer that is not a trusted proxy sent forwarding headers
#: (the request may come from anywhere through an unknown proxy: never "this machine").
UNTRUSTED_FORWARD = "risiko.untrusted_forward"


@lru_cache(maxsize=8)
def _proxies(text: str) -> tuple[Network, ...]:
    return parse_networks(text)


def trusted_proxies() -> tuple[Network, ...]:
    """``RISIKO_TRUSTED_PROXIES`` parsed (addresses and networks)."""
    return _proxies(str(getattr(settings, "RISIKO_TRUSTED_PROXIES", "") or ""))


class TrustedProxyMiddleware:
    """First of all: behind a trusted proxy ``REMOTE_ADDR`` becomes the client's address
    (:func:`risiko.web.site.proxy.client_address`) and ``X-Forwarded-Proto`` is kept for
    ``SECURE_PROXY_SSL_HEADER``; from any other peer every forwarding header is dropped
    (and :data:`UNTRUSTED_FORWARD` noted when there was one)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        meta = request.META
        peer = str(meta.get("REMOTE_ADDR") or "")
        proxies = trusted_proxies()
        if proxies and is_trusted(peer, proxies):
            meta["REMOTE_ADDR"] = client_address(
                peer, str(meta.get("HTTP_X_FORWARDED_FOR") or ""), proxies)
        else:
            found = [h for h in FORWARDED_HEADERS if h in meta]
            for header in found:
                del meta[header]
            if found:
                meta[UNTRUSTED_FORWARD] = True
        return self.get_response(request)


def from_this_machine(request: HttpRequest) -> bool:
    """True when the request comes from the machine running the server: a loopback client
    address (behind trusted proxies: the client's own) and no forwarding header from an
    untrusted peer (a proxy on this machine not listed in ``RISIKO_TRUSTED_PROXIES`` would
    make every visitor look local)."""
    if request.META.get(UNTRUSTED_FORWARD):
        return False
    try:
        return ipaddress.ip_address(str(request.META.get("REMOTE_ADDR") or "")).is_loopback
    except ValueError:
        return False


class ContentSecurityPolicyMiddleware:
    """Adds ``RISIKO_CSP`` as the ``Content-Security-Policy`` of every answer that has
    none, ``{nonce}`` replaced by a new random value per request (``request.csp_nonce``,
    ``csp_nonce`` in templates)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        nonce = secrets.token_urlsafe(16)
        request.csp_nonce = nonce  # type: ignore[attr-defined]
        response = self.get_response(request)
        policy = str(getattr(settings, "RISIKO_CSP", "") or "")
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy.replace("{nonce}", nonce)
        return response


def no_user_yet() -> bool:
    """True while the database holds no user at all."""
    return not get_user_model()._default_manager.exists()


def _machine_endpoint() -> str | None:
    """The national server's report endpoint (it answers machines in JSON, never a page);
    None in a site without the national app."""
    try:
        return reverse("national_receive")
    except NoReverseMatch:
        return None


class FirstRunMiddleware:
    """Redirects every request to the first-run page while there is no user."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def _exempt(self, path: str) -> bool:
        static = "/" + settings.STATIC_URL.lstrip("/") if settings.STATIC_URL else None
        return path in (reverse("first_run"), reverse("set_language")) or bool(
            static and path.startswith(static)
        ) or path == _machine_endpoint()

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


#: The URL prefixes of the pages only referees and the committee see (console, board tools,
#: administration): never kept by the browser or a proxy.
PRIVATE_PREFIXES = ("/arbitro/", "/strumenti/", "/admin/")


class NoStoreMiddleware:
    """``Cache-Control: no-store`` (and ``private``) on every answer under
    :data:`PRIVATE_PREFIXES` and on every answer to a logged-in user: a referee's page
    (check-in, penalties with their reasons, the audit log) is never kept on a shared phone's
    disk or in a proxy, nor shown again by the back button after logging out."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if request.path_info.startswith(PRIVATE_PREFIXES) or (
                user is not None and user.is_authenticated):
            patch_cache_control(response, no_store=True, private=True)
        return response
