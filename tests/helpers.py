"""Helpers for the game-engine tests: positions built by hand, and an independent scorer.

The tests build a game with an explicit deal, objectives and deck (and scripted dice), drive
the initial placement with real ``Place`` actions, then, for a focused test, give the game
a position built from its own (a new board, whose turn it is, cards moved: :func:`rebuild`,
never writing into the state's lists). Every helper leaves the state consistent and checks
it with ``game.check_invariants()``.

Nothing here imports the engine's own rule code for the values the tests assert: the
reinforcement, set, dice and score figures the tests expect are worked out by hand (or by
:func:`club_score`, written from the regulation, not from :mod:`risiko.scoring`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from risiko.actions import EndTurn, Place
from risiko.board import NUM_TERRITORIES, parse_territory, territory_name
from risiko.dice import ScriptedChance
from risiko.game import Game
from risiko.position import parse_position
from risiko.ruleset import CLUB_MILANO, Ruleset

PLAYERS = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")

# The engine's phase names, as strings (what a client sees).
SETUP, REINFORCE, ATTACK, MOVE, OVER = "setup", "reinforce", "attack", "move", "over"

JOLLY, JOLLY2 = 42, 43


def T(name: str) -> int:
    """A territory (or the card showing it) by its Italian name."""
    return parse_territory(name)


def new_game(
    seats: int = 5,
    *,
    ruleset: Ruleset = CLUB_MILANO,
    dice: Iterable[int] = (),
    late: Iterable[int] = (),
    last_rounds_at: int | None = None,
    deal: Sequence[int] | None = None,
    objectives: Sequence[int] | None = None,
    deck: Sequence[int] | None = None,
) -> Game:
    """A game with a known deal (default: territories 0..41 in board order), objectives
    (default 1..seats) and deck (default cards 0..43, top first) and scripted dice."""
    return Game(
        PLAYERS[:seats],
        ruleset,
        deal=list(range(42)) if deal is None else list(deal),
        objectives=list(range(1, seats + 1)) if objectives is None else list(objectives),
        deck=list(range(44)) if deck is None else list(deck),
        chance=ScriptedChance(dice),
        late=late,
        last_rounds_at=last_rounds_at,
    )


def first_owned(game: Game, seat: int) -> int:
    """The lowest-numbered territory the seat holds."""
    m = game.owned[seat]
    return (m & -m).bit_length() - 1


def finish_setup(game: Game) -> None:
    """Play the initial placement: each step on the seat's lowest-numbered territory."""
    while game.phase == SETUP:
        game.push(Place(first_owned(game, game.seat), game.step_left))


def rebuild(game: Game, edit: Callable[[dict[str, Any]], None]) -> None:
    """Give ``game`` the state of its own position (:meth:`Game.position`) as ``edit``
    changes it: the helpers build positions, as a player writes them, and never write into
    the state's lists. The armies forfeited so far (not in a position) are kept."""
    data = game.position()
    edit(data)
    state = parse_position(data, ruleset=game.ruleset)  # a variant has no preset name
    state.forfeited = [f.copy() for f in game.state.forfeited]
    game.state = state
    game.check_invariants()


def arrange(
    game: Game,
    spec: Mapping[Any, tuple[int, int]],
    *,
    rest: int,
    rest_armies: int = 1,
) -> None:
    """A new board: ``spec`` maps a territory (name or number) to (seat, armies); every
    other territory goes to seat ``rest`` with ``rest_armies`` armies."""
    board: dict[int, tuple[int, int]] = {t: (rest, rest_armies) for t in range(42)}
    for key, value in spec.items():
        board[T(key) if isinstance(key, str) else key] = value

    def edit(data: dict[str, Any]) -> None:
        for s, seat in enumerate(data["seats"]):
            seat["armies"] = {territory_name(t): a for t, (o, a) in board.items() if o == s}

    rebuild(game, edit)


def set_turn(game: Game, seat: int, *, phase: str = ATTACK, pending: int = 0) -> None:
    """Make it ``seat``'s turn in ``phase`` with ``pending`` reinforcements (no conquest yet)."""

    def edit(data: dict[str, Any]) -> None:
        data.update(to_act=game.players[seat], phase=phase, reinforcements=pending,
                    conquests=0, penalised=False, move=None)

    rebuild(game, edit)


def begin_turn(game: Game, seat: int) -> None:
    """Start ``seat``'s turn through the engine: the previous seat in play ends its turn, so
    the engine itself computes ``seat``'s reinforcements from the board as it stands."""
    prev = (seat - 1) % game.n
    while game.status[prev] != "in_play":
        prev = (prev - 1) % game.n
    set_turn(game, prev)
    game.push(EndTurn())
    assert game.seat == seat
    game.check_invariants()


def give_cards(game: Game, seat: int, cards: Iterable[int]) -> None:
    """Move ``cards`` (wherever they are: deck or another hand) into ``seat``'s hand."""
    moving = [_card(c) for c in cards]

    def edit(data: dict[str, Any]) -> None:
        data["deck"] = [c for c in data["deck"] if c not in moving]
        for s in data["seats"]:
            s["cards"] = [c for c in s["cards"] if c not in moving]
        data["seats"][seat]["cards"].extend(moving)

    rebuild(game, edit)


def _card(c: int) -> str:
    """A card as positions name it."""
    return "jolly" if c == JOLLY else "jolly2" if c == JOLLY2 else territory_name(c)


def place_all(game: Game) -> None:
    """Place every pending reinforcement on the lowest-numbered territory of the seat."""
    if game.phase == REINFORCE:
        game.push(Place(first_owned(game, game.seat), game.pending))


def pass_turn(game: Game, closing: tuple[int, int] | None = None) -> None:
    """The seat to act places its reinforcements and ends its turn (with closing dice)."""
    place_all(game)
    game.push(EndTurn(closing))


