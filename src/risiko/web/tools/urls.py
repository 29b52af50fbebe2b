"""URLs of the tools app (included at ``/strumenti/``).

Names: ``referee_tools`` (index), ``board_map``, ``attack_check``, ``attack_api``,
``attack_position``, ``attack_position_api``, ``card_set``, ``card_set_api``; per table
(args: tournament slug, evening date ``YYYY-MM-DD``, table number): ``board_entry``,
``board_score``, ``board_save``, ``closing_dice``, ``turn_clock``.
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from . import views

TABLE = "tavolo/<slug:slug>/<str:date>/<int:number>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.index, name="referee_tools"),
    path("tabellone/", views.board_map, name="board_map"),
    path("attacco/", views.attack_check, name="attack_check"),
    path("attacco.json", views.attack_api, name="attack_api"),
    path("attacco/posizione/", views.attack_position, name="attack_position"),
    path("attacco/posizione.json", views.attack_position_api, name="attack_position_api"),
    path("tris/", views.card_set, name="card_set"),
    path("tris.json", views.card_set_api, name="card_set_api"),
    path(TABLE + "tabellone/", views.board_entry, name="board_entry"),
    path(TABLE + "tabellone/punteggio/", views.board_score, name="board_score"),
    path(TABLE + "tabellone/salva/", views.board_save, name="board_save"),
    path(TABLE + "chiusura/", views.closing_dice, name="closing_dice"),
    path(TABLE + "orologio/", views.turn_clock, name="turn_clock"),
]
