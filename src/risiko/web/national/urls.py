"""URLs of the national ranking's public pages (``/nazionale/``; see :mod:`.views`)."""

from __future__ import annotations

from django.urls import URLPattern, path

from . import views

urlpatterns: list[URLPattern] = [
    path("", views.national_home, name="national_home"),
    path("<int:year>/", views.national_year, name="national_year"),
    path("<int:year>.json", views.national_year_json, name="national_year_json"),
    path("<int:year>.csv", views.national_year_csv, name="national_year_csv"),
    path("<int:year>/tornei/", views.national_tournaments, name="national_tournaments"),
    path("giocatore/<int:national_id>/", views.national_player, name="national_player"),
]
