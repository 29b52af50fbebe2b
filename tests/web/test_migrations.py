"""CI checks that the migrations are complete (HackSoft/djangoproject.com practice)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.db, pytest.mark.django_db]


def test_no_model_change_without_a_migration() -> None:
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as e:  # --check exits 1 when a migration is missing
        pytest.fail(f"missing migrations:\n{out.getvalue()} (exit {e.code})")
