"""What the tests against a real ``risiko serve`` share: a database the server can reach
(a fresh SQLite file, or the PostgreSQL test database of this run), users made in it, and a
small HTTP client with cookies and the CSRF token."""

from __future__ import annotations

import http.client
import os
import re
import subprocess
import sys
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

from django.db import connection


def server_env(tmp_path: Path) -> dict[str, str]:
    """Environment for a server on the same database as this test run: PostgreSQL's test
    database (the test must be ``transaction=True`` so the server sees its rows), else a
    fresh SQLite file in ``tmp_path`` (an in-memory test database is not reachable)."""
    env = {"RISIKO_DATA_DIR": str(tmp_path / "data")}
    if connection.vendor == "postgresql":
        s = connection.settings_dict
        user = urllib.parse.quote(s.get("USER") or "")
        password = urllib.parse.quote(s.get("PASSWORD") or "")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        env["DATABASE_URL"] = (f"postgres://{auth}{s.get('HOST') or '127.0.0.1'}:"
                               f"{s.get('PORT') or 5432}/{s['NAME']}")
    else:
        env["DATABASE_URL"] = ""
    return env


def run_django(env: dict[str, str], code: str) -> str:
    """Run ``code`` in a child process with Django set up (migrations applied) on the
    server's database; its standard output."""
    full = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    full.update(env)
    if not full.get("DATABASE_URL"):
        full.pop("DATABASE_URL", None)
    prelude = "from risiko.web import bootstrap; bootstrap.setup()\n"
    out = subprocess.run([sys.executable, "-c", prelude + code], env=full,
                         capture_output=True, text=True, timeout=300, check=False)
    if out.returncode != 0:
        raise RuntimeError(out.stderr)
    return out.stdout


def make_user(env: dict[str, str], username: str, password: str, *groups: str) -> None:
    """A user with ``groups`` in the server's database."""
    run_django(env, (
        "from django.contrib.auth.models import Group, User\n"
        f"u = User.objects.create_user({username!r}, password={password!r})\n"
        f"for g in {list(groups)!r}:\n"
        "    u.groups.add(Group.objects.get_or_create(name=g)[0])\n"
    ))


class Browser:
    """One client of the server: keeps its cookies, sends the CSRF token on posts."""

    def __init__(self, base: str, headers: dict[str, str] | None = None) -> None:
        parts = urllib.parse.urlsplit(base)
        self.host, self.port = parts.hostname or "127.0.0.1", parts.port or 80
        self.cookies: dict[str, str] = {}
        self.headers = dict(headers or {})

    def request(self, method: str, path: str, form: dict[str, str] | None = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        """``(status, headers (lower-case names), body)``."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=120)
        try:
            h = {**self.headers, **(headers or {})}
            if self.cookies:
                h["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
            body = None
            if form is not None:
                if "csrftoken" in self.cookies:
                    form = {"csrfmiddlewaretoken": self.cookies["csrftoken"], **form}
                body = urllib.parse.urlencode(form, doseq=True)
                h["Content-Type"] = "application/x-www-form-urlencoded"
                h["Referer"] = f"http://{self.host}:{self.port}{path}"
            conn.request(method, path, body=body, headers=h)
            resp = conn.getresponse()
            text = resp.read().decode("utf-8", "replace")
            for value in resp.headers.get_all("Set-Cookie") or []:
                jar: SimpleCookie = SimpleCookie()
                jar.load(value)
                for key, morsel in jar.items():
                    self.cookies[key] = morsel.value
            return resp.status, {k.lower(): v for k, v in resp.getheaders()}, text
        finally:
            conn.close()

    def get(self, path: str, **kw: dict[str, str]) -> tuple[int, dict[str, str], str]:
        return self.request("GET", path, **kw)

    def post(self, path: str, form: dict[str, str],
             headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], str]:
        return self.request("POST", path, form, headers)


def hidden_inputs(html: str) -> dict[str, str]:
    """The hidden inputs of a page's forms (name -> value)."""
    out = {}
    for tag in re.findall(r"<input[^>]*type=\"hidden\"[^>]*>", html):
        name = re.search(r'name="([^"]+)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            out[name.group(1)] = value.group(1) if value else ""
    return out