# --------------------------------------------------------------------------------------------
# an independent scorer, written from R1, R5, R13, R15, R16 (not from risiko.scoring)

_CONTINENT_RANGES = {
    "Nord America": range(0, 9),
    "Sud America": range(9, 13),
    "Europa": range(13, 20),
    "Africa": range(20, 26),
    "Asia": range(26, 38),
    "Oceania": range(38, 42),
}

_OBJECTIVES: dict[int, tuple[tuple[str, ...], tuple[str, ...]]] = {
    1: (("Nord America", "Sud America"),
        ("Africa del Nord", "Egitto", "Africa Orientale", "Congo", "Medio Oriente", "India",
         "Siam", "Indonesia", "Nuova Guinea", "Australia Occidentale")),
    2: (("Europa", "Africa"),
        ("Groenlandia", "Ontario", "Quebec", "Stati Uniti Orientali", "Urali", "Afghanistan",
         "Medio Oriente")),
    3: (("Europa", "Africa", "Oceania"),
        ("Urali", "Afghanistan", "Medio Oriente", "India", "Siam")),
    4: (("Nord America", "Africa"),
        ("Islanda", "Gran Bretagna", "Scandinavia", "Europa Settentrionale",
         "Europa Meridionale", "Ucraina")),
    5: (("Nord America", "Oceania"),
        ("Islanda", "Scandinavia", "Ucraina", "Urali", "Cina", "Afghanistan", "Medio Oriente",
         "India", "Siam")),
    6: (("Sud America", "Europa", "Oceania"),
        ("Africa del Nord", "Egitto", "Africa Orientale", "Afghanistan", "Medio Oriente",
         "India", "Siam")),
    7: (("Sud America", "Africa", "Asia"), ()),
    8: (("Nord America", "Sud America", "Europa"), ("Kamchatka", "Giappone")),
    9: (("Europa", "Asia"), ("Indonesia",)),
    10: (("Nord America", "Europa"), ("Urali", "Siberia", "Jacuzia", "Kamchatka", "Giappone")),
    11: (("Sud America", "Europa", "Africa"),
         ("Urali", "Siberia", "Afghanistan", "Medio Oriente")),
    12: (("Africa", "Asia"), ("Europa Meridionale", "Ucraina")),
    13: (("Nord America", "Asia"), ()),
    14: (("Sud America", "Africa", "Oceania"),
         ("Europa Occidentale", "Europa Meridionale", "Cita", "Giappone", "Mongolia", "Cina",
          "Medio Oriente", "India", "Siam")),
    15: (("Asia", "Oceania"),
         ("Alaska", "Alberta", "Egitto", "Africa Orientale", "Congo", "Africa del Sud",
          "Madagascar")),
    16: (("Nord America", "Sud America", "Africa"),
         ("Europa Occidentale", "Europa Meridionale", "Ucraina")),
}


def objective_territories(number: int) -> set[int]:
    """The territories of tournament objective ``number`` (DOMAIN.md table)."""
    continents, extra = _OBJECTIVES[number]
    out = {t for c in continents for t in _CONTINENT_RANGES[c]}
    return out | {T(x) for x in extra}


def club_score(
    objective: int,
    owned: Iterable[int],
    armies: int,
    *,
    status: str = "in_play",
    limit: int | None = 120,
) -> int:
    """A seat's table score under the club regulation, from the end board.

    R13 / eliminated: 0. R1: objective complete = 100. R16: 4 per territory in the
    objective, 1 otherwise; R15: a whole continent held is worth floor(2.5 n) if in the
    objective, n otherwise; the base is capped at 100 (R1). R5: -7 above ``limit``.
    """
    if status != "in_play":
        return 0
    owned = set(owned)
    obj = objective_territories(objective)
    continents_in, _ = _OBJECTIVES[objective]
    if obj <= owned:
        base = 100
    else:
        base = sum(4 if t in obj else 1 for t in owned)
        for name, ts in _CONTINENT_RANGES.items():
            if set(ts) <= owned:
                n = len(ts)
                base += (5 * n) // 2 if name in continents_in else n
        base = min(base, 100)
    return base - (7 if limit is not None and armies > limit else 0)


# ------------------------------------------------------------------ position files
#: Anna's territories in the positions below (she acts)
ANNA = {
    "Medio Oriente": 2, "Siam": 4, "Indonesia": 3, "Nuova Guinea": 1,
    "Australia Occidentale": 2, "Australia Orientale": 1,
}
#: Bruno's territories; every other territory is Carla's, with 1 army
BRUNO = {"Cina": 7, "Europa Meridionale": 1, "Afghanistan": 1}
CARLA = {"India": 2, "Ucraina": 1}


def position(phase: str, anna: dict[str, int] | None = None,
             bruno: dict[str, int] | None = None, **extra: Any) -> dict[str, Any]:
    """A 3-seat position: Anna (objective 1), Bruno (2), Carla (3, every territory not
    named, 1 army each unless in CARLA)."""
    anna = anna or ANNA
    bruno = bruno or BRUNO
    carla = {territory_name(t): 1 for t in range(NUM_TERRITORIES)
             if territory_name(t) not in anna and territory_name(t) not in bruno}
    carla.update({k: v for k, v in CARLA.items() if k in carla})
    data: dict[str, Any] = {
        "ruleset": "club-milano",
        "seats": [
            {"player": "Anna", "objective": 1, "armies": anna},
            {"player": "Bruno", "objective": 2, "armies": bruno},
            {"player": "Carla", "objective": 3, "armies": carla},
        ],
        "to_act": "Anna",
        "phase": phase,
        "round": 3,
    }
    data.update(extra)
    return data
