"""The one-time form token's life (``risiko.web.core.tokens``): a refused post leaves its
token unused (corrected, the same form goes through, once); a token more than a day old or
not signed here is refused with a message and writes nothing; used tokens are forgotten
after a day. The concurrent posts of one token are in ``test_write_once``."""

from __future__ import annotations

import datetime as _dt
import time

import pytest
from django.contrib.auth.models import Group, User
from django.core import signing
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.core.models import FormToken
from risiko.web.core.tokens import new_token
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
    token = new_token()
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
    old = new_token()  # signed 25 hours ago
    monkeypatch.setattr(signing.time, "time", real)
    for token in (old, new_token()[:-3] + "abc", "x" * 10_000):
        r = referee_client.post(url, _carry("37", token))
        assert r.status_code == 400, token[:30]
        assert "ha più di un giorno o non viene da qui: ricarica la pagina" in r.content.decode()
    assert not CarryOver.objects.exists() and not FormToken.objects.exists()


def test_used_tokens_are_forgotten_after_a_day(referee_client, url):
    referee_client.post(url, _carry("37", new_token()))
    FormToken.objects.update(used=timezone.now() - _dt.timedelta(days=1, minutes=1))
    referee_client.post(url, _carry("38", new_token()))
    assert FormToken.objects.count() == 1  # the day-old one went with the next use
