"""Properties over thousands of random games and random positions.

- Invariants after EVERY action of a few hundred bot games (random and heuristic bots, every
  ruleset, late seats, referee actions at random moments): armies >= 1 everywhere, the owners
  partition the board, the 44 cards are conserved, nobody above the army limit, exactly one
  seat to act (a seat in play) until the end, and the game always ends.
- The end of well over 2000 seeded bot games: a valid outcome, and the table scores equal
  both the sheet scorer (``score_sheet(parse_sheet(game.sheet()))``) and an independent
  scorer written from the regulation (``helpers.club_score``).
- Hypothesis: R7/R8 legality, the dice, R9 set values and reinforcements on random positions
  against oracles written from the regulation.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from helpers import arrange, begin_turn, club_score, finish_setup, give_cards, new_game, set_turn
from risiko import rules
from risiko.actions import (
    Abandon,
    Action,
    Attack,
    CallLastRounds,
    Timeout,
    Trade,
    WidenClosing,
)
from risiko.attack import is_legal_on_board
from risiko.cards import best_set, has_set, set_kind, sets_in
from risiko.game import END_REASONS, Game, IllegalActionError
from risiko.match import make_agents, play_bots
from risiko.ruleset import CLASSIC, CLUB_MILANO, RTU, Ruleset
from risiko.view import SeatView

RULESETS = (CLUB_MILANO, CLASSIC, RTU)
NAMES = ("Anna", "Bruno", "Carla", "Dario", "Elena", "Franco")
BONUS = {range(0, 9): 5, range(9, 13): 2, range(13, 20): 5, range(20, 26): 3,
         range(26, 38): 7, range(38, 42): 2}


def check_state(game: Game) -> None:
    """The invariants, checked independently of ``Game.check_invariants`` (called too)."""
    game.check_invariants()
    n = game.n
    assert all(a >= 1 for a in game.armies), "a territory without armies"
    for s in range(n):
        mine = {t for t in range(42) if game.owner[t] == s}
        assert game.owned[s] == sum(1 << t for t in mine), "owner and owned disagree"
        assert game.totals[s] == sum(game.armies[t] for t in mine)
        limit = game.ruleset.army_limit
        assert limit is None or game.totals[s] <= limit, "army limit passed (R4)"
    union = 0
    for m in game.owned:
        assert union & m == 0
        union |= m
    assert union == (1 << 42) - 1
    cards = list(game.deck) + [c for h in game.hands for c in h]
    assert Counter(cards) == Counter(range(44)), "cards lost or duplicated"
    if game.over:
        assert game.to_act is None and game.outcome is not None
        assert game.outcome.end in END_REASONS
    else:
        assert game.to_act is not None
        assert game.status[game.to_act] == "in_play"
        assert game.phase in ("setup", "reinforce", "attack", "move")
        assert game.outcome is None


def referee_action(game: Game, rng: random.Random) -> Action | None:
    """Now and then a referee action the rules allow at this moment."""
    x = rng.random()
    if x < 0.004 and len(game.in_play) > 2:
        return Abandon(rng.choice(game.in_play))
    if x < 0.012 and game.phase in ("reinforce", "attack", "move"):
        return Timeout()
    if x < 0.016 and game.last_round is None and game.phase != "setup":
        return CallLastRounds()
    if x < 0.018 and game.last_round is not None:
        return WidenClosing("accelerate")
    return None


def play_checked(seed: int) -> Game:
    rng = random.Random(seed)
    seats = rng.randint(3, 6)
    ruleset = rng.choice(RULESETS)
    bots = [rng.choice(["random", "random", "heuristic"]) for _ in range(seats)]
    late = [s for s in range(seats) if rng.random() < 0.15]
    last_rounds_at = rng.randint(1, 5)
    game = Game.new(NAMES[:seats], ruleset, seed=seed, late=late,
                    last_rounds_at=last_rounds_at)
    agents = make_agents(bots, seats, random.Random(seed + 1))
    views = [SeatView(game, s) for s in range(seats)]
    check_state(game)
    for _ in range(20_000):
        if game.over:
            return game
        before = len(game.history)
        action = referee_action(game, rng)
        if action is None:
            seat = game.to_act
            assert seat is not None
            action = agents[seat].act(views[seat])
        game.push(action)
        assert len(game.history) == before + 1
        check_state(game)
    raise AssertionError(f"seed {seed}: the game did not end in 20000 actions")


@pytest.mark.parametrize("block", range(4))
def test_invariants_after_every_action(block: int) -> None:
    ends: Counter[str] = Counter()
    for seed in range(block * 80, block * 80 + 80):
        game = play_checked(seed)
        assert game.outcome is not None
        ends[game.outcome.end] += 1
    assert ends["closing_dice"] > 0


def sheet_scores(game: Game) -> list[int]:
    from risiko.sheet import parse_sheet, score_sheet

    return [s.score for s in score_sheet(parse_sheet(game.sheet())).seats]


def oracle_scores(game: Game) -> list[int]:
    return [
        club_score(
            game.objectives[s].number,
            [t for t in range(42) if game.owner[t] == s],
            game.totals[s],
            status=game.status[s],
        )
        for s in range(game.n)
    ]


@pytest.mark.parametrize("block", range(8))
def test_bot_games_end_and_score_like_the_sheet(block: int) -> None:
    pytest.importorskip("risiko.sheet")
    ends: Counter[str] = Counter()
    for seed in range(block * 250, block * 250 + 250):
        seats = 3 + seed % 4
        game = play_bots(["random"], seats, seed=seed, last_rounds_at=1 + seed % 4)
        assert game.outcome is not None and game.over
        ends[game.outcome.end] += 1
        check_state(game)
        scores = [s.score for s in game.scores()]
        assert scores == sheet_scores(game), seed
        assert scores == oracle_scores(game), seed
        if game.outcome.end == "risiko":
            assert game.outcome.winner is not None
            assert scores[game.players.index(game.outcome.winner)] == 100
        # the winner has the best score, or there is a tie for it
        best = max(scores)
        if game.outcome.winner is None:
            assert scores.count(best) > 1
        else:
            assert scores[game.players.index(game.outcome.winner)] == best
    assert ends["closing_dice"] > 200


def test_heuristic_games_score_like_the_sheet() -> None:
    pytest.importorskip("risiko.sheet")
    for seed in range(60):
        game = play_bots(["heuristic", "random"], 3 + seed % 4, seed=seed, last_rounds_at=5)
        check_state(game)
        scores = [s.score for s in game.scores()]
        assert scores == sheet_scores(game) == oracle_scores(game), seed


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 10**9),
    seats=st.integers(3, 6),
    last_rounds_at=st.integers(1, 6),
    ruleset=st.sampled_from(RULESETS),
)
def test_any_seeded_game_ends_consistently(
    seed: int, seats: int, last_rounds_at: int, ruleset: Ruleset
) -> None:
    game = play_bots(["random"], seats, ruleset=ruleset, seed=seed,
                     last_rounds_at=last_rounds_at)
    check_state(game)
    assert game.outcome is not None
    assert game.outcome.rounds >= last_rounds_at + 1 or game.outcome.end != "closing_dice"
    # every closing roll against the bands written from R2 (RTU: 2..4 widening to 2..7)
    for r in game.closing_rolls:
        if r.sum is None:
            assert r.conquests >= 3
            continue
        low, high = (2, min(3 + r.closing_round, 7)) if ruleset is RTU else (
            4, 3 + r.closing_round)
        assert r.closed == (low <= r.sum <= high)
    if game.outcome.end == "closing_dice":
        assert game.closing_rolls[-1].closed
        assert all(not r.closed for r in game.closing_rolls[:-1])


# ------------------------------------------------------------------------ random positions


def r7_r8_oracle(game: Game, seat: int) -> set[tuple[int, int]]:
    """Every legal (source, target) written from R7/R8 (and R6 through the board)."""
    out = set()
    rs = game.ruleset
    for a_t in range(42):
        if game.owner[a_t] != seat or game.armies[a_t] < 2:
            continue
        for d_t in range(42):
            if game.owner[d_t] == seat or not rs.board.adjacent(a_t, d_t):
                continue
            a, d = game.armies[a_t], game.armies[d_t]
            if rs.dice_parity and min(3, a - 1) < min(3, d):
                continue
            if rs.army_superiority:
                support = sum(
                    game.armies[t] for t in range(42)
                    if game.owner[t] == seat and rs.board.adjacent(t, d_t)
                )
                if not (support > d or a > 10):
                    continue
            out.add((a_t, d_t))
    return out


position_strategy = st.tuples(
    st.lists(st.integers(0, 2), min_size=42, max_size=42),
    st.lists(
        st.sampled_from([1, 1, 1, 2, 2, 3, 4, 5, 8, 10, 11, 12, 14]), min_size=42, max_size=42
    ),
    st.sampled_from(RULESETS),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position_strategy)
def test_legal_attacks_match_the_regulation(
    pos: tuple[list[int], list[int], Ruleset],
) -> None:
    owners, armies, ruleset = pos
    for s in range(3):
        assume(sum(a for o, a in zip(owners, armies, strict=True) if o == s) <= 120)
    game = new_game(3, ruleset=ruleset)
    finish_setup(game)
    arrange(game, {t: (owners[t], armies[t]) for t in range(42)}, rest=0)
    set_turn(game, 0)
    oracle = r7_r8_oracle(game, 0)
    assert set(game.legal_attacks()) == oracle
    # rules.legal_attacks is an inline copy of attack.is_legal_on_board: the same pairs, in
    # the same order (sources, then targets, in board order)
    st_ = game.state
    assert game.legal_attacks() == [
        (s, t) for s in range(42) if st_.owner[s] == 0 for t in st_.adjacency[s]
        if st_.owner[t] != 0 and is_legal_on_board(
            ruleset, st_.armies[s], st_.armies[t], st_.armies, st_.owned[0], st_.neighbours[t])
    ]
    st = game.state
    for s in range(42):
        for t in range(42):
            if game.owner[s] == 0 and game.owner[t] != 0:
                assert (game.attack_fault(s, t) is None) == ((s, t) in oracle)
                if game.neighbours[s] >> t & 1:  # the rule as the random bot's draw reads it
                    assert is_legal_on_board(
                        ruleset, st.armies[s], st.armies[t], st.armies, st.owned[0],
                        st.neighbours[t],
                    ) == ((s, t) in oracle)
    # the random bot's draws: a legal attack (a legal strategic move), None only when there
    # is none
    rng = random.Random(sum(armies))
    moves = {(s, t): most for s, t, most in rules.legal_fortifies(game.state)}
    for _ in range(3):
        drawn = rules.sample_attack(game.state, rng.random)
        assert (drawn in oracle) if oracle else drawn is None
        move = rules.sample_fortify(game.state, rng.random)
        if moves:
            assert move is not None and moves.get(move[:2]) == move[2]
        else:
            assert move is None


@settings(max_examples=300, deadline=None)
@given(hand=st.lists(st.integers(0, 43), max_size=9, unique=True))
def test_a_hand_holds_a_set_when_three_of_its_cards_make_one(hand: list[int]) -> None:
    """sets_in, set_kind, has_set and best_set (the random bot's quick look at its hand)
    against every trio of the hand, read with the symbols of the cards (SYMBOL below, from
    the deck's list)."""

    def is_set(trio: tuple[int, int, int]) -> bool:
        kinds = [SYMBOL[c] for c in trio]
        jollies = kinds.count("jolly")
        if jollies == 0:
            return len(set(kinds)) in (1, 3)
        return jollies == 1 and len(set(kinds) - {"jolly"}) == 1

    trios = [t for t in itertools.combinations(hand, 3) if is_set(t)]
    assert sets_in(hand) == trios  # every set, in hand order
    assert [t for t in itertools.combinations(hand, 3) if set_kind(t) is not None] == trios
    assert has_set(hand) == bool(trios)
    assert best_set(hand) == (trios[0] if trios else None)  # the first in hand order


@settings(max_examples=300, deadline=None)
@given(
    a=st.integers(2, 25),
    d=st.integers(1, 25),
    dice=st.lists(st.integers(1, 6), min_size=6, max_size=6),
)
def test_dice_resolution(a: int, d: int, dice: list[int]) -> None:
    game = new_game(3, ruleset=CLASSIC)  # no R7/R8: every count of dice can be tried
    finish_setup(game)
    arrange(game, {"Brasile": (0, a), "Africa del Nord": (1, d), "Alaska": (1, 1),
                   "Islanda": (0, 1)}, rest=2)
    set_turn(game, 0)
    na, nd = min(3, a - 1), min(3, d)
    att, dfn = tuple(dice[:na]), tuple(dice[3 : 3 + nd])
    sa, sd = sorted(att, reverse=True), sorted(dfn, reverse=True)
    lose_a = sum(1 for x, y in zip(sa, sd, strict=False) if x <= y)
    lose_d = min(na, nd) - lose_a
    game.push(Attack(11, 20, att, dfn))
    if lose_d == d:
        assert game.owner[20] == 0
        assert game.armies[20] >= na  # at least the dice of the roll move in
        assert game.armies[11] + game.armies[20] == a
    else:
        assert (game.armies[11], game.armies[20]) == (a - lose_a, d - lose_d)
    check_state(game)


SYMBOL: dict[int, str] = {}
for _names, _sym in (
    ([0, 3, 6, 12, 13, 17, 20, 21, 25, 29, 31, 34, 36, 41], "fante"),
    ([1, 5, 7, 9, 11, 15, 19, 22, 24, 27, 32, 35, 37, 40], "cannone"),
    ([2, 4, 8, 10, 14, 16, 18, 23, 26, 28, 30, 33, 38, 39], "cavaliere"),
):
    for _t in _names:
        SYMBOL[_t] = _sym
SYMBOL[42] = SYMBOL[43] = "jolly"


def is_set(cards: tuple[int, int, int]) -> bool:
    """R9 / DOMAIN.md: three equal, one of each, or a jolly with two equal symbols."""
    syms = [SYMBOL[c] for c in cards]
    if len(set(cards)) != 3:
        return False
    j = syms.count("jolly")
    if j == 0:
        return len(set(syms)) in (1, 3)
    if j == 1:
        rest = [s for s in syms if s != "jolly"]
        return rest[0] == rest[1]
    return False


@settings(max_examples=300, deadline=None)
@given(
    hand=st.lists(st.integers(0, 43), min_size=3, max_size=9, unique=True),
    pick=st.lists(st.integers(0, 8), min_size=3, max_size=3, unique=True),
    owned=st.lists(st.booleans(), min_size=42, max_size=42),
)
def test_r9_trades_against_the_regulation(
    hand: list[int], pick: list[int], owned: list[bool]
) -> None:
    trio = tuple(hand[i % len(hand)] for i in pick)
    game = new_game(3)
    finish_setup(game)
    spec = {t: (1 if owned[t] else 2, 2) for t in range(42)}
    spec[0] = (0, 2)  # seat 0 ends, seat 1 begins
    arrange(game, spec, rest=2)
    give_cards(game, 1, hand)
    begin_turn(game, 1)
    if game.phase != "reinforce":
        return
    pending = game.pending
    armies = list(game.armies)
    if not is_set(trio):  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError):
            game.push(Trade(trio))  # type: ignore[arg-type]
        return
    game.push(Trade(trio))  # type: ignore[arg-type]
    value = 8 if len(hand) == 3 else 10 if len(hand) == 4 else 12
    room = 120 - sum(armies[t] for t in range(42) if game.owner[t] == 1) - pending
    bonus_cards = [c for c in trio if c < 42 and game.owner[c] == 1]
    offered = value + 2 * len(bonus_cards)
    gained = (game.pending - pending) + sum(game.armies[t] - armies[t] for t in range(42))
    assert gained == min(offered, room)
    if room >= offered:
        for c in bonus_cards:
            assert game.armies[c] == armies[c] + 2
    check_state(game)


@settings(max_examples=300, deadline=None)
@given(owners=st.lists(st.integers(0, 2), min_size=42, max_size=42))
def test_reinforcements_against_the_regulation(owners: list[int]) -> None:
    game = new_game(3)
    finish_setup(game)
    arrange(game, {t: (owners[t], 1) for t in range(42)}, rest=0)
    for s in range(3):
        mine = {t for t in range(42) if owners[t] == s}
        want = max(1, len(mine) // 3)
        want += sum(b for r, b in BONUS.items() if set(r) <= mine)
        assert game.reinforcements(s) == want


@pytest.mark.parametrize("block", range(2))
def test_records_of_games_with_referee_actions_replay_exactly(block: int) -> None:
    from risiko.record import replay, write_record

    for seed in range(1000 + block * 50, 1000 + block * 50 + 50):
        game = play_checked(seed)
        text = write_record(game)
        again = replay(text)
        assert again.history == game.history, seed
        assert again.outcome == game.outcome, seed
        assert again.armies == game.armies and again.hands == game.hands, seed
        assert write_record(again) == text, seed
