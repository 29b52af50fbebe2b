"""Tournaments' migration 0005: a stored ``win_bonus`` format with a ``cap`` keeps every
seat capped (``cap_players`` ``all`` written into it), so its standings do not change when
the default becomes GestioneTorneo's (the winner only); other formats are untouched."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = [pytest.mark.db, pytest.mark.django_db(transaction=True)]

CAPPED = {"name": "mine", "ranking_points": {"formula": "win_bonus", "cap": 100,
                                              "five_seat_factor": 1.25}}
UNCAPPED = {"name": "win-bonus", "ranking_points": {"formula": "win_bonus", "win_bonus": 50}}
MASTER = {"name": "master", "ranking_points": {"formula": "thousandths"}}


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_stored_caps_keep_capping_every_seat() -> None:
    old = _migrate([("tournaments", "0004_model_names")])
    Tournament = old.get_model("tournaments", "Tournament")
    ids = {key: Tournament.objects.create(name=key, slug=key, format=fmt).pk
           for key, fmt in (("capped", CAPPED), ("uncapped", UNCAPPED), ("master", MASTER))}
    new = _migrate([("tournaments", "0005_format_cap_players")])
    Tournament = new.get_model("tournaments", "Tournament")
    stored = {key: Tournament.objects.get(pk=pk).format for key, pk in ids.items()}
    assert stored["capped"]["ranking_points"] == {
        "formula": "win_bonus", "cap": 100, "five_seat_factor": 1.25, "cap_players": "all"}
    assert stored["uncapped"] == UNCAPPED and stored["master"] == MASTER
    back = _migrate([("tournaments", "0004_model_names")])
    Tournament = back.get_model("tournaments", "Tournament")
    assert Tournament.objects.get(pk=ids["capped"]).format == CAPPED
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
