"""One write path: every database write is its command's check, then the rows.

The services used to check an evening again after writing it (``check_evening``); now they
refuse only what :func:`risiko.tournament.commands.check` refuses before writing. What makes
that safe is this property: after any sequence of commands, accepted or refused, the stored
tournament has no fault (``checked(load_tournament(t))``: the regulation's checks and the
stages). Runs on SQLite, and on PostgreSQL with ``-m db``.
"""

from __future__ import annotations

import contextlib
import itertools
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from risiko.faults import _ALIASES as ALIASES
from risiko.faults import Fault, aliases_of, kind_of
from risiko.tournament.commands import checked
from risiko.web import selectors, services
from risiko.web.results.selectors import seated

pytestmark = [pytest.mark.db, pytest.mark.django_db]

WHO = "arbitro"
NAMES = ["Alba", "Bice", "Ciro", "Dora", "Ezio", "Fede", "Gino", "Ivo", "Lia"]
DATES = ["2027-03-02", "2027-03-09"]
TIMES = ["21:00", "21:10", "21:15", "21:25", "21:40"]  # on time, late, late, excluded...

name = st.sampled_from([*NAMES, "alba", "Zeno"])
date = st.sampled_from(DATES)
commands = st.one_of(
    st.tuples(st.just("open"), date),
    st.tuples(st.just("arrive"), date, name, st.sampled_from(TIMES), st.booleans()),
    st.tuples(st.just("seat"), date, st.integers(0, 3)),
    st.tuples(st.just("by_hand"), date, st.permutations(NAMES), st.integers(3, 6)),
    st.tuples(st.just("swap"), date, name, name),
    st.tuples(st.just("scores"), date, st.integers(1, 3),
              st.lists(st.integers(-2, 110), min_size=5, max_size=5), st.booleans()),
    st.tuples(st.just("penalty"), date, name, st.integers(-12, 1),
              st.sampled_from(["table", "ranking"])),
    st.tuples(st.just("discipline"), date, name,
              st.sampled_from(["warning", "table", "tournament", "expelled"]),
              st.one_of(st.none(), st.integers(1, 3))),
    st.tuples(st.just("carry"), name, st.integers(0, 30)),
    st.tuples(st.just("draw"), st.sampled_from(["semifinal", "final", "qualifying"]),
              st.lists(name, min_size=1, max_size=3)),
    st.tuples(st.just("appeal"), st.sampled_from(["upheld", "reduced", "annulled", "x"]),
              st.integers(-12, 1)),
    st.tuples(st.just("abandon"), date, st.integers(1, 2), name),
)


def _run(t, cmd) -> None:
    kind, *args = cmd
    if kind == "open":
        services.open_evening(t, args[0], who=WHO)
        return
    if kind == "carry":
        services.set_carry_over(t, args[0], args[1], referee="R", who=WHO)
        return
    if kind == "draw":
        services.record_draw(t, args[0], args[1], referee="R", who=WHO)
        return
    if kind == "appeal":
        from risiko.web.results.models import Penalty

        pen = Penalty.objects.filter(evening__tournament=t).order_by("-pk").first()
        if pen is not None:
            services.decide_appeal(pen, args[0], points=args[1], referee="R", who=WHO)
        return
    e = services.get_evening(t, args[0])
    if kind == "arrive":
        services.record_arrival(e, args[1], args[2], phoned=args[3], who=WHO)
    elif kind == "seat":
        services.seat_evening(e, seed=args[1], who=WHO)
    elif kind == "by_hand":
        order, size = args[1], args[2]
        services.set_tables(e, [order[i:i + size] for i in range(0, len(order), size)],
                            who=WHO)
    elif kind == "swap":
        services.swap_seats(e, args[1], args[2], who=WHO)
    elif kind == "scores":
        table = services.get_table(e, args[1])
        seats = seated(table)
        scores = dict(zip(seats, args[2], strict=False))
        services.enter_scores(table, scores, risiko=[seats[0]] if args[3] else [], who=WHO)
    elif kind == "penalty":
        services.add_penalty(e, args[1], args[2], unit=args[3], reason="x", referee="R",
                             who=WHO)
    elif kind == "abandon":
        services.mark_abandoned(services.get_table(e, args[1]), args[2], who=WHO)
    elif kind == "discipline":
        services.add_discipline(e, args[1], args[2], reason="x", referee="R",
                                table_number=args[3], who=WHO)


