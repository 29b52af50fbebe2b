"""Online tables' pages: lobby, a new table, joining as a guest (a secret link)
or as a member (invited by the committee, tied to his player), the table page with its QR
code and commitment, the replay of a finished table with its record, and an online evening
of a tournament whose results reach the standings."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client
from django.urls import reverse

from risiko.fair import verify_record
from risiko.web import selectors
from risiko.web import services as club
from risiko.web.auditlog.models import AuditEntry
from risiko.web.evenings.models import Arrival
from risiko.web.online import services
from risiko.web.online.models import Member, MemberInvite, OnlineSeat, OnlineTable
from risiko.web.results.models import TableResult

pytestmark = [pytest.mark.online, pytest.mark.db, pytest.mark.django_db]
PASSWORD = "tavolo-rosso-42"


@pytest.fixture(autouse=True)
def _setup(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.RISIKO_ONLINE_SCHEDULER = False
    if not os.environ.get("REDIS_URL"):  # make unit-redis: the Redis layer of the settings
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.clear_cache()


def _user(name: str, *groups: str) -> User:
    user = User.objects.create_user(name, password=PASSWORD)
    for g in groups:
        user.groups.add(Group.objects.get_or_create(name=g)[0])
    return user


def test_lobby_create_join_as_guests_start_and_replay() -> None:
    _user("comitato", "committee")
    owner = Client()
    assert owner.get(reverse("online_lobby")).status_code == 200
    _user("anna")
    owner.login(username="anna", password=PASSWORD)
    r = owner.post(reverse("online_create"), {
        "name": "Serata libera", "seats": "3", "bot3": "random", "clock_minutes": "0",
        "call_mode": "round", "call_round": "1"})
    assert r.status_code == 302
    table = OnlineTable.objects.get(name="Serata libera")
    assert table.settings["call_round"] == 1 and table.settings["clock_seconds"] == 0
    assert [s.kind for s in table.seat_set.all()] == ["open", "open", "bot"]
    page = owner.get(reverse("online_table", args=[table.code])).content.decode()
    assert table.commitment in page or "ot-commitment" in page
    assert "<svg" in page and 'class="board-svg"' in page  # the board and the QR code
    assert "<script>" not in page  # no inline script (CSP)
    guests = []
    for name in ("Bruno", "Carla"):
        c = Client()
        r = c.post(reverse("online_join", args=[table.code]), {"as": "guest",
                                                                "guest_name": name})
        assert r.status_code == 302
        token = c.session["online_tokens"][table.code]
        guests.append((c, token))
        page = c.get(reverse("online_table", args=[table.code])).content.decode()
        assert "data-token" not in page  # the socket finds the seat by the session cookie
        assert reverse("online_seat_link", args=[token]) in page  # his link, shown to him
    table.refresh_from_db()
    assert table.status == "playing"
    # a second browser takes the seat back with the secret link
    other = Client()
    r = other.get(reverse("online_seat_link", args=[guests[0][1]]))
    assert other.session["online_tokens"][table.code] == guests[0][1]
    assert r.status_code == 302 and r["Location"] == reverse("online_table", args=[table.code])
    # the same name twice is refused
    r = Client().post(reverse("online_join", args=[table.code]),
                      {"as": "guest", "guest_name": "bruno"})
    assert OnlineSeat.objects.filter(table=table, guest_name__iexact="bruno").count() == 1
    # end it and look at the replay and the record
    ref = _user("arbitro", "referee")
    services.referee(table.pk, services.Actor("referee", None, ref.username),
                     {"kind": "end_game", "reason": "prova"})
    table.refresh_from_db()
    assert table.status == "over"
    r = owner.get(reverse("online_replay", args=[table.code]))
    assert r.status_code == 200 and table.seed in r.content.decode()
    record = owner.get(reverse("online_record", args=[table.code])).content.decode()
    assert verify_record(record).commitment == table.commitment


def test_members_are_invited_by_the_committee_and_are_not_referees() -> None:
    club.create_tournament("Torneo", who="t")
    club.add_players(club.get_tournament("Torneo"), ["Dario"], who="t")
    committee = Client()
    _user("comitato", "committee")
    committee.login(username="comitato", password=PASSWORD)
    r = committee.post(reverse("online_invites"), {"player": "Dario"})
    link = r.context["link"]
    assert link and MemberInvite.objects.count() == 1
    token = link.rstrip("/").rsplit("/", 1)[1]
    dario = Client()
    # the link's token goes into the session at once; the form's address has none
    r = dario.get(reverse("online_accept", args=[token]))
    assert r.status_code == 303 and r["Location"] == reverse("online_accept_form")
    assert token not in dario.get(r["Location"]).content.decode()
    r = dario.post(reverse("online_accept_form"), {
        "username": "dario", "password1": "pietra-verde-77", "password2": "pietra-verde-77"})
    assert r.status_code == 302
    assert dario.get(reverse("online_accept_form")).status_code == 404  # used: gone
    member = Member.objects.get(user__username="dario")
    assert member.player.name == "Dario"
    assert not member.user.groups.exists()  # a member is not a referee
    assert dario.get(reverse("online_accept", args=[token])).status_code == 404  # once only
    assert Client().get(reverse("online_invites")).status_code == 302  # login first
    assert dario.get(reverse("online_invites")).status_code == 403
    # issue 18 §2: both entries are values, said in the reader's language
    from django.utils import translation

    from risiko.web.console.audit_words import action_text, summary_text

    invite = AuditEntry.objects.get(action="online invite")
    joined = AuditEntry.objects.get(action="online member")
    with translation.override("it"):
        assert (action_text(invite), summary_text(invite)) == (
            "invito al gioco online", "invito per Dario")
        assert (action_text(joined), summary_text(joined)) == (
            "account online creato", "l'account dario è Dario")
    with translation.override("en"):
        assert (action_text(invite), summary_text(invite)) == (
            "online invitation", "invitation for Dario")
        assert summary_text(joined) == "account dario is Dario"


def _club_time(hhmm: str) -> Any:
    """The arrivals' clock stopped at ``hhmm`` club time on the evening (R3 depends on it)."""
    import datetime as dt
    import zoneinfo
    from unittest import mock

    h, m = map(int, hhmm.split(":"))
    at = dt.datetime(2027, 3, 2, h, m, tzinfo=zoneinfo.ZoneInfo("Europe/Rome"))
    return mock.patch("risiko.web.online.services.evenings.club_now", return_value=at)


