"""Views of the site foundation: home, first run, login, admin login, regulation."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.models import Group
from django.contrib.auth.views import LoginView, redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_safe

from risiko.web.core.models import FirstAccount
from risiko.web.tournaments.models import Tournament

from . import ratelimit
from . import regulation as reg
from .forms import FirstRefereeForm, RateLimitedAuthenticationForm
from .middleware import from_this_machine, no_user_yet
from .permissions import COMMITTEE, GROUPS, REFEREE, admin_has_permission


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The tournaments, newest first, each linking to ``/t/<slug>/``."""
    tournaments = Tournament.objects.all()
    return render(request, "site/home.html", {"tournaments": tournaments})


@require_http_methods(["GET", "POST"])
def first_run(request: HttpRequest) -> HttpResponseBase:
    """Create the first referee (superuser, groups referee and committee); 404 afterwards.

    Only from the machine that runs the server (403 with the way forward from anywhere
    else) unless ``RISIKO_ALLOW_REMOTE_SETUP`` (``risiko serve --allow-remote-setup``): the
    first to open a fresh server's address on the venue's Wi-Fi would otherwise own it."""
    if not no_user_yet():
        raise Http404
    if not (getattr(settings, "RISIKO_ALLOW_REMOTE_SETUP", False) or from_this_machine(request)):
        return render(request, "site/first_run_remote.html", status=403)
    form = FirstRefereeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                # one first account: the database refuses a second slot 1 (PostgreSQL makes
                # a request at the same moment wait for this one, then refuses it); a slot
                # left by accounts deleted since is freed first
                FirstAccount.objects.filter(slot=1).delete()
                FirstAccount.objects.create(username=form.cleaned_data["username"])
                if not no_user_yet():  # another browser was quicker
                    raise Http404
                user = _first_referee(form)
        except IntegrityError:
            raise Http404 from None
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(
            request,
            _("Welcome, %(name)s: you are the first referee and a committee member.")
            % {"name": user.get_username()},
        )
        return redirect("home")
    return render(
        request,
        "site/first_run.html",
        {"form": form, "groups": (REFEREE, COMMITTEE)},
    )


def _first_referee(form: FirstRefereeForm) -> Any:
    user = form.save(commit=False)
    user.is_staff = True
    user.is_superuser = True
    user.save()
    groups = [Group.objects.get_or_create(name=name)[0] for name in GROUPS]
    user.groups.add(*groups)
    return user


class SiteLoginView(LoginView):
    """Django's login view with the rate-limited form; a successful login makes the browser
    a known device of its username (:data:`~risiko.web.site.ratelimit.DEVICE_COOKIE`)."""

    template_name = "site/login.html"
    authentication_form = RateLimitedAuthenticationForm
    redirect_authenticated_user = True

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        username = form.get_user().get_username()
        if ratelimit.known_device(self.request, username) is None:
            response.set_cookie(
                ratelimit.DEVICE_COOKIE, ratelimit.device_cookie(username),
                max_age=ratelimit.DEVICE_MAX_AGE, httponly=True, samesite="Lax",
                secure=bool(getattr(settings, "SESSION_COOKIE_SECURE", False)))
        return response


def admin_login(request: HttpRequest) -> HttpResponseBase:
    """The admin's login page: the site's (rate-limited) login; 403 when logged in but not in
    the committee."""
    if request.user.is_authenticated:
        if not admin_has_permission(request):
            raise PermissionDenied
        target = request.GET.get("next", "")
        safe = url_has_allowed_host_and_scheme(
            target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        return redirect(target if safe else reverse("admin:index"))
    return redirect_to_login(request.GET.get("next") or reverse("admin:index"))


@require_safe
def regulation(request: HttpRequest, lang: str | None = None) -> HttpResponse:
    """The regulation in ``lang`` (default: the page's language), linking to the other;
    GET and HEAD only (405 otherwise)."""
    language = lang or (get_language() or "it")[:2]
    if language not in reg.LANGUAGES:
        if lang is not None:
            raise Http404
        language = "it"
    others = [code for code in reg.LANGUAGES if code != language]
    return render(
        request,
        "site/regulation.html",
        {"regulation": reg.load(language), "other_languages": others},
    )
