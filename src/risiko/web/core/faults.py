"""The faults of the web services (codes ``service.*``) and :class:`ServiceError`.

A refused change raises :class:`ServiceError`, a :class:`risiko.faults.RisikoError` holding
:class:`risiko.faults.Fault` values: the console shows ``fault.message(get_language())``, the
command line prints ``error.messages()``, and nobody reads the words to decide anything (the
code, the clause and the subjects ``player``, ``table``, ``evening``, ``field`` say what it is
about). Faults of the library (a sheet, a season file, the tournament checks) pass through
unchanged. Words: ``risiko/locale/{it,en}/LC_MESSAGES/service.po``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from risiko.faults import Fault, FaultKind, RisikoError, define, define_words

__all__ = ["ServiceError", "as_faults"]


def _k(code: str, template: str, clause: str = "") -> FaultKind:
    return define(f"service.{code}", clause, template)


TEXT = _k("text", "{text}")

# lookups
NO_TOURNAMENT = _k("no_tournament", "no tournament '{key}' (known: {known})")
define_words("known", ("none yet",))  # no tournament at all: said in the message's language
NO_EVENING = _k("no_evening", "{tournament}: no evening on {evening} (evenings: {dates})")
NO_TABLE = _k("no_table", "evening {evening}: no table {table}")
NOT_A_PLAYER = _k("not_a_player", "{tournament}: '{player}' is not a player of this tournament")
BAD_DATE = _k("bad_date", "'{value}' is not a date (YYYY-MM-DD)")

# tournaments and players
TOURNAMENT_NAME_MISSING = _k("tournament_name_missing", "a tournament needs a name")
TOURNAMENT_EXISTS = _k("tournament_exists", "a tournament named '{tournament}' exists already")
BAD_FORMAT = _k("bad_format", "the ruleset or format is refused: {error}")
FORMAT_COMMITTEE = _k("format_committee", "{tournament} has evenings already: only the "
                      "committee changes its format")
FORMAT_REASON = _k("format_reason", "{tournament} has evenings already: say why its format "
                   "changes")
FORMAT_CHANGED = _k("format_changed", "the format of {tournament} was changed meanwhile by "
                    "another request: compare again")
PLAYER_NAME_MISSING = _k("player_name_missing", "a player needs a name")
PLAYER_TWIN = _k("player_twin", "{tournament}: '{player}' differs from the player '{twin}' "
                 "only in how it is written: use the same name")
BAD_STAGE = _k("bad_stage", "stage is one of {stages}, not '{stage}'")
DRAW_PLAYERS = _k("draw_players", "a draw orders at least 2 different players", "R18")
MERGE_SAME = _k("merge_same", "'{player}' and '{other}' are the same player")
MERGE_BOTH_ARRIVED = _k("merge_both_arrived", "'{player}' and '{other}' both arrived on "
                        "evening {evening}: correct one arrival first")
MERGE_BOTH_SEATED = _k("merge_both_seated", "'{player}' and '{other}' are both seated on "
                       "evening {evening}: change the seating first")
MERGE_BOTH_CARRY = _k("merge_both_carry", "'{player}' and '{other}' both have a carry-over "
                      "(R17) in {tournament}: correct one first", "R17")

# evenings and arrivals
EVENING_EXISTS = _k("evening_exists", "{tournament}: there is already an evening on {evening}")
BAD_SCHEDULE = _k("bad_schedule", "evening {evening}: {error}")
BAD_TIME = _k("bad_time", "evening {evening}, {player}: {error}")

# seating
ALREADY_SEATED = _k("already_seated", "evening {evening} is already seated: swap players or "
                    "seat it by hand")
CANNOT_SEAT = _k("cannot_seat", "evening {evening}: {error}")
TABLE_SIZE = _k("table_size", "evening {evening}: table {table} has {seats} seats (3..6)")
SEATED_TWICE = _k("seated_twice", "evening {evening}: {player} is seated twice")
TOO_FEW_TABLES = _k("too_few_tables", "evening {evening}: has {tables} tables; give at least "
                    "as many")
NOT_SEATED = _k("not_seated", "evening {evening}: {player} is not seated")
TABLE_HAS_RESULT = _k("table_has_result", "evening {evening}: table {table} has a result; "
                      "seats cannot change")
SWAP_SAME = _k("swap_same", "choose two different players")

# results
SHEET_FAULT = _k("sheet_fault", "evening {evening}, table {table}: {text}")
SHEET_NOT_SEATED = _k("sheet_not_seated", "evening {evening}, table {table}: {player} is in "
                      "the sheet but not seated at this table")
SHEET_MISSING_SEAT = _k("sheet_missing_seat", "evening {evening}, table {table}: {player} is "
                        "seated but missing from the sheet")
LEFT_NOT_SEATED = _k("left_not_seated", "evening {evening}, table {table}: {player} left the "
                     "game but is not seated here", "R13")
SCORE_NOT_SEATED = _k("score_not_seated", "evening {evening}, table {table}: {player} has a "
                      "score but is not seated at this table")
SCORE_NOT_WHOLE = _k("score_not_whole", "evening {evening}, table {table}: {player}'s score "
                     "must be a whole number, not {value}")
NO_SCORE = _k("no_score", "evening {evening}, table {table}: no score for {player}")
SCORE_ABOVE_MAX = _k("score_above_max", "evening {evening}, table {table}: {player} scores "
                     "{score}, above the maximum table score of {maximum} (R1)", "R1")
SCORE_NEGATIVE = _k("score_negative", "evening {evening}, table {table}: {player} scores "
                    "{score}: a table score is 0 or more", "R1")
LEFT_BUT_SCORES = _k("left_but_scores", "evening {evening}, table {table}: {player} left the "
                     "game (R13) but scores {score}: a seat that leaves scores 0", "R13")
RISIKO_NOT_SEATED = _k("risiko_not_seated", "evening {evening}, table {table}: {player} "
                       "completed the objective but is not seated here", "R1")
RISIKO_SCORE = _k("risiko_score", "evening {evening}, table {table}: {player} completed the "
                  "objective: the score is {maximum}", "R1")
NO_RESULT_YET = _k("no_result_yet", "evening {evening}, table {table}: enter the table's "
                   "result before marking who left", "R13")
NOT_SEATED_HERE = _k("not_seated_here", "evening {evening}, table {table}: {player} is not "
                     "seated here")

# penalties, appeals, discipline
PENALTY_UNIT = _k("penalty_unit", "a penalty is in 'table' or 'ranking' points, not '{unit}'")
PENALTY_NOT_NEGATIVE = _k("penalty_not_negative", "evening {evening}, {player}: a penalty is "
                          "negative points, not {points}")
PENALTY_REASON = _k("penalty_reason", "evening {evening}, {player}: a penalty needs a reason")
PENALTY_NO_TABLE = _k("penalty_no_table", "evening {evening}: {player} is not seated at a table")
ALREADY_VOIDED = _k("already_voided", "penalty {penalty} is already voided")
APPEAL_OUTCOME = _k("appeal_outcome", "an appeal is {outcomes}, not '{outcome}'")
APPEAL_REDUCED = _k("appeal_reduced", "a reduced penalty is between {low} and 0 points")
APPEAL_REDUCED_TO = _k("appeal_reduced_to", "a reduced penalty is between {low} and 0 points, "
                       "not {points}")
APPEAL_VOIDED = _k("appeal_voided", "penalty {penalty} was voided: there is nothing to appeal")
DISCIPLINE_LEVEL = _k("discipline_level", "a disciplinary record is {levels}, not '{level}'",
                      "R10")
VOID_REASON = _k("void_reason", "say why it is voided")

# stages
STAGE_KIND = _k("stage_kind", "only the semifinal or the final is seated from the ranking, "
                "not '{stage}'", "R18")
SEMIFINAL_NOT_READY = _k("semifinal_not_ready", "{tournament}: the semifinal cannot be seated "
                         "yet", "R18")
FINAL_NOT_READY = _k("final_not_ready", "{tournament}: the final cannot be seated yet", "R18")
NOT_ENOUGH_RESULTS = _k("not_enough_results", "not enough results yet", "R18")

# what is stored can always be read
NOT_TEXT = _k("not_text", "{field}: text expected, not {value}")
TOO_LONG = _k("too_long", "{field}: at most {limit} characters, not {length}")
NUL = _k("nul", "{field}: contains a NUL character, which cannot be stored")
NOT_WHOLE = _k("not_whole", "{field}: a whole number expected, not {value}")
MISSING_FIELD = _k("missing_field", "{field}: missing (a value is needed)")
OUT_OF_RANGE = _k("out_of_range", "{field}: {value} is outside {low}..{high}")
TOO_DEEP = _k("too_deep", "{field}: nested deeper than {limit} levels")
NOT_JSON = _k("not_json", "{field}: not valid JSON ({error})")
TOO_BIG = _k("too_big", "{field}: {size} bytes, more than the limit of {limit} bytes")
CORRECTION_REASON = _k("correction_reason", "{field}: say why it is corrected")

# the database's last line: a write refused by a constraint
_AGAIN = "was changed at the same moment by another request: reload the page and check it"
CONFLICT = _k("conflict", f"this record {_AGAIN}")
CONFLICT_ARRIVAL = _k("conflict_arrival", f"this arrival {_AGAIN}")
CONFLICT_RESULT = _k("conflict_result", f"this table's result {_AGAIN}")
CONFLICT_APPEAL = _k("conflict_appeal", f"this appeal {_AGAIN}")
CONFLICT_CARRY_OVER = _k("conflict_carry_over", f"this carry-over {_AGAIN}")
CONFLICT_DRAW = _k("conflict_draw", f"this draw of lots {_AGAIN}")
CONFLICT_SEATING = _k("conflict_seating", f"the seating {_AGAIN}")
CONFLICT_EVENING = _k("conflict_evening", f"this evening {_AGAIN}")
CONFLICT_PLAYERS = _k("conflict_players", f"the players {_AGAIN}")
CONFLICT_FIRST_ACCOUNT = _k("conflict_first_account", "the first account was created at the "
                            "same moment by another request: log in with it")


class ServiceError(RisikoError):
    """A change refused: one or more :class:`~risiko.faults.Fault` values (codes
    ``service.*``, or the library's own). A plain string is taken as one ``service.text``
    fault (kept for callers that have only words)."""

    def __init__(self, *faults: Fault | str | Sequence[Fault]) -> None:
        flat: list[Fault] = []
        for f in faults:
            if isinstance(f, str):
                flat.extend(TEXT(text=line) for line in (f.splitlines() or [f]))
            elif isinstance(f, Fault):
                flat.append(f)
            else:
                flat.extend(f)
        super().__init__(*flat)


def as_faults(items: Iterable[Any], **subjects: Any) -> list[Fault]:
    """Faults from what the library gives: Fault values as they are (with ``subjects`` added
    where they name none), strings as ``service.text`` faults naming ``subjects``."""
    out: list[Fault] = []
    for item in items:
        if isinstance(item, Fault):
            extra = {k: v for k, v in subjects.items() if k not in item.subjects}
            out.append(Fault(item.code, item.clause, {**item.subjects, **extra}, item.params,
                             item.severity) if extra else item)
        else:
            out.append(TEXT(dict(subjects), text=str(item)))
    return out


def error_faults(err: Exception, **subjects: Any) -> list[Fault]:
    """The faults of a library error: its own (a RisikoError), else its text as one."""
    if isinstance(err, RisikoError):
        return as_faults(err.faults, **subjects)
    faults = getattr(err, "faults", None)
    if faults:
        return as_faults(faults, **subjects)
    return as_faults([str(err)], **subjects)
