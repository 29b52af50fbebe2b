"""Verifiable dice: the hmac-sha256-v1 construction, recomputed here
independently (and by openssl when it is installed), and ``risiko replay --verify``."""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from risiko.actions import Attack
from risiko.agents.base import agent_by_name
from risiko.cli.main import app
from risiko.fair import (
    FairChance,
    commitment,
    die_of,
    format_skipped,
    new_seed,
    parse_skipped,
    permutation_of,
    verify_record,
)
from risiko.faults import InvalidInputError
from risiko.game import Game
from risiko.match import play_game
from risiko.record import write_record

SEED = bytes(range(32))


def _block(seed: bytes, k: int, block: int) -> bytes:
    """The spec, written again from docs/online.md."""
    return hmac.new(seed, k.to_bytes(8, "big") + block.to_bytes(4, "big"), hashlib.sha256).digest()


def test_die_by_hand_from_the_first_byte_with_rejection() -> None:
    # draw 0 of the all-zero seed: the first byte is 0x0f = 15 < 252, 15 % 6 = 3, die 4
    zero = bytes(32)
    assert _block(zero, 0, 0)[0] == 0x0F
    assert die_of(zero, 0) == 4
    # the rule on every draw: the first byte below 252, mod 6, plus 1
    for k in range(300):
        data = _block(SEED, k, 0) + _block(SEED, k, 1)
        first = next(b for b in data if b < 252)
        assert die_of(SEED, k) == first % 6 + 1


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl not installed")
def test_openssl_recomputes_a_die_outside_python() -> None:
    k = 5
    msg = k.to_bytes(8, "big") + (0).to_bytes(4, "big")
    out = subprocess.run(
        ["openssl", "dgst", "-sha256", "-mac", "HMAC", "-macopt", f"hexkey:{SEED.hex()}"],
        input=msg, capture_output=True, check=True,
    ).stdout.decode()
    digest = bytes.fromhex(out.strip().split("= ")[-1])
    first = next(b for b in digest if b < 252)
    assert die_of(SEED, k) == first % 6 + 1
    sha = subprocess.run(["openssl", "dgst", "-sha256"], input=SEED, capture_output=True,
                         check=True).stdout.decode()
    assert sha.strip().split("= ")[-1] == commitment(SEED)


def test_permutation_is_fisher_yates_over_the_draws_stream() -> None:
    data = _block(SEED, 7, 0) + _block(SEED, 7, 1) + _block(SEED, 7, 2)
    pos = 0
    p = list(range(16))
    for i in range(15, 0, -1):
        m = i + 1
        while True:
            b = data[pos]
            pos += 1
            if b < 256 - 256 % m:
                break
        j = b % m
        p[i], p[j] = p[j], p[i]
    assert permutation_of(SEED, 7, 16) == p
    assert sorted(permutation_of(SEED, 3, 44)) == list(range(44))


def test_fair_chance_counts_draws_and_a_game_uses_draws_0_1_2_first() -> None:
    chance = FairChance(SEED)
    game = Game.new(["Anna", "Bruno", "Carla"], chance=chance)
    assert chance.draws == 3
    assert list(game.deal) == permutation_of(SEED, 0, 42)
    assert [o.number for o in game.objectives] == [p + 1 for p in permutation_of(SEED, 1, 16)[:3]]
    assert list(game.deck_order) == permutation_of(SEED, 2, 44)
    # a restored chance continues at its counter
    again = FairChance(SEED, draws=3)
    assert [again.die() for _ in range(4)] == [die_of(SEED, k) for k in range(3, 7)]
    with pytest.raises(ValueError):
        FairChance(b"short")


def test_seeds_are_256_bits_and_fresh() -> None:
    a, b = new_seed(), new_seed()
    assert len(a) == 32 and a != b
    assert len(commitment(a)) == 64


def test_skipped_draws_text() -> None:
    assert parse_skipped("") == set()
    assert parse_skipped("3,5-6") == {3, 5, 6}
    assert format_skipped([6, 5, 3]) == "3,5-6"
    with pytest.raises(InvalidInputError) as e:
        parse_skipped("9-2")
    assert e.value.fault.code == "fair.bad_skipped"


