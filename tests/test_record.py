"""Game records: written, replayed exactly, golden records kept as files, corrupt records
refused with the line and the reason.

The golden records in ``tests/golden/*.txt`` were made with ``risiko.match.play_bots`` (and
one game with referee actions) and ``risiko.record.write_record``; ``expected.json`` beside
them holds the outcome and the scores of each. Regenerate them (only when the record format
changes on purpose) with ``python tests/test_record.py``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from helpers import (
    T,
    club_score,
    finish_setup,
    new_game,
    pass_turn,
)
from risiko.actions import (
    Abandon,
    Action,
    CallLastRounds,
    EndGame,
    EndTurn,
    Place,
    Timeout,
    Trade,
    WidenClosing,
)
from risiko.game import Game
from risiko.match import make_agents, play_bots
from risiko.record import RecordError, parse_record, replay, write_record
from risiko.ruleset import get_ruleset
from risiko.view import SeatView

GOLDEN = Path(__file__).parent / "golden"

# name: (bots, seats, ruleset, seed, last_rounds_at, late)
BOT_GOLDENS: dict[str, tuple[list[str], int, str, int, int, tuple[int, ...]]] = {
    "club5_random": (["random"], 5, "club-milano", 1, 3, ()),
    "club5_heuristic": (["heuristic"], 5, "club-milano", 2, 8, ()),
    "club3_late": (["heuristic", "random"], 3, "club-milano", 3, 6, (1,)),
    "classic4": (["heuristic"], 4, "classic", 4, 6, ()),
    "rtu6": (["random"], 6, "rtu", 5, 4, ()),
}


def referee_game(seed: int = 6) -> Game:
    """5 random bots with referee actions: seat 4 leaves in round 2, a timeout in round 3,
    the call in round 3, the closing widened in the LAST round, and a stop if the game is
    still on in round 12."""
    rng = random.Random(seed)
    agents = make_agents(["random"], 5, rng)
    game = Game.new(["Anna", "Bruno", "Carla", "Dario", "Elena"], seed=seed)
    views = [SeatView(game, s) for s in range(5)]
    done: set[str] = set()

    def once(tag: str, cond: bool) -> bool:
        if cond and tag not in done:
            done.add(tag)
            return True
        return False

    while not game.over:
        if once("abandon", game.round == 2 and game.seat == 0):
            game.push(Abandon(3))
        elif once("timeout", game.round == 3 and game.seat == 1 and game.phase == "attack"):
            game.push(Timeout())
        elif once("call", game.round == 3 and game.seat == 2):
            game.push(CallLastRounds())
        elif once("widen", game.round == game.last_round and game.seat == 2):
            game.push(WidenClosing("slow table"))
        elif once("stop", game.round == 12):
            game.push(EndGame("the club closes"))
        else:
            game.push(agents[game.seat].act(views[game.seat]))
    return game


def stopped_game(seed: int = 7) -> Game:
    """4 heuristic bots, no call: the referee stops the game in round 5."""
    agents = make_agents(["heuristic"], 4, random.Random(seed))
    game = Game.new(["Anna", "Bruno", "Carla", "Dario"], seed=seed)
    views = [SeatView(game, s) for s in range(4)]
    while not game.over:
        if game.round == 5 and game.seat == 1:
            game.push(EndGame("midnight"))
        else:
            game.push(agents[game.seat].act(views[game.seat]))
    return game


def golden_games() -> dict[str, Game]:
    games = {
        name: play_bots(
            bots, seats, ruleset=get_ruleset(rs), seed=seed, last_rounds_at=lra, late=late
        )
        for name, (bots, seats, rs, seed, lra, late) in BOT_GOLDENS.items()
    }
    games["club5_referee"] = referee_game()
    games["club4_stopped"] = stopped_game()
    return games


def summary(game: Game) -> dict[str, object]:
    assert game.outcome is not None
    return {
        "ruleset": game.ruleset.name,
        "end": game.outcome.end,
        "winner": game.outcome.winner,
        "rounds": game.outcome.rounds,
        "actions": len(game.history),
        "scores": {s.player: s.score for s in game.scores()},
        "status": list(game.status),
        "territories": [m.bit_count() for m in game.owned],
        "closing_rolls": [r.to_dict() for r in game.closing_rolls],
    }


def regenerate() -> None:
    """Write the golden records and expected.json (run by hand)."""
    GOLDEN.mkdir(exist_ok=True)
    expected = {}
    for name, game in golden_games().items():
        (GOLDEN / f"{name}.txt").write_text(
            write_record(game, {"Event": f"golden {name}"}), encoding="utf-8"
        )
        expected[name] = summary(game)
    (GOLDEN / "expected.json").write_text(
        json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )


# ------------------------------------------------------------------------ golden records

EXPECTED: dict[str, dict[str, object]] = (
    json.loads((GOLDEN / "expected.json").read_text(encoding="utf-8"))
    if (GOLDEN / "expected.json").exists()
    else {}
)


def test_golden_files_present() -> None:
    assert sorted(EXPECTED) == sorted([*BOT_GOLDENS, "club5_referee", "club4_stopped"])
    for name in EXPECTED:
        assert (GOLDEN / f"{name}.txt").exists()


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_record_replays_to_the_stored_outcome(name: str) -> None:
    text = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    game = replay(text)
    assert summary(game) == EXPECTED[name]
    game.check_invariants()
    # writing the replayed game gives the same text back
    assert write_record(game, {"Event": f"golden {name}"}) == text


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_records_of_the_first_form_still_replay(name: str) -> None:
    """tests/golden/v1 keeps the records as written by the first record format (dice sorted, trades
    without value, no forfeit lines): the reader replays them to the same games, and
    writes them again in today's form, the golden records."""
    text = (GOLDEN / "v1" / f"{name}.txt").read_text(encoding="utf-8")
    game = replay(text)
    assert summary(game) == EXPECTED[name]
    new = (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")
    assert write_record(game, {"Event": f"golden {name}"}) == new


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_golden_scores_agree_with_the_regulation(name: str) -> None:
    expected = EXPECTED[name]
    game = replay((GOLDEN / f"{name}.txt").read_text(encoding="utf-8"))
    if game.ruleset.scoring != "club-milano":
        pytest.skip("RTU scores border points, not R15/R16")
    scores = expected["scores"]
    assert isinstance(scores, dict)
    for s in range(game.n):
        owned = [t for t in range(42) if game.owner[t] == s]
        want = club_score(
            game.objectives[s].number, owned, game.totals[s], status=game.status[s],
            limit=game.ruleset.army_limit,
        )
        assert scores[game.players[s]] == want, game.players[s]


def test_golden_records_cover_every_ending_and_referee_action() -> None:
    ends = {e["end"] for e in EXPECTED.values()}
    assert {"closing_dice", "risiko", "referee"} <= ends
    ref = (GOLDEN / "club5_referee.txt").read_text(encoding="utf-8")
    verbs = {line.split()[1] for line in ref.splitlines() if line.startswith("R ")}
    assert {"abandon", "timeout", "call", "widen"} <= verbs


@pytest.mark.parametrize("name", sorted(BOT_GOLDENS))
def test_bots_still_play_the_golden_games(name: str) -> None:
    """Same seed, same game: the bots and the seeded chance are deterministic."""
    bots, seats, rs, seed, lra, late = BOT_GOLDENS[name]
    a = play_bots(bots, seats, ruleset=get_ruleset(rs), seed=seed, last_rounds_at=lra, late=late)
    b = play_bots(bots, seats, ruleset=get_ruleset(rs), seed=seed, last_rounds_at=lra, late=late)
    assert write_record(a) == write_record(b)


# ------------------------------------------------------------------------ a small record


def record_of(game: Game) -> str:
    return write_record(game, {"Event": "test"})


def test_write_then_replay_a_game_in_progress() -> None:
    game = new_game(5)
    finish_setup(game)
    pass_turn(game)
    text = record_of(game)
    assert '[Result "*"]' in text
    again = replay(text)
    assert again.seat == game.seat and again.phase == game.phase and again.round == 1
    assert again.armies == game.armies and again.owner == game.owner
    assert again.history == game.history


def bot_record(seed: int = 9) -> tuple[Game, str]:
    game = play_bots(["random"], 4, seed=seed, last_rounds_at=2)
    return game, record_of(game)


def test_round_trip_of_a_bot_game() -> None:
    game, text = bot_record()
    again = replay(text)
    assert again.history == game.history
    assert again.outcome == game.outcome
    assert [s.score for s in again.scores()] == [s.score for s in game.scores()]
    assert again.armies == game.armies and again.hands == game.hands
    assert record_of(again) == text


def test_headers() -> None:
    game = new_game(5, late=[1, 3], last_rounds_at=7)
    finish_setup(game)
    game.push(EndGame())
    text = write_record(game, {"Event": 'Serata "di" prova', "Date": "2027-03-02",
                               "Table": "4"})
    rec = parse_record(text)
    h = rec.headers
    assert h["Event"] == 'Serata "di" prova'
    assert h["Date"] == "2027-03-02" and h["Table"] == "4"
    assert h["Ruleset"] == "club-milano@1"
    assert h["Seats"] == "Anna|Bruno|Carla|Dario|Elena"
    assert h["Late"] == "2,4"
    assert h["LastRoundsAt"] == "7"
    assert game.outcome is not None
    assert h["Result"] == f"referee {game.outcome.winner or '-'}"
    assert h["Rounds"] == "1"
    scores = dict(x.rsplit(" ", 1) for x in h["Scores"].split("|"))
    assert scores == {s.player: str(s.score) for s in game.scores()}
    assert rec.deal == list(range(42))
    assert rec.objectives == [1, 2, 3, 4, 5]
    assert rec.deck == list(range(44))
    again = replay(text)
    assert again.late_turns == [0, 3, 0, 3, 0]
    assert again.last_rounds_at == 7


def test_every_action_survives_the_record() -> None:
    game = new_game(5)
    finish_setup(game)
    actions: list[Action] = [
        Place(T("Alaska"), 3),
        CallLastRounds(),
        WidenClosing("slow"),
    ]
    for a in actions:
        game.push(a)
    game.push(EndTurn())
    lost = game.pending  # seat 2's reinforcements, none placed: forfeited under R11
    assert lost >= 1
    game.push(Timeout())  # seat 2 times out in its reinforcement
    game.push(Abandon(4))
    text = record_of(game)
    lines = text.splitlines()
    assert "1 place Alaska 3" in lines
    assert "R call" in lines and 'R widen "slow"' in lines
    assert "1 end" in lines and "R timeout" in lines and "R abandon 5" in lines
    # the forfeit follows the action that caused it, with its clause
    assert lines[lines.index("R timeout") + 1] == f"2 forfeit R11 {lost}"
    assert game.forfeits(1) == {"R3": 0, "R4": 0, "R11": lost}
    again = replay(text)
    assert again.history == game.history
    assert again.status == game.status and again.forfeited == game.forfeited
    # a forfeit line that differs from the replay is refused
    wrong = text.replace(f"2 forfeit R11 {lost}", f"2 forfeit R4 {lost}")
    assert refused(wrong).faults[0].code == "record.forfeit_differs"


# ------------------------------------------------------------------------ corrupt records


def find_line(text: str, predicate: object) -> int:
    """1-based number of the first line for which ``predicate(line)`` holds."""
    for no, line in enumerate(text.splitlines(), start=1):
        if predicate(line):  # type: ignore[operator]
            return no
    raise AssertionError("no such line")


def replace_line(text: str, no: int, new: str) -> str:
    lines = text.splitlines()
    lines[no - 1] = new
    return "\n".join(lines) + "\n"


def first_attack(text: str) -> tuple[int, list[str]]:
    no = find_line(text, lambda s: s.split()[1:2] == ["attack"])
    return no, text.splitlines()[no - 1].split()


def refused(text: str) -> RecordError:
    with pytest.raises(RecordError) as info:
        replay(text)
    return info.value


def test_corrupt_unknown_territory() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    words[3] = "Atlantide"
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no
    assert "Atlantide" in err.reason


def test_corrupt_wrong_seat() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    words[0] = str(int(words[0]) % 4 + 1)
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no
    assert "seat" in err.reason


def test_corrupt_illegal_attack() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    # attack a territory that does not border the source: Madagascar borders only Africa
    # Orientale and Africa del Sud, Giappone only Kamchatka and Mongolia
    words[3] = "Madagascar" if words[2] != "Madagascar" else "Giappone"
    if words[2] in ("Africa_Orientale", "Africa_del_Sud"):
        words[3] = "Giappone"
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no
    assert err.reason.startswith("illegal")


def test_corrupt_dice_count() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    words[4] = words[4] + "-1" if words[4].count("-") < 2 else "6-6"
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no
    assert "dice" in err.reason


def test_corrupt_missing_dice() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    words[4] = "-"
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no
    assert "dice missing" in err.reason


def test_corrupt_missing_closing_dice() -> None:
    game, text = bot_record()
    assert game.closing_rolls
    no = find_line(text, lambda s: s.split()[1:2] in (["end"], ["fortify"]) and (
        (s.split()[1] == "end" and len(s.split()) == 3)
        or (s.split()[1] == "fortify" and len(s.split()) == 6)))
    words = text.splitlines()[no - 1].split()
    err = refused(replace_line(text, no, " ".join(words[:-1])))
    assert err.line == no
    assert "dice missing" in err.reason


def test_corrupt_bad_dice_token() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    words[4] = "6-x-1"
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no


def test_corrupt_changed_dice_caught_where_the_game_diverges() -> None:
    # different dice are not an error in themselves; the replay diverges and the first
    # action that no longer fits is refused on its own line, or the Result no longer holds
    _, text = bot_record()
    lines = text.splitlines()
    # the first conquest followed by a move: with losing dice there is nothing to move in
    no = next(
        i for i in range(1, len(lines))
        if lines[i - 1].split()[1:2] == ["attack"] and lines[i].split()[1:2] == ["move"]
    )
    words = lines[no - 1].split()
    words[4] = "-".join("1" for _ in words[4].split("-"))
    words[5] = "-".join("6" for _ in words[5].split("-"))
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no + 1
    assert "illegal" in err.reason


def test_corrupt_tampered_result() -> None:
    game, text = bot_record()
    assert game.outcome is not None
    no = find_line(text, lambda s: s.startswith("[Result "))
    bad = replace_line(text, no, '[Result "risiko Nessuno"]')
    err = refused(bad)
    assert "Result" in err.reason and "risiko Nessuno" in err.reason
    assert err.line in (0, no)


def test_corrupt_tampered_result_names_its_line() -> None:
    _, text = bot_record()
    no = find_line(text, lambda s: s.startswith("[Result "))
    err = refused(replace_line(text, no, '[Result "risiko Nessuno"]'))
    assert err.line == no


def test_corrupt_tampered_scores() -> None:
    game, text = bot_record()
    no = find_line(text, lambda s: s.startswith("[Scores "))
    scores = "|".join(f"{s.player} {s.score + 10}" for s in game.scores())
    err = refused(replace_line(text, no, f'[Scores "{scores}"]'))
    assert "Scores" in err.reason


def test_corrupt_truncated_record() -> None:
    _, text = bot_record()
    lines = text.splitlines()
    err = refused("\n".join(lines[:-5]) + "\n")
    assert err.line == find_line(text, lambda s: s.startswith("[Result "))
    assert "Result" in err.reason


def test_corrupt_action_after_the_end() -> None:
    _, text = bot_record()
    n = len(text.splitlines())
    err = refused(text + "1 end\n")
    assert err.line == n + 1
    assert "end of the game" in err.reason


def test_corrupt_unknown_action() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    err = refused(replace_line(text, no, f"{words[0]} charge {words[2]} {words[3]}"))
    assert err.line == no and "charge" in err.reason


def test_corrupt_seat_action_marked_as_referee() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    err = refused(replace_line(text, no, "R " + " ".join(words[1:])))
    assert err.line == no and "referee" in err.reason


def test_corrupt_bad_seat_token() -> None:
    _, text = bot_record()
    no, words = first_attack(text)
    err = refused(replace_line(text, no, "X " + " ".join(words[1:])))
    assert err.line == no


def test_corrupt_header_syntax() -> None:
    _, text = bot_record()
    no = find_line(text, lambda s: s.startswith("[Event "))
    err = refused(replace_line(text, no, "[Event test]"))
    assert err.line == no


def test_corrupt_unknown_ruleset() -> None:
    _, text = bot_record()
    no = find_line(text, lambda s: s.startswith("[Ruleset "))
    err = refused(replace_line(text, no, '[Ruleset "monopoli@1"]'))
    assert err.line in (0, no) and "monopoli" in err.reason


@pytest.mark.parametrize("part", ["deal", "objectives", "deck"])
def test_corrupt_missing_initial_line(part: str) -> None:
    _, text = bot_record()
    no = find_line(text, lambda s: s.startswith(part + " "))
    err = refused(replace_line(text, no, ""))
    assert part in err.reason


def test_corrupt_unknown_territory_in_the_deal() -> None:
    _, text = bot_record()
    no = find_line(text, lambda s: s.startswith("deal "))
    words = text.splitlines()[no - 1].split()
    words[5] = "Atlantide"
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no and "Atlantide" in err.reason


def test_corrupt_duplicate_territory_in_the_deal_names_its_line() -> None:
    _, text = bot_record()
    no = find_line(text, lambda s: s.startswith("deal "))
    words = text.splitlines()[no - 1].split()
    words[5] = words[6]
    err = refused(replace_line(text, no, " ".join(words)))
    assert err.line == no


def test_corrupt_duplicate_territory_in_the_deal_refused() -> None:
    _, text = bot_record()
    no = find_line(text, lambda s: s.startswith("deal "))
    words = text.splitlines()[no - 1].split()
    words[5] = words[6]
    err = refused(replace_line(text, no, " ".join(words)))
    assert "deal" in err.reason


@pytest.mark.parametrize("bad", ["17", "0"])
def test_corrupt_objective_number(bad: str) -> None:
    game = new_game(5)  # objectives 1 2 3 4 5
    finish_setup(game)
    pass_turn(game)
    text = record_of(game)
    no = find_line(text, lambda s: s.startswith("objectives "))
    err = refused(replace_line(text, no, f"objectives {bad} 2 3 4 5"))
    assert err.line in (0, no)


def test_referee_reason_with_a_hash_survives_the_record() -> None:
    game = new_game(5)
    finish_setup(game)
    game.push(CallLastRounds())
    game.push(WidenClosing("seat #3 is slow"))
    game.push(EndGame("closed # midnight"))
    again = replay(record_of(game))
    assert again.history == game.history
    assert again.outcome == game.outcome


def test_player_names_with_spaces_accents_and_quotes() -> None:
    from risiko.dice import ScriptedChance

    players = ["Nicolò Rossi", 'Anna "la Rossa" B.', "Zoë", "D'Amico"]
    game = Game(players, deal=list(range(42)), objectives=[1, 2, 3, 4],
                deck=list(range(44)), chance=ScriptedChance())
    finish_setup(game)
    game.push(EndGame())
    again = replay(record_of(game))
    assert again.players == tuple(players)
    assert again.outcome == game.outcome


def test_a_record_refuses_an_illegal_trade_and_move() -> None:
    # hand-written record: seat 1's first turn after the placement
    game = new_game(5)
    finish_setup(game)
    text = record_of(game)
    n = len(text.splitlines())
    # seat 1 has 3 reinforcements: placing 4 is illegal
    err = refused(text + "1 place Alaska 4\n")
    assert err.line == n + 1 and "illegal" in err.reason
    err = refused(text + "1 trade Alaska Quebec Islanda\n")
    assert err.line == n + 1 and "illegal" in err.reason
    err = refused(text + "1 place Alaska 3\n1 move 2\n")
    assert err.line == n + 2


def test_comments_and_blank_lines_ignored() -> None:
    game, text = bot_record()
    lines = text.splitlines()
    no, _ = first_attack(text)
    lines.insert(no - 1, "# a comment")
    lines.insert(no, "")
    lines[no + 1] += "   # the first attack"
    again = replay("\n".join(lines) + "\n")
    assert again.history == game.history


def test_trade_written_and_replayed() -> None:
    # find a bot game with a trade and check the trade line replays
    for seed in range(40):
        game = play_bots(["random"], 3, seed=seed, last_rounds_at=6)
        if any(isinstance(a, Trade) for a in game.history):
            break
    else:  # pragma: no cover
        pytest.fail("no trade in 40 games")
    text = record_of(game)
    assert any(line.split()[1:2] == ["trade"] for line in text.splitlines()[8:])
    assert replay(text).history == game.history


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    regenerate()


def test_a_bad_late_header_is_an_r3_fault() -> None:
    """The ``Late`` header lists the seats arriving late: R3 (it was tagged R11)."""
    game = new_game(3, late=[1])
    finish_setup(game)
    game.push(EndGame())
    text = write_record(game).replace('[Late "2"]', '[Late "due"]')
    with pytest.raises(RecordError) as err:
        replay(text)
    assert (err.value.fault.code, err.value.fault.clause) == ("record.bad_late", "R3")


def test_write_record_reads_who_acted_from_the_game_without_replaying(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: write_record replayed a shadow game to learn who made each action and what
    each forfeited; the game keeps (seat, action) and the forfeit lines as it goes. A game
    with late seats (R3: their first 3 turns' reinforcements forfeited) and timeouts (R11),
    played through the fast door and through the checked one, writes the same record, and
    the record replays (the replay checks every forfeit line against its own)."""
    from risiko.actions import Timeout

    def play(checked: bool) -> Game:
        game = new_game(4, late=[1, 2], last_rounds_at=3, dice=[3, 4] * 4000)
        rng = random.Random(7)
        agents = make_agents(["random"], 4, rng)
        door = game.push if checked else game.push_unchecked
        while not game.over:
            seat = game.to_act
            assert seat is not None
            if game.phase == "reinforce" and rng.random() < 0.2:
                door(Timeout())  # R11: the reinforcements not placed are forfeited
            else:
                door(agents[seat].act(SeatView(game, seat)))
        return game

    fast, checked = play(False), play(True)
    assert fast.history == checked.history
    assert fast.acted_by() == checked.acted_by()
    assert fast.forfeit_lines() == checked.forfeit_lines()
    clauses = {c for lines in fast.forfeit_lines().values() for _, c, _ in lines}
    assert {"R3", "R11"} <= clauses

    def no_replay(*args: object, **kwargs: object) -> None:
        raise AssertionError("write_record replays nothing")

    monkeypatch.setattr(Game, "push", no_replay)
    monkeypatch.setattr(Game, "_apply", no_replay)
    text = write_record(fast)
    assert text == write_record(checked)
    monkeypatch.undo()
    assert replay(text).state == fast.state
    # the forfeit lines: R3 on each late seat's penalised turns (3 each)
    r3 = [line for line in text.splitlines() if " forfeit R3 " in line]
    assert [line.split()[0] for line in r3] == ["2", "3"] * 3
