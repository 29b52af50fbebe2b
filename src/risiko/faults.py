"""Faults as values: what went wrong, the clause that says so, and whom it concerns.

Every refusal of the game library, the sheets, the season files, the tournament checks and the
web services is a :class:`Fault`: a ``code`` (stable, e.g. ``attack.r7_three_armies``), the
``clause`` of the regulation (``"R7"``, or ``""`` where no clause applies), the ``subjects``
it names (``player``, ``territory``, ``table``, ``evening``, ``seat``, ``tournament``, ...),
its ``params`` (the numbers and names the message needs) and a ``severity`` (``error``
blocks, ``warning`` does not). Nothing above the library reads a fault's words: callers
branch on ``code``, ``clause`` and ``subjects``.

The words live in catalogues, one per language: the English template is declared with the
code (:func:`define`), the Italian one in ``risiko/locale/it/LC_MESSAGES/*.po`` (compiled to
``.mo`` beside it, read with :mod:`gettext`; the message context is the code). The language of
a message is an argument, or the one set with :func:`use_language` / :func:`set_language`,
by default from ``LANG`` (Italian when it starts with ``it``). JSON is always English.

Errors: :class:`RisikoError` is the one base class of the library (a ``ValueError``, carrying
one or more faults); :class:`InvalidInputError` (bad input: a sheet, a season file, a
position), :class:`IllegalActionError` (a well-formed action the rules refuse now) and
:class:`AmbiguousNameError` (a name that matches more than one thing) are kept apart, as
python-chess keeps its three.

>>> UNKNOWN = define("example.unknown_player", "", "unknown player {player}")
>>> f = Fault(UNKNOWN.code, subjects={"player": "Alab"})
>>> f.message("en")
'unknown player Alab'
>>> f.to_dict()["severity"]
'error'
>>> str(InvalidInputError(f))
'unknown player Alab'
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "LANGUAGES",
    "AmbiguousNameError",
    "Fault",
    "FaultKind",
    "IllegalActionError",
    "InvalidInputError",
    "RisikoError",
    "Severity",
    "current_language",
    "define",
    "kind_of",
    "kinds",
    "set_language",
    "use_language",
]

#: the languages a message can be asked in
LANGUAGES: tuple[str, ...] = ("it", "en")

_LOCALE_DIR = Path(__file__).with_name("locale")


class Severity(StrEnum):
    """``error`` blocks what was asked; ``warning`` is said and lets it through."""

    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class FaultKind:
    """A declared fault: its ``code``, ``clause`` ("" when none) and English ``template``.

    The template names its fields in braces (``{player}``); they come from the fault's
    subjects and params. Declare kinds with :func:`define` where they are raised.
    """

    code: str
    clause: str
    template: str

    def __call__(
        self,
        subjects: Mapping[str, Any] | None = None,
        severity: Severity = Severity.ERROR,
        **params: Any,
    ) -> Fault:
        """A fault of this kind: ``KIND({"player": "Anna"}, armies=3)``."""
        return Fault(self.code, self.clause, dict(subjects or {}), params, severity)


_KINDS: dict[str, FaultKind] = {}


def define(code: str, clause: str, template: str) -> FaultKind:
    """Declare a fault kind (once per code; the same declaration again is harmless).

    Raises ``ValueError`` when ``code`` is already declared with another clause or template.
    """
    kind = FaultKind(code, clause, template)
    old = _KINDS.setdefault(code, kind)
    if old != kind:
        raise ValueError(f"fault code {code!r} declared twice with different words")
    return kind


def kind_of(code: str) -> FaultKind:
    """The declared kind of ``code``; ``KeyError`` when it was never declared."""
    return _KINDS[code]


def kinds() -> list[FaultKind]:
    """Every kind declared so far (modules declare theirs when imported), by code."""
    return [_KINDS[c] for c in sorted(_KINDS)]


# ---------------------------------------------------------------------------- language

def _language_from_environment() -> str:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "")
        if value:
            return "it" if value.lower().startswith("it") else "en"
    return "en"


_LANGUAGE: ContextVar[str | None] = ContextVar("risiko_fault_language", default=None)


def _check_language(lang: str) -> str:
    short = lang.lower().replace("_", "-").split("-")[0]
    if short not in LANGUAGES:
        raise ValueError(f"language {lang!r}: one of {', '.join(LANGUAGES)}")
    return short


def current_language() -> str:
    """The language messages are said in: the one set, else from ``LANG`` ("it" or "en")."""
    return _LANGUAGE.get() or _language_from_environment()


def set_language(lang: str | None) -> None:
    """Say messages in ``lang`` ("it", "en", or a locale such as "it_IT.UTF-8"); None: LANG."""
    _LANGUAGE.set(None if lang is None else _check_language(lang))


@contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Say messages in ``lang`` inside the ``with`` block."""
    token = _LANGUAGE.set(_check_language(lang))
    try:
        yield
    finally:
        _LANGUAGE.reset(token)


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    """Every ``.mo`` of ``locale/<lang>/LC_MESSAGES`` merged (one file per area)."""
    merged: gettext.NullTranslations = gettext.NullTranslations()
    folder = _LOCALE_DIR / lang / "LC_MESSAGES"
    for mo in sorted(folder.glob("*.mo")) if folder.is_dir() else []:
        with mo.open("rb") as fh:
            merged.add_fallback(gettext.GNUTranslations(fh))
    return merged


