"""R3 arrivals: every edge minute, with and without a phone notice; the final's schedule."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from risiko.ruleset import CLASSIC, CLUB_MILANO
from risiko.tournament.dates import clock_name, parse_clock
from risiko.tournament.schedule import Schedule, classify_arrival, minute_of, schedule_for


@pytest.mark.parametrize(
    ("at", "phoned", "expected", "turns"),
    [
        ("20:45", False, "on_time", 0),
        ("21:10", False, "on_time", 0),
        ("21:10", True, "on_time", 0),
        ("21:10:59", False, "on_time", 0),  # seconds dropped
        ("21:11", False, "late", 3),
        ("21:11", True, "late", 3),  # reading: the phone call does not waive the penalty
        ("21:20", False, "late", 3),
        ("21:20", True, "late", 3),
        ("21:20:59", False, "late", 3),
        ("21:21", False, "excluded", 0),
        ("21:21", True, "late", 3),  # phone notice made by 21:10: admitted, penalised
        ("21:30", False, "excluded", 0),
        ("21:30", True, "late", 3),
        ("21:30:59", True, "late", 3),
        ("21:31", False, "excluded", 0),
        ("21:31", True, "excluded", 0),
        ("23:59", True, "excluded", 0),
        ("00:05", False, "excluded", 0),  # after midnight, not before the evening
    ],
)
def test_r3_edges(at: str, phoned: bool, expected: str, turns: int) -> None:
    ruling = classify_arrival(CLUB_MILANO, at, phoned)
    assert (ruling.arrival_class, ruling.penalty_turns) == (expected, turns)
    assert ruling.admitted == (expected != "excluded")
    assert "R3" in ruling.reason


@pytest.mark.parametrize(
    ("at", "phoned", "expected"),
    [
        ("20:20", False, "on_time"),
        ("20:21", False, "late"),
        ("20:30", False, "late"),
        ("20:31", False, "excluded"),
        ("20:31", True, "late"),
        ("20:40", True, "late"),
        ("20:41", True, "excluded"),
        ("21:05", False, "excluded"),  # on time for an ordinary evening, not for the final
    ],
)
def test_final_schedule_is_50_minutes_earlier(at: str, phoned: bool, expected: str) -> None:
    assert classify_arrival(CLUB_MILANO, at, phoned, stage="final").arrival_class == expected


def test_final_schedule_fields() -> None:
    final = schedule_for(CLUB_MILANO, "final").to_dict()
    assert final == {
        "on_time_until": "20:20", "late_until": "20:30", "phoned_until": "20:40",
        "phone_notice_by": "20:20", "phone_notice_waives_penalty_until": None,
        "tables_formed_at": "20:30", "last_rounds_call_at": "22:40", "late_penalty_turns": 3,
    }
    assert schedule_for(CLUB_MILANO).to_dict()["tables_formed_at"] == "21:20"
    assert schedule_for(CLUB_MILANO, "semifinal") == schedule_for(CLUB_MILANO)


def test_phone_notice_after_the_deadline_does_not_count() -> None:
    r = classify_arrival(CLUB_MILANO, "21:25", True, phoned_at="21:12")
    assert r.arrival_class == "excluded" and not r.phoned
    assert "21:12" in r.reason
    assert classify_arrival(CLUB_MILANO, "21:25", True, phoned_at="21:10").arrival_class == "late"


def test_waiver_parameter() -> None:
    rs = CLUB_MILANO.with_changes(phone_notice_waives_penalty_until="21:20")
    assert classify_arrival(rs, "21:15", True).arrival_class == "on_time"
    assert classify_arrival(rs, "21:15", False).arrival_class == "late"
    assert classify_arrival(rs, "21:25", True).penalty_turns == 3


def test_classic_ruleset_has_no_penalty_turns() -> None:
    assert classify_arrival(CLASSIC, "21:15").penalty_turns == 0


def test_evening_schedule_override() -> None:
    s = Schedule().with_times({"on_time_until": "21:00", "late_until": "21:05"})
    assert classify_arrival(s, "21:03").arrival_class == "late"
    assert classify_arrival(s, "21:06").arrival_class == "excluded"
    with pytest.raises(ValueError, match="unknown schedule field"):
        Schedule().with_times({"start": "21:00"})


def test_time_forms() -> None:
    assert minute_of("21.10") == parse_clock("21:10") == 21 * 60 + 10
    assert minute_of(dt.time(21, 10, 59)) == 1270
    assert minute_of(dt.datetime(2027, 3, 2, 21, 10, 30)) == 1270  # naive = local
    # aware: converted to Europe/Rome (UTC+1 in March, UTC+2 in summer)
    assert minute_of(dt.datetime(2027, 3, 2, 20, 10, tzinfo=dt.UTC)) == 1270
    assert minute_of(dt.datetime(2027, 7, 6, 19, 10, tzinfo=dt.UTC)) == 1270
    assert minute_of(dt.datetime(2027, 7, 6, 21, 10, tzinfo=ZoneInfo("Europe/Rome"))) == 1270
    assert minute_of("00:05") == 24 * 60 + 5
    assert clock_name(24 * 60 + 5) == "00:05"


@pytest.mark.parametrize("bad", ["", "21", "25:00", "21:60", "ab:cd", "21:10:61", "9:15",
                                 "13 pm"])
def test_bad_times(bad: str) -> None:
    with pytest.raises(ValueError):
        classify_arrival(CLUB_MILANO, bad)


def test_json_form() -> None:
    """The contract's fields, and the sibling list ``faults``: the note as a value."""
    data = classify_arrival(CLUB_MILANO, "21:26", True).to_dict()
    faults = data.pop("faults")
    assert data == {
        "class": "late", "penalty_turns": 3, "at": "21:26", "phoned": True,
        "reason": "phone notice made by 21:10: admitted up to 21:30 with 3 penalty turns (R3)",
    }
    assert faults == [{
        "code": "arrival.late_phoned", "clause": "R3", "severity": "warning", "subjects": {},
        "params": {"on_time": "21:10", "late_until": "21:20", "phoned_until": "21:30",
                   "notice_by": "21:10", "turns": 3},
        "message": data["reason"]}]


@pytest.mark.parametrize("text", ["21:15", "21.15", "21h15", "21H15", "9:15 pm", "9:15pm",
                                  "9.15 P.M.", "2115", " 21:15 ", "21:15:59"])
def test_times_as_referees_write_them(text: str) -> None:
    """Every spelling is 21:15 (seconds dropped, R3)."""
    assert parse_clock(text) == 21 * 60 + 15


def test_a_bare_morning_hour_in_an_evening_is_refused_with_the_evening_time() -> None:
    from risiko.faults import InvalidInputError

    for text, hint in (("9:15", "21:15"), ("915", "21:15"), ("8.05", "20:05"),
                       ("09:15", "21:15")):  # a browser's time field sends 09:15
        with pytest.raises(InvalidInputError) as e:
            parse_clock(text)
        assert e.value.fault.code == "time.morning"
        assert e.value.fault.message("en").endswith(f"did you mean {hint}?")
        assert e.value.fault.message("it").endswith(f"intendevi {hint}?")
    # written on purpose with am; a stored HH:MM read as it is
    assert parse_clock("9:15 am") == parse_clock("09:15", evening=False) == 9 * 60 + 15
    assert parse_clock("12 am") == 24 * 60 and parse_clock("12:30 pm") == 12 * 60 + 30
    assert parse_clock("00:05") == 24 * 60 + 5
