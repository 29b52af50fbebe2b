"""The tools index, the attack check (R7, R8), the card set value (R9), the turn clock (R11)
and the tools' translations. Expected values worked out by hand from the regulation."""

from __future__ import annotations

import gettext
import json
import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from helpers import position
from risiko.ruleset import CLUB_MILANO, RTU
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.tools.calc import card_set_value, check_attack, position_attacks

LOCALE = Path(__file__).resolve().parents[2] / "src" / "risiko" / "web" / "tools" / "locale"
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
WHO = "arbitro"


# ------------------------------------------------------------------ attack check (no database)
def test_the_regulations_example_11_against_18_is_legal_10_is_not():
    """R8: single attacking territory, defender 18: the attacker may attack with at least 11."""
    eleven = check_attack(11, 18, CLUB_MILANO)
    assert eleven.legal and eleven.attacker_dice == 3 and eleven.defender_dice == 3
    ten = check_attack(10, 18, CLUB_MILANO)
    assert not ten.legal and ten.rule == "R8" and ten.reason.startswith("R8")
    assert ten.odds.p_conquer == 0


@pytest.mark.parametrize(
    ("a", "d", "support", "rule"),
    [
        (2, 1, 0, None),  # 1 die against 1, 2 > 1
        (2, 2, 0, "R7"),  # 1 die against 2
        (3, 3, 0, "R7"),  # 2 dice against 3
        (4, 3, 0, None),  # 3 against 3, 4 > 3
        (4, 4, 0, "R8"),  # parity, 4 <= 10
        (5, 12, 10, None),  # 5 + 10 bordering > 12
        (5, 12, 7, "R8"),  # 5 + 7 = 12, not more
        (11, 30, 0, None),  # more than 10 on the attacking territory
        (1, 1, 0, "armies"),
    ],
)
def test_r7_r8_legality(a, d, support, rule):
    assert check_attack(a, d, CLUB_MILANO, support).rule == rule


def test_exact_odds_of_two_against_one():
    """One die each: the attacker wins 15 of 36; otherwise he is left with 1 army."""
    check = check_attack(2, 1, CLUB_MILANO)
    assert check.odds.p_conquer == pytest.approx(15 / 36)
    assert check.odds.expected_attacker_losses == pytest.approx(21 / 36)
    assert check.odds.expected_defender_losses == pytest.approx(15 / 36)


def test_without_r7_r8_the_national_rules_allow_it():
    assert check_attack(2, 2, RTU).legal and check_attack(10, 18, RTU).legal


# ------------------------------------------------------------------ card sets (no database)
@pytest.mark.parametrize(("hand", "value"), [(3, 8), (4, 10), (5, 12), (7, 12)])
def test_r9_value_by_cards_in_hand(hand, value):
    result = card_set_value(["Alaska", "Ontario", "Quebec"], hand, [], CLUB_MILANO)
    assert result.valid and result.kind == "mixed"
    assert (result.value, result.bonus, result.total) == (value, 0, value)


def test_r9_plus_two_per_owned_territory():
    result = card_set_value(["Alaska", "Alberta", "Stati Uniti Occidentali"], 4,
                            ["Alaska", "Alberta", "Cina"], CLUB_MILANO)
    assert result.kind == "fante" and (result.value, result.bonus, result.total) == (10, 4, 14)


def test_jolly_needs_two_equal_symbols():
    good = card_set_value(["jolly", "Alaska", "Alberta"], 3, ["Alaska"], CLUB_MILANO)
    assert good.valid and good.kind == "jolly" and good.total == 8 + 2
    bad = card_set_value(["jolly", "Alaska", "Ontario"], 5, [], CLUB_MILANO)
    assert not bad.valid and bad.total == 0
    assert card_set_value(["Alaska", "Alaska", "Alberta"], 3, [], CLUB_MILANO).error == "same_card"


