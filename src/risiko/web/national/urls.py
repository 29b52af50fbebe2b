"""URLs of the national ranking's public pages (``/nazionale/``; see :mod:`.views`)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, include, path, register_converter

from . import flow_views, views


class YearConverter:
    """A year of four digits <-> ``int``: ``/nazionale/0/`` or ``/nazionale/99999.json`` match
    nothing and answer 404, as ``/nazionale/abcd/`` does. A year of four digits outside the
    project's calendar (:data:`~risiko.tournament.dates.EVENING_YEARS`, 2000 to 2099) reaches
    the view, which refuses it naming the fault (``national.year_outside``, as ``risiko
    national ranking --year`` does)."""

    regex = r"\d{4}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        return str(value)


register_converter(YearConverter, "national_year")

urlpatterns: list[URLPattern | URLResolver] = [
    path("", views.national_home, name="national_home"),
    path("<national_year:year>/", views.national_year, name="national_year"),
    path("<national_year:year>.json", views.national_year_json, name="national_year_json"),
    path("<national_year:year>.csv", views.national_year_csv, name="national_year_csv"),
    path("<national_year:year>/tornei/", views.national_tournaments, name="national_tournaments"),
    path("<national_year:year>/club/<str:club>.json", views.national_club_json,
         name="national_club_json"),
    path("<national_year:year>/club/<str:club>.csv", views.national_club_csv,
         name="national_club_csv"),
    path("<national_year:year>/club/<str:club>/", views.national_club, name="national_club"),
    path("giocatore/<int:national_id>/", views.national_player, name="national_player"),
    path("interclub/", include("risiko.web.national.interclub_urls")),
    path("registro/", include("risiko.web.national.duplicates_urls")),
    path("api/pubblica/", flow_views.national_receive, name="national_receive"),
    path("ufficiale/", flow_views.national_officer, name="national_officer"),
    path("ufficiale/<int:revision>/decidi/", flow_views.national_decide,
         name="national_decide"),
]
