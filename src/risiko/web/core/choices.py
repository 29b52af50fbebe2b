"""The domain's codes as Django choices: one source of words per code.

Each class is a :class:`~django.db.models.TextChoices` built from the domain's tuple of codes
(:mod:`risiko.tournament.model`: ``STAGES``, ``ARRIVAL_CLASSES``, ``APPEAL_OUTCOMES``,
``DISCIPLINE_LEVELS``, ``PENALTY_UNITS``); a member's value is the code as stored, its label
the word of the faults' catalogues (``word.<key>`` in ``risiko/locale/<lang>/word.po``, see
:func:`risiko.faults.word`), said lazily in the language of the request. Models, forms,
the console's and the public pages' filters and the audit log all take their words here, so
a stage is "qualificazione" everywhere it is read and no layer keeps a map of its own.

>>> from django.utils import translation
>>> with translation.override("it"):
...     str(Stage("qualifying").label), label(ArrivalClass, "on_time")
('qualificazione', 'in orario')
>>> with translation.override("en"):
...     label(PenaltyUnit, "ranking"), label(Stage, "playoff")
('ranking points', 'playoff')
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import models
from django.utils.functional import Promise, lazy
from django.utils.translation import get_language

from risiko.faults import word
from risiko.ruleset import VERSIONS, ruleset_words
from risiko.tournament.format import FORMATS, format_words
from risiko.tournament.model import (
    APPEAL_OUTCOMES,
    ARRIVAL_CLASSES,
    DISCIPLINE_LEVELS,
    PENALTY_UNITS,
    STAGES,
)

__all__ = [
    "AppealOutcome",
    "ArrivalClass",
    "DisciplineLevel",
    "PenaltyUnit",
    "Stage",
    "choices_of",
    "format_choices",
    "label",
    "ruleset_choices",
    "word_lazy",
]


def language() -> str:
    """The active Django language as the catalogues name it ("it" or "en")."""
    return "en" if (get_language() or "it").lower().startswith("en") else "it"


def _word(key: str, code: str) -> str:
    return word(key, code, language())


#: ``word_lazy("stage", "final")``: the word, said when rendered, in the request's language
word_lazy = lazy(_word, str)


def choices_of(name: str, key: str, codes: Sequence[str]) -> type[models.TextChoices]:
    """A ``TextChoices`` class ``name`` with one member per code (``FINAL = "final"``),
    labelled by the catalogues' words of ``key`` (``word.<key>``)."""
    members = [(code.upper(), (code, word_lazy(key, code))) for code in codes]
    made: type[models.TextChoices] = models.TextChoices(name, members)  # type: ignore[call-overload]
    return made


#: R18: qualifying | semifinal | final
Stage = choices_of("Stage", "stage", STAGES)
#: R3: on_time | late | excluded
ArrivalClass = choices_of("ArrivalClass", "arrival_class", ARRIVAL_CLASSES)
#: an appeal on a penalty: upheld | reduced | annulled
AppealOutcome = choices_of("AppealOutcome", "outcome", APPEAL_OUTCOMES)
#: R10: warning | table | tournament | club
DisciplineLevel = choices_of("DisciplineLevel", "discipline", DISCIPLINE_LEVELS)
#: a penalty's points: table | ranking
PenaltyUnit = choices_of("PenaltyUnit", "penalty_unit", PENALTY_UNITS)


def label(choices: type[models.TextChoices], code: str) -> str:
    """The word of ``code`` in the request's language (the code itself when it is none of
    ``choices``' members: a value stored before, never an error on a page)."""
    try:
        text: str | Promise = choices(code).label
    except ValueError:
        return code
    return str(text)


def _described(words: tuple[str, str]) -> str:
    return f"{words[0]}: {words[1]}"


def _ruleset_text(code: str) -> str:
    return _described(ruleset_words(code, language()))


def _format_text(name: str) -> str:
    return _described(format_words(name, language()))


#: ``ruleset_text("club-milano@2")``: "Club Milano 2026: in finale la chiamata degli ultimi
#: due turni resta alle 23:30", said when rendered
ruleset_text = lazy(_ruleset_text, str)
#: ``format_text("win-bonus")``: "Bonus al vincitore: punti tavolo, ...", said when rendered
format_text = lazy(_format_text, str)


def ruleset_choices(codes: Sequence[str] | None = None) -> list[tuple[str, str | Promise]]:
    """A form's ruleset choices: each code (``club-milano@2``, or a bare name: the version
    it means) as the value, its human name and one line on what it means as the label;
    ``codes`` None: every shipped version, newest first."""
    if codes is None:
        codes = [rs.label for versions in VERSIONS.values()
                 for _v, rs in sorted(versions.items(), reverse=True)]
    return [(code, ruleset_text(code)) for code in codes]


def format_choices() -> list[tuple[str, str | Promise]]:
    """A form's format choices: each shipped format's name as the value, its human name and
    one line on what it means as the label."""
    return [(name, format_text(name)) for name in FORMATS]
