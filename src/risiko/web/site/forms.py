"""Forms of the site: the rate-limited login and the first referee."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from django import forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from . import ratelimit


class RateLimitedAuthenticationForm(AuthenticationForm):
    """Django's login form, refusing an attempt before its password is checked once the
    username or the client address had too many (:mod:`risiko.web.site.ratelimit`); a
    browser with the username's known-device cookie counts on its own."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "rate_limited": _(
            "Too many failed logins for this username. Wait %(minutes)s and try again."
        ),
        "rate_limited_address": _(
            "Too many failed logins from this network address. Wait %(minutes)s and try "
            "again."
        ),
    }

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "")
        ip = ratelimit.client_ip(self.request)
        device = ratelimit.known_device(self.request, username) if username else None
        if username:
            refusal = ratelimit.reserve(username, ip, device)
            if refusal is not None:
                minutes = math.ceil(refusal.seconds / 60)
                code = "rate_limited" if refusal.scope == ratelimit.USER else (
                    "rate_limited_address")
                raise forms.ValidationError(
                    self.error_messages[code],
                    code="rate_limited",
                    params={
                        "minutes": ngettext("%(n)d minute", "%(n)d minutes", minutes)
                        % {"n": minutes}
                    },
                )
        cleaned = super().clean()  # a wrong password keeps the slot taken
        if username:
            ratelimit.succeeded(username, ip, device)
        return cleaned


if TYPE_CHECKING:
    _UserCreationForm = UserCreationForm[User]
else:
    _UserCreationForm = UserCreationForm


class FirstRefereeForm(_UserCreationForm):
    """Username and password twice (Django's password validation) of the first referee."""

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)
