"""The login limit holds against guesses sent at once: against a real
``risiko serve`` (uvicorn, two worker processes, several requests at a time each, the
production settings) on SQLite and PostgreSQL, 60 wrong passwords released together through
a barrier get at most the limit checked (the username's over all addresses, the username's
from one address), and the right password sent after them does not log in; the address limit
holds the same way across usernames."""

from __future__ import annotations

import os
import threading
from collections import Counter

import pytest
from served import Browser, make_user, server_env

from risiko.web.serving import ServedApp

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

PASSWORD = "tavolo-rosso-42"
LIMITED = "Troppi accessi falliti"


def _burst(url: str, posts: list[tuple[dict[str, str], dict[str, str]]],
           csrf: dict[str, str]) -> list[tuple[int, str]]:
    """Every (form, headers) posted to /login/ at the same moment; (status, body) each."""
    barrier = threading.Barrier(len(posts))
    out: list[tuple[int, str]] = [(0, "")] * len(posts)

    def one(i: int) -> None:
        b = Browser(url)
        b.cookies = dict(csrf)
        form, headers = posts[i]
        barrier.wait()
        status, _h, body = b.post("/login/", form, headers)
        out[i] = (status, body)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(posts))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(300)
    return out


def _kind(status: int, body: str) -> str:
    if status == 302:
        return "logged in"
    assert status == 200, (status, body[:300])
    return "refused unchecked" if LIMITED in body else "checked"


def _kinds(app: ServedApp, posts: list[tuple[dict[str, str], dict[str, str]]],
           csrf: dict[str, str]) -> Counter[str]:
    results = _burst(app.url, posts, csrf)
    assert all(status != 500 for status, _b in results), "\n".join(app.log[-80:])
    return Counter(_kind(*r) for r in results)


def _bounded_connections() -> bool:
    from django.conf import settings

    db = settings.DATABASES["default"]
    return db["ENGINE"].endswith("sqlite3") or "pool" in db.get("OPTIONS", {})


def test_parallel_guesses_check_at_most_the_limit(tmp_path):
    if not _bounded_connections():
        # 60 requests at once open 60 PostgreSQL connections without the pool:
        # the shared test server would refuse other clients
        pytest.skip("PostgreSQL without a connection pool")
    env = server_env(tmp_path)
    env.update(RISIKO_LOGIN_MAX_FAILURES="5", RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS="12",
               RISIKO_LOGIN_MAX_FAILURES_PER_USERNAME="10")
    # several workers need a channel layer for the online tables (not used here)
    env.setdefault("REDIS_URL", os.environ.get("REDIS_URL") or os.environ.get(
        "RISIKO_TEST_REDIS_URL") or "redis://127.0.0.1:6379/14")  # make test: its Redis db
    make_user(env, "arbitro", PASSWORD, "referee")
    make_user(env, "seconda", PASSWORD, "referee")
    # two server processes: the count must be the database's, not a process's memory
    with ServedApp(env, args=["--trusted-proxy", "127.0.0.1", "--workers", "2"]) as app:
        first = Browser(app.url)
        status, _h, _b = first.get("/login/")
        assert status == 200 and "csrftoken" in first.cookies
        csrf = {"csrftoken": first.cookies["csrftoken"]}

        # 60 wrong passwords for one username, each from its own address, all at once
        posts = [({"username": "arbitro", "password": f"guess-{i}"},
                  {"X-Forwarded-For": f"198.51.100.{i + 1}"}) for i in range(60)]
        kinds = _kinds(app, posts, csrf)
        assert kinds == {"checked": 10, "refused unchecked": 50}

        # the right password now: refused unchecked, no session
        b = Browser(app.url)
        b.cookies = dict(csrf)
        status, _h, body = b.post("/login/", {"username": "arbitro", "password": PASSWORD},
                                  {"X-Forwarded-For": "198.51.100.200"})
        assert _kind(status, body) == "refused unchecked" and "sessionid" not in b.cookies

        # 30 wrong passwords for another username from one address: that pair's 5
        posts = [({"username": "seconda", "password": f"guess-{i}"},
                  {"X-Forwarded-For": "198.51.100.250"}) for i in range(30)]
        assert _kinds(app, posts, csrf) == {"checked": 5, "refused unchecked": 25}

        # one address, many usernames at once: at most the address limit (12) checked
        posts = [({"username": f"ospite{i}", "password": "x"},
                  {"X-Forwarded-For": "203.0.113.7"}) for i in range(40)]
        kinds = _kinds(app, posts, csrf)
        assert kinds == {"checked": 12, "refused unchecked": 28}
        assert not app.errors(), app.log[-20:]
