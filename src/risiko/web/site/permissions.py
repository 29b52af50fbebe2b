"""Who may do what: the groups ``referee`` and ``committee`` and the helpers that check them.

- :func:`is_referee` / :func:`is_committee`: a superuser is both; a committee member is also
  a referee.
- :func:`referee_required` / :func:`committee_required`: view decorators (sync or async).
- :class:`RefereeRequiredMixin` / :class:`CommitteeRequiredMixin`: class-based views.

An anonymous user is sent to the login page (with ``?next=``); a logged-in user without the
group gets 403. The Django admin is for the committee only (:func:`restrict_admin_to_committee`,
called when the app is ready).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from inspect import iscoroutinefunction
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from asgiref.sync import sync_to_async
from django.contrib.auth.mixins import UserPassesTestMixin
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseBase

REFEREE = "referee"
COMMITTEE = "committee"
GROUPS = (REFEREE, COMMITTEE)

_CACHE_ATTR = "_risiko_group_names"

AnyUser = AbstractBaseUser | AnonymousUser
V = TypeVar("V", bound=Callable[..., Any])


def group_names(user: AnyUser | None) -> frozenset[str]:
    """The names of ``user``'s groups (cached on the user object for the request)."""
    if user is None or not user.is_authenticated or not user.is_active:
        return frozenset()
    cached = getattr(user, _CACHE_ATTR, None)
    if cached is None:
        groups = getattr(user, "groups", None)
        names = groups.values_list("name", flat=True) if groups is not None else ()
        cached = frozenset(names)
        setattr(user, _CACHE_ATTR, cached)
    return cast(frozenset[str], cached)


def _is_superuser(user: AnyUser | None) -> bool:
    return bool(
        user is not None
        and user.is_authenticated
        and user.is_active
        and getattr(user, "is_superuser", False)
    )


def is_committee(user: AnyUser | None) -> bool:
    """Active member of ``committee``, or superuser."""
    return _is_superuser(user) or COMMITTEE in group_names(user)


def is_referee(user: AnyUser | None) -> bool:
    """Active member of ``referee`` or ``committee``, or superuser."""
    return _is_superuser(user) or bool(group_names(user) & {REFEREE, COMMITTEE})


def _check(request: HttpRequest, allowed: Callable[[AnyUser], bool]) -> HttpResponseBase | None:
    """None when the user passes; else a login redirect (anonymous) or PermissionDenied."""
    user = request.user
    if allowed(user):
        return None
    if not user.is_authenticated:
        if request.headers.get("HX-Request"):
            # an htmx request (e.g. a check-in row) after the session expired: send the whole
            # page to the login, not the login page into the row
            page = urlsplit(request.headers.get("HX-Current-URL", "")).path
            target = redirect_to_login(page or request.get_full_path())
            response = HttpResponse(status=200)
            response["HX-Redirect"] = target["Location"]
            return response
        return redirect_to_login(request.get_full_path())
    raise PermissionDenied


def _requiring(allowed: Callable[[AnyUser], bool]) -> Callable[[V], V]:
    def decorator(view: V) -> V:
        if iscoroutinefunction(view):

            @functools.wraps(view)
            async def async_wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
                refused = await sync_to_async(_check)(request, allowed)
                if refused is not None:
                    return refused
                return await view(request, *args, **kwargs)

            return cast(V, async_wrapper)

        @functools.wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> Any:
            refused = _check(request, allowed)
            if refused is not None:
                return refused
            return view(request, *args, **kwargs)

        return cast(V, wrapper)

    return decorator


#: View decorator: referees, committee members and superusers only.
referee_required = _requiring(is_referee)
#: View decorator: committee members and superusers only.
committee_required = _requiring(is_committee)


class RefereeRequiredMixin(UserPassesTestMixin):
    """Class-based views for referees (anonymous: login redirect; others: 403)."""

    request: HttpRequest

    def test_func(self) -> bool:
        return is_referee(self.request.user)


class CommitteeRequiredMixin(UserPassesTestMixin):
    """Class-based views for the committee (anonymous: login redirect; others: 403)."""

    request: HttpRequest

    def test_func(self) -> bool:
        return is_committee(self.request.user)


def admin_has_permission(request: HttpRequest) -> bool:
    """The Django admin's gate: active committee members and superusers."""
    return is_committee(request.user)


def restrict_admin_to_committee() -> None:
    """Make ``admin.site`` answer :func:`admin_has_permission` (called by the app config)."""
    from django.conf import settings
    from django.contrib import admin

    admin.site.has_permission = admin_has_permission  # type: ignore[method-assign]
    club = getattr(settings, "RISIKO_CLUB_NAME", "Risiko! Club Milano")
    admin.site.site_header = club
    admin.site.site_title = club


def can_approve_reports(user: AnyUser | None, club: Any = None) -> bool:
    """Holds the ``national.approve_report`` permission (a superuser holds every one): the
    national officer's role approves or refuses clubs' reports and manages club keys. ``club``
    is ignored (the role is national), so it fits a check called with the request's club."""
    has_perm = getattr(user, "has_perm", None)
    return bool(user is not None and user.is_active and has_perm is not None
                and has_perm("national.approve_report"))


#: View decorator: the national officer (``national.approve_report``) only.
officer_required = _requiring(can_approve_reports)
