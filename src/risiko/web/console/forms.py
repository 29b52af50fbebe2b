"""Forms of the referee console. They only shape the input: every rule of the regulation is
checked by :mod:`risiko.web.services`, whose :class:`~risiko.web.services.ServiceError`
lines the views add to the form as errors (:func:`add_service_error`)."""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from risiko.ruleset import NEW_TOURNAMENT_RULESET, get_ruleset
from risiko.tournament.format import FORMATS, TournamentFormat
from risiko.tournament.schedule import CLUB_TIMEZONE
from risiko.tournament.season import SeasonError, read_season_json
from risiko.web.core import choices
from risiko.web.core.faults import ServiceError
from risiko.web.core.limits import check_size, loads
from risiko.web.site.widgets import QuickSelect

TIME = forms.TextInput(attrs={"type": "time", "inputmode": "numeric"})
DATE = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
NUMBER = forms.NumberInput(attrs={"inputmode": "numeric"})


def fault_messages(error: Exception) -> list[str]:
    """The messages of a refusal in the page's language: each fault of a ServiceError
    (``fault.message(get_language())``), else the error's lines."""
    from django.utils.translation import get_language

    found = getattr(error, "faults", None)
    if found:
        lang = "en" if (get_language() or "it").startswith("en") else "it"
        return [f.message(lang) for f in found]
    return [line for line in str(error).splitlines() if line.strip()] or [str(error)]


def add_service_error(form: forms.BaseForm, error: Exception) -> None:
    """Each fault of a ServiceError as an error of the form's field the fault names (its
    subject ``field``, e.g. ``reason``), else of the whole form."""
    found = getattr(error, "faults", None)
    lines = fault_messages(error)
    for i, line in enumerate(lines):
        fault = found[i] if found and i < len(found) else None
        name = str(getattr(fault, "subjects", {}).get("field") or "") if fault else ""
        form.add_error(name if name in form.fields else None, line)


def now_hhmm() -> str:
    """The club's local time now (Europe/Rome), ``HH:MM``."""
    from zoneinfo import ZoneInfo

    return _dt.datetime.now(ZoneInfo(CLUB_TIMEZONE)).strftime("%H:%M")


def today() -> _dt.date:
    """The club's local date today (Europe/Rome)."""
    from zoneinfo import ZoneInfo

    return _dt.datetime.now(ZoneInfo(CLUB_TIMEZONE)).date()


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _choices(names: Sequence[str], blank: bool = False) -> list[tuple[str, str]]:
    out = [(n, n) for n in names]
    return [("", "—"), *out] if blank else out


class PlayersField(forms.CharField):
    """A textarea of names, one per line (blank lines ignored)."""

    widget = forms.Textarea(attrs={"rows": 6, "autocapitalize": "words"})

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]
        return _lines(str(value or ""))

    def validate(self, value: Any) -> None:
        if self.required and not value:
            raise forms.ValidationError(self.error_messages["required"], code="required")


class RulesetField(forms.ChoiceField):
    """A ruleset: the choices list every shipped version (newest first); any name the
    library knows is accepted (``club-milano`` is club-milano@1)."""

    def valid_value(self, value: Any) -> bool:
        try:
            get_ruleset(str(value))
        except ValueError:
            return False
        return True


def json_object(cleaned: Mapping[str, Any], field: str) -> dict[str, Any] | None:
    """The JSON object typed in ``field`` (None when empty); a ValidationError for bad
    JSON or another JSON value."""
    raw = str(cleaned.get(field, "")).strip()
    if not raw:
        return None
    try:
        value = loads(field, raw)
    except ServiceError as e:
        raise forms.ValidationError(fault_messages(e)) from None
    if not isinstance(value, dict):
        raise forms.ValidationError(_("The format parameters are a JSON object {...}."))
    return value