# ------------------------------------------------------------------ pages (database)
@pytest.fixture
def referee(db):
    user = User.objects.create_user(WHO, password="tavolo-rosso-42")
    user.groups.add(Group.objects.get(name="referee"))
    return user


@pytest.fixture
def table(db):
    t = services.create_tournament("Torneo di prova", who=WHO)
    services.add_players(t, PLAYERS, who=WHO)
    e = services.open_evening(t, "2027-03-02", who=WHO)
    services.set_tables(e, [PLAYERS], who=WHO)
    return e.tables.get(number=1)


@pytest.mark.db
@pytest.mark.django_db
def test_anonymous_users_are_sent_to_login_from_every_tool(client, referee, table):
    args = [table.evening.tournament.slug, "2027-03-02", 1]
    urls = [reverse(n) for n in ("referee_tools", "attack_check", "attack_api", "card_set",
                                 "card_set_api", "board_map")]
    urls += [reverse(n, args=args) for n in ("board_entry", "closing_dice", "turn_clock")]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith("/login/?next="), url
    client.force_login(User.objects.create_user("curioso", password="tavolo-rosso-42"))
    for url in urls:
        assert client.get(url).status_code == 403, url


@pytest.mark.db
@pytest.mark.django_db
def test_the_index_lists_the_tools_and_the_tables(client, referee, table):
    client.force_login(referee)
    html = client.get(reverse("referee_tools")).content.decode()
    assert '<a href="/strumenti/" aria-current="page">Strumenti arbitro</a>' in html
    for name in ("attack_check", "card_set", "board_map"):
        assert reverse(name) in html
    args = [table.evening.tournament.slug, "2027-03-02", 1]
    for name in ("board_entry", "closing_dice", "turn_clock"):
        assert reverse(name, args=args) in html
    assert "Anna, Bruno, Carla, Dario, Elena" in html


@pytest.mark.db
@pytest.mark.django_db
def test_a_referee_uses_the_attack_check_page_and_json(client, referee):
    client.force_login(referee)
    url = reverse("attack_check")
    assert client.get(url).status_code == 200
    legal = client.get(url, {"attacker": 11, "defender": 18, "support": 0,
                             "ruleset": "club-milano"}).content.decode()
    assert "Attacco regolare" in legal and "Conquista" in legal
    refused = client.get(url, {"attacker": 10, "defender": 18, "support": 0,
                               "ruleset": "club-milano"}, headers={"HX-Request": "true"})
    html = refused.content.decode()
    assert "<html" not in html and "Attacco non consentito" in html and "R8" in html
    doc = client.get(reverse("attack_api"), {"attacker": 2, "defender": 1}).json()
    assert doc["legal"] is True and doc["p_conquer"] == pytest.approx(15 / 36)
    doc = client.get(reverse("attack_api"), {"attacker": 10, "defender": 18}).json()
    assert doc["legal"] is False and doc["rule"] == "R8" and doc["reason"].startswith("R8")
    assert client.get(reverse("attack_api"), {"attacker": 0, "defender": 1}).status_code == 400
    assert client.get(reverse("attack_api"), {"attacker": "x"}).status_code == 400


@pytest.mark.db
@pytest.mark.django_db
def test_a_referee_uses_the_card_set_page_and_json(client, referee):
    client.force_login(referee)
    url = reverse("card_set")
    assert client.get(url).status_code == 200
    html = client.get(url, {"card1": "0", "card2": "4", "card3": "5", "owned1": "on",
                            "hand": 4, "ruleset": "club-milano"}).content.decode()
    assert "un simbolo per tipo" in html and ">12<" in html  # 10 + 2 for Alaska
    doc = client.get(reverse("card_set_api"), {"cards": "Alaska,Ontario,Quebec", "hand": 5,
                                               "owned": "Quebec"}).json()
    assert (doc["valid"], doc["value"], doc["bonus"], doc["total"]) == (True, 12, 2, 14)
    bad = client.get(reverse("card_set_api"), {"cards": "jolly,Alaska,Ontario"}).json()
    assert bad["valid"] is False and bad["total"] == 0
    assert client.get(reverse("card_set_api"), {"cards": "Atlantide,Alaska,Perù"}
                      ).status_code == 400