def test_after_every_command_the_stored_tournament_has_no_fault():
    numbers = itertools.count(1)  # a new tournament per example (facts are never deleted)

    @settings(max_examples=40, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow,
                                     HealthCheck.function_scoped_fixture])
    @given(st.lists(commands, min_size=1, max_size=25))
    def run_sequence(sequence):
        t = services.create_tournament(f"Proprietà {next(numbers)}", who=WHO)
        services.add_players(t, NAMES, who=WHO)
        for cmd in sequence:
            with contextlib.suppress(services.ServiceError):  # refused: nothing written
                _run(t, cmd)
            checked(selectors.load_tournament(t))  # raises with every fault let through

    run_sequence()


@pytest.mark.parametrize("old", sorted(ALIASES))
def test_an_old_code_is_an_alias_of_one_kind_and_said_in_the_json(old):
    """The codes the JSON contracts showed (``risiko tournament --json``, the public API)
    before the season file's and the database's checks became one: each names the one
    kind, is no kind of its own, appears in that kind's JSON ``aliases`` and reads back."""
    kind = kind_of(old)
    assert kind.code != old and kind.code.startswith("tournament.")
    assert old in aliases_of(kind.code)
    fault = kind({"player": "Alba"}, **{f: ["x"] for f in re.findall(r"\{(\w+)", kind.template)
                                        if f != "player"})
    data = fault.to_dict()
    assert data["code"] == kind.code and old in data["aliases"]
    assert Fault.from_dict({**data, "code": old}).code == kind.code


@pytest.mark.parametrize(("parameter", "value"), [("win_bonus", 1e30), ("win_bonus", -5),
                                                  ("divisor", 0)])
def test_a_format_parameter_out_of_range_is_refused_at_the_database_doors(parameter, value):
    """Creating a tournament, changing its format (the console's compare and apply) and
    importing a season file: a fault naming the parameter, never a 500."""
    formula = "thousandths" if parameter == "divisor" else "win_bonus"
    fmt = {"name": "prova", "ranking_points": {"formula": formula, parameter: value}}
    t = services.create_tournament("Formati", who=WHO)
    doors = [lambda: services.create_tournament("Altro", format=fmt, who=WHO),
             lambda: services.set_format(t, fmt, committee=True, reason="x", who=WHO),
             lambda: services.import_season({"name": "S", "ruleset": "club-milano",
                                             "format": fmt, "players": ["Alba"]}, who=WHO)]
    for door in doors:
        with pytest.raises(services.ServiceError) as err:
            door()
        faults = [f for f in err.value.faults if f.code == "format.bad_ranking_parameter"]
        assert faults and faults[0].params["parameter"] == parameter, err.value.faults


def test_an_appeal_is_checked_against_its_own_penalty():
    """The command numbers penalties as the season file does (each evening's table
    penalties, then its ranking penalties); the database finds its penalty's number so: a
    ranking penalty of -10 entered first, a table penalty of -3, a ranking one of -6. Reduced
    to -8: within -10 < -8 <= 0 for the first, outside -6 < x <= 0 for the third."""
    t = services.create_tournament("Ricorsi", who=WHO)
    services.add_players(t, NAMES[:5], who=WHO)
    e = services.open_evening(t, DATES[0], who=WHO)
    services.set_tables(e, [NAMES[:5]], who=WHO)
    first = services.add_penalty(e, "Alba", -10, unit="ranking", reason="x", referee="R",
                                 who=WHO)
    services.add_penalty(e, "Bice", -3, unit="table", reason="x", referee="R", who=WHO)
    third = services.add_penalty(e, "Ciro", -6, unit="ranking", reason="x", referee="R",
                                 who=WHO)
    services.decide_appeal(first, "reduced", points=-8, referee="R", who=WHO)
    with pytest.raises(services.ServiceError) as err:
        services.decide_appeal(third, "reduced", points=-8, referee="R", who=WHO)
    assert err.value.fault.code == "tournament.appeal_range"
    assert (err.value.fault.subjects["player"], err.value.fault.params["points"]) == ("Ciro", -6)
