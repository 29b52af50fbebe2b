"""The closing dice of a table (R2, R12, R13): the state replayed from the events (worked out
by hand from RULES.md R2), and the page that records them."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.urls import reverse

from risiko.closing import ClosingError, Event, SeatInfo, replay, start
from risiko.ruleset import CLUB_MILANO, RTU
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.tools import services as tool_services
from risiko.web.tools.models import ClosingEvent

PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
SEATS = [SeatInfo(i, name) for i, name in enumerate(PLAYERS, start=1)]
WHO = "arbitro"


def roll(position: int, total: int, conquests: int = 0) -> Event:
    return Event("roll", position, total, conquests)


# ------------------------------------------------------------------ the state (no database)
def test_bands_widen_one_sum_per_closing_round():
    """R2: round 1 closes on 4, round 2 on 4-5, round 3 on 4-6, round 4 on 4-7 ..."""
    state = start(SEATS, CLUB_MILANO)
    seen = []
    for _ in range(5):
        seen.append((state.closing_round, state.band))
        for position in [5, 1, 2, 3, 4]:
            state.apply(roll(position, 12))  # 12 never closes before round 9
    assert seen == [(1, (4, 4)), (2, (4, 5)), (3, (4, 6)), (4, (4, 7)), (5, (4, 8))]
    assert start(SEATS, CLUB_MILANO).probability == pytest.approx(3 / 36)
    assert start(SEATS, RTU).band == (2, 4)  # the national rules start from 2


def test_a_closing_round_starts_with_the_last_seat_of_the_last_round():
    state = start(SEATS, CLUB_MILANO)
    assert (state.closing_round, state.current) == (1, 5)  # last seat first
    state.apply(roll(5, 6))
    assert (state.closing_round, state.current) == (1, 1)
    for position in (1, 2, 3):
        state.apply(roll(position, 5))  # 5 does not close in round 1
    assert (state.closing_round, state.current) == (1, 4)
    state.apply(roll(4, 7))
    assert (state.closing_round, state.current) == (2, 5)  # round 2 starts with seat 5 again
    turn = state.apply(roll(5, 5))  # 5 closes in round 2
    assert turn.closed and state.ended and state.ended_by is turn
    with pytest.raises(ClosingError) as err:
        state.apply(roll(1, 4))
    assert err.value.code == "ended"


def test_sums_2_and_3_never_close():
    state = replay(SEATS, CLUB_MILANO, [Event("widen", reason="late")] * 8)
    assert state.band == (4, 12)
    assert not state.apply(roll(5, 3)).closed
    assert not state.apply(roll(1, 2)).closed
    assert state.apply(roll(2, 12)).closed


def test_three_conquests_do_not_roll_but_penalised_players_do():
    seats = [*SEATS[:4], SeatInfo(5, "Elena", penalised=True)]
    state = start(seats, CLUB_MILANO)
    assert state.may_roll(5, 2) is None  # R12: penalised, still rolls
    assert state.may_roll(5, 3) == "conquests"  # R2
    with pytest.raises(ClosingError) as err:
        state.apply(roll(5, 4, conquests=3))
    assert err.value.code == "conquests" and state.current == 5 and not state.turns
    state.apply(Event("skip", 5, conquests=3))
    assert state.current == 1 and not state.ended
    strict = start(seats, CLUB_MILANO.with_changes(penalised_seats_roll=False))
    assert strict.may_roll(5) == "penalised"


def test_widening_the_band_and_ending_the_game():
    state = start(SEATS, CLUB_MILANO)
    state.apply(Event("widen", reason="it drags on"))
    assert (state.closing_round, state.band) == (1, (4, 5))  # round 2's band from now on
    assert state.apply(roll(5, 5)).closed
    ended = replay(SEATS, CLUB_MILANO, [Event("end", reason="midnight")])
    assert ended.ended and ended.ended_by is not None
    assert ended.ended_by.event.reason == "midnight"


def test_seats_out_of_play_drop_out_of_the_round_they_are_in():
    """R2, R13: a closing round is one roll of each seat in play from the anchor's place
    (Elena's, who opened closing round 1); a seat marked out drops out of the round it is
    in without moving the others."""
    state = start(SEATS, CLUB_MILANO)
    state.apply(roll(5, 8))
    state.apply(Event("out", 5))  # Elena eliminated during Anna's turn
    for position in (1, 2, 3):
        state.apply(roll(position, 8))
    # Dario has not rolled in closing round 1: his turn is still in it (band 4 only)
    assert (state.closing_round, state.current, state.band) == (1, 4, (4, 4))
    assert not state.apply(roll(4, 5)).closed
    assert (state.closing_round, state.current) == (2, 1)  # round 2 from Elena's place
    assert [s.player for s in state.in_play] == ["Anna", "Bruno", "Carla", "Dario"]
    with pytest.raises(ClosingError):
        state.apply(roll(5, 4))
    state.apply(Event("back", 5))
    assert len(state.in_play) == 5


THREE = SEATS[:3]  # Anna 1, Bruno 2, Carla 3


def test_the_anchor_out_after_its_roll_in_closing_round_1():
    # issue 16: Carla rolls first in closing round 1, then leaves (or is eliminated) during
    # Anna's turn; Anna rolls; Bruno has not rolled in closing round 1: only 4 closes, his 5
    # does not. Anna then opens closing round 2 (4-5): her 5 closes.
    state = start(THREE, CLUB_MILANO)
    state.apply(roll(3, 6))
    state.apply(Event("out", 3))
    assert not state.apply(roll(1, 6)).closed
    turn = state.apply(roll(2, 5))
    assert (turn.closing_round, turn.band, turn.closed) == (1, (4, 4), False)
    assert (state.closing_round, state.current) == (2, 1)
    assert state.apply(roll(1, 5)).closed


def test_the_anchor_out_before_its_roll_in_closing_round_2():
    # all three rolled in closing round 1; Carla's turn opens closing round 2 and she
    # leaves during it: Anna's next roll is in closing round 2 (4-5), her 5 closes.
    state = start(THREE, CLUB_MILANO)
    for position in (3, 1, 2):
        state.apply(roll(position, 6))
    assert (state.closing_round, state.current) == (2, 3)
    state.apply(Event("out", 3))
    assert (state.closing_round, state.current) == (2, 1)
    turn = state.apply(roll(1, 5))
    assert (turn.closing_round, turn.band, turn.closed) == (2, (4, 5), True)


def test_the_anchor_out_after_its_roll_in_closing_round_2():
    # Carla opens closing round 2 (rolls 6: no), then leaves during Anna's turn: Anna and
    # Bruno still roll in closing round 2 (4-5: Bruno's 6 does not close); Anna opens
    # closing round 3 (4-6) at her own place.
    state = start(THREE, CLUB_MILANO)
    for position in (3, 1, 2, 3):
        state.apply(roll(position, 6))
    state.apply(Event("out", 3))
    assert [state.apply(roll(p, 6)).closing_round for p in (1, 2)] == [2, 2]
    assert (state.closing_round, state.current, state.band) == (3, 1, (4, 6))


def test_other_seats_out_before_and_after_their_roll():
    # 5 seats, Elena the anchor. Closing round 1: Elena, Anna roll; Bruno is marked out
    # before his roll (during Anna's turn): Carla, Dario finish round 1; Elena opens round 2.
    # Round 2: Elena, Anna, Bruno... Bruno is out; Carla rolls, then Anna is marked out
    # after her roll (during Carla's turn): Dario finishes round 2, Elena opens round 3.
    state = start(SEATS, CLUB_MILANO)
    state.apply(roll(5, 8))
    state.apply(roll(1, 8))
    state.apply(Event("out", 2))
    seen = [(p, state.apply(roll(p, 8)).closing_round) for p in (3, 4, 5, 1, 3)]
    assert seen == [(3, 1), (4, 1), (5, 2), (1, 2), (3, 2)]
    state.apply(Event("out", 1))
    assert (state.apply(roll(4, 8)).closing_round, state.current, state.closing_round) == (
        2, 5, 3)


def test_a_seat_out_and_back_plays_again_from_the_next_closing_round():
    # Bruno is marked out during Anna's turn in closing round 1, back before his place
    # comes: he takes his place again from closing round 2 (the turn goes from Anna to
    # Carla), then rolls after Anna in round 2.
    state = start(SEATS, CLUB_MILANO)
    state.apply(roll(5, 8))
    state.apply(Event("out", 2))
    state.apply(Event("back", 2))
    state.apply(roll(1, 8))
    assert (state.closing_round, state.current) == (1, 3)
    for position in (3, 4):
        state.apply(roll(position, 8))
    assert (state.closing_round, state.current) == (2, 5)
    state.apply(roll(5, 8))
    state.apply(roll(1, 8))
    assert (state.closing_round, state.current) == (2, 2)


def test_a_seat_out_before_the_closing_begins():
    # Elena was eliminated before the closing: marked out before any roll, the closing
    # starts with the last seat in play, Dario (R2: "a partire dall'ultimo giocatore del
    # giro"), and each closing round from his place: Dario, Anna, Bruno, Carla.
    state = start(SEATS, CLUB_MILANO)
    state.apply(Event("out", 5))
    assert (state.closing_round, state.current, state.anchor) == (1, 4, 4)
    seen = [(p, state.apply(roll(p, 8)).closing_round) for p in (4, 1, 2, 3, 4)]
    assert seen == [(4, 1), (1, 1), (2, 1), (3, 1), (4, 2)]


def test_the_tool_and_the_engine_count_closing_rounds_alike():
    # the same table (3 seats) through the engine and through the tool: Carla leaves during
    # Anna's turn of round 3; every closing turn in the same closing round
    from risiko.actions import Abandon, CallLastRounds, EndTurn, Place
    from risiko.game import Game

    game = Game.new(["Anna", "Bruno", "Carla"], seed=5)
    while game.phase == "setup":
        game.push(game.legal_actions()[0].of(game.step_left))  # type: ignore[union-attr]
    game.push(CallLastRounds())
    state = start(THREE, CLUB_MILANO)
    engine, tool = [], []
    while len(engine) < 6:
        if (game.round, game.seat) == (3, 0):
            game.push(Abandon(2))
            state.apply(Event("out", 3))
        if game.phase == "reinforce":
            own = (game.owned[game.seat] & -game.owned[game.seat]).bit_length() - 1
            game.push(Place(own, game.pending))
        k = game.closing_round_of_turn()
        game.push(EndTurn((1, 1) if k is not None else None))
        if k is not None:
            engine.append((game.closing_rolls[-1].seat + 1, k))
            turn = state.apply(roll(game.closing_rolls[-1].seat + 1, 2))
            tool.append((turn.position, turn.closing_round))
    assert engine == tool == [(3, 1), (1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]


def test_a_roll_of_another_seat_moves_the_turn_on():
    state = start(SEATS, CLUB_MILANO)
    state.apply(roll(3, 9))  # seats 5, 1, 2 passed without a recorded roll
    assert (state.closing_round, state.current) == (1, 4)


# ------------------------------------------------------------------ the page (database)
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


def _url(table) -> str:
    return reverse("closing_dice", args=[table.evening.tournament.slug, "2027-03-02",
                                         table.number])


@pytest.mark.db
@pytest.mark.django_db
def test_the_page_records_rolls_until_the_game_closes(client, referee, table):
    client.force_login(referee)
    url = _url(table)
    page = client.get(url).content.decode()
    assert "Giro di chiusura 1" in page and "Turno di <strong>Elena</strong>" in page
    assert 'class="total closes">4<' in page and 'class="total">5<' in page
    assert client.post(url, {"position": "5", "conquests": "0", "total": "6"}).status_code == 302
    for position in (1, 2, 3, 4):
        client.post(url, {"position": str(position), "conquests": "1", "total": "7"})
    page = client.get(url).content.decode()
    assert "Giro di chiusura 2" in page and "Turno di <strong>Elena</strong>" in page
    assert 'class="total closes">5<' in page
    # three conquests: refused as a roll, recorded as "no roll"
    response = client.post(url, {"position": "5", "conquests": "3", "total": "4"}, follow=True)
    assert "non tira" in response.content.decode()
    client.post(url, {"position": "5", "conquests": "3", "action": "skip"})
    response = client.post(url, {"position": "1", "conquests": "0", "total": "5"}, follow=True)
    html = response.content.decode()
    assert "Partita finita" in html and "Anna ha tirato 5" in html
    rows = list(ClosingEvent.objects.filter(table=table).order_by("id"))
    assert [(r.kind, r.player, r.total, r.closing_round, r.closed) for r in rows][-3:] == [
        ("roll", "Dario", 7, 1, False), ("skip", "Elena", None, 2, False),
        ("roll", "Anna", 5, 2, True)]
    assert (rows[-1].band_low, rows[-1].band_high, rows[-1].who) == (4, 5, WHO)
    assert AuditEntry.objects.filter(action="closing dice").count() == 7
    # undo voids the closing roll: the game goes on
    client.post(url, {"action": "undo"})
    assert ClosingEvent.objects.filter(table=table, voided=True).count() == 1
    assert not tool_services.closing_state(table).ended


@pytest.mark.db
@pytest.mark.django_db
def test_acceleration_and_end_need_a_reason(client, referee, table):
    client.force_login(referee)
    url = _url(table)
    client.post(url, {"action": "widen", "reason": "  "})
    assert not ClosingEvent.objects.exists()
    client.post(url, {"action": "widen", "reason": "si va per le lunghe"})
    state = tool_services.closing_state(table)
    assert state.band == (4, 5) and state.widened == 1
    client.post(url, {"action": "end", "reason": "mezzanotte"})
    html = client.get(url).content.decode()
    assert "Partita finita" in html and "mezzanotte" in html
    assert AuditEntry.objects.filter(action="closing dice", summary__contains="mezzanotte").exists()


@pytest.mark.db
@pytest.mark.django_db
def test_a_penalised_player_is_shown_still_rolling(client, referee, table):
    services.add_penalty(table.evening, "Elena", -5, unit="table", reason="lento",
                         referee="Capo", who=WHO)
    client.force_login(referee)
    html = client.get(_url(table)).content.decode()
    assert "penalizzato: tira comunque (R12)" in html
    client.post(_url(table), {"position": "5", "conquests": "0", "total": "4"})
    assert tool_services.closing_state(table).ended
