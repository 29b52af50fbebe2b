"""An online table's log as values said in each viewer's language (issue 20 item 8): players by
name, territories as the board writes them (spaces, not the record's underscores), dice drawn
as dice; the record line stays in the record format (replay and ``--verify`` read it)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from risiko.actions import Attack, EndTurn, Fortify, Timeout, Trade
from risiko.board import parse_territory, territory_code, territory_name
from risiko.online import log as olog
from risiko.web.online import services
from risiko.web.online.models import TableEvent

#: Gran Bretagna (two words), Europa Settentrionale, Brasile, Argentina
GB, EUN = parse_territory("Gran Bretagna"), parse_territory("Europa Settentrionale")
BR, AR = parse_territory("Brasile"), parse_territory("Argentina")
PLAYERS = ["Luca", "Anna", "Bice", "Ciro"]


def test_an_attack_says_who_where_and_the_dice_as_dice() -> None:
    # seat 4 (Ciro) rolls 6 6 2 against 6 1: 6 v 6 to the defender, 6 v 1 to the attacker
    # (R8, ties to the defender): each loses one
    v = olog.action_value(3, Attack(GB, EUN, (6, 2, 6), (1, 6)), PLAYERS)
    assert v == {"code": "log.attack", "params": {
        "player": "Ciro", "source": "Gran Bretagna", "target": "Europa Settentrionale",
        "attacker_dice": [6, 2, 6], "defender_dice": [1, 6], "lost_attacker": 1,
        "lost_defender": 1}}
    assert olog.message(v, "it") == (
        "Ciro attacca Europa Settentrionale da Gran Bretagna: ⚅ ⚁ ⚅ contro ⚀ ⚅ "
        "(Ciro perde 1, il difensore 1)")
    assert olog.message(v, "en") == (
        "Ciro attacks Europa Settentrionale from Gran Bretagna: ⚅ ⚁ ⚅ against ⚀ ⚅ "
        "(Ciro loses 1, the defender 1)")


def test_a_trade_an_end_with_closing_dice_and_a_timeout() -> None:
    # Brasile, Argentina and a jolly (card 42): 12 armies by R9's table, +2 on Brasile owned
    trade = Trade((BR, AR, 42), 12, ((BR, 2),))
    assert olog.message(olog.action_value(1, trade, PLAYERS), "it") == (
        "Anna cala Brasile, Argentina, jolly per 12 armate, e 2 su Brasile")
    # a strategic move that ends the turn with the closing dice 5 and 4 (R2)
    v = olog.action_value(2, Fortify(BR, AR, 3, (5, 4)), PLAYERS)
    assert v["also"] == [{"code": "log.closing", "params": {"player": "Bice", "dice": [5, 4]}}]
    assert olog.message(v, "en") == ("Bice moves 3 from Brasile to Argentina (strategic move)"
                                     " · closing dice for Bice: ⚄ ⚃")
    assert olog.message(olog.action_value(0, EndTurn(), PLAYERS), "it") == "Luca passa il turno"
    # the clock's timeout names the seat whose time ran out (the seat to act, R11)
    assert olog.message(olog.action_value(3, Timeout(), PLAYERS), "it") == (
        "tempo scaduto per Ciro: il turno passa")


@pytest.mark.online
@pytest.mark.db
@pytest.mark.django_db
def test_the_tables_log_carries_values_and_keeps_the_record_line(settings: Any) -> None:
    settings.RISIKO_ONLINE_SCHEDULER = False
    if not os.environ.get("REDIS_URL"):
        settings.CHANNEL_LAYERS = {"default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer"}}
    services.clear_cache()
    table = services.create_table(name="Prova", seats=3, who="test",
                                  settings={"clock_seconds": 0})
    for name in ("Anna", "Bruno", "Carla"):
        services.join(table.pk, guest_name=name)
    table.refresh_from_db()
    game = services.game_of(table)
    mine = next(t for t in range(42) if game.owner[t] == 0)
    reply = services.apply(table.pk, services.Actor("seat", 0, "Anna"),
                           {"kind": "place", "territory": territory_name(mine), "armies": 1})
    assert not reply.faults
    event = TableEvent.objects.get(table=table, seq=reply.seq)
    assert event.text == f"1 place {territory_code(mine)} 1"  # the record line, unchanged
    assert event.value == {"code": "log.place", "params": {
        "player": "Anna", "armies": 1, "territory": territory_name(mine)}}
    table.refresh_from_db()
    log = services.state_message(table, "spectator", None)["log"]
    assert log[-1]["messages"] == {"it": f"Anna piazza 1 su {territory_name(mine)}",
                                   "en": f"Anna places 1 on {territory_name(mine)}"}
    assert log[0]["value"]["code"] == "log.start"
    # a seat that goes away: said by name, in each language
    services.connected(table.pk, 2)
    services.disconnected(table.pk, 2)
    table.refresh_from_db()
    last = services.state_message(table, "spectator", None)["log"][-1]
    assert last["messages"] == {"it": "Bruno si è disconnesso", "en": "Bruno disconnected"}
    assert last["text"] == "# Bruno disconnected"
