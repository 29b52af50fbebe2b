"""The console's own catalogue (it, en): complete, compiled, Italian by default and English
on the switch."""

from __future__ import annotations

import gettext
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from risiko.web import services

LOCALE = Path(__file__).resolve().parents[2] / "src" / "risiko" / "web" / "console" / "locale"


def _po_entries(po: Path) -> dict[object, str]:
    """msgid (or (msgid, n) for plurals) -> msgstr of a .po file, as gettext keys them."""
    entries: dict[object, str] = {}
    key: str | None = None
    field = ""
    values: dict[str, str] = {}

    def flush() -> None:
        if key:
            if "msgstr" in values:
                entries[key] = values["msgstr"]
            for name, text in values.items():
                if name.startswith("msgstr["):
                    entries[(key, int(name[7:-1]))] = text

    for line in [*po.read_text(encoding="utf-8").splitlines(), ""]:
        if line.startswith("msgid "):
            flush()
            values, field = {}, "msgid"
            key = json.loads(line[6:])
        elif line.startswith(("msgstr", "msgid_plural")):
            field, _, rest = line.partition(" ")
            values[field] = json.loads(rest)
        elif line.startswith('"') and field:
            if field == "msgid":
                key = (key or "") + json.loads(line)
            else:
                values[field] += json.loads(line)
        elif not line.strip():
            field = ""
    flush()
    return entries


@pytest.mark.parametrize("lang", ["it", "en"])
def test_the_catalogue_is_complete_and_compiled(lang):
    folder = LOCALE / lang / "LC_MESSAGES"
    po = (folder / "django.po").read_text(encoding="utf-8")
    assert "#, fuzzy" not in po and "fuzzy," not in po
    with (folder / "django.mo").open("rb") as fh:
        compiled = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
    entries = _po_entries(folder / "django.po")
    assert len(entries) > 200
    for msgid, msgstr in entries.items():
        assert msgstr, f"{lang}: {msgid!r} has no translation"
        assert compiled.get(msgid) == msgstr, f"{lang}: {msgid!r}: run compilemessages"
        if lang == "en" and isinstance(msgid, str):
            assert msgstr == msgid


@pytest.mark.db
@pytest.mark.django_db
def test_italian_by_default_english_on_the_switch(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    user = User.objects.create_user("arbitro", password="tavolo-rosso-42")
    user.groups.add(Group.objects.get_or_create(name="referee")[0])
    t = services.create_tournament("Torneo lingue", who="setup")
    services.add_players(t, ["Alba"], who="setup")
    services.open_evening(t, "2027-03-02", who="setup")
    c = Client()
    c.force_login(user)
    url = reverse("console_checkin", args=[t.slug, "2027-03-02"])
    page = c.get(url, headers={"Accept-Language": "en"}).content.decode()
    assert "Arrivi" in page and "non ancora arrivato" in page and "Ha telefonato" in page
    c.post("/i18n/setlang/", {"language": "en"})
    page = c.get(url).content.decode()
    assert "Check-in" in page and "not arrived yet" in page and "Phoned" in page
    assert "Arrivi" not in page
    page = c.get(reverse("referee_home")).content.decode()
    assert "Referee console" in page and "New tournament" in page
