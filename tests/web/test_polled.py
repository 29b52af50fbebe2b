"""The polled reads answered at the server's door (:mod:`risiko.web.public.polled`): the
JSON API and the live partial, driven through the ASGI application as uvicorn drives it.
The door's answer is Django's byte for byte (body and headers; a new CSP nonce, the live
partial's clock the time it is served), only while the snapshot it came from is the current
one; a save, an unknown tournament, a logged-in referee, a query string go to Django.

The tournament is :func:`test_public_pages.build`'s (the standings worked out by hand in its
docstring): Alba 130, Ezio 115, Gino 85, ...; after table 2 of 2027-03-09 (Bice 70, Ciro 20,
Fede 45, Ivo 25) Bice is 3rd with 103 points and Fede 5th with 78.
"""

from __future__ import annotations

import asyncio
import datetime as _dt
import json
import re
import threading
import time
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.asgi import get_asgi_application
from django.utils import timezone
from test_public_pages import SLUG, STANDINGS, _second_table_result, build

from risiko.web.public import data, polled
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

Answer = tuple[int, dict[bytes, bytes], bytes]


@pytest.fixture(autouse=True)
def _setup(db: Any) -> Any:
    User.objects.create_user("arbitro", password="tavolo-rosso-42")
    data.clear_cache()
    polled.forget()
    yield
    data.clear_cache()
    polled.forget()


class Counting:
    """Django's ASGI application, counting the requests that reach it."""

    def __init__(self, slow: float = 0.0) -> None:
        self.django = get_asgi_application()
        self.calls = 0
        self.slow = slow  # seconds before Django starts answering

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls += 1
        await asyncio.sleep(self.slow)
        await self.django(scope, receive, send)


def _get(app: Any, path: str, headers: list[tuple[bytes, bytes]] | None = None,
         query: bytes = b"", method: str = "GET") -> Answer:
    """One request through ``app`` as uvicorn makes it: (status, headers, body)."""
    return asyncio.run(_ask(app, path, headers, query, method))


async def _ask(app: Any, path: str, headers: list[tuple[bytes, bytes]] | None = None,
               query: bytes = b"", method: str = "GET") -> Answer:
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1",
             "method": method, "scheme": "http", "path": path, "raw_path": path.encode(),
             "query_string": query, "root_path": "", "client": ("127.0.0.1", 50000),
             "server": ("127.0.0.1", 8000),
             "headers": [(b"host", b"127.0.0.1:8000"), *(headers or [])]}
    sent: list[Any] = []
    asked: list[int] = []

    async def receive() -> dict[str, Any]:
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(3600)  # the client stays until the answer is complete
        return {"type": "http.disconnect"}

    async def send(message: Any) -> None:
        sent.append(message)

    await app(scope, receive, send)
    start = next(m for m in sent if m["type"] == "http.response.start")
    body = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], {n.lower(): v for n, v in start["headers"]}, body


def _same(door: Answer, django: Answer) -> None:
    """The door's answer is Django's: status, body, every header but the CSP's nonce (a
    new one, in the same policy)."""
    assert door[0] == django[0] == 200
    assert door[2] == django[2]
    assert door[1].keys() == django[1].keys()
    for name, value in django[1].items():
        if name == b"content-security-policy":
            nonce = re.compile(rb"'nonce-[^']+'")
            assert nonce.sub(b"N", door[1][name]) == nonce.sub(b"N", value)
            assert nonce.findall(door[1][name]) != nonce.findall(value)  # a new nonce
        else:
            assert door[1][name] == value, name


def _rows(body: bytes) -> list[tuple[int, str, int]]:
    return [(r["rank"], r["player"], r["points"]) for r in json.loads(body)["standings"]]


def test_the_api_is_answered_at_the_door_as_django_answers_it() -> None:
    t = build()
    app = polled.PolledReads(counting := Counting())
    path = f"/api/tournaments/{t.pk}/standings"
    first = _get(app, path)
    assert counting.calls == 1 and _rows(first[2]) == [r[:3] for r in STANDINGS]
    door = _get(app, path)
    assert counting.calls == 1  # not Django
    _same(door, _get(get_asgi_application(), path))
    _same(door, first)
    # the headers that matter, as the API sets them and the site's middleware adds them
    assert door[1][b"content-type"] == b"application/json; charset=utf-8"
    assert door[1][b"cache-control"] == b"no-cache"
    assert door[1][b"access-control-allow-origin"] == b"*"
    assert door[1][b"x-frame-options"] == b"DENY"
    assert b"default-src 'self'" in door[1][b"content-security-policy"]
    # HEAD: its own answer, kept the same way
    head = _get(app, path, method="HEAD")
    assert counting.calls == 2
    _same(_get(app, path, method="HEAD"), head)
    assert counting.calls == 2


def test_after_a_save_the_new_standings_never_the_old_bytes() -> None:
    t = build()
    app = polled.PolledReads(counting := Counting())
    path = f"/api/tournaments/{t.pk}/standings"
    _get(app, path)
    _get(app, path)
    assert counting.calls == 1
    _second_table_result(t)
    after = _get(app, path)
    assert counting.calls == 2  # the change key moved: Django answers
    # Bice 33 + 70 = 103 (3rd), Fede 33 + 45 = 78, Ciro 25 + 20 = 45, Ivo -25 + 25 = 0
    assert _rows(after[2])[:5] == [(1, "Alba", 130), (2, "Ezio", 115), (3, "Bice", 103),
                                   (4, "Gino", 85), (5, "Fede", 78)]
    door = _get(app, path)
    assert counting.calls == 2
    _same(door, after)
    _same(door, _get(get_asgi_application(), path))


