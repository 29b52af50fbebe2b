"""The site foundation's auth: first run, login and its rate limit, logout, CSRF, groups,
permission helpers and the admin for the committee only (Django's test client)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser, Group, User
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.views import View

from risiko.web.site.permissions import (
    COMMITTEE,
    REFEREE,
    CommitteeRequiredMixin,
    RefereeRequiredMixin,
    committee_required,
    is_committee,
    is_referee,
    referee_required,
)

pytestmark = [pytest.mark.db, pytest.mark.django_db]

PASSWORD = "tavolo-rosso-42"


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def _user(name: str, *groups: str, **extra) -> User:
    user = User.objects.create_user(name, password=PASSWORD, **extra)
    for g in groups:
        user.groups.add(Group.objects.get_or_create(name=g)[0])
    return user


@pytest.fixture
def referee() -> User:
    return _user("arbitro", REFEREE)


@pytest.fixture
def committee() -> User:
    return _user("comitato", COMMITTEE)


# --- first run ------------------------------------------------------------------------------


def test_groups_come_from_the_data_migration():
    assert set(Group.objects.values_list("name", flat=True)) >= {REFEREE, COMMITTEE}


@pytest.mark.parametrize("path", ["/", "/regulation/", "/login/", "/admin/", "/t/x/"])
def test_without_users_every_page_leads_to_the_first_run(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == "/first-run/"


def test_first_run_redirect_tells_htmx(client):
    response = client.get("/", headers={"HX-Request": "true"})
    assert response["HX-Redirect"] == "/first-run/"


def test_first_run_lets_static_files_through(client):
    response = client.get("/static/site/css/site.css")
    assert response.status_code == 200


def test_first_run_refuses_mismatched_and_weak_passwords(client):
    page = client.get("/first-run/")
    assert page.status_code == 200
    assert b'name="password2"' in page.content
    mismatch = client.post(
        "/first-run/", {"username": "luca", "password1": PASSWORD, "password2": PASSWORD + "x"}
    )
    assert mismatch.status_code == 200 and mismatch.context["form"].errors["password2"]
    weak = client.post("/first-run/", {"username": "luca", "password1": "12345678",
                                       "password2": "12345678"})
    assert weak.status_code == 200 and weak.context["form"].errors["password2"]
    assert not User.objects.exists()


def test_first_run_says_a_short_password_in_italian(client):
    """Django's own Italian words on the Italian page: 'kit5' has 4 characters, the
    minimum is 8 (MinimumLengthValidator), so the refusal is its plural form 'caratteri'."""
    short = client.post("/first-run/", {"username": "luca", "password1": "kit5",
                                        "password2": "kit5"}, HTTP_ACCEPT_LANGUAGE="it")
    text = short.content.decode()
    assert short.status_code == 200
    assert "Questa password è troppo corta. Deve contenere almeno 8 caratteri." in text
    assert "too short" not in text
    assert not User.objects.exists()


def test_project_catalogues_use_djangos_italian_plural_forms():
    """One plural function for Italian: the project's catalogues say Django's, so gettext does
    not keep a second catalogue whose plural rule would shadow Django's translations."""
    from pathlib import Path

    import risiko.web

    root = Path(risiko.web.__file__).parent
    django_rule = "nplurals=3; plural=n == 1 ? 0 : n != 0 && n % 1000000 == 0 ? 1 : 2;"
    catalogues = sorted(root.glob("**/locale/it/LC_MESSAGES/django.po"))
    assert len(catalogues) >= 6
    for po in catalogues:
        assert f"Plural-Forms: {django_rule}" in po.read_text(encoding="utf-8"), po


