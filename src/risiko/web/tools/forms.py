"""Forms of the tools: the attack check and the card set (read-only calculators, GET)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from risiko.board import NUM_TERRITORIES, territory_name
from risiko.odds import MAX_ARMIES
from risiko.ruleset import PRESETS
from risiko.web.core import choices


def ruleset_choices() -> list[tuple[str, str]]:
    """The ruleset presets (value = name; the label: the human name and what the version the
    name means is, :func:`risiko.web.core.choices.ruleset_choices`)."""
    return [(name, str(text)) for name, text in choices.ruleset_choices(list(PRESETS))]


def card_choices() -> list[tuple[str, str]]:
    """The cards: the 42 territories (value = number) and the jolly."""
    lang = "en" if (get_language() or "it").startswith("en") else "it"
    names = sorted(
        ((str(t), territory_name(t, lang)) for t in range(NUM_TERRITORIES)), key=lambda c: c[1]
    )
    return [("", "—"), ("jolly", str(_("Jolly (wild card)"))), *names]


def _set_choices(form: forms.Form, name: str, choices: list[tuple[str, str]]) -> None:
    field = form.fields[name]
    assert isinstance(field, forms.ChoiceField)
    field.choices = choices


class AttackForm(forms.Form):
    """Armies on the attacking territory, the attacker's other armies bordering the target,
    armies on the target, ruleset."""

    attacker = forms.IntegerField(
        label=_("Armies on the attacking territory"), min_value=1, max_value=MAX_ARMIES,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    support = forms.IntegerField(
        label=_("Your other armies bordering the target"), min_value=0, max_value=MAX_ARMIES,
        initial=0, required=False,
        help_text=_("R8: the armies on each of your other territories bordering the "
                    "attacked territory count for superiority (they do not attack)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    defender = forms.IntegerField(
        label=_("Armies on the attacked territory"), min_value=1, max_value=MAX_ARMIES,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    ruleset = forms.ChoiceField(label=_("Rules"), choices=ruleset_choices)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _set_choices(self, "ruleset", ruleset_choices())


class CardSetForm(forms.Form):
    """Three cards, the cards in hand, which of the three territories the seat owns."""

    card1 = forms.ChoiceField(label=_("First card"))
    owned1 = forms.BooleanField(label=_("You own this territory"), required=False)
    card2 = forms.ChoiceField(label=_("Second card"))
    owned2 = forms.BooleanField(label=_("You own this territory"), required=False)
    card3 = forms.ChoiceField(label=_("Third card"))
    owned3 = forms.BooleanField(label=_("You own this territory"), required=False)
    hand = forms.IntegerField(
        label=_("Cards in hand, these three included"), min_value=3, max_value=44, initial=3,
        help_text=_("R9: counted at the moment of the trade. With 7 cards and two sets, the "
                    "first is worth 12 (7 in hand), the second 10 (4 in hand)."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    ruleset = forms.ChoiceField(label=_("Rules"))

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("card1", "card2", "card3"):
            _set_choices(self, name, card_choices())
        _set_choices(self, "ruleset", ruleset_choices())

    def cards(self) -> list[str | int]:
        """The three cards as the library takes them (territory number or ``jolly``)."""
        out: list[str | int] = []
        for name in ("card1", "card2", "card3"):
            value = self.cleaned_data[name]
            out.append(int(value) if value.isdigit() else value)
        return out

    def owned(self) -> list[str | int]:
        """The territories of the cards the seat owns."""
        return [
            int(self.cleaned_data[f"card{i}"])
            for i in (1, 2, 3)
            if self.cleaned_data.get(f"owned{i}") and self.cleaned_data[f"card{i}"].isdigit()
        ]


class PositionForm(forms.Form):
    """A position (the JSON of ``risiko position --json``: a sheet plus ``to_act`` and
    ``phase``) whose attacks the referee wants explained."""

    position = forms.CharField(
        label=_("Position (JSON)"),
        help_text=_("A sheet plus \"to_act\" and \"phase\": \"attack\" (as risiko position "
                    "--json writes it). Every attack of the seat to act is listed: the legal "
                    "ones with their dice, the forbidden ones with the clause and its "
                    "numbers."),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
