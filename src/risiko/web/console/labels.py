"""Translated names of the domain's codes (stages, R3 classes, appeal outcomes, R10 levels,
penalty units), for forms and templates."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

STAGES: dict[str, Promise] = {
    "qualifying": _("qualifying"),
    "semifinal": _("semifinal"),
    "final": _("final"),
}
ARRIVAL_CLASSES: dict[str, Promise] = {
    "on_time": _("on time"),
    "late": _("late"),
    "excluded": _("excluded"),
}
APPEAL_OUTCOMES: dict[str, Promise] = {
    "upheld": _("upheld"),
    "reduced": _("reduced"),
    "annulled": _("annulled"),
}
DISCIPLINE_LEVELS: dict[str, Promise] = {
    "warning": _("warning"),
    "table": _("expelled from the table"),
    "tournament": _("expelled from the tournament"),
    "club": _("expelled from the club"),
}
UNITS: dict[str, Promise] = {
    "table": _("table points"),
    "ranking": _("ranking points"),
}


def label(table: dict[str, Promise], code: str) -> str:
    """The translated name of ``code`` (the code itself when unknown)."""
    return str(table.get(code, code))
