"""Bots by level (issue 19): the level table, the searching bots' legal and reproducible
games, and honesty: no bot's decision changes when the hidden part of the game (other seats'
objectives and cards, the deck, the table's seed) is scrambled."""

from __future__ import annotations

import math
import random

import pytest

from risiko.actions import Action, Trade
from risiko.agents.levels import LEVELS, agent_for_level, level_of
from risiko.agents.rollout import LEVEL_ROLLOUT
from risiko.agents.search import LEVEL_3, LEVEL_EXPECTIMAX, LEVEL_SEARCH, table_score
from risiko.agents.top import LEVEL_DETERMINISED
from risiko.cards import NUM_CARDS
from risiko.dice import SeededChance
from risiko.faults import InvalidInputError
from risiko.game import Game
from risiko.match import make_agents, play_bots, play_game
from risiko.objectives import OBJECTIVES
from risiko.ruleset import CLASSIC, CLUB_MILANO, RTU, Ruleset
from risiko.view import TARGET_RATIO, SeatView

SEARCHING = ("greedy", "expectimax", "determinised")


def test_the_level_table() -> None:
    assert LEVELS == {1: "random", 2: "heuristic", 3: "greedy", 4: "determinised",
                      5: "rollout"}
    for level, name in LEVELS.items():
        assert agent_for_level(level, random.Random(0)).name == name
        assert level_of(name.upper()) == level
    with pytest.raises(InvalidInputError):
        agent_for_level(6, random.Random(0))


def test_budgets_grow_with_the_level() -> None:
    # each level searches deeper, or over more sampled games, than the one below; level 5
    # starts from level 4's search and plays its candidates on
    assert (LEVEL_3.depth, LEVEL_DETERMINISED.depth) == (1, 3)
    assert LEVEL_3.samples == 0 < LEVEL_DETERMINISED.samples
    assert LEVEL_3.nodes < LEVEL_DETERMINISED.nodes
    assert LEVEL_ROLLOUT.searched and LEVEL_ROLLOUT.worlds > LEVEL_DETERMINISED.samples
    # the searches of no level: expectimax (level 4 before) and the first level 5
    assert (LEVEL_EXPECTIMAX.depth, LEVEL_SEARCH.depth) == (2, 3)
    assert LEVEL_3.nodes < LEVEL_EXPECTIMAX.nodes < LEVEL_SEARCH.nodes


@pytest.mark.parametrize(("bot", "ruleset", "seats"), [
    ("greedy", CLUB_MILANO, 4), ("greedy", CLASSIC, 5), ("greedy", RTU, 3),
    ("expectimax", CLUB_MILANO, 4), ("expectimax", RTU, 6),
    ("determinised", CLUB_MILANO, 4), ("determinised", CLASSIC, 3),
])
def test_searching_bots_play_legal_whole_games(bot: str, ruleset: Ruleset, seats: int) -> None:
    """Every action through the checked door (``checked=True``): an illegal one raises
    AgentError; the game ends and keeps its invariants. A late seat (R3) included."""
    for seed in range(2):
        bots = [bot, "heuristic", "random", bot, "heuristic", bot][:seats]
        game = play_bots(bots, seats, ruleset=ruleset, seed=seed, last_rounds_at=5,
                         late=[1] if seed else [], checked=True)
        assert game.over
        game.check_invariants()


@pytest.mark.parametrize("bot", SEARCHING)
def test_same_seed_same_game(bot: str) -> None:
    first = play_bots([bot, "heuristic", bot, "heuristic"], 4, seed=11, last_rounds_at=4)
    again = play_bots([bot, "heuristic", bot, "heuristic"], 4, seed=11, last_rounds_at=4)
    assert first.history == again.history
    assert [s.score for s in first.scores()] == [s.score for s in again.scores()]


