"""The two builds of the game library: pure Python and compiled (mypyc).

What the compiled build made the source spell out (the copies, the fields, the actions'
``__init__``) is bound here to what it spells out: these run on both builds (``make unit``
and ``make unit-compiled``); the few that read what only a Python class keeps
(``__annotations__``, ``__dict__``, signatures) are marked pure-only, with the reason.
"""

from __future__ import annotations

import dataclasses
import inspect
import random

import pytest

import risiko.game
from helpers import finish_setup, new_game
from risiko import actions
from risiko._build import build
from risiko.dice import SeededChance
from risiko.match import AgentError, play_bots
from risiko.state import FIELDS, SLOTS, State

COMPILED = build() == "compiled"
pure_only = pytest.mark.skipif(
    COMPILED, reason="a compiled (native) class keeps no __annotations__, __dict__ or "
    "Python signature to read back")


def test_the_build_is_where_the_game_module_comes_from() -> None:
    # a C extension (mypyc) is the compiled build; src/*.py or site-packages *.py the pure
    assert (not risiko.game.__file__.endswith(".py")) == COMPILED


@pure_only
def test_the_state_fields_are_its_annotated_attributes() -> None:
    assert set(SLOTS) == set(State.__annotations__)
    assert set(FIELDS) == set(SLOTS) - {"adjacency", "neighbours"}


def test_a_state_copy_has_every_field_equal_and_its_own_lists() -> None:
    game = play_bots(["random"], 4, seed=3, last_rounds_at=3)
    copy = game.state.copy()
    for name in SLOTS:
        value = getattr(game.state, name)
        assert getattr(copy, name) == value, name
        if isinstance(value, list):  # the lists (and the lists in them) are the copy's own
            assert getattr(copy, name) is not value, name
            assert all(a is not b for a, b in zip(getattr(copy, name), value, strict=True)
                       if isinstance(a, list))
    assert copy == game.state


@pure_only
def test_a_game_copy_has_every_attribute_of_the_game() -> None:
    game = new_game(4)
    finish_setup(game)
    assert set(vars(game.copy())) == set(vars(game))
    assert set(vars(risiko.game.Game.from_state(game.state))) == set(vars(game))


@pure_only
@pytest.mark.parametrize("name", actions._FAST_INIT)
def test_an_action_init_written_out_is_the_dataclass_one(name: str) -> None:
    cls = getattr(actions, name)
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    fields = dataclasses.fields(cls)
    assert [p.name for p in params] == [f.name for f in fields]
    assert [p.default for p in params] == [
        inspect.Parameter.empty if f.default is dataclasses.MISSING else f.default
        for f in fields]


@pytest.mark.parametrize("name", actions._FAST_INIT)
def test_an_action_made_by_its_init_keeps_every_field_and_stays_frozen(name: str) -> None:
    cls = getattr(actions, name)
    values = {"territory": 3, "armies": 2, "cards": (1, 2, 3), "value": 8, "bonus": ((1, 2),),
              "source": 4, "target": 5, "attacker_dice": (6, 1), "defender_dice": (2,),
              "closing": (3, 4)}
    names = [f.name for f in dataclasses.fields(cls)]
    given = {n: values[n] for n in names}
    made = cls(**given)
    assert {n: getattr(made, n) for n in names} == given
    assert made == cls(*given.values()) and hash(made) == hash(cls(*given.values()))
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(made, names[0], given[names[0]])


def test_the_bots_error_is_still_a_runtime_error() -> None:
    # match.AgentError is a non-native class in the compiled build (it extends RuntimeError)
    assert issubclass(AgentError, RuntimeError)
    with pytest.raises(RuntimeError, match="bot"):
        raise AgentError("bot x at seat 1: refused")


@pytest.mark.parametrize("n", [1, 2, 16, 42, 44, 100])
def test_a_seeded_permutation_is_random_shuffle_of_the_same_seed(n: int) -> None:
    # SeededChance.permutation writes random.shuffle's draws out (compiled in the compiled
    # build): the same deals, objectives and decks from the same seeds as before
    for seed in range(25):
        chance, rng = SeededChance(seed), random.Random(seed)
        for _ in range(3):
            expected = list(range(n))
            rng.shuffle(expected)
            assert chance.permutation(n) == expected


def test_the_losses_of_every_roll_are_the_sorted_dice_compared_in_pairs() -> None:
    # attack.roll_losses finds each side's highest dice by comparisons (no sort: what the
    # game does at every roll); the rule: both sides' dice sorted from the highest, compared
    # in pairs (as many pairs as the side with fewer dice), ties to the defender
    from itertools import product

    from risiko.attack import roll_losses

    for na, nd in product((1, 2, 3), repeat=2):
        for a in product(range(1, 7), repeat=na):
            for d in product(range(1, 7), repeat=nd):
                pairs = list(zip(sorted(a, reverse=True), sorted(d, reverse=True),
                                 strict=False))
                won = sum(x > y for x, y in pairs)
                assert roll_losses(a, d) == (len(pairs) - won, won), (a, d)
    assert roll_losses([6, 1], [5, 5]) == (1, 1)  # any sequence, in any order


def test_the_attack_drawn_is_the_documented_draw_on_either_path() -> None:
    # rules.sample_attack lists the candidates its own way in each build (the mask's bits
    # compiled, territories_of's table pure); both must give the documented draw: the pairs
    # (territory of the seat with 2+ armies, bordering enemy territory) in board order, one
    # drawn at int(random() * n), an illegal one replaced by the last still in play
    from risiko import rules
    from risiko.attack import bordering_armies, is_legal
    from risiko.game import Game
    from risiko.state import Phase

    seen = 0
    for seed in (2, 5, 9):
        done = play_bots(["random"], 4, seed=seed, last_rounds_at=20)
        game = Game.from_state(done.start_state)
        for action in done.history:
            st = game.state
            if st.phase is Phase.ATTACK and not st.penalised:
                seen += 1
                draws = [(k * 0.377) % 1.0 for k in range(1, 200)]
                pairs = [(s, t) for s in range(42) if st.owner[s] == st.seat
                         and st.armies[s] > 1 for t in range(42)
                         if st.neighbours[s] >> t & 1 and st.owner[t] != st.seat]
                expected = None
                feed = iter(draws)
                while pairs:
                    i = int(next(feed) * len(pairs))
                    s, t = pairs[i]
                    total = bordering_armies(st.armies, st.owned[st.seat], st.neighbours[t])
                    if is_legal(st.ruleset, st.armies[s], st.armies[t], total):
                        expected = (s, t)
                        break
                    pairs[i] = pairs[-1]
                    pairs.pop()
                assert rules.sample_attack(st, iter(draws).__next__) == expected
            game.push_unchecked(action)
    assert seen > 500
