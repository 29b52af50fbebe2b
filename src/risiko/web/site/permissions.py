"""Who may do what, per club: the roles ``referee`` and ``committee`` and the helpers that
check them; the national officer.

- :func:`is_referee` / :func:`is_committee` ``(user, club)``: a superuser is both everywhere;
  a committee member is also a referee. At a club a person has the roles of his
  :class:`~risiko.web.site.models.ClubMembership` rows; the groups ``referee`` and
  ``committee`` are the roles at the default club (``club`` None or the club marked default:
  a one-club server needs no membership). A club's people act only on their club.
- :func:`is_national_officer`: the group ``national_officer`` (or a superuser): sees every
  club (the console's pages of any club open for reading, never a form sent) and approves
  the national reports.
- :func:`referee_required` / :func:`committee_required`: view decorators (sync or async),
  checked against the request's club (``request.club``, :mod:`risiko.web.clubs`);
  :data:`national_officer_required` for the national officer's pages.
- :class:`RefereeRequiredMixin` / :class:`CommitteeRequiredMixin`: class-based views.

An anonymous user is sent to the login page (with ``?next=``); a logged-in user without the
role at the request's club gets 403. The Django admin is for the committee of the default
club only (:func:`restrict_admin_to_committee`, called when the app is ready).
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
#: the group of the national officers (created by the site's migration 0003)
NATIONAL_OFFICER = "national_officer"
#: the requests a national officer may make at any club: reading
READING = ("GET", "HEAD", "OPTIONS")

_CACHE_ATTR = "_risiko_group_names"
_ROLES_ATTR = "_risiko_club_roles"

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


def club_roles(user: AnyUser | None) -> dict[int, frozenset[str]]:
    """Club id -> ``user``'s roles there (his memberships; cached on the user object for the
    request); empty for an anonymous or inactive user."""
    if user is None or not user.is_authenticated or not user.is_active:
        return {}
    cached = getattr(user, _ROLES_ATTR, None)
    if cached is None:
        from .models import ClubMembership

        found: dict[int, set[str]] = {}
        for club_id, role in ClubMembership.objects.filter(user_id=user.pk).values_list(
                "club_id", "role"):
            found.setdefault(club_id, set()).add(role)
        cached = {k: frozenset(v) for k, v in found.items()}
        setattr(user, _ROLES_ATTR, cached)
    return cast(dict[int, frozenset[str]], cached)


def roles_at(user: AnyUser | None, club: Any = None) -> frozenset[str]:
    """``user``'s roles at ``club`` (a :class:`~risiko.web.national.models.Club`; None: the
    default club not created yet): his memberships there, and his groups ``referee`` /
    ``committee`` when it is the default club."""
    roles: frozenset[str] = frozenset()
    if club is None or getattr(club, "is_default", False):
        roles = group_names(user) & {REFEREE, COMMITTEE}
    if club is not None:
        roles |= club_roles(user).get(int(club.pk), frozenset())
    return roles


def is_national_officer(user: AnyUser | None) -> bool:
    """Active member of ``national_officer``, or superuser: sees every club and approves the
    national reports."""
    return _is_superuser(user) or NATIONAL_OFFICER in group_names(user)


def is_committee(user: AnyUser | None, club: Any = None) -> bool:
    """Committee at ``club`` (None: the default club), or superuser."""
    return _is_superuser(user) or COMMITTEE in roles_at(user, club)


def is_referee(user: AnyUser | None, club: Any = None) -> bool:
    """Referee or committee at ``club`` (None: the default club), or superuser."""
    return _is_superuser(user) or bool(roles_at(user, club) & {REFEREE, COMMITTEE})


def _check(request: HttpRequest, allowed: Callable[[AnyUser, Any], bool]
           ) -> HttpResponseBase | None:
    """None when the user passes at the request's club (or is a national officer reading);
    else a login redirect (anonymous) or PermissionDenied."""
    user = request.user
    if allowed(user, getattr(request, "club", None)):
        return None
    if request.method in READING and is_national_officer(user):
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


def _requiring(allowed: Callable[[AnyUser, Any], bool]) -> Callable[[V], V]:
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
#: View decorator: national officers and superusers only, at any club (the national flow).
national_officer_required = _requiring(lambda user, club: is_national_officer(user))


class RefereeRequiredMixin(UserPassesTestMixin):
    """Class-based views for referees (anonymous: login redirect; others: 403)."""

    request: HttpRequest

    def test_func(self) -> bool:
        return is_referee(self.request.user, getattr(self.request, "club", None))


class CommitteeRequiredMixin(UserPassesTestMixin):
    """Class-based views for the committee (anonymous: login redirect; others: 403)."""

    request: HttpRequest

    def test_func(self) -> bool:
        return is_committee(self.request.user, getattr(self.request, "club", None))


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
    """A national officer (:func:`is_national_officer`) or a holder of the
    ``national.approve_report`` permission (a superuser holds every one): the national
    officer's role approves or refuses clubs' reports and manages club keys. ``club`` is
    ignored (the role is national), so it fits a check called with the request's club."""
    if is_national_officer(user):
        return True
    has_perm = getattr(user, "has_perm", None)
    return bool(user is not None and user.is_active and has_perm is not None
                and has_perm("national.approve_report"))


#: View decorator: the national officer (``national.approve_report``) only.
officer_required = _requiring(can_approve_reports)