class TournamentForm(forms.Form):
    """A new tournament: name, ruleset preset, format (with optional parameters), players."""

    name = forms.CharField(label=_("Name"), max_length=120)
    ruleset = RulesetField(
        label=_("Ruleset"),
        choices=choices.ruleset_choices(),
        initial=NEW_TOURNAMENT_RULESET,  # club-milano@2: the final's R2 call stays at 23:30
    )
    format = forms.ChoiceField(
        label=_("Format"), choices=choices.format_choices(), initial="club-milano"
    )
    format_params = forms.CharField(
        label=_("Format parameters (JSON, optional)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "placeholder": '{"discard_worst": 1}'}),
        help_text=_("Changes to the format, e.g. {\"discard_worst\": 1, \"min_evenings\": 4}."),
    )
    players = PlayersField(label=_("Players (one per line)"), required=False)

    def clean_format_params(self) -> dict[str, Any]:
        return json_object(self.cleaned_data, "format_params") or {}

    def format_dict(self) -> dict[str, Any] | None:
        """The format for :func:`services.create_tournament` (None: the club-milano one)."""
        params: dict[str, Any] = self.cleaned_data["format_params"]
        name = self.cleaned_data["format"]
        if not params and name == "club-milano":
            return None
        return {**FORMATS[name].to_dict(), **params}


class FormatForm(forms.Form):
    """A tournament's format: a preset (Club Milano's, other clubs' and
    GestioneTorneo's types) with changes to its parameters (JSON), compared first with
    today's standings, then applied (``action`` ``apply``; the committee once the
    tournament has evenings, saying why)."""

    preset = forms.ChoiceField(label=_("Format"), choices=choices.format_choices())
    params = forms.CharField(
        label=_("Changes to its parameters (JSON, optional)"), required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder":
                                     '{"ranking_points": {"win_bonus": 40}, "discard_worst": 1}'}),
        help_text=_("Fields of the format; ranking_points without a formula changes the "
                    "preset's formula parameters."))
    reason = forms.CharField(label=_("Why (needed once the tournament has evenings)"),
                             max_length=300, required=False)
    expected = forms.CharField(widget=forms.HiddenInput, required=False)
    compared = forms.CharField(widget=forms.HiddenInput, required=False)

    def clean_params(self) -> dict[str, Any]:
        return json_object(self.cleaned_data, "params") or {}

    def clean_expected(self) -> dict[str, Any] | None:
        return json_object(self.cleaned_data, "expected")

    def clean(self) -> dict[str, Any] | None:
        data = super().clean()
        if self.errors or data is None:
            return data
        try:
            self.proposed = proposed_format(data["preset"], data["params"])
        except ValueError as e:
            for line in fault_messages(e):
                self.add_error("params", line)
        return data


def proposed_format(preset: str, params: Mapping[str, Any]) -> TournamentFormat:
    """The format ``preset`` with ``params`` (fields of the format) changed; a
    ``ranking_points`` without ``formula`` changes the preset formula's parameters. Raises
    InvalidInputError (a ValueError) with every fault."""
    base = FORMATS[preset]
    changes = dict(params)
    rp = changes.get("ranking_points")
    if isinstance(rp, Mapping) and "formula" not in rp:
        changes["ranking_points"] = {**base.ranking_points.to_dict(), **rp}
    changes.setdefault("name", preset)
    return TournamentFormat.from_dict(changes, base=base)


