"""The club tournament domain, pure Python on top of the game library (no Django).

Modules: :mod:`.model` (the recorded facts), :mod:`.dates` (evening dates and the clock),
:mod:`.schedule` (R3 arrivals, the evening's times), :mod:`.format` (formats and their
parameters), :mod:`.seating` (tables of 5 and 4, the seating optimiser), :mod:`.standings` (the
general ranking: metrics and tie-breaks), :mod:`.finals` (R18 semifinal and final, and other
clubs' formats), :mod:`.checks` (faults of the facts), :mod:`.season` (the season file),
:mod:`.commands` (every change to the facts, checked and applied).

Dependency rule: imports the game library only (``risiko.ruleset``, ``risiko.sheet``).
"""

from __future__ import annotations

from .checks import tournament_faults
from .dates import clock_name, parse_clock
from .finals import CutError, Stages, compute_stages
from .format import TournamentFormat, get_format
from .model import (
    Appeal,
    Arrival,
    CarryOver,
    Discipline,
    Draw,
    Evening,
    Penalty,
    Player,
    Table,
    Tournament,
)
from .schedule import ArrivalRuling, Schedule, classify_arrival
from .season import SeasonError, dump_season, load_season, parse_season, season_report
from .seating import Seating, SeatingError, seat_players, swap_seats, table_sizes
from .standings import METRICS, Standings, compute_standings

__all__ = [
    "METRICS",
    "Appeal",
    "Arrival",
    "ArrivalRuling",
    "CarryOver",
    "CutError",
    "Discipline",
    "Draw",
    "Evening",
    "Penalty",
    "Player",
    "Schedule",
    "SeasonError",
    "Seating",
    "SeatingError",
    "Stages",
    "Standings",
    "Table",
    "Tournament",
    "TournamentFormat",
    "classify_arrival",
    "clock_name",
    "compute_stages",
    "compute_standings",
    "dump_season",
    "get_format",
    "load_season",
    "parse_clock",
    "parse_season",
    "season_report",
    "seat_players",
    "swap_seats",
    "table_sizes",
    "tournament_faults",
]