def _fair_record(seed: bytes = SEED) -> tuple[str, Game]:
    rng = random.Random(3)
    agents = [agent_by_name("random", rng) for _ in range(4)]
    game = play_game(agents, chance=FairChance(seed), last_rounds_at=3)
    text = write_record(game, {
        "Chance": "hmac-sha256-v1", "SeedCommitment": commitment(seed), "Seed": seed.hex(),
    })
    return text, game


def test_a_whole_game_verifies_and_every_tampering_is_named() -> None:
    text, game = _fair_record()
    checked = verify_record(text)
    rolls = [a for a in game.history if isinstance(a, Attack)]
    assert checked.rolls >= len(rolls) > 0
    assert checked.commitment == commitment(SEED)
    # another seed for the same commitment
    other = text.replace(SEED.hex(), "00" * 32)
    with pytest.raises(InvalidInputError) as e:
        verify_record(other)
    assert e.value.fault.code == "fair.commitment_mismatch"
    # one die changed: the first attack line
    lines = text.splitlines()
    i = next(n for n, line in enumerate(lines) if " attack " in line)
    words = lines[i].split()
    dice = words[-2].split("-")
    dice[0] = str(7 - int(dice[0])) if dice[0] != "4" else "3"
    words[-2] = "-".join(dice)
    lines[i] = " ".join(words)
    with pytest.raises(InvalidInputError) as e:
        verify_record("\n".join(lines) + "\n")
    assert e.value.fault.code == "fair.dice_mismatch"
    assert e.value.fault.subjects["line"] == i + 1
    # two objectives swapped
    j = next(n for n, line in enumerate(lines) if line.startswith("objectives "))
    lines = text.splitlines()
    obj = lines[j].split()
    obj[1], obj[2] = obj[2], obj[1]
    lines[j] = " ".join(obj)
    with pytest.raises(InvalidInputError) as e:
        verify_record("\n".join(lines) + "\n")
    assert e.value.fault.code == "fair.part_mismatch"
    assert e.value.fault.params["part"] == "objectives"
    # no seed
    with pytest.raises(InvalidInputError) as e:
        verify_record(text.replace(f'[Seed "{SEED.hex()}"]\n', ""))
    assert e.value.fault.code == "fair.missing_header"


def test_skipped_draws_let_an_undone_roll_verify() -> None:
    """A referee undid a roll: its draws are burnt and listed in SkippedDraws."""
    chance = FairChance(SEED)
    game = Game.new(["Anna", "Bruno", "Carla"], chance=chance, last_rounds_at=1)
    for _ in range(3):
        chance.die()  # a roll that was undone: draws 3, 4, 5
    rng = random.Random(1)
    from risiko.view import SeatView

    agents = [agent_by_name("random", rng) for _ in range(3)]
    while not game.over:
        seat = game.seat
        game.push(agents[seat].act(SeatView(game, seat)))
    headers = {"SeedCommitment": commitment(SEED), "Seed": SEED.hex()}
    text = write_record(game, headers)
    with pytest.raises(InvalidInputError):
        verify_record(text)
    text = write_record(game, {**headers, "SkippedDraws": "3-5"})
    assert verify_record(text).draws == chance.draws


def test_replay_verify_command(tmp_path: Path) -> None:
    text, _ = _fair_record()
    rec = tmp_path / "online.txt"
    rec.write_text(text, encoding="utf-8")
    runner = CliRunner()
    res = runner.invoke(app, ["replay", str(rec), "--verify", "--json"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["verified"]["commitment"] == commitment(SEED)
    assert report["seed"] is None  # the hex seed is not a play --seed number
    res = runner.invoke(app, ["replay", str(rec), "--verify"])
    assert res.exit_code == 0 and "verified" in res.output
    rec.write_text(text.replace(SEED.hex(), "ab" * 32), encoding="utf-8")
    res = runner.invoke(app, ["replay", str(rec), "--verify"])
    assert res.exit_code == 1
    assert "commitment" in res.output
