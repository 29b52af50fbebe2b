"""The socket of a live page: ``ws/live/?path=<location.pathname>&lang=it``.

A public page (:data:`.groups.PUBLIC_VIEWS`) or a national ranking's
(:data:`.groups.NATIONAL_VIEWS`) for anyone, a console page for a referee (the
session's); anything else is closed with 4403 before it is accepted. The consumer joins the
page's group and passes on what the hub sends (already encoded: one JSON per fragment for
every socket). It never reads from the client (a frame is ignored). A send to a socket the
phone closed meanwhile ends this socket only; the group and the count are left once,
however the socket ends.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from .groups import REGISTRY, RENDERED, Page, page_of, referee_at
from .hub import HUB

log = logging.getLogger(__name__)
REFUSED = 4403  # not a page to follow, or a console page without a referee's session
NOT_FOUND = 4404  # a public page that does not answer (a player, an evening that is not there)
TOO_MANY = 4429  # the process follows MAX_PAGES distinct pages already


async def _registry(method: Any, page: Page) -> Any:
    if os.environ.get("REDIS_URL"):  # the shared count is a Redis call: not on the loop
        return await asyncio.to_thread(method, page)
    return method(page)


class LiveConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """One open page following its changes."""

    page: Page | None = None

    async def connect(self) -> None:
        HUB.server_loop = asyncio.get_running_loop()
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        path = (query.get("path") or [""])[0]
        lang = (query.get("lang") or [""])[0][:2]
        user = self.scope.get("user")
        referee = bool(user is not None and user.is_authenticated
                       and await database_sync_to_async(referee_at)(user, path))
        page = page_of(path, lang, referee=referee)
        if page is None:
            await self._refuse(REFUSED)
            return
        # the first follower of a public page: it must answer 200 now, so a change never
        # renders addresses that lead nowhere
        if (page.audience in RENDERED and not REGISTRY.followed(page)
                and await database_sync_to_async(HUB.first_render)(page) is None):
            await self._refuse(NOT_FOUND)  # no such player, evening, tournament
            return
        try:
            counted = await _registry(REGISTRY.add, page)
        except Exception:  # Redis away: this worker's phones still get the changes
            log.exception("live pages: the shared registry could not count %s", page.path)
            counted = True
        if not counted:
            await self._refuse(TOO_MANY)
            return
        self.page = page
        await self.channel_layer.group_add(page.group, self.channel_name)
        await self.accept()
        HUB.follow()  # the hub looks at the writes of other processes too

    async def _refuse(self, code: int) -> None:
        """Accept, then close with ``code`` at once: the browser's close event carries the
        code (a close before the accept is a bare 403 of the handshake, code 1006)."""
        await self.accept()
        await self.close(code=code)

    async def receive(self, text_data: str | None = None,
                      bytes_data: bytes | None = None) -> None:
        """Nothing to read: the page only listens."""

    async def live_fragment(self, message: dict[str, Any]) -> None:
        """A fragment from the hub, passed on as it is."""
        try:
            await self.send(text_data=message["text"])
        except Exception:  # the phone went away while it was being sent
            log.info("live pages: a socket of %s closed while sending",
                     self.page.path if self.page else "?")
            await self.close()

    async def disconnect(self, code: int) -> None:
        page, self.page = self.page, None
        if page is None:
            return
        await self.channel_layer.group_discard(page.group, self.channel_name)
        try:
            await _registry(REGISTRY.remove, page)
        except Exception:
            log.exception("live pages: the shared registry could not uncount %s", page.path)
