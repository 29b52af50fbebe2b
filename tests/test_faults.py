"""Faults as values: the type, the errors, the languages and the catalogues."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from risiko.faults import (
    AmbiguousNameError,
    Fault,
    IllegalActionError,
    InvalidInputError,
    RisikoError,
    Severity,
    current_language,
    define,
    faults_json,
    kinds,
    set_language,
    use_language,
)
from risiko.names import clean_name, name_key, same_name

ROOT = Path(__file__).resolve().parents[1]

TEST_KIND = define("test.too_many", "R4", "{player} has {armies} armies, more than {limit}")


def _catalogue_tool():
    spec = importlib.util.spec_from_file_location("catalogue", ROOT / "tools" / "catalogue.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_fault_takes_its_clause_from_its_kind_and_formats_subjects_and_params():
    f = TEST_KIND({"player": "Anna"}, armies=121, limit=120)
    assert f.code == "test.too_many"
    assert f.clause == "R4"
    assert f.severity is Severity.ERROR and f.is_error
    assert f.message("en") == "Anna has 121 armies, more than 120"
    assert str(f) == "Anna has 121 armies, more than 120"


def test_json_form_has_the_six_fields_and_round_trips():
    f = TEST_KIND({"player": "Anna", "evening": "2027-03-02"}, Severity.WARNING, armies=121,
                  limit=120)
    d = f.to_dict()
    assert list(d) == ["code", "clause", "severity", "subjects", "params", "message"]
    assert d["severity"] == "warning"
    assert d["subjects"] == {"player": "Anna", "evening": "2027-03-02"}
    assert json.loads(json.dumps(faults_json([f])))[0]["params"] == {"armies": 121, "limit": 120}
    assert Fault.from_dict(d) == f
    assert hash(Fault.from_dict(d)) == hash(f)


def test_errors_carry_faults_and_are_value_errors():
    a = TEST_KIND({"player": "Anna"}, armies=121, limit=120)
    b = TEST_KIND({"player": "Bruno"}, armies=125, limit=120)
    err = InvalidInputError([a, b])
    assert isinstance(err, ValueError) and isinstance(err, RisikoError)
    assert err.fault is a and err.faults == (a, b)
    assert str(err).splitlines() == [a.message("en"), b.message("en")]
    assert issubclass(AmbiguousNameError, InvalidInputError)
    assert not issubclass(IllegalActionError, InvalidInputError)
    with pytest.raises(TypeError):
        RisikoError()
    with pytest.raises(TypeError):
        RisikoError(["a sentence is not a fault"])  # type: ignore[list-item]


def test_a_code_is_declared_once():
    assert define("test.too_many", "R4", TEST_KIND.template) == TEST_KIND
    with pytest.raises(ValueError):
        define("test.too_many", "R5", "other words")


def test_language_from_environment_and_overrides(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    set_language(None)
    monkeypatch.setenv("LANG", "it_IT.UTF-8")
    assert current_language() == "it"
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert current_language() == "en"
    with use_language("it"):
        assert current_language() == "it"
    assert current_language() == "en"
    with pytest.raises(ValueError):
        set_language("fr")


def test_names_are_compared_by_nfc_and_case_folding():
    nfd = "Lue\u0300"
    assert clean_name(nfd) == "Luè" and len(clean_name(nfd)) == 3
    assert same_name("Luè", nfd) and same_name("LUÈ", "luè") and same_name(" Anna  Bi ", "anna bi")
    assert name_key("Straße") == name_key("STRASSE")
    assert not same_name("Anna", "Anne")


def test_every_fault_code_has_an_english_and_an_italian_message():
    tool = _catalogue_tool()
    tool.import_everything()
    assert kinds(), "no fault kind declared"
    assert tool.problems() == []


def test_a_field_is_said_by_its_italian_label_never_by_the_programs_name() -> None:
    """'serata 2028-01-17, at: Dario: ...' was the season file's key inside Italian words."""
    from risiko.faults import FIELDS, WORDS, word
    from risiko.tournament.dates import parse_clock
    from risiko.web.core.faults import OUT_OF_RANGE, TOO_LONG

    assert set(FIELDS) <= set(WORDS["field"])
    try:
        parse_clock("9:15")
    except InvalidInputError as e:
        fault = e.fault.at(evening="2028-01-17", field="at", player="Dario")
    assert fault.message("it").startswith("serata 2028-01-17, ora: Dario: '9:15'")
    assert fault.message("en").startswith("evening 2028-01-17, at: Dario: '9:15'")
    points = OUT_OF_RANGE({"field": "points"}, value="-2000", low=-1000, high=1000)
    assert points.message("it") == "punti: -2000 è fuori dall'intervallo -1000..1000"
    player = TOO_LONG({"field": "player"}, limit=80, length=81)
    assert player.message("it").startswith("giocatore: al massimo 80 caratteri")
    assert [word("field", f, "it") for f in ("table name", "your name")] == [
        "nome del tavolo", "il tuo nome"]


# --- issue 18 §2: `risiko --lang it` says every word in Italian -------------------------------


def test_an_attack_fault_without_territories_is_said_in_italian():
    from risiko.attack import attack_fault
    from risiko.ruleset import get_ruleset

    # R8: 10 armies against 18, the 18 bordering armies do not outnumber 18 (no waiver: 10)
    fault = attack_fault(get_ruleset("club-milano"), 10, 18, bordering=18)
    assert fault is not None and fault.clause == "R8"
    it = fault.message("it")
    assert "confinanti con il territorio attaccato" in it and "the target" not in it
    assert "il territorio che attacca" in it and "the attacking" not in it
    assert "bordering the target" in fault.message("en")


@pytest.mark.parametrize(("text", "italian"), [
    ("{", "manca il nome di un campo tra virgolette doppie alla riga 1 colonna 2"),
    ('{"seats": 1 2}', "manca una ',' alla riga 1 colonna 13"),
    ('{"seats": }', "manca un valore alla riga 1 colonna 11"),
])
def test_pythons_json_reasons_are_said_in_italian(text, italian):
    from risiko.sheet import SheetError, parse_sheet_text

    with pytest.raises(SheetError) as err:
        parse_sheet_text(text, fmt="json")
    (fault,) = err.value.faults
    assert fault.message("it") == f"JSON non valido: {italian}"
    assert "Expecting" in fault.message("en")