def _scrambled(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` whose hidden part, as ``seat`` sees it, is drawn anew: other
    seats' objectives (still all different), their hands (as many cards each), the deck (as
    many cards) and the chance's seed. The board, the counts and the history are the same."""
    other = game.copy(chance=SeededChance(rng.getrandbits(32)))
    st = other.state
    mine = st.objectives[seat]
    free = [o for o in OBJECTIVES if o.number != mine.number]
    rng.shuffle(free)
    objectives = list(st.objectives)
    for s in range(st.n):
        if s != seat:
            objectives[s] = free.pop()
    st.objectives = tuple(objectives)
    pool = [c for s in range(st.n) if s != seat for c in st.hands[s]] + st.deck
    rng.shuffle(pool)
    k = 0
    for s in range(st.n):
        if s != seat:
            count = len(st.hands[s])
            st.hands[s] = pool[k:k + count]
            k += count
    st.deck = pool[k:]
    return other


def _decision_points(seed: int) -> list[Game]:
    """Copies of a 4-seat game of heuristic bots at seat 0's decisions (every 3rd from round 2, all
    phases)."""
    rng = random.Random(seed)
    agents = make_agents(["heuristic"], 4, rng)
    game = Game.new(["A", "B", "C", "D"], CLUB_MILANO, seed=seed, last_rounds_at=6)
    views = [SeatView(game, s) for s in range(4)]
    points: list[Game] = []
    k = 0
    while not game.over and len(points) < 12:
        seat = game.state.seat
        if seat == 0:
            k += 1
            if k % 3 == 0 and game.round >= 2:
                points.append(game.copy(chance=SeededChance(0)))
        game.push(agents[seat].act(views[seat]))
    return points


@pytest.mark.parametrize("seed", [3, 8])
def test_no_decision_reads_the_hidden_part(seed: int) -> None:
    """Honesty: at each decision point, every level's bot (a fresh one, its rng seeded the
    same) decides the same on the game and on copies whose hidden part is scrambled."""
    points = _decision_points(seed)
    assert len(points) >= 6
    phases = {str(g.phase) for g in points}
    assert {"reinforce", "attack"} <= phases
    scrambler = random.Random(seed)
    for game in points:
        copies = [_scrambled(game, 0, scrambler) for _ in range(2)]
        assert any(c.objectives[1:] != game.objectives[1:] for c in copies)
        for level in sorted(LEVELS):
            decided: list[Action] = []
            for g in (game, *copies):
                bot = agent_for_level(level, random.Random(99))
                decided.append(bot.act(SeatView(g, 0)))
            assert decided[0] == decided[1] == decided[2], (level, game.phase)


def test_determinise_reads_nothing_hidden() -> None:
    """The same view and rng state give the same determinised game whatever the hidden part;
    the sampled game keeps the public state and this seat's own secrets."""
    game = _decision_points(5)[-1]
    scrambled = _scrambled(game, 0, random.Random(1))
    one = SeatView(game, 0).determinise(random.Random(7))
    two = SeatView(scrambled, 0).determinise(random.Random(7))
    assert one.state == two.state
    st = one.state
    assert st.owner == game.owner and st.armies == game.armies
    assert st.objectives[0] == game.objectives[0]
    assert len({o.number for o in st.objectives}) == 4
    assert st.hands[0] == game.hands[0]
    assert [len(h) for h in st.hands] == [len(h) for h in game.hands]
    assert sorted([c for h in st.hands for c in h] + st.deck) == list(range(NUM_CARDS))
    assert one.history == []  # nothing of the real game's past to undo into


def test_the_deck_bottom_is_the_last_traded_sets() -> None:
    """R9: a traded set goes to the bottom of the deck; the view knows those cards lie there
    (the deck is the last cards of: the deck at the start, then every set traded)."""
    game = play_bots(["heuristic"], 4, seed=2, last_rounds_at=8)
    traded = [c for a in game.history if type(a) is Trade for c in a.cards]
    assert traded  # sets were traded in this game
    view = SeatView(game, 0)
    bottom = view.known_deck_bottom()
    assert bottom == game.deck[len(game.deck) - len(bottom):]
    assert len(bottom) == min(len(traded), len(game.deck))
    assert view.deck_size == NUM_CARDS - sum(len(h) for h in game.hands)


def test_history_is_seat_and_action() -> None:
    game = play_bots(["random"], 3, seed=4, last_rounds_at=3)
    history = SeatView(game, 1).history
    assert [a for _, a in history] == game.history
    assert [s for s, _ in history] == game.acted_by()
    # the first setup step is seat 1's (0-based 0), three armies on one territory
    assert history[0][0] == 0


def test_objective_weights_by_hand() -> None:
    """One attacked target inside objective 1 and one outside every objective holding it:
    objective 1's weight is p (1 - p) with p = 3 size / (3 size + 42 - size)."""
    game = Game.new(["A", "B", "C"], seed=1)
    view = SeatView(game, 0)
    first = OBJECTIVES[0]
    inside = next(t for t in range(42) if first.mask >> t & 1)
    outside = next(t for t in range(42) if not first.mask >> t & 1)
    weights = view.objective_weights(1, [inside, outside])
    size = first.mask.bit_count()
    p = TARGET_RATIO * size / (TARGET_RATIO * size + 42 - size)
    if view.objective.number == 1:
        assert weights[0] == 0.0
    else:
        assert math.isclose(weights[0], p * (1 - p))
    assert weights[view.objective.number - 1] == 0.0
    assert view.objective_weights(0) == [
        1.0 if o.number == view.objective.number else 0.0 for o in OBJECTIVES
    ]


def test_table_score_by_hand() -> None:
    """R16/R15 under club-milano: 4 a territory of the objective, 1 another, a continent its
    size; with 1 objective territory missing the race term (40) is added."""
    obj = OBJECTIVES[0]
    territories = [t for t in range(42) if obj.mask >> t & 1]
    held = obj.mask & ~(1 << territories[0])
    outside = next(t for t in range(42) if not obj.mask >> t & 1)
    score = table_score(held | 1 << outside, obj.mask, obj.continents)
    # continents of the objective are not whole (one territory missing) unless elsewhere
    expected = 4 * (len(territories) - 1) + 1 + 40.0
    from risiko.board import CONTINENT_MASKS, CONTINENT_SIZES
    for c, m in enumerate(CONTINENT_MASKS):
        if (held | 1 << outside) & m == m:
            expected += CONTINENT_SIZES[c] * 5 // 2 if c in obj.continents else CONTINENT_SIZES[c]
    assert score == expected


def test_play_game_with_levels_runs() -> None:
    agents = [agent_for_level(k, random.Random(k)) for k in (5, 4, 3, 2)]
    game = play_game(agents, seed=21, last_rounds_at=4, checked=True)
    assert game.over


def test_a_prior_that_is_never_overridden_decides_alone() -> None:
    """Level 4 starts from level 3's decisions (``Level.prior``) and overrides one only when
    its own choice is worth ``override_margin`` points more: with an infinite margin it can
    never override, so its game is move for move the prior's (level 3's) game."""
    from dataclasses import replace

    from risiko.agents.search import SearchAgent

    assert LEVEL_EXPECTIMAX.prior == LEVEL_3
    stubborn = replace(LEVEL_EXPECTIMAX, override_margin=math.inf)
    for seed in (2, 7):
        rng = random.Random(seed)
        alone = play_game([SearchAgent(LEVEL_3, rng), *make_agents(["heuristic"], 3, rng)],
                          seed=seed, last_rounds_at=4)
        rng = random.Random(seed)
        led = play_game([SearchAgent(stubborn, rng), *make_agents(["heuristic"], 3, rng)],
                        seed=seed, last_rounds_at=4)
        assert led.history == alone.history
