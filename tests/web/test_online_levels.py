"""Bots by level at the online tables (issue 19 item 3): the lobby's form chooses a level per
bot seat and the level of the stand-in for an absent person; the referee changes a seat's
bot level; bots have Italian names and say their level, in Italian and English."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from risiko.agents import levels
from risiko.online import adapter
from risiko.web.online import services
from risiko.web.online.models import Deadline, OnlineSeat, OnlineTable, TableEvent, bot_label

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db]
PASSWORD = "tavolo-rosso-42"


@pytest.fixture(autouse=True)
def _two_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    """The levels as 1 (random) and 2 (heuristic) only, as the figures here are worked out
    (the searching levels join the table elsewhere)."""
    for level in list(levels.LEVELS):
        if level > 2:
            monkeypatch.delitem(levels.LEVELS, level)


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.RISIKO_ONLINE_SCHEDULER = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.clear_cache()


def _owner() -> Client:
    User.objects.create_user("anna", password=PASSWORD)
    c = Client()
    c.login(username="anna", password=PASSWORD)
    return c


def test_a_bot_says_its_italian_name_and_level_in_italian_and_english() -> None:
    assert bot_label(1, "heuristic") == "Bot Aldo (livello 2)"
    assert bot_label(1, "heuristic", "en") == "Bot Aldo (level 2)"
    assert bot_label(3, "random", "it") == "Bot Carlo (livello 1)"
    assert bot_label(6, "random", "en") == "Bot Fede (level 1)"


def test_the_lobby_form_chooses_a_level_per_bot_seat_and_the_stand_ins(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Seat 2 a level-1 bot, seat 3 a level-2 bot, a level-1 stand-in: stored by the bots'
    names, named with their level, said in the table's state with both labels."""
    owner = _owner()
    page = owner.get(reverse("online_lobby"), HTTP_ACCEPT_LANGUAGE="it").content.decode()
    assert '<option value="1">bot, livello 1</option>' in page
    assert '<option value="2" selected>livello 2</option>' in page  # the stand-in's default
    r = owner.post(reverse("online_create"), {
        "name": "Livelli", "seats": "3", "bot2": "1", "bot3": "2", "stand_in_level": "1",
        "clock_minutes": "0", "call_mode": "referee"})
    assert r.status_code == 302
    table = OnlineTable.objects.get(name="Livelli")
    seats = list(table.seat_set.order_by("position"))
    assert [(s.kind, s.bot) for s in seats] == [("open", ""), ("bot", "random"),
                                                ("bot", "heuristic")]
    assert [s.name for s in seats[1:]] == ["Bot Bice (livello 1)", "Bot Carlo (livello 2)"]
    assert table.settings["stand_in_level"] == 1
    view = services.table_view(table, seats)
    assert view["seats"][2]["level"] == 2
    assert view["seats"][2]["labels"] == {"it": "Bot Carlo (livello 2)",
                                          "en": "Bot Carlo (level 2)"}
    assert "level" not in view["seats"][0] and view["settings"]["stand_in_level"] == 1
    # a level added to the table is offered at once
    monkeypatch.setitem(levels.LEVELS, 3, "heuristic")
    page = owner.get(reverse("online_lobby")).content.decode()
    assert '<option value="3">bot, livello 3</option>' in page


