"""The engine's doors: legal_actions, atomic push, pop, copy, positions.

Properties checked with hypothesis on games played from random seeds:

- after any sequence of legal actions, ``pop()`` back to the start gives the start state;
- ``legal_actions()`` contains exactly the actions ``push`` accepts (sampled candidates);
- ``Game.from_position(game.position())`` continues identically under the same chance;
- every ``push`` is all or nothing: a refused action (or dice missing) leaves the game as it
  was.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers import T, arrange, finish_setup, new_game, set_turn
from risiko.actions import (
    Action,
    Amount,
    Attack,
    EndTurn,
    Fortify,
    LegalActions,
    Move,
    Place,
    Trade,
)
from risiko.dice import ChanceExhaustedError, ScriptedChance, SeededChance
from risiko.faults import IllegalActionError, RisikoError
from risiko.game import Game
from risiko.ruleset import CLASSIC, CLUB_MILANO, RTU

RULESETS = [CLUB_MILANO, RTU, CLASSIC]
NAMES = ["Anna", "Bruno", "Carla", "Dario", "Elena", "Franco"]


def pick(legal: LegalActions, rng: random.Random) -> Action:
    """A random legal action: an entry, and an amount inside its range."""
    entry = legal[rng.randrange(len(legal))]
    if isinstance(entry, Amount):
        return entry.of(rng.randint(entry.min, entry.max))
    return entry


def played(seed: int, steps: int, *, seats: int | None = None) -> tuple[Game, random.Random]:
    """A game from ``seed`` after up to ``steps`` random legal actions (pushed checked)."""
    rng = random.Random(seed)
    n = seats or rng.randint(3, 6)
    ruleset = RULESETS[seed % 3]
    late = [s for s in range(n) if rng.random() < 0.2]
    game = Game.new(NAMES[:n], ruleset, seed=seed, late=late,
                    last_rounds_at=rng.randint(1, 4))
    for _ in range(steps):
        if game.over:
            break
        game.push(pick(game.legal_actions(), rng))
    return game, rng


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 400))
def test_pop_back_to_the_start_gives_the_start_state(seed: int, steps: int) -> None:
    game, _ = played(seed, 0)
    start = game.state.copy()
    rng = random.Random(seed)
    states = [game.state.copy()]
    for _ in range(steps):
        if game.over:
            break
        game.push(pick(game.legal_actions(), rng))
        states.append(game.state.copy())
    # one step back at a time: each pop gives the state before that action
    for k in range(min(3, len(game.history))):
        game.pop()
        assert game.state == states[-2 - k]
    while game.history:
        game.pop()
    assert game.state == start
    assert game.rolls == 0 and game.closing_rolls == []


def candidates(game: Game, rng: random.Random) -> list[Action]:
    """Actions to try: some legal, most not (any territory, amount, set)."""
    st_ = game.state
    out: list[Action] = []
    mine = [t for t in range(42) if st_.owner[t] == st_.seat]
    for _ in range(12):
        t = rng.choice(mine) if rng.random() < 0.7 else rng.randrange(42)
        out.append(Place(t, rng.randint(-1, 8)))
        src = rng.choice(mine)
        dst = rng.choice(st_.adjacency[src]) if rng.random() < 0.8 else rng.randrange(42)
        out.append(Attack(src, dst))
        out.append(Fortify(src, dst, rng.randint(0, 6)))
        out.append(Move(rng.randint(0, 6)))
    out.append(EndTurn())
    hand = st_.hands[st_.seat]
    if len(hand) >= 3:
        trio = rng.sample(hand, 3)
        out.append(Trade((trio[0], trio[1], trio[2])))
    out.append(Trade((0, 1, 2)))
    return out


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 600))
def test_legal_actions_are_exactly_what_push_accepts(seed: int, steps: int) -> None:
    game, rng = played(seed, steps)
    if game.over:
        assert len(game.legal_actions()) == 0
        return
    legal = game.legal_actions()
    for action in candidates(game, rng):
        trial = game.copy(chance=SeededChance(seed))
        try:
            trial.push(action)
            accepted = True
        except IllegalActionError:
            accepted = False
        assert (action in legal) == accepted, (action, game.phase)
    for entry in legal:  # and every listed entry is accepted, both ends of a range
        tries = [entry] if not isinstance(entry, Amount) else [entry.of(entry.min),
                                                               entry.of(entry.max)]
        for action in tries:
            game.copy(chance=SeededChance(seed)).push(action)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 500), more=st.integers(1, 300))
def test_a_position_continues_identically_under_the_same_chance(
    seed: int, steps: int, more: int
) -> None:
    game, _ = played(seed, steps)
    again = Game.from_position(game.position(), chance=SeededChance(seed + 1))
    assert again.position() == game.position()
    game.chance = SeededChance(seed + 1)
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(more):
        if game.over:
            break
        a = game.push(pick(game.legal_actions(), rng_a))
        b = again.push(pick(again.legal_actions(), rng_b))
        assert a == b
    assert again.position() == game.position()
    assert again.outcome == game.outcome


def test_copy_is_independent() -> None:
    game, rng = played(5, 200)
    twin = game.copy()
    before = game.position()
    while not twin.over and len(twin.history) < len(game.history) + 50:
        twin.push(pick(twin.legal_actions(), rng))
    assert game.position() == before


def test_the_unchecked_door_plays_the_same_game() -> None:
    game_a, _ = played(11, 0, seats=4)
    game_b = game_a.copy(chance=SeededChance(99))
    game_a.chance = SeededChance(99)
    rng_a, rng_b = random.Random(1), random.Random(1)
    while not game_a.over:
        a = game_a.push(pick(game_a.legal_actions(), rng_a))
        b = game_b.push_unchecked(pick(game_b.legal_actions(), rng_b))
        assert a == b
    assert game_b.over and game_b.position() == game_a.position()


# ------------------------------------------------------------------------ atomic push


def conquest_then_closing() -> Game:
    """Seat 0 conquered Argentina and moved in; the closing dice are due at its turn's end."""
    game = new_game(5, last_rounds_at=1)
    finish_setup(game)
    arrange(game, {"Brasile": (0, 9), "Venezuela": (0, 1), "Argentina": (1, 1),
                   "Cina": (1, 1), "Alaska": (2, 1), "Islanda": (3, 1)}, rest=4)
    set_turn(game, 4)
    game.push(EndTurn())  # seat 4, last seat of round 1; round 2 is the LAST round
    game.state.seat = 0
    set_turn(game, 0)
    game.state.round = 3  # after the LAST round: every turn end rolls the closing dice
    game.state.closing_round = 1
    game.push(Attack(T("Brasile"), T("Argentina"), (6, 6, 6), (1,)))
    game.push(Move(3))
    return game