def test_first_run_creates_a_superuser_referee_and_committee_member_and_logs_in(client):
    response = client.post(
        "/first-run/", {"username": "luca", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 302 and response["Location"] == "/"
    user = User.objects.get()
    assert user.username == "luca" and user.is_superuser and user.is_staff
    assert set(user.groups.values_list("name", flat=True)) == {REFEREE, COMMITTEE}
    assert int(client.session["_auth_user_id"]) == user.pk
    assert client.get("/").status_code == 200
    # the page is gone, for this browser and any other
    assert client.get("/first-run/").status_code == 404
    assert Client().get("/first-run/").status_code == 404
    assert Client().post(
        "/first-run/", {"username": "eve", "password1": PASSWORD, "password2": PASSWORD}
    ).status_code == 404
    assert User.objects.count() == 1


def test_with_a_user_pages_are_served(client, referee):
    assert client.get("/").status_code == 200
    assert client.get("/first-run/").status_code == 404


def test_the_first_run_check_can_be_switched_off_for_tests(client, settings):
    settings.RISIKO_FIRST_RUN_CHECK = False
    assert client.get("/").status_code == 200


# --- CSRF -----------------------------------------------------------------------------------


def test_csrf_is_enforced_on_the_first_run_form():
    browser = Client(enforce_csrf_checks=True)
    data = {"username": "luca", "password1": PASSWORD, "password2": PASSWORD}
    assert browser.post("/first-run/", data).status_code == 403
    assert not User.objects.exists()
    browser.get("/first-run/")
    token = browser.cookies["csrftoken"].value
    assert browser.post("/first-run/", {**data, "csrfmiddlewaretoken": token}).status_code == 302
    assert User.objects.filter(username="luca").exists()


def test_csrf_is_enforced_on_the_login_form(referee):
    browser = Client(enforce_csrf_checks=True)
    data = {"username": "arbitro", "password": PASSWORD}
    refused = browser.post("/login/", data)
    assert refused.status_code == 403
    assert "_auth_user_id" not in browser.session
    browser.get("/login/")
    token = browser.cookies["csrftoken"].value
    assert browser.post("/login/", {**data, "csrfmiddlewaretoken": token}).status_code == 302
    assert "_auth_user_id" in browser.session


def test_csrf_is_enforced_on_logout_and_the_language_switch(referee):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(referee)
    assert browser.post("/logout/").status_code == 403
    assert browser.post("/i18n/setlang/", {"language": "en"}).status_code == 403


# --- login, rate limit, logout --------------------------------------------------------------


def test_login_and_logout(client, referee):
    page = client.get("/login/")
    assert page.status_code == 200 and b'name="username"' in page.content
    response = client.post("/login/", {"username": "arbitro", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == "/"
    home = client.get("/")
    assert b"Esci (arbitro)" in home.content
    assert client.get("/logout/").status_code == 405  # logging out takes a POST
    out = client.post("/logout/")
    assert out.status_code == 302 and out["Location"] == "/"
    assert "_auth_user_id" not in client.session


def test_login_follows_a_safe_next_only(client, referee):
    data = {"username": "arbitro", "password": PASSWORD}
    response = client.post("/login/?next=/regulation/", data)
    assert response["Location"] == "/regulation/"
    client.post("/logout/")
    response = client.post("/login/", {**data, "next": "https://example.org/"})
    assert response["Location"] == "/"


def test_a_wrong_password_is_refused(client, referee):
    response = client.post("/login/", {"username": "arbitro", "password": "nope"})
    assert response.status_code == 200
    assert response.context["form"].errors["__all__"]
    assert "_auth_user_id" not in client.session


def _fail(client: Client, n: int, username: str = "arbitro", ip: str = "127.0.0.1") -> None:
    for _ in range(n):
        r = client.post("/login/", {"username": username, "password": "wrong"},
                        REMOTE_ADDR=ip)
        assert r.status_code == 200


def test_login_is_rate_limited_per_username_and_address(client, referee, monkeypatch):
    # five failures per username from one address (a stranger at another address
    # no longer locks the referee out); the username's own cap over all addresses is 20
    _fail(client, 5)
    blocked = client.post("/login/", {"username": "arbitro", "password": PASSWORD})
    assert blocked.status_code == 200
    assert "_auth_user_id" not in client.session
    errors = blocked.context["form"].non_field_errors().as_data()
    assert [e.code for e in errors] == ["rate_limited"]
    assert "Troppi accessi falliti" in blocked.content.decode()
    assert "15 minuti" in blocked.content.decode()
    # the username is case-insensitive for the count
    again = client.post("/login/", {"username": "ARBITRO", "password": PASSWORD})
    assert "_auth_user_id" not in client.session and again.status_code == 200
    # from another address the referee logs in: the five were this address's
    other = Client()
    ok = other.post("/login/", {"username": "arbitro", "password": PASSWORD},
                    REMOTE_ADDR="10.1.2.3")
    assert ok.status_code == 302
    # another referee at the same address logs in (the address allows more attempts)
    _user("seconda", REFEREE)
    ok = Client().post("/login/", {"username": "seconda", "password": PASSWORD})
    assert ok.status_code == 302
    # the window ends
    from risiko.web.site import ratelimit

    real = ratelimit.time.time
    monkeypatch.setattr(ratelimit.time, "time", lambda: real() + 15 * 60 + 1)
    assert client.post("/login/", {"username": "arbitro", "password": PASSWORD}).status_code == 302


def test_guesses_spread_over_addresses_meet_the_username_cap(referee, settings):
    assert settings.RISIKO_LOGIN_MAX_FAILURES_PER_USERNAME == 20
    # 4 addresses x 5 wrong passwords = 20, the username's cap over all addresses
    for i in range(4):
        _fail(Client(), 5, ip=f"198.51.100.{i}")
    # a fifth address, the right password, a browser that never logged in: refused unchecked
    c = Client()
    r = c.post("/login/", {"username": "arbitro", "password": PASSWORD}, REMOTE_ADDR="198.51.100.9")
    assert r.status_code == 200 and "_auth_user_id" not in c.session
    assert [e.code for e in r.context["form"].non_field_errors().as_data()] == ["rate_limited"]


def test_a_known_device_is_not_locked_out_by_strangers(referee):
    from risiko.web.site import ratelimit

    venue = "192.0.2.40"  # the venue's Wi-Fi: everyone's address
    phone = Client()
    assert phone.post("/login/", {"username": "arbitro", "password": PASSWORD},
                      REMOTE_ADDR=venue).status_code == 302
    cookie = phone.cookies[ratelimit.DEVICE_COOKIE]
    assert cookie["httponly"] and cookie["max-age"] == 365 * 24 * 3600
    assert "arbitro" not in cookie.value  # a hash of the username, not the name
    phone.post("/logout/")
    # strangers at the venue: 5 wrong passwords for the referee, then 25 for other names
    # (the address's 30), then 15 more from elsewhere (the username's 20 in all)
    _fail(Client(), 5, ip=venue)
    for i in range(25):
        Client().post("/login/", {"username": f"ospite{i}", "password": "x"}, REMOTE_ADDR=venue)
    for i in range(3):
        _fail(Client(), 5, ip=f"203.0.113.{i}")
    stranger = Client()
    r = stranger.post("/login/", {"username": "arbitro", "password": PASSWORD},
                      REMOTE_ADDR=venue)
    assert r.status_code == 200 and "_auth_user_id" not in stranger.session
    # the referee's phone logs in: its own count is untouched
    assert phone.post("/login/", {"username": "arbitro", "password": PASSWORD},
                      REMOTE_ADDR=venue).status_code == 302
    phone.post("/logout/")
    # its cookie is the referee's only: another username on that phone counts as unknown
    assert ratelimit.known_device(_request_with(cookie.value), "seconda") is None
    assert ratelimit.known_device(_request_with(cookie.value), "ARBITRO") is not None
    assert ratelimit.known_device(_request_with(cookie.value + "x"), "arbitro") is None
    # the phone's own failures are limited too: five, then refused
    for _ in range(5):
        phone.post("/login/", {"username": "arbitro", "password": "wrong"}, REMOTE_ADDR=venue)
    r = phone.post("/login/", {"username": "arbitro", "password": PASSWORD}, REMOTE_ADDR=venue)
    assert r.status_code == 200 and "_auth_user_id" not in phone.session


def _request_with(cookie: str):
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.COOKIES["risiko_device"] = cookie
    return request


def test_an_address_is_limited_across_usernames_at_a_higher_threshold(referee, settings):
    assert settings.RISIKO_LOGIN_MAX_FAILURES_PER_ADDRESS == 30
    c = Client()
    for i in range(30):  # 30 different usernames, one wrong password each, from one address
        r = c.post("/login/", {"username": f"ospite{i}", "password": "x"},
                   REMOTE_ADDR="192.0.2.7")
        assert [e.code for e in r.context["form"].non_field_errors().as_data()] == [
            "invalid_login"], i
    # the 31st attempt from that address is refused before any password is checked,
    # even a referee with the right password
    r = c.post("/login/", {"username": "arbitro", "password": PASSWORD},
               REMOTE_ADDR="192.0.2.7")
    assert r.status_code == 200 and "_auth_user_id" not in c.session
    assert "da questo indirizzo di rete" in r.content.decode()
    # ... while the referee's own count was not touched: from elsewhere they log in
    ok = Client().post("/login/", {"username": "arbitro", "password": PASSWORD},
                       REMOTE_ADDR="192.0.2.8")
    assert ok.status_code == 302


def test_successful_logins_do_not_use_up_the_address(referee):
    for _ in range(40):  # more than the address limit, all successful
        c = Client()
        assert c.post("/login/", {"username": "arbitro", "password": PASSWORD},
                      REMOTE_ADDR="192.0.2.9").status_code == 302


def test_rate_limit_window_expires(client, referee, monkeypatch):
    from risiko.web.site import ratelimit

    _fail(client, 5)
    assert ratelimit.blocked_for("arbitro", "127.0.0.1") > 14 * 60
    real = ratelimit.time.time
    monkeypatch.setattr(ratelimit.time, "time", lambda: real() + 15 * 60 + 1)
    assert ratelimit.blocked_for("arbitro", "127.0.0.1") == 0
    # a new window: five more attempts are checked
    _fail(client, 5)
    assert ratelimit.blocked_for("arbitro", "127.0.0.1") > 14 * 60
    assert ratelimit.blocked_for("arbitro", "10.9.9.9") == 0  # the count is per address


def test_a_successful_login_clears_the_failures(client, referee):
    _fail(client, 4)
    assert client.post("/login/", {"username": "arbitro", "password": PASSWORD}).status_code == 302
    client.post("/logout/")
    _fail(client, 4)
    assert client.post("/login/", {"username": "arbitro", "password": PASSWORD}).status_code == 302


def test_the_rate_limit_message_is_in_english_after_switching(client, referee):
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    _fail(client, 5)
    blocked = client.post("/login/", {"username": "arbitro", "password": PASSWORD})
    assert "Too many failed logins for this username. Wait 15 minutes" in blocked.content.decode()


# --- admin ----------------------------------------------------------------------------------


def test_anonymous_users_cannot_reach_the_admin(client, referee):
    response = client.get("/admin/", follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[-1][0].startswith("/login/?next=")
    assert "site/login.html" in [t.name for t in response.templates]
    assert client.get("/admin/auth/user/").status_code == 302


def test_a_referee_cannot_reach_the_admin(client, referee):
    client.force_login(referee)
    response = client.get("/admin/", follow=True)
    assert response.status_code == 403
    assert client.get("/admin/auth/user/", follow=True).status_code == 403
    # even a referee marked staff
    referee.is_staff = True
    referee.save()
    assert client.get("/admin/", follow=True).status_code == 403


def test_the_committee_reaches_the_admin_with_every_permission(client, committee):
    client.force_login(committee)
    assert client.get("/admin/").status_code == 200
    assert client.get("/admin/auth/user/").status_code == 200
    assert client.get("/admin/auth/group/").status_code == 200
    assert committee.has_perm("auth.change_user")
    # the admin's login page sends a committee member on
    assert client.get("/admin/login/?next=/admin/auth/user/")["Location"] == "/admin/auth/user/"
    assert client.get("/admin/login/?next=https://example.org/")["Location"] == "/admin/"


def test_a_superuser_reaches_the_admin(client):
    boss = User.objects.create_superuser("boss", password=PASSWORD)
    client.force_login(boss)
    assert client.get("/admin/").status_code == 200


def test_an_inactive_committee_member_has_no_rights(committee):
    committee.is_active = False
    committee.save()
    user = User.objects.get(pk=committee.pk)
    assert not is_committee(user) and not user.has_perm("auth.change_user")


# --- permission helpers ---------------------------------------------------------------------


@referee_required
def _referee_view(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@committee_required
def _committee_view(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


@referee_required
async def _async_referee_view(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok")


class _RefereePage(RefereeRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        return HttpResponse("ok")


class _CommitteePage(CommitteeRequiredMixin, View):
    def get(self, request: HttpRequest) -> HttpResponse:
        return HttpResponse("ok")


def _call(view, user, async_view: bool = False):
    from django.core.exceptions import PermissionDenied

    request = RequestFactory().get("/referee/page/")
    request.user = user
    try:
        if async_view:
            from asgiref.sync import async_to_sync

            return async_to_sync(view)(request).status_code
        return view(request).status_code
    except PermissionDenied:
        return 403


def test_permission_helpers(referee, committee):
    plain = _user("giocatore")
    boss = User.objects.create_superuser("boss", password=PASSWORD)
    anonymous = AnonymousUser()
    referee_page, committee_page = _RefereePage.as_view(), _CommitteePage.as_view()
    cases = {
        "anonymous": (anonymous, 302, 302),
        "plain": (plain, 403, 403),
        "referee": (referee, 200, 403),
        "committee": (committee, 200, 200),
        "superuser": (boss, 200, 200),
    }
    for name, (user, as_referee, as_committee) in cases.items():
        assert _call(_referee_view, user) == as_referee, name
        assert _call(referee_page, user) == as_referee, name
        assert _call(_committee_view, user) == as_committee, name
        assert _call(committee_page, user) == as_committee, name
        assert is_referee(user) == (as_referee == 200), name
        assert is_committee(user) == (as_committee == 200), name
    assert _call(_referee_view, anonymous) == 302


def test_the_anonymous_are_sent_to_the_login_with_next(referee):
    request = RequestFactory().get("/referee/page/?x=1")
    request.user = AnonymousUser()
    response = _referee_view(request)
    assert response["Location"] == "/login/?next=/referee/page/%3Fx%3D1"


@pytest.mark.django_db(transaction=True)
def test_async_views_are_protected_too(referee):
    assert _call(_async_referee_view, referee, async_view=True) == 200
    assert _call(_async_referee_view, AnonymousUser(), async_view=True) == 302
    assert _call(_async_referee_view, _user("giocatore"), async_view=True) == 403



@pytest.mark.db
@pytest.mark.django_db
def test_htmx_request_after_the_session_expired_redirects_the_whole_page(client: Client) -> None:
    User.objects.create_user("someone", password="x-Very-long-pw-1")  # no first-run page
    res = client.post("/arbitro/", HTTP_HX_REQUEST="true",
                      HTTP_HX_CURRENT_URL="http://testserver/arbitro/")
    assert res.status_code == 200
    assert res["HX-Redirect"].startswith("/login/?next=/arbitro/")