def test_an_online_evening_of_a_tournament_ends_in_the_standings() -> None:
    names = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ilia"]
    t = club.create_tournament("Online", who="t")
    club.add_players(t, names, who="t")
    ev = club.open_evening(t, "2027-03-02", who="t")
    referee = Client()
    _user("arbitro", "referee")
    referee.login(username="arbitro", password=PASSWORD)
    members = {}
    for n in names:
        user = User.objects.create_user(n.lower(), password=PASSWORD)
        Member.objects.create(user=user, player=club.entry_player(t, n))
        c = Client()
        c.login(username=n.lower(), password=PASSWORD)
        members[n] = c
    # seated by hand: an online member's arrival comes when he takes his online seat
    club.set_tables(ev, [names[:4], names[4:]], who="arbitro")
    r = referee.post(reverse("online_evening", args=[t.slug, "2027-03-02"]),
                     {"clock_minutes": "3"})
    assert r.status_code == 302
    tables = list(OnlineTable.objects.filter(game_table__evening=ev))
    assert len(tables) == ev.tables.count() == 2
    for table in tables:
        for seat in table.seat_set.select_related("player"):
            c = members[seat.player.name]
            # R3: on time until 21:10, late (3 penalised turns) until 21:20
            with _club_time("21:15" if seat.player.name == "Ilia" else "21:00"):
                r = c.post(reverse("online_evening_arrive", args=[t.slug, "2027-03-02"]))
            assert (r.status_code, r["Location"]) == (
                302, reverse("online_table", args=[table.code]))
        table.refresh_from_db()
        assert table.status == "playing"
        if table == tables[-1]:  # every arrival, each timed when its seat was taken
            assert Arrival.objects.filter(evening=ev).count() == 8
            assert Arrival.objects.get(evening=ev, player__name="Ilia").at == "21:15"
        view = services.state_message(table, "spectator", None)["game"]
        for seat in view["seats"]:  # the late arrival serves 3 penalised turns (R3)
            assert seat["late_turns"] == (3 if seat["player"] == "Ilia" else 0)
        services.referee(table.pk, services.Actor("referee", None, "arbitro"),
                         {"kind": "end_game", "reason": "fine della serata"})
        table.refresh_from_db()
        assert table.status == "over"
        result = TableResult.objects.get(table=table.game_table, superseded=False)
        assert result.sheet is not None and result.entered_by == f"online:{table.code}"
    standings = selectors.standings(t)
    assert all(standings.row(n).games == 1 for n in names)
    assert AuditEntry.objects.filter(action="online end_game").count() == 2
    page = referee.get(reverse("online_evening", args=[t.slug, "2027-03-02"])).content.decode()
    assert "replay" in page
    # the replays are linked from the public pages of the player and of the evening
    replay = reverse("online_replay", args=[tables[0].code])
    name = tables[0].seat_set.select_related("player").first().player.name
    public = Client()
    assert replay in public.get(reverse("tournament_player", args=[t.slug, name])).content.decode()
    assert replay in public.get(reverse("tournament_evening",
                                        args=[t.slug, "2027-03-02"])).content.decode()


