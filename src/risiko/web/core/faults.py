"""The faults of the web services (codes ``service.*``) and :class:`ServiceError`.

The faults of a change to a tournament are its command's
(:mod:`risiko.tournament.commands`: the one check of every door); those here are the
database's own (what a column can store, a lookup, a conflict, a merge of two players).

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

from risiko.faults import Fault, FaultKind, RisikoError, define

__all__ = ["ServiceError", "as_faults"]


def _k(code: str, template: str, clause: str = "") -> FaultKind:
    return define(f"service.{code}", clause, template)


TEXT = _k("text", "{text}")

# lookups
NO_TOURNAMENT = _k("no_tournament", "no tournament '{key}' (known: {known})")
NOT_A_PLAYER = _k("not_a_player", "{tournament}: '{player}' is not a player of this tournament")

# tournaments and players
TOURNAMENT_NAME_MISSING = _k("tournament_name_missing", "a tournament needs a name")
TOURNAMENT_EXISTS = _k("tournament_exists", "a tournament named '{tournament}' exists already")
FORMAT_COMMITTEE = _k("format_committee", "{tournament} has evenings already: only the "
                      "committee changes its format")
FORMAT_REASON = _k("format_reason", "{tournament} has evenings already: say why its format "
                   "changes")
FORMAT_CHANGED = _k("format_changed", "the format of {tournament} was changed meanwhile by "
                    "another request: compare again")
PLAYER_TWIN = _k("player_twin", "{tournament}: '{player}' differs from the player '{twin}' "
                 "only in how it is written: use the same name")
MERGE_SAME = _k("merge_same", "'{player}' and '{other}' are the same player")
MERGE_BOTH_ARRIVED = _k("merge_both_arrived", "'{player}' and '{other}' both arrived on "
                        "evening {evening}: correct one arrival first")
MERGE_BOTH_SEATED = _k("merge_both_seated", "'{player}' and '{other}' are both seated on "
                       "evening {evening}: change the seating first")
MERGE_BOTH_CARRY = _k("merge_both_carry", "'{player}' and '{other}' both have a carry-over "
                      "(R17) in {tournament}: correct one first", "R17")

# evenings and arrivals
BAD_TIME = _k("bad_time", "evening {evening}, {player}: {error}")

# seating
TOO_FEW_TABLES = _k("too_few_tables", "evening {evening}: has {tables} tables; give at least "
                    "as many")

# results
SHEET_FAULT = _k("sheet_fault", "evening {evening}, table {table}: {text}")
NO_RESULT_YET = _k("no_result_yet", "evening {evening}, table {table}: enter the table's "
                   "result before marking who left", "R13")

# penalties, appeals, discipline
ALREADY_VOIDED = _k("already_voided", "penalty {penalty} is already voided")
APPEAL_VOIDED = _k("appeal_voided", "penalty {penalty} was voided: there is nothing to appeal")

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
#: a correction (an arrival or a result replacing one) must say why (issue 18 §3)
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
