"""One source of words per code (issue 18 §2): the web's choices of stages, R3 classes,
appeal outcomes, R10 levels and penalty units are the tournament domain's codes, labelled by
the faults' word catalogues, and no module of the web keeps a map of its own; the rulesets
and formats a form offers are said by their human name and one line on what they mean."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import models
from django.utils import translation

from risiko.faults import word
from risiko.ruleset import VERSIONS, ruleset_words
from risiko.tournament import model as domain
from risiko.tournament.format import FORMATS, format_words
from risiko.web.console.forms import FormatForm, TournamentForm
from risiko.web.core import choices
from risiko.web.evenings.models import Evening
from risiko.web.public import texts
from risiko.web.results.models import Appeal, Discipline, Penalty
from risiko.web.tools.forms import AttackForm

WEB = Path(__file__).resolve().parents[2] / "src" / "risiko" / "web"

# (choices class, the domain's codes, the catalogue key, the model field that stores them)
KINDS = [
    (choices.Stage, domain.STAGES, "stage", Evening._meta.get_field("stage")),
    (choices.ArrivalClass, domain.ARRIVAL_CLASSES, "arrival_class", None),
    (choices.AppealOutcome, domain.APPEAL_OUTCOMES, "outcome", Appeal._meta.get_field("outcome")),
    (choices.DisciplineLevel, domain.DISCIPLINE_LEVELS, "discipline",
     Discipline._meta.get_field("level")),
    (choices.PenaltyUnit, domain.PENALTY_UNITS, "penalty_unit", Penalty._meta.get_field("unit")),
]


@pytest.mark.parametrize(("cls", "codes", "key", "field"), KINDS,
                         ids=[k[2] for k in KINDS])
def test_each_choice_is_a_domain_code_said_by_the_catalogue(
        cls: type[models.TextChoices], codes: tuple[str, ...], key: str,
        field: models.Field | None) -> None:  # type: ignore[type-arg]
    assert tuple(cls.values) == codes  # the members are the domain's codes, in its order
    if field is not None:  # the model stores the same codes (values unchanged)
        assert [value for value, _label in field.choices] == list(codes)  # type: ignore[union-attr]
    for lang in ("it", "en"):
        with translation.override(lang):
            assert [str(label) for label in cls.labels] == [word(key, c, lang) for c in codes]
            if field is not None:
                assert [str(label) for _v, label in field.choices] == [  # type: ignore[union-attr]
                    word(key, c, lang) for c in codes]


def test_the_words_in_italian_and_english() -> None:
    with translation.override("it"):
        # the regulation's words: R18 stages, R3 classes, R10 measures, the penalty's points
        assert [str(x) for x in choices.Stage.labels] == [
            "qualificazione", "semifinale", "finale"]
        assert [str(x) for x in choices.ArrivalClass.labels] == [
            "in orario", "in ritardo", "escluso"]
        assert [str(x) for x in choices.DisciplineLevel.labels] == [
            "richiamo", "espulsione dal tavolo", "espulsione dal torneo", "espulsione dal club"]
        assert [str(x) for x in choices.PenaltyUnit.labels] == ["punti tavolo", "punti classifica"]
        assert choices.label(choices.AppealOutcome, "reduced") == (
            "accolto in parte, penalità ridotta")
        # the public pages say the same words (a badge starts with a capital)
        assert texts.stage_label("semifinal") == "Semifinale"
        assert texts.arrival_label("late") == "in ritardo"
        assert texts.appeal_label("annulled") == "ricorso: accolto, penalità annullata"
        assert texts.unit_label("ranking") == "punti classifica"
        assert choices.label(choices.Stage, "playoff") == "playoff"  # unknown: as stored
    with translation.override("en"):
        assert choices.label(choices.ArrivalClass, "on_time") == "on time"
        assert choices.label(choices.DisciplineLevel, "club") == "expelled from the club"
        assert texts.stage_label("qualifying") == "Qualifying"
        assert texts.appeal_label("upheld") == "appeal: upheld"


# the words as the old maps spelled them, in quotes: a module of the web that holds one again
# keeps a second source of a code's word (the choices module's doctests show them, as values)
ITALIAN_LABELS = re.compile(
    r"""["'](qualificazione|semifinale|in orario|in ritardo|escluso|respinto|ridotto|annullato|"""
    r"""richiamo|espulsione dal [a-z]+|punti tavolo|punti classifica|sanzione [a-z]+)["']""",
    re.IGNORECASE)