def template_in(code: str, lang: str) -> str:
    """The message template of ``code`` in ``lang`` (English when there is no translation)."""
    kind = _KINDS.get(code)
    english = kind.template if kind else code
    return _catalogue(_check_language(lang)).pgettext(code, english)


# ---------------------------------------------------------------------------- faults

def _show(value: Any) -> str:
    if isinstance(value, list | tuple | set | frozenset):
        return ", ".join(_show(v) for v in value)
    return str(value)


class _Fields(dict[str, str]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@dataclass(frozen=True)
class Fault:
    """One fault: ``code``, ``clause`` ("R7"; "" when none), ``subjects`` (whom and what it
    names: ``player``, ``territory``, ``table``, ``evening``, ``seat``, ...), ``params`` (the
    values of its message) and ``severity``.

    Subjects and params hold JSON values (strings, integers, lists of them): a fault travels
    as :meth:`to_dict` and back with :meth:`from_dict`.
    """

    code: str
    clause: str = ""
    subjects: Mapping[str, Any] = field(default_factory=dict)
    params: Mapping[str, Any] = field(default_factory=dict)
    severity: Severity = Severity.ERROR

    def __post_init__(self) -> None:
        if not self.clause and self.code in _KINDS:
            object.__setattr__(self, "clause", _KINDS[self.code].clause)
        object.__setattr__(self, "severity", Severity(self.severity))

    def __hash__(self) -> int:
        return hash((self.code, self.clause, repr(sorted(self.subjects.items())),
                     repr(sorted(self.params.items())), self.severity))

    @property
    def is_error(self) -> bool:
        """True when the fault blocks (severity ``error``)."""
        return self.severity is Severity.ERROR

    def message(self, lang: str | None = None) -> str:
        """The fault in words, in ``lang`` (default: :func:`current_language`)."""
        template = template_in(self.code, lang or current_language())
        values = _Fields({k: _show(v) for k, v in {**self.params, **self.subjects}.items()})
        return template.format_map(values)

    def __str__(self) -> str:
        return self.message("en")

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """JSON form: ``{"code", "clause", "severity", "subjects", "params", "message"}``;
        the message in English unless ``lang`` says otherwise."""
        return {
            "code": self.code,
            "clause": self.clause,
            "severity": self.severity.value,
            "subjects": dict(self.subjects),
            "params": dict(self.params),
            "message": self.message(lang),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fault:
        """The fault :meth:`to_dict` wrote (the message is not read back)."""
        return cls(
            str(data["code"]),
            str(data.get("clause", "")),
            dict(data.get("subjects", {})),
            dict(data.get("params", {})),
            Severity(data.get("severity", "error")),
        )


def faults_json(faults: Iterable[Fault]) -> list[dict[str, Any]]:
    """The sibling list ``faults`` of every JSON that reports faults (English messages)."""
    return [f.to_dict() for f in faults]


class RisikoError(ValueError):
    """The library's one base error: one or more :class:`Fault` values.

    ``faults`` holds them all, ``fault`` the first; ``str(error)`` is their English messages,
    one per line; :meth:`messages` says them in a language.
    """

    def __init__(self, *faults: Fault | Sequence[Fault]) -> None:
        flat: list[Fault] = []
        for f in faults:
            if isinstance(f, Fault):
                flat.append(f)
            else:
                flat.extend(f)
        if not flat:
            raise TypeError(f"{type(self).__name__} needs at least one Fault")
        for f in flat:
            if not isinstance(f, Fault):
                raise TypeError(f"{type(self).__name__} takes Fault values, not {f!r}")
        self.faults: tuple[Fault, ...] = tuple(flat)
        super().__init__(*self.faults)

    @property
    def fault(self) -> Fault:
        """The first fault."""
        return self.faults[0]

    def messages(self, lang: str | None = None) -> list[str]:
        """Every fault's message in ``lang`` (default :func:`current_language`)."""
        return [f.message(lang) for f in self.faults]

    def __str__(self) -> str:
        return "\n".join(self.messages("en"))


class InvalidInputError(RisikoError):
    """Input that cannot be read: a sheet, a season file, a position, a record, a name."""


class IllegalActionError(RisikoError):
    """A well-formed action that the rules do not allow now (the clause says which rule)."""


class AmbiguousNameError(InvalidInputError):
    """A name that matches more than one player, territory or objective."""