def test_while_the_new_snapshot_is_computed_the_door_answers_as_django_does() -> None:
    """A request arriving while the snapshot after a change is computed gets the one from
    before (docs/web.md), from Django as from the door; once computed, the new one."""
    t = build()
    app = polled.PolledReads(counting := Counting())
    path = f"/api/tournaments/{t.pk}/standings"
    _get(app, path)
    _second_table_result(t)
    computing = data._building.setdefault(t.pk, threading.Lock())
    computing.acquire()  # as the thread computing the new snapshot holds it
    try:
        door = _get(app, path)
        django = _get(get_asgi_application(), path)
    finally:
        computing.release()
    assert counting.calls == 1
    assert _rows(django[2]) == [r[:3] for r in STANDINGS]  # Bice still 33, 5th
    _same(door, django)
    after = _get(app, path)
    assert counting.calls == 2 and _rows(after[2])[2] == (3, "Bice", 103)


def test_with_the_computation_in_a_thread_the_new_standings_come(settings: Any) -> None:
    """``RISIKO_PUBLIC_BACKGROUND`` (the server): after a save the answers from before
    while a thread computes, then the new ones at the door; nothing old is kept."""
    settings.RISIKO_PUBLIC_BACKGROUND = True
    t = build()
    app = polled.PolledReads(Counting())
    path = f"/t/{SLUG}/classifica/live/"
    _get(app, path)
    _second_table_result(t)
    deadline = time.monotonic() + 10
    while b">103<" not in _get(app, path)[2]:  # Bice's new points
        assert time.monotonic() < deadline, "the new standings never came"
        time.sleep(0.02)
    assert all(b">103<" in _get(app, path)[2] for _ in range(3))


def test_the_live_partial_with_the_clock_of_now() -> None:
    build()
    app = polled.PolledReads(counting := Counting())
    path = f"/t/{SLUG}/classifica/live/"
    hx = [(b"hx-request", b"true"), (b"accept-language", b"en")]
    first = _get(app, path, hx)
    before = timezone.localtime()
    door = _get(app, path, hx)
    after = timezone.localtime()
    assert counting.calls == 1
    django = _get(get_asgi_application(), path, hx)
    clock = re.compile(rb"<time>(\d\d:\d\d:\d\d)</time>")
    served = clock.findall(door[2])
    assert len(served) == 1
    stamps = {(before + _dt.timedelta(seconds=s)).strftime("%H:%M:%S").encode()
              for s in range(int((after - before).total_seconds()) + 2)}
    assert served[0] in stamps
    _same((door[0], door[1], clock.sub(b"T", door[2])),
          (django[0], django[1], clock.sub(b"T", django[2])))
    assert b"Alba" in door[2] and door[1][b"cache-control"] == b"no-cache"
    assert door[1][b"content-language"] == first[1][b"content-language"] == b"it"
    # another language's headers: Django's own answer, then its own at the door
    en = [(b"cookie", b"django_language=en")]
    english = _get(app, path, en)
    assert counting.calls == 2 and english[1][b"content-language"] == b"en"
    assert _get(app, path, en)[1][b"content-language"] == b"en" and counting.calls == 2


def test_an_unknown_tournament_goes_to_django_every_time() -> None:
    build()
    app = polled.PolledReads(counting := Counting())
    for path in ("/api/tournaments/999/standings", "/t/nessuno/classifica/live/"):
        for _ in range(2):
            assert _get(app, path)[0] == 404
    assert counting.calls == 4


def test_a_logged_in_referee_and_a_query_string_go_to_django(client: Any) -> None:
    t = build()
    app = polled.PolledReads(counting := Counting())
    path = f"/api/tournaments/{t.pk}/standings"
    _get(app, path)
    _get(app, path)
    assert counting.calls == 1
    client.force_login(User.objects.get(username="arbitro"))
    session = f"sessionid={client.cookies['sessionid'].value}".encode()
    for _ in range(2):  # never kept: each goes to Django
        _get(app, path, [(b"cookie", session)])
        _get(app, path, query=b"x=1")
        _get(app, path, method="POST")
    assert counting.calls == 7


def test_a_renamed_tournament_is_renamed_at_the_door() -> None:
    t = build()
    app = polled.PolledReads(Counting())
    path = f"/api/tournaments/{t.pk}/standings"
    _get(app, path)
    assert json.loads(_get(app, path)[2])["name"] == "Torneo di prova"
    Tournament.objects.filter(pk=t.pk).update(name="Torneo sociale")  # the admin's way:
    from django.contrib.admin.models import CHANGE, LogEntry  # it writes its log
    from django.contrib.contenttypes.models import ContentType

    LogEntry.objects.create(user=User.objects.get(username="arbitro"), action_flag=CHANGE,
                            content_type=ContentType.objects.get_for_model(Tournament),
                            object_id=str(t.pk), object_repr="Torneo sociale")
    assert json.loads(_get(app, path)[2])["name"] == "Torneo sociale"


def test_requests_alike_wait_for_the_answer_django_is_giving() -> None:
    """Five phones asking at once the first time: one goes through Django, the four others
    get its answer, kept, at the door."""
    t = build()
    app = polled.PolledReads(counting := Counting(slow=0.2))
    path = f"/api/tournaments/{t.pk}/standings"

    async def five() -> list[Answer]:
        return list(await asyncio.gather(*(_ask(app, path) for _ in range(5))))

    answers = asyncio.run(five())
    assert counting.calls == 1
    assert all(_rows(a[2]) == [r[:3] for r in STANDINGS] for a in answers)
    for a in answers[1:]:
        _same(a, answers[0])