def test_no_web_module_keeps_its_own_map_of_the_words() -> None:
    found = [f"{path.relative_to(WEB)}: {m.group(0)}"
             for path in sorted(WEB.rglob("*.py"))
             if "migrations" not in path.parts and path != WEB / "core" / "choices.py"
             for m in ITALIAN_LABELS.finditer(path.read_text(encoding="utf-8"))]
    assert found == []
    assert not (WEB / "console" / "labels.py").exists()


def test_every_shipped_ruleset_and_format_has_a_name_and_a_meaning() -> None:
    labels = [rs.label for versions in VERSIONS.values() for rs in versions.values()]
    assert sorted(labels) == ["classic@1", "club-milano@1", "club-milano@2", "rtu@1"]
    for lang in ("it", "en"):
        for code in labels:
            name, meaning = ruleset_words(code, lang)
            assert name and meaning and "@" not in name
        for fmt in FORMATS:
            name, meaning = format_words(fmt, lang)
            assert name and meaning and name != fmt
    # the version's difference, said as R2 and R18 settle it: the final starts at 20:30 and
    # the call of the last two rounds stays at 23:30 (@2) or moves 50 minutes earlier (@1)
    assert ruleset_words("club-milano@2", "it") == (
        "Club Milano 2026", "in finale la chiamata degli ultimi due turni resta alle 23:30")
    assert ruleset_words("club-milano@1", "it")[1] == (
        "in finale la chiamata degli ultimi due turni si anticipa con l'inizio (22:40)")
    assert ruleset_words("club-milano", "en") == ruleset_words("club-milano@1", "en")
    assert format_words("win-bonus", "it")[0] == "Bonus al vincitore"
    assert format_words("win-bonus", "en")[0] == "Winner's bonus"


def _options(html: str) -> dict[str, str]:
    return {v: t.replace("&#x27;", "'") for v, t in
            re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', html)}


def test_the_console_forms_offer_human_names_in_italian_with_the_code_as_value() -> None:
    with translation.override("it"):
        ruleset = _options(str(TournamentForm()["ruleset"]))
        formats = _options(str(TournamentForm()["format"]))
        presets = _options(str(FormatForm()["preset"]))
        tools = _options(str(AttackForm()["ruleset"]))
    assert ruleset["club-milano@2"] == (
        "Club Milano 2026: in finale la chiamata degli ultimi due turni resta alle 23:30")
    assert list(ruleset) == ["club-milano@2", "club-milano@1", "rtu@1", "classic@1"]
    assert ruleset["rtu@1"].startswith("Regolamento dei tornei nazionali (RTU): ")
    assert formats == presets and list(formats) == list(FORMATS)
    assert formats["win-bonus"] == (
        "Bonus al vincitore: punti tavolo, ×1,25 ai tavoli da 5, +50 al vincitore del tavolo "
        "(diviso tra i vincitori a pari merito)")
    assert formats["club-milano"].startswith("Club Milano: i punti classifica sono i punti ")
    assert list(tools) == ["club-milano", "rtu", "classic"]
    assert tools["classic"].startswith("Regole della scatola (classico): ")
    with translation.override("en"):
        english = _options(str(TournamentForm()["ruleset"]))
    assert english["club-milano@2"] == (
        "Club Milano 2026: at the final the call of the last two rounds stays at 23:30")
    # the code stays the value submitted
    form = TournamentForm({"name": "Sociale", "ruleset": "club-milano@2", "format": "win-bonus"})
    assert form.is_valid(), form.errors
    assert form.cleaned_data["ruleset"] == "club-milano@2"
    assert form.cleaned_data["format"] == "win-bonus"