@pytest.mark.db
@pytest.mark.django_db
def test_the_turn_clock_switch_is_stored_and_audited(client, referee, table):
    client.force_login(referee)
    url = reverse("turn_clock", args=[table.evening.tournament.slug, "2027-03-02", 1])
    html = client.get(url).content.decode()
    assert "turn-clock" not in html.split("</form>")[-1]  # no countdown while off
    assert client.post(url, {"on": "1"}).status_code == 302
    table.refresh_from_db()
    assert table.turn_clock is True
    entry = AuditEntry.objects.get(action="turn clock")
    assert entry.who == WHO and "on" in entry.summary
    html = client.get(url).content.decode()
    assert 'data-seconds="180"' in html and "tools/clock.js" in html and "3:00" in html
    client.post(url, {"on": "0"})
    table.refresh_from_db()
    assert table.turn_clock is False and AuditEntry.objects.filter(action="turn clock").count() == 2


@pytest.mark.db
@pytest.mark.django_db
def test_the_board_map_and_english(client, referee):
    client.force_login(referee)
    html = client.get(reverse("board_map")).content.decode()
    assert html.count('<g class="territory c') == 42 and "Medio Oriente" in html
    client.post("/i18n/setlang/", {"language": "en"})
    html = client.get(reverse("board_map"), {"board": "official"}).content.decode()
    assert "The board" in html and ">Middle East<" in html.replace("</tspan>", "<")
    assert "Middle East and Egypt do not border" not in html  # the official board
    tools = client.get(reverse("referee_tools")).content.decode()
    assert "Attack check" in tools and "Closing dice" in tools


# ------------------------------------------------------------------ translations
def _po_entries(path: Path) -> dict[str, str]:
    """msgid -> msgstr (plural forms: the first) of a .po file, header excluded."""
    import ast

    entries: dict[str, str] = {}
    field, values = "", {"msgid": "", "msgstr": ""}
    fuzzy = False

    def flush() -> None:
        if values["msgid"] and not fuzzy:
            entries[values["msgid"]] = values["msgstr"]

    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("#,") and "fuzzy" in line:
            fuzzy = True
        m = re.match(r'^(msgid|msgstr|msgstr\[0\]|msgid_plural|msgstr\[\d\]) (".*")$', line)
        if m:
            key = m.group(1)
            field = {"msgstr[0]": "msgstr"}.get(key, key)
            if field in values:
                values[field] = ast.literal_eval(m.group(2))
            else:
                field = ""
        elif line.startswith('"') and field in values:
            values[field] += ast.literal_eval(line)
        elif not line.strip():
            flush()
            field, values, fuzzy = "", {"msgid": "", "msgstr": ""}, False
    return entries


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_tools_catalogues_are_complete_and_compiled(lang):
    folder = LOCALE / lang / "LC_MESSAGES"
    with (folder / "django.mo").open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
    entries = _po_entries(folder / "django.po")
    assert len(entries) > 100
    for msgid, msgstr in entries.items():
        assert msgstr, f"{lang}: {msgid!r} has no translation"
        got = compiled.get(msgid, compiled.get((msgid, 0)))
        assert got == msgstr, f"{lang}: {msgid!r}: run compilemessages"


@pytest.mark.db
@pytest.mark.django_db
def test_the_tools_scripts_and_stylesheet_are_served(client):
    for path in ("tools/board.js", "tools/clock.js", "tools/tools.css"):
        response = client.get(f"/static/{path}")
        assert response.status_code == 200, path


def _position() -> dict[str, Any]:
    """The attack position of tests/test_positions.py (worked out there by hand)."""
    return position("attack")


