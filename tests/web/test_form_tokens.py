"""The one-time form token's life (``risiko.web.core.tokens``): a refused post leaves its
token unused (corrected, the same form goes through, once); a token more than a day old or
not signed here is refused with a message and writes nothing; used tokens are forgotten
after a day; a token is bound to its form and its session (a token spent on one
form no longer makes another form's post answer "already recorded"). The concurrent posts of
one token are in ``test_write_once``."""

from __future__ import annotations

import datetime as _dt
import re
import time

import pytest
from concurrency_kit import client_token
from django.contrib.auth.models import Group, User
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.core.models import FormToken
from risiko.web.core.tokens import new_token, token_key
from risiko.web.players.models import Player
from risiko.web.tournaments.models import CarryOver

pytestmark = [pytest.mark.db, pytest.mark.django_db]


@pytest.fixture
def referee_client(settings) -> Client:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = User.objects.create_user("arbitro", password="tavolo-rosso-42")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def url():
    t = services.create_tournament("Torneo sociale", who="setup")
    services.add_players(t, ["Anna", "Nico"], who="setup")
    return reverse("console_carry_over", args=[t.slug])


def _carry(points: str, token: str) -> dict[str, str]:
    return {"player": "Nico", "points": points, "referee": "Luca", "once": token}


def test_a_refused_post_leaves_its_token_for_the_corrected_one(referee_client, url):
    token = client_token(referee_client, url)
    r = referee_client.post(url, _carry("abc", token))
    assert r.status_code == 400 and not FormToken.objects.exists()
    r = referee_client.post(url, _carry("37", token))  # corrected, same form
    assert r.status_code == 302 and FormToken.objects.count() == 1
    r = referee_client.post(url, _carry("38", token), follow=True)  # and again: a replay
    assert "Già registrato: questo modulo era già stato inviato" in r.content.decode()
    assert [c.points for c in CarryOver.objects.all()] == [37]
    assert AuditEntry.objects.filter(action="carry over").count() == 1


def test_an_old_or_forged_token_is_refused_and_writes_nothing(referee_client, url,
                                                              monkeypatch):
    real = time.time
    monkeypatch.setattr(signing.time, "time", lambda: real() - 25 * 3600)
    old = client_token(referee_client, url)  # signed 25 hours ago
    monkeypatch.setattr(signing.time, "time", real)
    for token in (old, client_token(referee_client, url)[:-3] + "abc", "x" * 10_000):
        r = referee_client.post(url, _carry("37", token))
        assert r.status_code == 400, token[:30]
        assert "ha più di un giorno o non viene da qui: ricarica la pagina" in r.content.decode()
    assert not CarryOver.objects.exists() and not FormToken.objects.exists()


def test_used_tokens_are_forgotten_after_a_day(referee_client, url):
    referee_client.post(url, _carry("37", client_token(referee_client, url)))
    FormToken.objects.update(used=timezone.now() - _dt.timedelta(days=1, minutes=1))
    referee_client.post(url, _carry("38", client_token(referee_client, url)))
    assert FormToken.objects.count() == 1  # the day-old one went with the next use


def test_a_token_spent_on_one_form_is_refused_by_another(referee_client, url):
    players_url = url.replace("riporto/", "giocatori/")
    token = client_token(referee_client, url)
    assert referee_client.post(url, _carry("37", token)).status_code == 302
    # form B (register players) posted with form A's spent token: refused as not made for it,
    # never "already recorded", nothing written
    r = referee_client.post(players_url, {"players": "Zoe", "once": token}, follow=True)
    assert r.status_code == 400
    assert "non viene da qui" in r.content.decode()
    assert "Già registrato" not in r.content.decode()
    assert not Player.objects.filter(name="Zoe").exists()
    # form B's own token: registered, once
    own = client_token(referee_client, players_url)
    r = referee_client.post(players_url, {"players": "Zoe", "once": own}, follow=True)
    assert r.status_code == 200 and "Già registrato" not in r.content.decode()
    assert Player.objects.filter(name="Zoe").count() == 1 and FormToken.objects.count() == 2


def test_a_token_is_refused_in_another_session(referee_client, url):
    other = Client()
    other.force_login(User.objects.get(username="arbitro"))  # the same referee, another browser
    token = client_token(other, url)
    r = referee_client.post(url, _carry("37", token))
    assert r.status_code == 400 and not CarryOver.objects.exists()
    # made in no session at all (a page seen before logging in): refused too
    r = referee_client.post(url, _carry("37", new_token(None, url)))
    assert r.status_code == 400 and not CarryOver.objects.exists()
    assert other.post(url, _carry("37", token)).status_code == 302


def test_the_pages_make_tokens_for_the_form_they_post_to(referee_client, url):
    page = referee_client.get(url.replace("riporto/", ""))
    html = page.content.decode()
    forms = [(action, token.group(1)) for action, body in re.findall(
        r'<form method="post" action="([^"]+)"[^>]*>(.*?)</form>', html, re.S)
        if (token := re.search(r'name="once" value="([^"]+)"', body))]
    assert len(forms) >= 3, html[:2000]
    for action, token in forms:
        assert token_key(token, referee_client.session.session_key, action), action
        others = {a for a, _t in forms} - {action}
        assert all(token_key(token, referee_client.session.session_key, o) is None
                   for o in others)