def format_changes(current: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
    """The preset a stored format starts from (its name when shipped, else club-milano)
    and the fields where it differs from it: the form's initial values."""
    name = str(current.get("name", "club-milano"))
    preset = name if name in FORMATS else "club-milano"
    base = FORMATS[preset].to_dict()
    return preset, {k: v for k, v in current.items() if k != "name" and base.get(k) != v}


class PlayersForm(forms.Form):
    """Players to register, one per line."""

    players = PlayersField(label=_("Players (one per line)"))


class EveningForm(forms.Form):
    """Open an evening."""

    date = forms.DateField(label=_("Date"), widget=DATE)
    stage = forms.ChoiceField(
        label=_("Stage"), choices=choices.Stage.choices, initial="qualifying"
    )
    chief_referee = forms.CharField(label=_("Chief referee"), max_length=80, required=False)


class CarryOverForm(forms.Form):
    """R17: the points a new member keeps."""

    player = forms.ChoiceField(label=_("Player"), widget=QuickSelect)  # 200 players: fast
    points = forms.IntegerField(label=_("Points"), widget=NUMBER)
    referee = forms.CharField(label=_("Referee"), max_length=80)
    note = forms.CharField(label=_("Note"), max_length=200, required=False, initial="R17")

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = _choices(players)  # type: ignore[attr-defined]


class ArrivalForm(forms.Form):
    """A player's arrival (R3): time (now by default), phone notice, when he phoned."""

    at = forms.CharField(label=_("Arrival"), max_length=8, widget=TIME)
    phoned = forms.BooleanField(label=_("Phoned"), required=False)
    phoned_at = forms.CharField(
        label=_("Phoned at"), max_length=8, required=False, widget=TIME,
        help_text=_("Only if the notice came after the deadline."),
    )
    reason = forms.CharField(label=_("Why (for a correction)"), max_length=300, required=False)


class SeedForm(forms.Form):
    """The optimiser's seed (optional: a random seating)."""

    seed = forms.CharField(
        label=_("Seed (optional)"), max_length=40, required=False,
        help_text=_("The same seed gives the same seating."),
    )


class SwapForm(forms.Form):
    """Swap two seated players."""

    a = forms.ChoiceField(label=_("Player"))
    b = forms.ChoiceField(label=_("with"))
    reason = forms.CharField(
        label=_("Why (for a correction)"), max_length=300, required=False,
        help_text=_("Kept in the history and the audit log."),
    )

    def __init__(self, *args: Any, seated: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("a", "b"):
            self.fields[name].choices = _choices(seated)  # type: ignore[attr-defined]


class TablesForm(forms.Form):
    """Seat by hand: one table per line, names separated by commas, in turn order."""

    tables = forms.CharField(
        label=_("Tables (one per line, players separated by commas, in turn order)"),
        widget=forms.Textarea(attrs={"rows": 4}),
    )
    reason = forms.CharField(
        label=_("Why (for a correction)"), max_length=300, required=False,
        help_text=_("Kept in the history and the audit log."),
    )

    def clean_tables(self) -> list[list[str]]:
        return [
            [name.strip() for name in line.split(",") if name.strip()]
            for line in _lines(self.cleaned_data["tables"])
        ]


class ScoresForm(forms.Form):
    """A table's scores typed directly: one score per seat, RisiKo! and left-the-game (R13)
    boxes. Fields are numbered by seat (``score_1``, ``risiko_1``, ``abandoned_1`` ...)."""

    def __init__(self, *args: Any, seats: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = list(seats)
        for i, name in enumerate(self.seats, start=1):
            self.fields[f"score_{i}"] = forms.IntegerField(
                label=name, widget=forms.NumberInput(attrs={"inputmode": "numeric"})
            )
            self.fields[f"risiko_{i}"] = forms.BooleanField(label=_("RisiKo!"), required=False)
            self.fields[f"abandoned_{i}"] = forms.BooleanField(
                label=_("Left the game"), required=False
            )
        self.fields["reason"] = forms.CharField(
            label=_("Why (for a correction)"), max_length=300, required=False,
            help_text=_("Kept in the history and the audit log."),
        )

    def rows(self) -> list[dict[str, Any]]:
        """Per seat: its name and bound fields, for the template."""
        return [
            {"seat": i, "player": name, "score": self[f"score_{i}"],
             "risiko": self[f"risiko_{i}"], "abandoned": self[f"abandoned_{i}"]}
            for i, name in enumerate(self.seats, start=1)
        ]

    def values(self) -> tuple[dict[str, int], list[str], list[str]]:
        """``(scores, risiko, abandoned)`` for :func:`services.enter_scores`."""
        d = self.cleaned_data
        scores = {name: int(d[f"score_{i}"]) for i, name in enumerate(self.seats, start=1)}
        risiko = [n for i, n in enumerate(self.seats, start=1) if d.get(f"risiko_{i}")]
        gone = [n for i, n in enumerate(self.seats, start=1) if d.get(f"abandoned_{i}")]
        return scores, risiko, gone


class SheetForm(forms.Form):
    """An end-of-game sheet, JSON or CSV (as ``risiko score`` reads it): pasted or uploaded."""

    text = forms.CharField(
        label=_("Sheet (paste JSON or CSV)"), required=False,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false"}),
    )
    file = forms.FileField(label=_("or upload the file"), required=False)
    abandoned = forms.MultipleChoiceField(
        label=_("Left the game (R13)"), required=False, widget=forms.CheckboxSelectMultiple
    )
    reason = forms.CharField(
        label=_("Why (for a correction)"), max_length=300, required=False,
        help_text=_("Kept in the history and the audit log."),
    )

    def __init__(self, *args: Any, seats: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["abandoned"].choices = _choices(seats)  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("file")
        text = data.get("text", "")
        if upload is not None:
            try:
                check_size("file", upload.size or 0)
            except ServiceError as e:
                raise forms.ValidationError(fault_messages(e)) from None
            raw = upload.read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                text = raw.decode("cp1252", errors="replace")  # spreadsheets saved on Windows
        if not text.strip():
            raise forms.ValidationError(_("Paste the sheet or choose its file."))
        data["sheet_text"] = text
        return data


class AbandonForm(forms.Form):
    """R13 after the result: who left the game."""

    player = forms.ChoiceField(label=_("Player who left the game (R13)"))

    def __init__(self, *args: Any, seats: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = _choices(seats)  # type: ignore[attr-defined]


class PenaltyForm(forms.Form):
    """A referee's penalty in table points (on the player's table) or ranking points."""

    player = forms.ChoiceField(label=_("Player"))
    unit = forms.ChoiceField(label=_("Points"), choices=choices.PenaltyUnit.choices)
    points = forms.IntegerField(
        label=_("Penalty"), widget=forms.NumberInput(attrs={"inputmode": "numeric",
                                                            "placeholder": "-5"}),
        help_text=_("Negative, e.g. -5."),
    )
    reason = forms.CharField(label=_("Reason"), max_length=300)
    referee = forms.CharField(label=_("Referee"), max_length=80)
    at = forms.CharField(label=_("Time"), max_length=8, required=False, widget=TIME)

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = _choices(players)  # type: ignore[attr-defined]


class VoidForm(forms.Form):
    """Void a penalty entered by mistake."""

    reason = forms.CharField(label=_("Why"), max_length=300)


class AppealForm(forms.Form):
    """The chief referee's decision on an appeal."""

    outcome = forms.ChoiceField(
        label=_("Outcome"), choices=choices.AppealOutcome.choices,
        widget=forms.RadioSelect,
    )
    points = forms.IntegerField(
        label=_("Reduced to (points)"), required=False, widget=NUMBER,
        help_text=_("Only for a reduced penalty: between the penalty and 0."),
    )
    referee = forms.CharField(label=_("Chief referee"), max_length=80)
    reason = forms.CharField(label=_("Reason"), max_length=300, required=False)


class DisciplineForm(forms.Form):
    """A disciplinary record (R10)."""

    player = forms.ChoiceField(label=_("Player"))
    level = forms.ChoiceField(label=_("Measure"), choices=choices.DisciplineLevel.choices)
    reason = forms.CharField(label=_("Reason"), max_length=300)
    referee = forms.CharField(label=_("Referee"), max_length=80)
    table_number = forms.IntegerField(
        label=_("Table"), required=False, min_value=1, widget=NUMBER
    )

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = _choices(players)  # type: ignore[attr-defined]


class DrawForm(forms.Form):
    """A draw of lots ordering tied players at a cut."""

    stage = forms.ChoiceField(
        label=_("Stage it seats"),
        choices=[c for c in choices.Stage.choices if c[0] != "qualifying"],
    )
    order = PlayersField(
        label=_("Order drawn, best first (one per line)"),
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    shuffle = forms.BooleanField(
        label=_("Let the console draw (the players above in a random order)"), required=False
    )
    referee = forms.CharField(label=_("Referee"), max_length=80)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class StageForm(forms.Form):
    """Seat the semifinal or the final from the ranking (R18)."""

    stage = forms.ChoiceField(
        label=_("Stage"), choices=[c for c in choices.Stage.choices if c[0] != "qualifying"]
    )
    date = forms.DateField(label=_("Date"), widget=DATE)
    chief_referee = forms.CharField(label=_("Chief referee"), max_length=80, required=False)


class MergePlayersForm(forms.Form):
    """Two players who are one person: ``twin``'s facts become ``keep``'s."""

    keep = forms.ChoiceField(label=_("The player who stays"))
    twin = forms.ChoiceField(label=_("The same person registered again"))

    def __init__(self, *args: Any, players: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("keep", "twin"):
            self.fields[name].choices = _choices(players)  # type: ignore[attr-defined]


class ImportForm(forms.Form):
    """A season file to create a tournament from (committee)."""

    file = forms.FileField(label=_("Season file (JSON)"))
    name = forms.CharField(
        label=_("Name (optional)"), max_length=120, required=False,
        help_text=_("Instead of the name in the file, e.g. when that tournament exists."),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        try:
            check_size("file", upload.size or 0)
            text = upload.read().decode("utf-8-sig")
            loads("file", text)  # too deep, NUL, integers beyond 64 bits: refused by name
            # the season reader keeps a key given twice (plain json.loads drops one)
            return read_season_json(text)
        except UnicodeDecodeError:
            raise forms.ValidationError(_("Not a text file.")) from None
        except ServiceError as e:
            raise forms.ValidationError(fault_messages(e)) from None
        except SeasonError as e:
            p = e.fault.params
            raise forms.ValidationError(
                _("Not valid JSON: %(error)s at line %(line)d column %(column)d"),
                params={"error": p.get("reason", ""), "line": p.get("line", 0),
                        "column": p.get("column", 0)},
            ) from None
