"""The Django admin for every model of the club app: committee only, lists with filters and
search, and a change made there is written to the audit log with the username."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import Group, User
from django.test import Client

from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.tournaments.models import Tournament

pytestmark = [pytest.mark.db, pytest.mark.django_db]

APPS = ("players", "tournaments", "evenings", "results", "auditlog")
NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio"]


@pytest.fixture(autouse=True)
def _fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def _client(name: str, *groups: str) -> Client:
    user = User.objects.create_user(name, password="tavolo-rosso-42")
    for g in groups:
        user.groups.add(Group.objects.get_or_create(name=g)[0])
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def season():
    t = services.create_tournament("Torneo admin", who="setup")
    services.add_players(t, NAMES, who="setup")
    services.set_carry_over(t, "Alba", 10, referee="Luca", who="setup")
    e = services.open_evening(t, "2027-03-02", who="setup")
    services.record_arrival(e, "Alba", "21:00", who="setup")
    services.set_tables(e, [NAMES], who="setup")
    services.enter_scores(services.get_table(e, 1), dict.fromkeys(NAMES, 20), who="setup")
    pen = services.add_penalty(e, "Bice", -5, unit="ranking", reason="x", referee="R",
                               who="setup")
    services.decide_appeal(pen, "upheld", referee="Capo", who="setup")
    services.add_discipline(e, "Ciro", "warning", reason="R10", referee="R", who="setup")
    services.record_draw(t, "semifinal", ["Dora", "Ezio"], referee="R", who="setup")
    return t


def _models():
    return [m for label in APPS for m in apps.get_app_config(label).get_models()]


def test_every_model_is_registered_with_lists_filters_and_search():
    models = _models()
    assert len(models) == 14
    for model in models:
        assert admin.site.is_registered(model), model
        model_admin = admin.site._registry[model]
        assert model_admin.list_display != ("__str__",), model
        assert model_admin.list_filter, model
        assert model_admin.search_fields, model


def test_the_committee_opens_every_list_and_object(season):
    c = _client("comitato", "committee")
    for model in _models():
        meta = model._meta
        base = f"/admin/{meta.app_label}/{meta.model_name}/"
        assert c.get(base).status_code == 200, base
        assert c.get(base, {"q": "Alba"}).status_code == 200, base
        obj = model.objects.first()
        assert obj is not None, model
        assert c.get(f"{base}{obj.pk}/change/").status_code == 200, base
        add = c.get(f"{base}add/").status_code
        assert add == (403 if model is AuditEntry else 200), base


def test_referees_and_others_cannot_open_the_admin(season):
    for c in (_client("arbitro", "referee"), _client("giocatore")):
        for model in _models():
            meta = model._meta
            r = c.get(f"/admin/{meta.app_label}/{meta.model_name}/")
            assert r.status_code in (302, 403), meta.label
            if r.status_code == 302:
                assert "/login/" in r["Location"]
    anonymous = Client().get("/admin/players/player/")
    assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]


def test_a_change_in_the_admin_is_in_the_audit_log(season):
    c = _client("comitato", "committee")
    t = season
    r = c.post(f"/admin/tournaments/tournament/{t.pk}/change/", {
        "name": "Torneo admin", "slug": t.slug, "ruleset_name": t.ruleset_name,
        "ruleset_version": t.ruleset_version, "format": '{"name": "club-milano"}',
        "is_current": "", "entries-TOTAL_FORMS": "0", "entries-INITIAL_FORMS": "0",
        "entries-MIN_NUM_FORMS": "0", "entries-MAX_NUM_FORMS": "1000",
    })
    assert r.status_code == 302, r.content.decode()[:2000]
    assert not Tournament.objects.get(pk=t.pk).is_current
    entry = AuditEntry.objects.order_by("-id").first()
    assert entry is not None
    assert (entry.who, entry.action, entry.tournament) == ("comitato", "admin change",
                                                          "Torneo admin")
    assert "is_current" in entry.summary and entry.data["changed"]["is_current"] == "False"


def test_the_audit_log_cannot_be_edited_in_the_admin(season):
    c = _client("comitato", "committee")
    entry = AuditEntry.objects.first()
    assert entry is not None
    assert c.post(f"/admin/auditlog/auditentry/{entry.pk}/change/", {"who": "x"}
                  ).status_code == 403
    assert c.post(f"/admin/auditlog/auditentry/{entry.pk}/delete/", {"post": "yes"}
                  ).status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk, who="setup").exists()


def test_the_admins_player_search_forgives_accents_and_case():
    # issue 18 §3: every name search uses the name's key (accents off)
    t = services.create_tournament("Torneo admin", who="setup")
    services.add_players(t, ["Érica", "Nicolò", "Zoë", "Anna"], who="setup")
    c = _client("comitato", "committee")
    for typed, name in (("erica", "Érica"), ("NICOLO", "Nicolò"), ("zoe", "Zoë")):
        page = c.get("/admin/players/player/", {"q": typed}).content.decode()
        assert f">{name}</a>" in page, typed
        assert ">Anna</a>" not in page, typed


def test_every_model_and_app_is_named_in_italian_and_english():
    # issue 18 §2: the admin said "Players", "Penaltys", "TOOLS"
    from django.apps import apps
    from django.utils import translation

    for model in _models():
        meta = model._meta
        assert {"verbose_name", "verbose_name_plural"} <= set(meta.original_attrs), model
        with translation.override("en"):
            en = (str(meta.verbose_name), str(meta.verbose_name_plural))
        with translation.override("it"):
            it = (str(meta.verbose_name), str(meta.verbose_name_plural))
        assert it[0] != en[0] and it[1] != en[1], (model, en, it)
        assert not en[1].endswith("ys"), en
    for config in apps.get_app_configs():
        if config.name.startswith("risiko.web."):
            with translation.override("it"):
                italian = str(config.verbose_name)
            with translation.override("en"):
                assert italian != str(config.verbose_name), config.name


def test_the_admin_index_is_in_italian(season):
    page = _client("comitato", "committee").get("/admin/").content.decode()
    for word in ("Giocatori", "Penalità", "Strumenti arbitro", "Tavoli e risultati",
                 "Registro delle modifiche", "Iscrizioni", "Sorteggi"):
        assert word in page, word
    for english in ("Penaltys", "Players", "TOOLS", "Tools", "Audit entries", "Carry overs"):
        assert english not in page, english
