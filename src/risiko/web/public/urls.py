"""URLs of the public app (included at the root, before the site's).

The current tournament: ``home_public`` (``/``: its standings, or the list of tournaments
when none or several are current), ``standings`` (``/classifica/``), ``evenings``
(``/serate/``), ``players`` (``/giocatori/``), ``finals`` (``/finali/``); every tournament:
``tournaments`` (``/tornei/``), ``tournament_standings`` (``/t/<slug>/``),
``standings_live`` (``/t/<slug>/classifica/live/``, the table alone, polled by htmx),
``tournament_finals``, ``tournament_evenings``, ``tournament_evening`` (``date``
YYYY-MM-DD), ``tournament_players``, ``tournament_player`` (``name``); the JSON API:
``api_tournaments`` (``/api/tournaments``), ``api_standings``
(``/api/tournaments/<id or slug>/standings``).
"""

from __future__ import annotations

import datetime as _dt

from django.urls import URLPattern, URLResolver, path, re_path, register_converter

from . import views


class IsoDateConverter:
    """``YYYY-MM-DD`` <-> :class:`datetime.date` (a date that does not exist: no match)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> _dt.date:
        try:
            return _dt.date.fromisoformat(value)
        except ValueError:
            raise ValueError(value) from None

    def to_url(self, value: _dt.date | str) -> str:
        return value.isoformat() if isinstance(value, _dt.date) else str(value)


register_converter(IsoDateConverter, "isodate")

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.home, name="home_public"),
    path("classifica/", views.standings, name="standings"),
    path("serate/", views.evenings, name="evenings"),
    path("giocatori/", views.players, name="players"),
    path("finali/", views.finals, name="finals"),
    path("tornei/", views.tournaments, name="tournaments"),
    path("t/<slug:slug>/", views.tournament_standings, name="tournament_standings"),
    path("t/<slug:slug>/classifica/live/", views.standings_live, name="standings_live"),
    path("t/<slug:slug>/finali/", views.tournament_finals, name="tournament_finals"),
    path("t/<slug:slug>/serate/", views.tournament_evenings, name="tournament_evenings"),
    path("t/<slug:slug>/serate/<isodate:date>/", views.tournament_evening,
         name="tournament_evening"),
    path("t/<slug:slug>/giocatori/", views.tournament_players, name="tournament_players"),
    path("t/<slug:slug>/giocatori/<path:name>/", views.tournament_player,
         name="tournament_player"),
    re_path(r"^api/tournaments/?$", views.api_tournaments, name="api_tournaments"),
    re_path(r"^api/tournaments/(?P<key>[^/]+)/standings/?$", views.api_standings,
            name="api_standings"),
]
