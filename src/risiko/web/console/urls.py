"""URLs of the referee console (included at ``/arbitro/``).

Names: ``referee_home``; per tournament (``slug``): ``console_tournament``,
``console_add_players``, ``console_format``, ``console_open_evening``, ``console_carry_over``,
``console_stages``, ``console_seat_stage``, ``console_draw``, ``console_standings_csv``,
``console_standings_json``, ``console_standings_print``, ``console_season_export``,
``console_audit``, ``console_national_publish``; per evening (``slug``, ``date``
YYYY-MM-DD): ``console_evening``,
``console_checkin``, ``console_arrival`` (+ player id), ``console_seating``, ``console_seat``,
``console_swap``, ``console_set_tables``, ``console_table_cards``, ``console_penalties``,
``console_add_penalty``, ``console_void_penalty`` / ``console_appeal`` (+ penalty id),
``console_discipline``; per table (+ ``number``): ``console_table``, ``console_scores``,
``console_sheet``, ``console_abandon``; committee only: ``console_import``,
``console_merge_players``; referees and committee: ``console_lab`` (the committee's lab).
"""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, path, register_converter

from risiko.web.national.flow_views import console_publish

from .views import evening, exports, lab, penalties, stages, table, tournament


class IsoDateConverter:
    """``2027-03-02`` (kept as text; the view looks the evening up)."""

    regex = r"\d{4}-\d{2}-\d{2}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: object) -> str:
        return str(value)


register_converter(IsoDateConverter, "console_date")

T = "t/<slug:slug>/"
E = T + "<console_date:date>/"
TB = E + "tavolo/<int:number>/"

urlpatterns: list[URLPattern | URLResolver] = [
    path("", tournament.home, name="referee_home"),
    path("importa/", tournament.import_season, name="console_import"),
    path("giocatori/unisci/", tournament.merge_players, name="console_merge_players"),
    path("laboratorio/", lab.lab_page, name="console_lab"),
    path(T, tournament.tournament, name="console_tournament"),
    path(T + "giocatori/", tournament.add_players, name="console_add_players"),
    path(T + "in-corso/", tournament.make_current, name="console_make_current"),
    path(T + "formato/", tournament.change_format, name="console_format"),
    path(T + "serate/", tournament.open_evening, name="console_open_evening"),
    path(T + "riporto/", tournament.carry_over, name="console_carry_over"),
    path(T + "fasi/", stages.stages, name="console_stages"),
    path(T + "fasi/genera/", stages.seat_stage, name="console_seat_stage"),
    path(T + "sorteggio/", stages.draw, name="console_draw"),
    path(T + "classifica.csv", exports.standings_csv, name="console_standings_csv"),
    path(T + "classifica.json", exports.standings_json, name="console_standings_json"),
    path(T + "classifica/stampa/", exports.standings_print, name="console_standings_print"),
    path(T + "stagione.json", exports.season_export, name="console_season_export"),
    path(T + "registro/", exports.audit, name="console_audit"),
    path(T + "nazionale/", console_publish, name="console_national_publish"),
    path(E, evening.evening, name="console_evening"),
    path(E + "arrivi/", evening.checkin, name="console_checkin"),
    path(E + "arrivi/<int:player>/", evening.arrival, name="console_arrival"),
    path(E + "tavoli/", evening.seating, name="console_seating"),
    path(E + "tavoli/ottimizza/", evening.seat, name="console_seat"),
    path(E + "tavoli/scambia/", evening.swap, name="console_swap"),
    path(E + "tavoli/a-mano/", evening.set_tables, name="console_set_tables"),
    path(E + "tavoli/stampa/", evening.table_cards, name="console_table_cards"),
    path(E + "sanzioni/", penalties.penalties, name="console_penalties"),
    path(E + "sanzioni/nuova/", penalties.add_penalty, name="console_add_penalty"),
    path(E + "sanzioni/<int:pk>/annulla/", penalties.void_penalty,
         name="console_void_penalty"),
    path(E + "sanzioni/<int:pk>/ricorso/", penalties.appeal, name="console_appeal"),
    path(E + "disciplina/", penalties.add_discipline, name="console_discipline"),
    path(TB, table.table, name="console_table"),
    path(TB + "punteggi/", table.enter_scores, name="console_scores"),
    path(TB + "scheda/", table.enter_sheet, name="console_sheet"),
    path(TB + "abbandono/", table.abandon, name="console_abandon"),
]