GOOD_TABLE = {"name": "Serata libera", "seats": "4", "clock_minutes": "3",
              "call_mode": "round", "call_round": "8"}


@pytest.mark.parametrize(("change", "said"), [
    ({"call_round": "99999999999999999999"},
     "chiamata degli ultimi due giri: un giro da 1 a 99, non 99999999999999999999"),
    ({"call_round": "0"}, "chiamata degli ultimi due giri: un giro da 1 a 99, non 0"),
    ({"bot2": "alphazero"},
     "bot per il posto 2: 'alphazero' non è un livello di bot (1, 2)"),
    ({"clock_minutes": "2.5"},
     "tempo per turno: minuti interi da 0 (nessuno) a 30, non 2.5"),
    ({"clock_minutes": "31"}, "tempo per turno: minuti interi da 0 (nessuno) a 30, non 31"),
    ({"name": "x" * 10_000}, "nome del tavolo: al massimo 80 caratteri, non 10000"),
    ({"name": "Tavolo\x00"}, "nome del tavolo: i caratteri di controllo non sono ammessi"),
    ({"seats": "9"}, "posti: un tavolo ha da 3 a 6 posti, non 9"),
    ({"call_mode": "time", "call_at": "25h99"}, "chiamata degli ultimi due giri alle: "),
])
def test_a_bad_new_table_is_refused_by_its_label_in_italian_and_nothing_is_written(
        change: dict[str, str], said: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from risiko.agents import levels

    for level in [n for n in levels.LEVELS if n > 2]:  # the levels the message names
        monkeypatch.delitem(levels.LEVELS, level)
    _user("anna")
    owner = Client()
    owner.login(username="anna", password=PASSWORD)
    r = owner.post(reverse("online_create"), {**GOOD_TABLE, **change},
                   HTTP_ACCEPT_LANGUAGE="it")
    page = r.content.decode()
    assert r.status_code == 400
    assert said.replace("'", "&#x27;") in page
    assert not OnlineTable.objects.exists() and not OnlineSeat.objects.exists()


def test_a_call_time_is_read_as_check_in_reads_it() -> None:
    """23h15 as the referees write it (parse_clock), stored as 23:15."""
    _user("anna")
    owner = Client()
    owner.login(username="anna", password=PASSWORD)
    r = owner.post(reverse("online_create"), {**GOOD_TABLE, "call_mode": "time",
                                              "call_at": "23h15"})
    assert r.status_code == 302
    assert OnlineTable.objects.get().settings["call_at"] == "23:15"


@pytest.mark.parametrize(("guest", "said"), [
    ("x" * 10_000, "il tuo nome: al massimo 40 caratteri, non 10000"),
    ("\x00", "il tuo nome: i caratteri di controllo non sono ammessi"),
    ("   ", "il tuo nome: un ospite deve avere un nome"),
])
def test_a_bad_guest_name_is_refused_in_italian_and_the_seat_stays_open(
        guest: str, said: str) -> None:
    _user("anna")
    table = services.create_table(name="Serata", seats=3, who="anna")
    guest_client = Client()
    r = guest_client.post(reverse("online_join", args=[table.code]),
                          {"as": "guest", "guest_name": guest}, HTTP_ACCEPT_LANGUAGE="it",
                          follow=True)
    assert said in r.content.decode()
    assert [s.kind for s in table.seat_set.all()] == ["open", "open", "open"]


def test_the_lobby_says_one_seat_and_many_seats() -> None:
    from django.template import Context, Template
    from django.utils import translation

    template = Template("{% load i18n %}{% blocktranslate count n=n %}{{ n }} seat"
                        "{% plural %}{{ n }} seats{% endblocktranslate %}")
    with translation.override("it"):
        assert template.render(Context({"n": 1})) == "1 posto"
        assert template.render(Context({"n": 4})) == "4 posti"


def test_a_referee_sits_as_himself_and_is_a_player_there() -> None:
    """Issue 20 item 8: a referee (an account with no player) sits at a casual table as
    himself, by his login (no secret link); from that seat his referee's powers are not
    usable (he is a seat there, not the referee)."""
    ref = _user("arbitro", "referee")
    ref.first_name, ref.last_name = "Marco", "Neri"
    ref.save()
    table = services.create_table(name="Amichevole", seats=3, bots={3: "random"}, who="t",
                                  settings={"clock_seconds": 0})
    c = Client()
    c.force_login(ref)
    page = c.get(reverse("online_table", args=[table.code])).content.decode()
    assert "Siediti come Marco Neri" in page or "Sit down as Marco Neri" in page
    assert c.post(reverse("online_join", args=[table.code]),
                  {"as": "member"}).status_code == 302
    seat = OnlineSeat.objects.get(table=table, user=ref)
    assert (seat.kind, seat.name, seat.token_hash) == ("guest", "Marco Neri", "")
    assert "online_tokens" not in c.session  # his login holds the seat
    _table, actor = services.identify(table.code, ref, None)
    assert (actor.role, actor.seat, actor.name) == ("seat", 0, "Marco Neri")
    Client().post(reverse("online_join", args=[table.code]),
                  {"as": "guest", "guest_name": "Bruno"})  # the last seat: the game starts
    reply = services.referee(table.pk, actor, {"kind": "pause"})
    assert [f.code for f in reply.faults] == ["online.not_referee"]


@pytest.mark.skipif(__import__("shutil").which("node") is None, reason="node is not installed")
@pytest.mark.parametrize(("lang", "said"), [
    ("it", ["1 territorio, 1 armata, 1 carta", "12 territori, 30 armate, 0 carte",
            "ULTIMO giro: 4", "Ultimo giro: 4", ""]),
    ("en", ["1 territory, 1 army, 1 card", "12 territories, 30 armies, 0 cards",
            "LAST round: 4", "Last round: 4", ""]),
])
def test_the_table_page_counts_in_the_right_number_and_stops_shouting_when_over(
        lang: str, said: list[str]) -> None:
    """issue: the table page said "1 carte", and "ULTIMO giro: 4" in capitals after the game
    ended. The page's script (its page-free helpers, run by node) with the page's words."""
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
    program = helpers + f"""
var T = {json.dumps(words)};
function seat(t, a, c) {{
  return [countOf(t, T.territory, T.territories), countOf(a, T.army, T.armies),
          countOf(c, T.card, T.cards)].join(", ");
}}
console.log(JSON.stringify([seat(1, 1, 1), seat(12, 30, 0),
  lastRoundText({{last_round: 4, phase: "attack", outcome: null}}, T),
  lastRoundText({{last_round: 4, phase: "over", outcome: {{end: "closing_dice"}}}}, T),
  lastRoundText({{last_round: null, phase: "attack"}}, T)]));
"""
    out = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True,
                         timeout=30)
    assert json.loads(out.stdout) == said
