"""Reads of the tournaments app: the current tournament, one by key, every one in a line."""

from __future__ import annotations

from typing import Any

from .models import Tournament

__all__ = ["by_key", "current_or_newest", "summaries"]


def current_or_newest() -> Tournament | None:
    """The newest tournament marked current; without one, the newest (None when there is no
    tournament at all)."""
    return Tournament.objects.current_or_newest()


def by_key(key: str | int) -> Tournament | None:
    """A tournament by id, slug or name, or None (:meth:`TournamentQuerySet.by_key`)."""
    return Tournament.objects.by_key(key)


def summaries() -> list[dict[str, Any]]:
    """Every tournament, oldest first, as ``{id, slug, name, ruleset (name@version), players
    (entries), evenings}``."""
    return [{"id": t.pk, "slug": t.slug, "name": t.name, "ruleset": t.ruleset_label,
             "players": t.entries.count(), "evenings": t.evenings.count()}
            for t in Tournament.objects.order_by("created")]