@pytest.mark.parametrize("ending", ["end", "fortify"])
def test_a_turn_end_without_closing_dice_changes_nothing(ending: str) -> None:
    game = conquest_then_closing()
    game.chance = ScriptedChance([4])  # one die: the closing roll needs two
    before = game.position()
    history = list(game.history)
    action: Action = EndTurn() if ending == "end" else Fortify(T("Brasile"), T("Venezuela"), 2)
    for _ in range(2):  # retried: still nothing applied twice
        with pytest.raises(ChanceExhaustedError):
            game.push(action)
        assert game.position() == before and game.history == history
    game.chance = ScriptedChance([6, 6])
    game.push(action)
    assert len(game.hands[0]) == 1  # one card, once
    moved = 2 if ending == "fortify" else 0
    assert game.armies[T("Venezuela")] == 1 + moved


def test_a_refused_action_changes_nothing() -> None:
    game, rng = played(3, 300)
    for action in candidates(game, rng):
        before = game.position()
        length = len(game.history)
        try:
            game.copy(chance=SeededChance(1)).push(action)
        except RisikoError:
            with pytest.raises(RisikoError):
                game.push(action)
            assert game.position() == before and len(game.history) == length


def test_an_attack_with_dice_is_listed_only_with_the_dice_push_accepts() -> None:
    """Issue 16 (R8: always the maximum dice): ``Attack(...) in game.legal_actions()`` agrees
    with ``push`` on the number of dice. Brasile 5 armies attacks Argentina 2 armies: the
    attacker rolls min(3, 5 - 1) = 3 dice, the defender min(3, 2) = 2."""
    game = new_game(3)
    finish_setup(game)
    arrange(game, {"Brasile": (0, 5), "Argentina": (1, 2)}, rest=2)
    set_turn(game, 0)
    legal = game.legal_actions()
    src, dst = T("Brasile"), T("Argentina")
    for attacker, defender in [((6, 5, 1), (4, 4)), ((6, 5), (4, 4)), ((6, 5, 1), (4,)),
                               ((6, 5, 1, 1), (4, 4)), (None, (4, 4)), ((6, 5, 1), None),
                               ((6, 5, 7), (4, 4)), (None, None), ((1, 1), None)]:
        action = Attack(src, dst, attacker, defender)
        try:
            game.copy(chance=SeededChance(1)).push(action)
            accepted = True
        except IllegalActionError:
            accepted = False
        assert (action in legal) == accepted, action
    assert Attack(src, dst, (6, 5, 1), (4, 4)) in legal
    assert Attack(src, dst, (6, 5), (4, 4)) not in legal


def test_pop_restores_a_stored_state_instead_of_replaying(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """pop() used to restore the state by replaying the whole game from its start. Now
    the checked door stores the state every CHECKPOINT_EVERY (64) actions: pop restores
    the latest stored at or before the action undone and applies only the actions since;
    after push_unchecked (which stores none) from the last stored one. The count of the
    actions applied again is read by replacing ``Game._apply``, which only the pure build
    allows (a compiled class's methods cannot be replaced): the compiled build checks the
    states alone."""
    from risiko import game as game_module
    from risiko._build import build

    every = game_module.CHECKPOINT_EVERY
    game = Game.new(NAMES[:4], seed=3)  # no call of the last rounds: 300 actions and more
    rng = random.Random(3)
    states = [game.state.copy()]
    for _ in range(300):
        game.push(pick(game.legal_actions(), rng))
        states.append(game.state.copy())
    applied: list[Action] = []
    pure = build() != "compiled"
    if pure:
        real_apply = Game._apply

        def counting(self: Game, action: Action) -> None:
            applied.append(action)
            real_apply(self, action)

        monkeypatch.setattr(Game, "_apply", counting)

    def replayed(n: int) -> bool:
        return not pure or len(applied) == n

    assert every == 64
    game.pop()  # action 299: the state stored before action 256, then 256..298 again
    assert game.state == states[299] and replayed(299 - 256) and 299 % every == 299 - 256
    applied.clear()
    for _ in range(299 - 256):
        game.pop()
    assert game.state == states[256] and replayed(sum(range(299 - 256)))
    applied.clear()
    game.pop()  # action 255: from the state stored before 192
    assert game.state == states[255] and replayed(255 - 192)
    # actions pushed through the fast door store nothing: from the last one stored
    applied.clear()
    n = len(game.history)
    for _ in range(5):
        game.push_unchecked(pick(game.legal_actions(), rng))
    game.pop()
    assert len(game.history) == n + 4 and replayed(n + 4 - 192)
