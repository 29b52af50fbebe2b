"""One-time form tokens: a double tap, a reload or a flaky phone network that posts the same
form twice writes once.

Every console form carries a hidden field ``once`` (``{% once_token action %}`` of the
``once`` template library), a random key signed with the site's secret and the time it was
made, new each time the form is rendered (two tabs, a reloaded page: two tokens), and bound
to the browser's session and to the form (the path it posts to): a token is taken only by
the form it was made for, in the session it was made for; anywhere else it is refused (400)
like a forged one, so a token spent on one form never makes another form's post answer
"already recorded". A view decorated with
:func:`once` keeps the key of a post that changed something in the database
(:class:`~risiko.web.core.models.FormToken`, in the same transaction as the change, so every
worker process knows it), with what it answered; a second post of the same key writes
nothing, adds no audit entry and answers the first one's outcome with "already recorded".
A post refused (nothing written) leaves its token unused: corrected and posted again, it
goes through. Keys are kept a day (:data:`LIFETIME`); a form older than that is refused
with a message (400), never recorded twice. A post without the field (scripts, tests) is
served as before.
"""

from __future__ import annotations

import datetime as _dt
import functools
import secrets
from collections.abc import Callable
from typing import Any, TypeVar, cast
from urllib.parse import urlsplit

from django.contrib import messages
from django.core import signing
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac
from django.utils.translation import gettext as _

from risiko.web.auditlog.services import watch

from .models import FormToken

FIELD = "once"
LIFETIME = _dt.timedelta(days=1)
_SALT = "risiko.web.core.tokens"
_V = TypeVar("_V", bound=Callable[..., HttpResponseBase])


def _binding(session_key: str | None, action: str) -> str:
    """A keyed hash of the session and the form's path (the session key itself never goes
    into a page)."""
    return salted_hmac(_SALT, f"{session_key or '-'}\x00{action}").hexdigest()[:24]


def new_token(session_key: str | None, action: str) -> str:
    """A fresh signed token (the field's value) for the form posting to the path ``action``
    in the session ``session_key`` (None: no session yet)."""
    key = secrets.token_urlsafe(18)
    return signing.TimestampSigner(salt=_SALT).sign(f"{key}.{_binding(session_key, action)}")


def token_key(value: str, session_key: str | None, action: str) -> str | None:
    """The key of a token made here less than a day ago for this session and form; None
    otherwise."""
    try:
        signed = signing.TimestampSigner(salt=_SALT).unsign(value, max_age=LIFETIME)
    except (signing.BadSignature, TypeError):
        return None
    key, _dot, binding = signed.rpartition(".")
    if not constant_time_compare(binding, _binding(session_key, action)):
        return None
    return key if 0 < len(key) <= 64 else None


def token_for(request: HttpRequest, action: str = "") -> str:
    """A new token for the form of this page posting to ``action`` (a URL or a path; empty:
    the page itself)."""
    path = urlsplit(action).path if action else request.path
    return new_token(_session_key(request), path or request.path)


def _session_key(request: HttpRequest) -> str | None:
    session = getattr(request, "session", None)
    return session.session_key if session is not None else None


def _replay(request: HttpRequest, row: FormToken) -> HttpResponseBase:
    """The first post's outcome, said again with "already recorded"."""
    note = _("Already recorded: this form had been sent already, nothing was saved twice.")
    if row.location:
        messages.info(request, f"{note} {row.message}".strip())
        return HttpResponseRedirect(row.location)
    response = HttpResponse(row.body, status=row.status or 200,
                            content_type=row.content_type or "text/html; charset=utf-8")
    response["X-Risiko-Already-Recorded"] = "1"
    return response


def _queued(request: HttpRequest) -> list[str]:
    storage = getattr(request, "_messages", None)
    return [str(m) for m in getattr(storage, "_queued_messages", [])]


def once(view: _V) -> _V:
    """Make a POST view exactly-once for its form's token (see the module)."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        raw = request.POST.get(FIELD)
        if not raw:
            return view(request, *args, **kwargs)
        key = token_key(raw, _session_key(request), request.path)
        if key is None:
            return HttpResponse(
                _("This form is more than a day old or was not made here: reload the page "
                  "and enter it again."), status=400, content_type="text/plain; charset=utf-8")
        seen = FormToken.objects.filter(key=key).first()
        if seen is not None:
            return _replay(request, seen)
        before = len(_queued(request))
        with transaction.atomic():  # SQLite: the write lock from here (IMMEDIATE)
            try:
                with transaction.atomic():
                    row = FormToken.objects.create(
                        key=key, who=str(request.user.get_username())[:150],
                        path=request.path[:300])
            except IntegrityError:  # the same form, sent at the same moment, was first
                row = FormToken.objects.get(key=key)
                return _replay(request, row)
            with watch() as written:
                response = view(request, *args, **kwargs)
            if not written or response.status_code >= 400:
                transaction.set_rollback(True)  # nothing recorded: the token stays unused
                return response
            row.status = response.status_code
            if isinstance(response, HttpResponseRedirect):
                row.location = response["Location"][:600]
            elif isinstance(response, HttpResponse) and not response.streaming:
                row.body = response.content.decode(response.charset or "utf-8", "replace")
                row.content_type = response.get("Content-Type", "")[:100]
            row.message = " ".join(_queued(request)[before:])[:600]
            row.save()
            FormToken.objects.filter(used__lt=timezone.now() - LIFETIME).delete()
        return response

    return cast(_V, wrapper)
