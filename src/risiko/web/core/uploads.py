"""The upload limit, applied before the request body is read.

``@limit_upload`` (on views that take a file) answers 413 with a message when the request
announces a body larger than ``settings.RISIKO_UPLOAD_MAX_BYTES`` (default 4 MB, see
:func:`risiko.web.core.limits.upload_limit`): the body is never read. The form then checks
the file's size again (:func:`risiko.web.core.limits.check_size`). Under ``risiko serve`` the
server's door (:class:`risiko.web.asgi.BodyLimit`) has refused it already; the view's mark
``takes_upload`` is what gives its path the upload limit there."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar, cast

from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.translation import gettext as _

from .limits import UPLOAD_OVERHEAD, size_text, upload_limit

_V = TypeVar("_V", bound=Callable[..., HttpResponseBase])

#: room for the form's other fields and the multipart boundaries
OVERHEAD = UPLOAD_OVERHEAD


def limit_upload(view: _V) -> _V:
    """Refuse (413) a POST whose body is larger than the upload limit, before reading it."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0
        limit = upload_limit()
        if request.method == "POST" and length > limit + OVERHEAD:
            return HttpResponse(
                _("The file is too large: %(size)s, the limit is %(limit)s.")
                % {"size": size_text(length), "limit": size_text(limit)},
                status=413, content_type="text/plain; charset=utf-8")
        return view(request, *args, **kwargs)

    wrapper.takes_upload = True  # type: ignore[attr-defined]  # risiko.web.asgi.body_limit
    return cast(_V, wrapper)
