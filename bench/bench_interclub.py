"""Benchmark of issue 21's interclub weekend and the register's possible duplicates (figures
in docs/benchmarks.md; not a timed test).

- ``seating``: a team weekend of ``CLUBS`` (30) clubs x 4 fielded players, 3 rounds, each
  round seated by :func:`risiko.national.interclub.seat_round` with the meetings of the
  rounds before (fewest repeated opponents); the goal: under a second with 0 same-club
  tables (checked, and the repeated meetings counted);
- ``duplicates``: :func:`risiko.national.duplicates.possible_duplicates` over a register of
  ``PLAYERS`` (1,300) synthetic players (Italian first names and surnames, a variant letter
  on half the surnames, 30 % without a birth date), RisiKoDataManager's rule.

Each figure is the best and the median of ``RUNS`` (5) CPU times (``time.process_time``).
Run: ``.venv/bin/python bench/bench_interclub.py [seating|duplicates]`` (both by default);
under ``valgrind --tool=cachegrind --cache-sim=no`` give one part and ``RUNS=1``.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from datetime import date

from risiko.national.duplicates import Candidate, possible_duplicates
from risiko.national.interclub import seat_round

CLUBS, FIELDED, ROUNDS, PLAYERS = 30, 4, 3, 1300
RUNS = int(os.environ.get("RUNS", "5"))
NAMES = ["Mario", "Luca", "Marco", "Paolo", "Anna", "Giulia", "Sara", "Andrea", "Francesco",
         "Alessandro", "Matteo", "Davide", "Simone", "Federico", "Chiara", "Elena", "Laura",
         "Roberto", "Stefano", "Giorgio", "Valentina", "Silvia", "Lorenzo", "Riccardo",
         "Gabriele", "Emanuele", "Daniele", "Fabio", "Massimo", "Claudio"]
SURNAMES = ["Rossi", "Russo", "Ferrari", "Esposito", "Bianchi", "Romano", "Colombo", "Ricci",
            "Marino", "Greco", "Bruno", "Gallo", "Conti", "De Luca", "Mancini", "Costa",
            "Giordano", "Rizzo", "Lombardi", "Moretti", "Barbieri", "Fontana", "Santoro",
            "Mariani", "Rinaldi", "Caruso", "Ferrara", "Galli", "Martini", "Leone", "Longo",
            "Gentile", "Martinelli", "Vitale", "Lombardo", "Serra", "Coppola", "De Santis",
            "D'Angelo", "Marchetti", "Parisi", "Villa", "Conte", "Ferraro", "Ferri", "Fabbri",
            "Bianco", "Marini", "Grasso", "Valentini"]


def weekend() -> tuple[int, int]:
    """Seat the 3 rounds; (same-club tables, pairs that met twice)."""
    fielded = [(f"c{c}p{i}", f"club{c}") for c in range(CLUBS) for i in range(FIELDED)]
    club = dict(fielded)
    met: dict[frozenset[str], int] = {}
    same = 0
    for number in range(1, ROUNDS + 1):
        for table in seat_round(fielded, seed=number, met=met):
            same += len({club[p] for p in table}) != len(table)
            for i, a in enumerate(table):
                for b in table[i + 1:]:
                    met[frozenset((a, b))] = met.get(frozenset((a, b)), 0) + 1
    return same, sum(1 for v in met.values() if v > 1)


def register(players: int = PLAYERS, seed: int = 21) -> list[Candidate]:
    rng = random.Random(seed)
    out = []
    for n in range(1, players + 1):
        born = None if rng.random() < 0.3 else date(rng.randint(1950, 2006),
                                                    rng.randint(1, 12), rng.randint(1, 28))
        surname = rng.choice(SURNAMES) + ("" if rng.random() < 0.5 else rng.choice("aeio"))
        out.append(Candidate(n, rng.choice(NAMES), surname, born))
    return out


def timed(label: str, run: object) -> None:
    times, result = [], None
    for _ in range(RUNS):
        start = time.process_time()
        result = run()  # type: ignore[operator]
        times.append(time.process_time() - start)
    print(f"{label}: best {min(times):.3f} s, median {statistics.median(times):.3f} s CPU; "
          f"{result}")


def main() -> None:
    parts = sys.argv[1:] or ["seating", "duplicates"]
    if "seating" in parts:
        timed(f"seating {CLUBS} clubs x {FIELDED}, {ROUNDS} rounds "
              "(same-club tables, pairs met twice)", weekend)
    if "duplicates" in parts:
        people = register()
        timed(f"possible duplicates of {len(people)} players (pairs)",
              lambda: len(possible_duplicates(people)))
    print("load average", " ".join(f"{v:.2f}" for v in os.getloadavg()))


if __name__ == "__main__":
    main()
