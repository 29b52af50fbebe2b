"""Ruleset parameters a club may change: the hand limit (RULES.md: "no hand limit [param]").

Under the club preset there is no limit (R9 rewards holding cards). A variant with
``hand_limit=4`` makes a seat holding 5 cards with a set trade before placing.
"""

from __future__ import annotations

import pytest

from helpers import T, begin_turn, finish_setup, give_cards, new_game
from risiko.actions import Place, Trade
from risiko.game import IllegalActionError
from risiko.match import play_bots
from risiko.ruleset import CLUB_MILANO

# three fanti (Alaska, Alberta, Stati Uniti Occidentali) + two cannoni
FIVE = [T("Alaska"), T("Alberta"), T("Stati Uniti Occidentali"), T("Quebec"), T("Siam")]


def _seat_with_five_cards(ruleset):
    game = new_game(5, ruleset=ruleset)
    finish_setup(game)
    give_cards(game, 1, FIVE)
    begin_turn(game, 1)
    return game


def test_club_milano_has_no_hand_limit():
    game = _seat_with_five_cards(CLUB_MILANO)
    assert CLUB_MILANO.hand_limit is None
    mine = next(t for t in range(42) if game.owner[t] == 1)
    game.push(Place(mine, 1))  # placing without trading is allowed
    assert len(game.hands[1]) == 5


def test_variant_hand_limit_forces_a_trade_before_placing():
    variant = CLUB_MILANO.with_changes(name="limit-4", hand_limit=4)
    game = _seat_with_five_cards(variant)
    mine = next(t for t in range(42) if game.owner[t] == 1)
    with pytest.raises(IllegalActionError, match=r"holds 5 cards \(more than 4\): trade a set"):
        game.push(Place(mine, 1))
    game.push(Trade((T("Alaska"), T("Alberta"), T("Stati Uniti Occidentali"))))
    game.push(Place(mine, 1))
    assert len(game.hands[1]) == 2


@pytest.mark.parametrize("bots", [["random"], ["heuristic"]])
def test_bots_respect_a_hand_limit(bots):
    variant = CLUB_MILANO.with_changes(name="limit-3", hand_limit=3)
    for seed in range(5):
        game = play_bots(bots, 4, ruleset=variant, seed=seed, last_rounds_at=10)
        assert game.over
