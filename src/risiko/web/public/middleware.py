"""The standings made ready by the write that changed them.

After a referee's write (a POST of the console or the tools answered without an error, on a
page of a tournament: its URL has the tournament's ``slug``), :func:`data.refresh` computes
the tournament's new snapshot before the answer goes back, when someone is reading its
pages. The referee already waits for the save; 50 phones polling the live standings then
find the new snapshot ready, instead of the first of them after each save paying for it
(issue 8: on an evening with two referees saving every few seconds, one phone request in
ten did, and the slowest of them set the p99). With several workers (``risiko serve
--workers``) only the worker that served the write refreshes its cache; the others compute
on their next request as before.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponseBase

from . import data

log = logging.getLogger(__name__)


class RefreshStandingsMiddleware:
    """Refresh the snapshot of the tournament a successful POST wrote to."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        response = self.get_response(request)
        if request.method != "POST" or response.status_code >= 400:
            return response
        match = request.resolver_match
        slug = match.kwargs.get("slug") if match is not None else None
        if isinstance(slug, str):
            try:
                data.refresh(slug)
            except Exception:  # the write is saved: the next reader computes (and says why)
                log.exception("refreshing the standings of %s after a write", slug)
        return response
