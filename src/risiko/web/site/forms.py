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
    """Django's login form, refusing a username from an address after too many failures."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "rate_limited": _(
            "Too many failed logins for this username. Wait %(minutes)s and try again."
        ),
    }

    def clean(self) -> dict[str, Any]:
        username = str(self.cleaned_data.get("username") or "")
        ip = ratelimit.client_ip(self.request)
        if username:
            left = ratelimit.blocked_for(username, ip)
            if left:
                minutes = math.ceil(left / 60)
                raise forms.ValidationError(
                    self.error_messages["rate_limited"],
                    code="rate_limited",
                    params={
                        "minutes": ngettext("%(n)d minute", "%(n)d minutes", minutes)
                        % {"n": minutes}
                    },
                )
        try:
            cleaned = super().clean()
        except forms.ValidationError as error:
            if username and error.code == "invalid_login":
                ratelimit.record_failure(username, ip)
            raise
        if username:
            ratelimit.clear(username, ip)
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