def test_a_level_with_no_bot_is_refused_by_the_form_and_nothing_is_written() -> None:
    owner = _owner()
    r = owner.post(reverse("online_create"), {
        "name": "Nove", "seats": "3", "bot2": "9", "clock_minutes": "0"},
        HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400
    assert "bot per il posto 2: &#x27;9&#x27; non è un livello di bot (1, 2)" in r.content.decode()
    r = owner.post(reverse("online_create"), {
        "name": "Nove", "seats": "3", "stand_in_level": "7", "clock_minutes": "0"},
        HTTP_ACCEPT_LANGUAGE="it")
    assert r.status_code == 400
    assert "livello del bot per un assente: &#x27;7&#x27; non è un livello di bot" in (
        r.content.decode())
    assert not OnlineTable.objects.filter(name="Nove").exists()


def _started(**settings: Any) -> OnlineTable:
    table = services.create_table(name="Prova", seats=3, who="test",
                                  settings={"clock_seconds": 0, "grace_seconds": 600,
                                            "bot_delay_ms": 0, **settings})
    for name in ["Anna", "Bruno", "Carla"]:
        services.join(table.pk, guest_name=name)
    table.refresh_from_db()
    assert table.status == "playing"
    return table


def _fire_bot(table: OnlineTable, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Fire the bot deadline of seat 1; the bots asked to act."""
    asked: list[str] = []
    real = adapter.bot_action

    def spy(game: Any, seat: int, bot: str, rng: int) -> Any:
        asked.append(bot)
        return real(game, seat, bot, rng)

    monkeypatch.setattr(adapter, "bot_action", spy)
    due = Deadline.objects.get(table=table, kind="bot", seat=1, fired=None)
    services.fire(due.pk)
    return asked


def test_the_stand_in_plays_at_the_tables_chosen_level(monkeypatch: pytest.MonkeyPatch) -> None:
    """Anna (to act) leaves a table whose stand-ins are level 1: the bot that plays for her
    is ``random``; the state says her seat's stand-in level."""
    table = _started(stand_in_level=1)
    services.leave(table.pk, 1)
    anna = OnlineSeat.objects.get(table=table, position=1)
    assert anna.stand_in and anna.bot == ""
    assert _fire_bot(table, monkeypatch) == ["random"]
    table.refresh_from_db()
    view = services.table_view(table, list(table.seat_set.order_by("position")))
    assert view["seats"][0]["level"] == 1 and view["seats"][0]["player"] == "Anna"


def test_the_referee_sets_the_level_of_a_seats_stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's stand-ins are level 2 (the default); the referee sets Anna's to level 1
    with ``bot_level``: said in the log in Italian and English, and her stand-in is random.
    A level with no bot is refused and changes nothing."""
    table = _started()
    referee = services.Actor("referee", name="arbitro")
    refused = services.referee(table.pk, referee, {"kind": "bot_level", "seat": 1,
                                                   "level": 9})
    assert [f.code for f in refused.faults] == ["online.unknown_bot"]
    assert OnlineSeat.objects.get(table=table, position=1).bot == ""
    reply = services.referee(table.pk, referee, {"kind": "bot_level", "seat": 1, "level": 1})
    assert not reply.faults
    assert OnlineSeat.objects.get(table=table, position=1).bot == "random"
    said = TableEvent.objects.filter(table=table, kind="referee").latest("seq")
    assert services.entry_of(said)["messages"] == {
        "it": "l'arbitro imposta il bot del posto 1 (Anna) al livello 1",
        "en": "the referee sets the bot of seat 1 (Anna) to level 1"}
    services.leave(table.pk, 1)
    assert _fire_bot(table, monkeypatch) == ["random"]


@pytest.mark.parametrize(("lang", "expected"), [
    ("it", ["Bot Carlo (livello 2)", "Anna 🤖 (gioca un bot di livello 1)", "posto libero"]),
    ("en", ["Bot Carlo (level 2)", "Anna 🤖 (a level 1 bot plays)", "free seat"]),
])
def test_the_table_page_names_the_bots_and_the_stand_ins_level_in_the_viewers_language(
        lang: str, expected: list[str]) -> None:
    """The page's script (its page-free ``seatName``, run by node) on the state's seats: a
    level-2 bot at seat 3, Anna absent with a level-1 stand-in, a free seat."""
    import json
    import subprocess
    from pathlib import Path

    from django.utils import translation

    from risiko.web.online import views

    with translation.override(lang):
        words = json.loads(json.dumps(views._words(), default=str))
    script = (Path(views.__file__).parent / "static" / "online" / "table.js").read_text(
        encoding="utf-8")
    helpers = script[script.index("  function countOf"):script.index("  /* end of the page-free")]
    seats = [
        {"seat": 3, "player": "Bot Carlo (livello 2)", "kind": "bot", "level": 2,
         "labels": {"it": bot_label(3, "heuristic", "it"), "en": bot_label(3, "heuristic",
                                                                           "en")}},
        {"seat": 1, "player": "Anna", "kind": "guest", "stand_in": True, "level": 1},
        {"seat": 2, "player": "", "kind": "open"},
    ]
    program = helpers + f"""
var T = {json.dumps(words)};
console.log(JSON.stringify({json.dumps(seats)}.map(function (s) {{
  return seatName(s, T, {json.dumps(lang)}); }})));
"""
    out = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True,
                         timeout=30)
    assert json.loads(out.stdout) == expected


def test_the_referee_sets_a_bot_seats_level_and_its_name_says_it() -> None:
    table = services.create_table(name="Bot", seats=3, bots={2: 1, 3: "random"}, who="test",
                                  settings={"clock_seconds": 0})
    services.join(table.pk, guest_name="Anna")
    table.refresh_from_db()
    assert table.status == "playing"
    referee = services.Actor("referee", name="arbitro")
    assert not services.referee(table.pk, referee, {"kind": "bot_level", "seat": 2,
                                                    "level": 2}).faults
    seat = OnlineSeat.objects.get(table=table, position=2)
    assert (seat.bot, seat.name) == ("heuristic", "Bot Bice (livello 2)")
    assert services.bot_for(seat, table) == "heuristic"
    said = TableEvent.objects.filter(table=table, kind="referee").latest("seq")
    assert services.entry_of(said)["messages"]["it"] == (
        "l'arbitro imposta il bot del posto 2 (Bot Bice (livello 2)) al livello 2")
