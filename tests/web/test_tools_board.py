"""The clickable board: its drawing (42 shapes, borders = touching shapes + lines, R6), the
live score of a board (equal to ``risiko score`` of the same sheet), the faults, and saving
through the results service (a complete board writes a TableResult, an incomplete one
nothing)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from django.contrib.auth.models import Group, User
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from typer.testing import CliRunner

from risiko.board import (
    NUM_TERRITORIES,
    TERRITORY_NAMES,
    club_milano_board,
    official_board,
    parse_territory,
)
from risiko.cli import score_commands
from risiko.objectives import get_objective
from risiko.ruleset import CLUB_MILANO
from risiko.web import services
from risiko.web.auditlog.models import AuditEntry
from risiko.web.results.models import TableResult
from risiko.web.tools import board_layout
from risiko.web.tools.preview import parse_state, preview
from risiko.web.tools.templatetags.board_tags import board_context

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "sheet-5-seats.json"
PLAYERS = ["Anna", "Bruno", "Carla", "Dario", "Elena"]
WHO = "arbitro"


def _pair(a: str, b: str) -> tuple[int, int]:
    x, y = parse_territory(a), parse_territory(b)
    return (min(x, y), max(x, y))


# ------------------------------------------------------------------ the drawing (no database)
@pytest.mark.parametrize("board", [official_board(), club_milano_board()])
def test_every_territory_has_a_shape_and_the_drawn_links_are_the_borders(board):
    drawing = board_layout.drawing(board.name)
    assert [s.index for s in drawing.shapes] == list(range(NUM_TERRITORIES))
    assert all(s.path.startswith("M") and s.path.endswith("Z") for s in drawing.shapes)
    assert [s.name for s in drawing.shapes] == list(TERRITORY_NAMES)
    # shapes touch only where the board has a border ...
    assert board_layout.touching() <= board.borders
    # ... and the touching shapes plus the lines are exactly the borders
    assert drawing.drawn_borders() == board.borders
    lines = {(link.a, link.b) if link.a < link.b else (link.b, link.a) for link in drawing.links}
    assert not lines & board_layout.touching()  # no line where the shapes touch anyway


def test_the_grid_is_rectangular_and_each_territory_is_one_piece():
    cols, _rows = board_layout.grid_size()
    assert all(len(r) == cols for r in board_layout.GRID.strip("\n").split("\n"))
    for t, cells in board_layout.cells().items():
        cells_set = set(cells)
        seen = {cells[0]}
        todo = [cells[0]]
        while todo:
            x, y = todo.pop()
            for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                if n in cells_set and n not in seen:
                    seen.add(n)
                    todo.append(n)
        assert seen == cells_set, TERRITORY_NAMES[t]


def test_the_layout_is_the_real_boards():
    """North America top left, South America below it, Europe top centre, Africa below
    Europe, Asia right, Oceania bottom right."""
    cells = board_layout.cells()

    def centre(name: str) -> tuple[float, float]:
        cs = cells[parse_territory(name)]
        return sum(x for x, _ in cs) / len(cs), sum(y for _, y in cs) / len(cs)

    alaska, brasile = centre("Alaska"), centre("Brasile")
    gb, egitto, cina = centre("Gran Bretagna"), centre("Egitto"), centre("Cina")
    australia = centre("Australia Orientale")
    assert alaska[0] < gb[0] < cina[0] < australia[0] + 5
    assert alaska[1] < brasile[1] and gb[1] < egitto[1] and cina[1] < australia[1]
    assert brasile[0] < egitto[0] < australia[0]


def test_sea_links_are_dashed_and_alaska_kamchatka_wraps_round():
    drawing = board_layout.drawing("official")
    links = {(link.a, link.b) if link.a < link.b else (link.b, link.a): link
             for link in drawing.links}
    for a, b in [("Alaska", "Kamchatka"), ("Brasile", "Africa del Nord"),
                 ("Groenlandia", "Islanda"), ("Siam", "Indonesia"),
                 ("Europa Meridionale", "Egitto")]:
        assert links[_pair(a, b)].kind == "sea", (a, b)
    wrap = links[_pair("Alaska", "Kamchatka")]
    assert wrap.wrap and wrap.x2 == 0 and wrap.x4 == drawing.width  # two half-lines to the edges
    assert links[_pair("Egitto", "Medio Oriente")].kind == "land"
    assert all(link.kind == "sea" for link in drawing.links
               if (min(link.a, link.b), max(link.a, link.b)) != _pair("Egitto", "Medio Oriente"))


def test_r6_no_line_between_middle_east_and_egypt_on_the_club_board():
    def drawn_pairs(board_name: str) -> set[tuple[str, str]]:
        html = render_to_string("tools/_board.html", board_context(board_name, lang="it"))
        found = set()
        for a, b in re.findall(r'data-a="(\d+)" data-b="(\d+)"', html):
            found.add((TERRITORY_NAMES[int(a)], TERRITORY_NAMES[int(b)]))
        return found

    official = drawn_pairs("official")
    club = drawn_pairs("club-milano")
    assert ("Egitto", "Medio Oriente") in official
    assert ("Egitto", "Medio Oriente") not in club
    assert official - club == {("Egitto", "Medio Oriente")}


def test_the_include_renders_42_clickable_shapes_with_names_and_a_sheet():
    sheet = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    html = render_to_string(
        "tools/_board.html", board_context("club-milano", sheet=sheet, interactive=True,
                                           lang="it"))
    assert html.count('<g class="territory c') == 42
    assert html.count('role="button"') == 42
    assert ">Territori del</tspan>" in html and ">Nord Ovest</tspan>" in html
    assert ',' not in re.search(r'viewBox="([^"]+)"', html).group(1)  # no decimal commas
    alaska = re.search(r'<g class="territory c0 owned s1" id="territory-0"[^>]*>', html)
    assert alaska and 'data-owner="1"' in alaska.group(0)  # Anna is seat 1
    english = render_to_string("tools/_board.html", board_context("official", lang="en"))
    assert ">Northwest Territory<" in english or ">Northwest</tspan>" in english


# ------------------------------------------------------------------ the live score (no database)
def _example_state() -> dict[str, Any]:
    sheet = json.loads(EXAMPLE.read_text(encoding="utf-8"))
    seats = []
    for pos, seat in enumerate(sheet["seats"], start=1):
        seats.append({
            "position": pos,
            "objective": get_objective(seat["objective"]).number,
            "armies": {str(parse_territory(k)): v for k, v in seat["armies"].items()},
        })
    return {"seats": seats}


SEATED = list(enumerate(PLAYERS, start=1))


def _risiko_score_json() -> dict[str, Any]:
    app = typer.Typer()

    @app.callback()
    def _root() -> None:
        """Root."""

    score_commands.register(app)
    result = CliRunner().invoke(app, ["score", str(EXAMPLE), "--json"])
    assert result.exit_code == 0, result.output
    return dict(json.loads(result.stdout))


def test_the_live_score_of_a_complete_board_is_risiko_score():
    result = preview(parse_state(json.dumps(_example_state()), SEATED), CLUB_MILANO)
    assert result.complete and result.held == 42
    expected = _risiko_score_json()["seats"]
    assert [s.score.to_dict() for s in result.seats if s.score] == expected
    assert [s.score.score for s in result.seats if s.score] == [66, 35, 40, 23, 21]
    assert [f.code for f in result.faults] == ["sheet.over_limit"]  # Dario: 124 > 120, -7
    assert not result.faults[0].is_error  # a warning (R5): the sheet can be saved


def test_an_incomplete_board_is_scored_seat_by_seat_with_its_faults():
    state = _example_state()
    del state["seats"][4]["armies"][str(parse_territory("Australia Orientale"))]
    state["seats"][1]["armies"][str(parse_territory("Alaska"))] = 3  # Bruno too
    state["seats"][2]["objective"] = 13  # Carla: Anna's objective
    state["seats"][3]["objective"] = None
    result = preview(parse_state(state, SEATED), CLUB_MILANO)
    assert not result.complete and result.sheet is None
    codes = sorted(f.code for f in result.faults)
    assert codes == ["sheet.missing_one", "sheet.no_objective", "sheet.objective_twice",
                     "sheet.over_limit", "sheet.territory_repeated"]
    messages = " / ".join(f.message("en") for f in result.faults)
    assert "Australia Orientale" in messages and "Anna and Bruno" in messages
    assert "Guerra Fredda" in messages and "Dario" in messages
    scores = {s.state.player: s.score.score if s.score else None for s in result.seats}
    assert scores["Anna"] == 66  # her own territories: unchanged
    assert scores["Dario"] is None  # no objective: no score yet
    # Elena lost Australia Orientale: Indonesia, Nuova Guinea, Australia Occidentale and Siam
    # are all in objective 1 (Letto), and Oceania is no longer hers: 4 x 4 = 16 (was 21)
    assert scores["Elena"] == 4 * 4
    assert result.fault_territories == sorted(
        [parse_territory("Australia Orientale"), parse_territory("Alaska")])


def test_bad_army_counts_are_faults():
    state = _example_state()
    state["seats"][0]["armies"]["0"] = "tre"
    state["seats"][0]["armies"]["1"] = 0
    result = preview(parse_state(state, SEATED), CLUB_MILANO)
    assert [f.code for f in result.faults if f.is_error] == ["sheet.armies_not_integer",
                                                           "sheet.armies_low"]
    assert result.faults[0].subjects == {"player": "Anna", "territory": "Alaska"}
    assert "Alaska" in result.fault_rows[0]["message"]


# ------------------------------------------------------------------ the pages (database)
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


def _args(table) -> list[Any]:
    return [table.evening.tournament.slug, "2027-03-02", table.number]


@pytest.mark.db
@pytest.mark.django_db
def test_anonymous_users_are_sent_to_login(client, referee, table):
    for name in ("board_entry", "closing_dice", "turn_clock"):
        url = reverse(name, args=_args(table))
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/?next=")
    for name in ("board_score", "board_save"):
        response = client.post(reverse(name, args=_args(table)), {"state": "{}"})
        assert response.status_code == 302 and "/login/" in response["Location"]
    assert TableResult.objects.count() == 0


@pytest.mark.db
@pytest.mark.django_db
def test_a_player_without_the_group_gets_403(client, referee, table):
    other = User.objects.create_user("giocatore", password="tavolo-rosso-42")
    client.force_login(other)
    assert client.get(reverse("board_entry", args=_args(table))).status_code == 403


@pytest.mark.db
@pytest.mark.django_db
def test_the_board_page_shows_the_seats_objectives_and_board(client, referee, table):
    client.force_login(referee)
    page = client.get(reverse("board_entry", args=_args(table)))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count('<g class="territory c') == 42
    for p in PLAYERS:
        assert f'data-player="{p}"' in html
    assert "13. Guerra Fredda" in html and "16. Tre in Europa" in html
    assert "tools/board.js" in html and 'id="board-initial"' in html
    assert "Fine partita: il tabellone" in html  # Italian by default
    assert "Egitto" in html
    assert html.count('data-a="21" data-b="35"') == 0  # club-milano: no Egitto - Medio Oriente


@pytest.mark.db
@pytest.mark.django_db
def test_the_score_endpoint_returns_the_breakdown(client, referee, table):
    client.force_login(referee)
    url = reverse("board_score", args=_args(table))
    state = json.dumps(_example_state())
    doc = client.post(url, {"state": state}, headers={"Accept": "application/json"}).json()
    assert doc["complete"] is True
    assert [s["score"] for s in doc["seats"]] == _risiko_score_json()["seats"]
    fragment = client.post(url, {"state": state}, headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert "<strong>66</strong>" in html and "<strong>23</strong>" in html
    assert "124" in html and "R5" in html
    empty = client.post(url, {"state": "{}"}).content.decode()
    assert "mancano 42 territori (nessun posto li occupa)" in empty
    assert 'data-complete="0"' in empty


@pytest.mark.db
@pytest.mark.django_db
def test_saving_a_complete_board_writes_the_result_through_the_service(client, referee, table):
    client.force_login(referee)
    response = client.post(reverse("board_save", args=_args(table)),
                           {"state": json.dumps(_example_state())})
    assert response.status_code == 302
    assert response["Location"] == reverse("board_entry", args=_args(table))
    result = TableResult.objects.get(table=table)
    assert result.entered_by == WHO and not result.superseded
    assert [s["player"] for s in result.sheet["seats"]] == PLAYERS
    assert result.sheet["seats"][0]["armies"]["Alaska"] == 12
    assert AuditEntry.objects.filter(action="enter result", who=WHO).count() == 1
    # the page now starts from the saved board
    html = client.get(reverse("board_entry", args=_args(table))).content.decode()
    assert '"0": 12' in html
    assert 'data-complete="1"' in html


@pytest.mark.db
@pytest.mark.django_db
def test_an_incomplete_board_writes_nothing(client, referee, table):
    client.force_login(referee)
    state = _example_state()
    del state["seats"][0]["armies"]["0"]
    response = client.post(reverse("board_save", args=_args(table)), {"state": json.dumps(state)})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Non salvato" in html and "Alaska" in html
    assert TableResult.objects.count() == 0
    assert not AuditEntry.objects.filter(action="enter result").exists()


@pytest.mark.db
@pytest.mark.django_db
def test_abandoned_seat_is_saved_with_zero(client, referee, table):
    client.force_login(referee)
    state = _example_state()
    state["seats"][4]["abandoned"] = True
    assert client.post(reverse("board_save", args=_args(table)),
                       {"state": json.dumps(state)}).status_code == 302
    result = TableResult.objects.get(table=table)
    assert result.abandoned == ["Elena"]
    assert result.sheet["seats"][4]["abandoned"] is True


@pytest.mark.db
@pytest.mark.django_db
def test_unknown_table_is_404(client, referee, table):
    client.force_login(referee)
    slug = table.evening.tournament.slug
    assert client.get(reverse("board_entry", args=[slug, "2027-03-09", 1])).status_code == 404
    assert client.get(reverse("board_entry", args=[slug, "2027-03-02", 7])).status_code == 404
    assert client.get(f"/strumenti/tavolo/{slug}/not-a-date/1/tabellone/").status_code == 404


@pytest.mark.db
@pytest.mark.django_db
def test_csrf_is_required_on_every_post(referee, table):
    client = Client(enforce_csrf_checks=True)
    client.force_login(referee)
    state = json.dumps(_example_state())
    for name, data in [("board_score", {"state": state}), ("board_save", {"state": state}),
                       ("closing_dice", {"action": "widen", "reason": "x"}),
                       ("turn_clock", {"on": "1"})]:
        url = reverse(name, args=_args(table))
        assert client.post(url, data).status_code == 403, name
    assert TableResult.objects.count() == 0
    # with the token (as htmx sends it, in the X-CSRFToken header) the same POST goes through
    page = client.get(reverse("board_entry", args=_args(table)))
    token = re.search(r'"X-CSRFToken": "([^"]+)"', page.content.decode()).group(1)
    ok = client.post(reverse("board_score", args=_args(table)), {"state": state},
                     headers={"X-CSRFToken": token})
    assert ok.status_code == 200