def test_position_attacks_explains_every_forbidden_attack() -> None:
    # Siam (4) -> Cina (7): 3 dice each, bordering Siam 4 + Medio Oriente 2 = 6, not > 7: R8
    found = position_attacks(_position(), "it")
    assert [(a["from"], a["to"]) for a in found.report["attacks"]] == [
        ("Medio Oriente", "Europa Meridionale"), ("Medio Oriente", "Ucraina"),
        ("Medio Oriente", "Afghanistan"), ("Siam", "India")]
    assert [f["clause"] for f in found.forbidden] == ["R7", "R7", "R8"]
    english = position_attacks(_position(), "en")
    r8 = [f for f in english.forbidden if f["clause"] == "R8"]
    assert len(r8) == 1 and (r8[0]["bordering"], r8[0]["defender"]) == (6, 7)
    assert (r8[0]["from"], r8[0]["to"]) == ("Siam", "China")
    assert r8[0]["message"].startswith("R8: 6 armies bordering Cina")


@pytest.mark.db
@pytest.mark.django_db
def test_a_referee_explains_the_attacks_of_a_position(client, referee):
    client.force_login(referee)
    assert 'name="position"' in client.get(reverse("attack_check")).content.decode()
    page = client.post(reverse("attack_position"), {"position": json.dumps(_position())})
    html = page.content.decode()
    assert page.status_code == 200 and "Attacchi non consentiti" in html
    assert "R8" in html and "Siam" in html and "Tocca a Anna" in html
    bad = client.post(reverse("attack_position"), {"position": '{"seats": []}'})
    assert bad.status_code == 400 and "errorlist" in bad.content.decode()
    doc = client.post(reverse("attack_position_api"), json.dumps(_position()),
                      content_type="application/json").json()
    assert len(doc["attacks"]) == 4 and len(doc["forbidden_attacks"]) == 3
    refused = client.post(reverse("attack_position_api"), '{"phase": "lunch"}',
                          content_type="application/json")
    assert refused.status_code == 400 and refused.json()["faults"]
    assert client.post(reverse("attack_position_api"), "{",
                       content_type="application/json").status_code == 400


@pytest.mark.db
@pytest.mark.django_db
def test_the_attack_json_refuses_what_is_not_armies_as_faults(client, referee):
    from risiko.faults import Fault

    client.force_login(referee)
    url = reverse("attack_api")
    cases = [
        ({"attacker": "abc", "defender": 1}, "service.not_whole", {"field": "attacker"}),
        ({"attacker": 3, "defender": "1.5"}, "service.not_whole", {"field": "defender"}),
        ({"defender": 1}, "service.missing_field", {"field": "attacker"}),
        ({"attacker": 3, "defender": 1, "support": "tanti"}, "service.not_whole",
         {"field": "support"}),
        ({"attacker": 401, "defender": 1}, "odds.too_many_armies", {}),
        ({"attacker": 3, "defender": "9" * 40}, "service.not_whole", {"field": "defender"}),
    ]
    for query, code, subjects in cases:
        r = client.get(url, query)
        assert r.status_code == 400, query
        doc = r.json()
        assert [f["code"] for f in doc["faults"]] == [code], doc
        assert doc["faults"][0]["subjects"] == subjects
        assert "invalid literal" not in doc["error"] and doc["error"] == doc["faults"][0][
            "message"]
        said = Fault(code, subjects=subjects, params=doc["faults"][0]["params"]).message("it")
        assert said != doc["error"]  # the Italian words exist
    r = client.get(url, {"attacker": 400, "defender": 400})  # the limit itself is computed
    assert r.status_code == 200 and r.json()["attacker"] == 400
    bad_hand = client.get(reverse("card_set_api"), {"cards": "Alaska,Ontario,Quebec",
                                                    "hand": "abc"})
    assert bad_hand.status_code == 400
    assert bad_hand.json()["faults"][0]["code"] == "service.not_whole"
