"""Security settings: the client's address behind a trusted proxy only, the
first run from this machine only, Secure cookies and HSTS behind HTTPS, the
Content-Security-Policy with its per-request nonce (Django's test client)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from risiko.web.site import ratelimit
from risiko.web.site.models import LoginThrottle
from risiko.web.site.proxy import client_address, parse_networks

pytestmark = [pytest.mark.db, pytest.mark.django_db]

PASSWORD = "tavolo-rosso-42"
FIRST = {"username": "luca", "password1": PASSWORD, "password2": PASSWORD}


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _referee() -> User:
    user = User.objects.create_user("arbitro", password=PASSWORD)
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    return user


# --- the client's address -------------------------------------------------------------------


def test_client_address_takes_the_right_most_untrusted_hop():
    proxies = parse_networks("127.0.0.1,10.0.0.0/8,::1")
    assert client_address("127.0.0.1", "198.51.100.4", proxies) == "198.51.100.4"
    assert client_address("10.2.3.4", "198.51.100.4, 10.9.9.9", proxies) == "198.51.100.4"
    # whatever the client wrote itself is on the left and is not believed
    assert client_address("127.0.0.1", "1.2.3.4, 198.51.100.4", proxies) == "198.51.100.4"
    # only trusted hops: the left-most; nothing usable: the peer
    assert client_address("127.0.0.1", "10.1.1.1, 10.2.2.2", proxies) == "10.1.1.1"
    assert client_address("127.0.0.1", "", proxies) == "127.0.0.1"
    assert client_address("127.0.0.1", "junk", proxies) == "127.0.0.1"
    assert client_address("::1", "[2001:db8::7]:5555", proxies) == "2001:db8::7"
    # from a peer that is not a trusted proxy, the header counts for nothing
    assert client_address("192.0.2.1", "198.51.100.4", proxies) == "192.0.2.1"
    assert client_address("127.0.0.1", "198.51.100.4", ()) == "127.0.0.1"
    with pytest.raises(ValueError, match="nope"):
        parse_networks("127.0.0.1, nope")


def test_the_login_limit_counts_the_address_the_trusted_proxy_saw(settings):
    settings.RISIKO_TRUSTED_PROXIES = "127.0.0.1"
    _referee()
    c = Client()
    for _ in range(5):
        c.post("/login/", {"username": "arbitro", "password": "x"},
               HTTP_X_FORWARDED_FOR="198.51.100.4")
    keys = dict(LoginThrottle.objects.values_list("key", "attempts"))
    assert keys == {ratelimit._key("user", "arbitro", "198.51.100.4"): 5,
                    ratelimit._key("address", "198.51.100.4"): 5,
                    ratelimit._key("username", "arbitro"): 5}


def test_an_untrusted_peer_cannot_choose_its_address(settings):
    settings.RISIKO_TRUSTED_PROXIES = ""
    _referee()
    c = Client()
    for i in range(3):
        c.post("/login/", {"username": "arbitro", "password": "x"},
               HTTP_X_FORWARDED_FOR=f"198.51.100.{i}", REMOTE_ADDR="192.0.2.50")
    assert LoginThrottle.objects.get(key=ratelimit._key("address", "192.0.2.50")).attempts == 3
    assert not LoginThrottle.objects.filter(
        key__in=[ratelimit._key("address", f"198.51.100.{i}") for i in range(3)]).exists()


# --- first run ------------------------------------------------------------------------------


def test_first_run_from_another_machine_is_refused():
    remote = Client(REMOTE_ADDR="192.168.1.23")  # a phone on the venue's Wi-Fi
    page = remote.get("/first-run/")
    assert page.status_code == 403
    assert "--allow-remote-setup" in page.content.decode()
    assert remote.post("/first-run/", FIRST).status_code == 403
    assert not User.objects.exists()
    # every other page still leads there (and is refused there)
    assert remote.get("/classifica/")["Location"] == "/first-run/"


def test_first_run_through_an_unknown_proxy_is_refused(settings):
    settings.RISIKO_TRUSTED_PROXIES = ""
    # a proxy on this machine forwards a visitor: the peer is 127.0.0.1, but it is not a
    # trusted proxy, so the forwarding header marks the request as not from this machine
    proxied = Client(HTTP_X_FORWARDED_FOR="203.0.113.9")
    assert proxied.post("/first-run/", FIRST).status_code == 403
    assert not User.objects.exists()


def test_first_run_behind_a_trusted_proxy_needs_a_local_client(settings):
    settings.RISIKO_TRUSTED_PROXIES = "127.0.0.1"
    assert Client(HTTP_X_FORWARDED_FOR="203.0.113.9").post(
        "/first-run/", FIRST).status_code == 403
    assert Client(HTTP_X_FORWARDED_FOR="::1").post("/first-run/", FIRST).status_code == 302
    assert User.objects.get().username == "luca"


def test_first_run_from_this_machine_and_with_the_flag(settings):
    assert Client(REMOTE_ADDR="::1").get("/first-run/").status_code == 200
    settings.RISIKO_ALLOW_REMOTE_SETUP = True
    remote = Client(REMOTE_ADDR="192.168.1.23")
    assert remote.get("/first-run/").status_code == 200
    assert remote.post("/first-run/", FIRST).status_code == 302
    assert User.objects.count() == 1


# --- HTTPS ----------------------------------------------------------------------------------


def test_plain_http_has_no_hsts_and_ordinary_cookies(settings):
    _referee()
    c = Client()
    r = c.post("/login/", {"username": "arbitro", "password": PASSWORD})
    assert r.status_code == 302
    assert "Strict-Transport-Security" not in r
    assert not r.cookies["sessionid"]["secure"]


def test_behind_https_cookies_are_secure_and_hsts_is_sent(settings):
    settings.RISIKO_TRUSTED_PROXIES = "127.0.0.1"
    settings.SESSION_COOKIE_SECURE = settings.CSRF_COOKIE_SECURE = True
    settings.SECURE_HSTS_SECONDS = 31_536_000
    _referee()
    c = Client(HTTP_X_FORWARDED_PROTO="https", HTTP_X_FORWARDED_FOR="198.51.100.4")
    page = c.get("/login/")
    assert page["Strict-Transport-Security"] == "max-age=31536000"
    assert page.cookies["csrftoken"]["secure"]
    r = c.post("/login/", {"username": "arbitro", "password": PASSWORD})
    assert r.status_code == 302 and r.cookies["sessionid"]["secure"]
    # a client claiming HTTPS without a trusted proxy is not believed
    settings.RISIKO_TRUSTED_PROXIES = ""
    plain = Client(HTTP_X_FORWARDED_PROTO="https").get("/login/")
    assert "Strict-Transport-Security" not in plain


def test_the_https_settings_come_from_the_environment(monkeypatch):
    import importlib

    from risiko.web import settings as module

    monkeypatch.setenv("RISIKO_HTTPS", "1")
    monkeypatch.setenv("RISIKO_HSTS_SECONDS", "600")
    try:
        fresh = importlib.reload(module)
        assert fresh.SESSION_COOKIE_SECURE and fresh.CSRF_COOKIE_SECURE
        assert fresh.SECURE_HSTS_SECONDS == 600
    finally:
        monkeypatch.delenv("RISIKO_HTTPS")
        monkeypatch.delenv("RISIKO_HSTS_SECONDS")
        plain = importlib.reload(module)
    assert not plain.SESSION_COOKIE_SECURE and plain.SECURE_HSTS_SECONDS == 0


# --- Content-Security-Policy ----------------------------------------------------------------


def _nonce(response) -> str:
    policy = response["Content-Security-Policy"]
    assert "script-src 'self';" in policy and "'unsafe-inline'" not in policy
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    found = re.search(r"'nonce-([^']+)'", policy)
    assert found
    return found.group(1)


def test_every_answer_has_a_policy_with_a_new_nonce():
    _referee()
    c = Client()
    first, second = c.get("/login/"), c.get("/login/")
    assert _nonce(first) != _nonce(second)
    assert c.get("/static/site/css/site.css").status_code == 200
    # no inline script anywhere in the page
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", first.content.decode())


def test_the_board_style_carries_the_nonce():
    user = _referee()
    c = Client()
    c.force_login(user)
    r = c.get("/strumenti/tabellone/")
    assert r.status_code == 200
    styles = re.findall(r"<style([^>]*)>", r.content.decode())
    assert styles and all(f'nonce="{_nonce(r)}"' in attrs for attrs in styles)


# --- the regulation is read-only, the referees' pages are never kept ---------------------------


def test_the_regulation_refuses_writes():
    _referee()
    c = Client()
    for path in ("/regulation/", "/regulation/en/"):
        assert c.get(path).status_code == 200
        assert c.head(path).status_code == 200
        for method in (c.post, c.put, c.delete, c.patch):
            response = method(path)
            assert response.status_code == 405, (path, method.__name__)
            assert response["Allow"] == "GET, HEAD"


def test_console_pages_are_never_stored():
    from risiko.web import services

    user = _referee()
    t = services.create_tournament("Torneo sociale", who="setup")
    c = Client()
    c.force_login(user)
    for path in ("/arbitro/", f"/arbitro/t/{t.slug}/", f"/arbitro/t/{t.slug}/registro/",
                 "/strumenti/"):
        response = c.get(path)
        assert response.status_code == 200, path
        directives = {d.strip() for d in response["Cache-Control"].split(",")}
        assert {"no-store", "private"} <= directives, path
    # the console's login redirect too, for a browser that is not logged in
    anonymous = Client().get(f"/arbitro/t/{t.slug}/")
    assert anonymous.status_code == 302 and "no-store" in anonymous["Cache-Control"]
    # a public page for a visitor keeps its own caching (no-cache: revalidated, not banned)
    public = Client().get(f"/t/{t.slug}/")
    assert "no-store" not in public.get("Cache-Control", "")
