"""Faults as values: what went wrong, the clause that says so, and whom it concerns.

Every refusal of the game library, the sheets, the season files, the tournament checks and the
web services is a :class:`Fault`: a ``code`` (stable, e.g. ``attack.r7_dice_parity``), the
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
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "FIELDS",
    "LANGUAGES",
    "WORDS",
    "AmbiguousNameError",
    "Fault",
    "FaultKind",
    "IllegalActionError",
    "InvalidInputError",
    "RisikoError",
    "Severity",
    "alias",
    "aliases_of",
    "current_language",
    "define",
    "define_words",
    "fault_param",
    "kind_of",
    "kinds",
    "set_language",
    "use_language",
    "value_param",
    "where",
    "word",
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
    subjects and params. A field may ask for a form: ``{place:ordinal}`` (10th / 10º),
    ``{players:and}`` (Anna, Bruno and Carla / Anna, Bruno e Carla), ``{names:or}`` (Alba or
    Alma / Alba o Alma), ``{count:times}`` (twice / 2 volte). Values of the keys in
    :data:`WORDS` (``stage``, ``unit``, ...) are said in the message's language. A param
    holding a fault's JSON form (``{"code", "subjects", "params"}``) is said as that fault.

    ``located`` kinds say where first: ``evening 2027-03-02 (qualifying), table 2, line 5:``
    from the subjects ``evening`` (with the param ``stage``), ``table``, ``field`` and
    ``line`` (see :func:`where`), so a template says only what is wrong. Declare kinds with
    :func:`define` where they are raised.
    """

    code: str
    clause: str
    template: str
    located: bool = False

    def __call__(
        self,
        subjects: Mapping[str, Any] | None = None,
        severity: Severity = Severity.ERROR,
        **params: Any,
    ) -> Fault:
        """A fault of this kind: ``KIND({"player": "Anna"}, armies=3)``."""
        return Fault(self.code, self.clause, dict(subjects or {}), params, severity)


_KINDS: dict[str, FaultKind] = {}


def define(code: str, clause: str, template: str, *, located: bool = False) -> FaultKind:
    """Declare a fault kind (once per code; the same declaration again is harmless).

    ``located``: the message starts with where the fault is (see :class:`FaultKind`).
    Raises ``ValueError`` when ``code`` is already declared with another clause or template.
    """
    kind = FaultKind(code, clause, template, located)
    old = _KINDS.setdefault(code, kind)
    if old != kind:
        raise ValueError(f"fault code {code!r} declared twice with different words")
    return kind


def kind_of(code: str) -> FaultKind:
    """The declared kind of ``code`` (an old code: the kind it is an alias of, see
    :func:`alias`); ``KeyError`` when it was never declared."""
    return _KINDS[_ALIASES.get(code, code)]


#: old code -> the code of the one fault it now is (:func:`alias`)
_ALIASES: dict[str, str] = {}


def alias(old: str, kind: FaultKind) -> None:
    """Keep ``old``, a code that JSON contracts (``risiko tournament --json``, the public
    API, the online tables' ``refused`` frames) showed before several doors' faults of one
    rule became one kind, as an alias of ``kind``: a fault of ``kind`` lists it in its JSON
    ``aliases``. ``old`` is no kind of its own (``ValueError`` when it is still declared, or
    is an alias of another kind already)."""
    if old in _KINDS or _ALIASES.get(old, kind.code) != kind.code:
        raise ValueError(f"fault code {old!r} is a kind or another kind's alias")
    _ALIASES[old] = kind.code


def aliases_of(code: str) -> list[str]:
    """The old codes that are aliases of ``code`` (sorted; [] when none)."""
    return sorted(old for old, new in _ALIASES.items() if new == code)


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
    """Every ``.mo`` of ``locale/<lang>/LC_MESSAGES`` merged (one file per area) into one
    catalogue: the first file (by name) holding a message gives it, as a chain of fallbacks
    would, but a message is one dictionary look-up instead of one per file until it is found
    (two dozen files: a log entry said in two languages went down that chain a dozen times,
    docs/benchmarks.md, "Online tables")."""
    folder = _LOCALE_DIR / lang / "LC_MESSAGES"
    merged: gettext.NullTranslations | None = None
    for mo in sorted(folder.glob("*.mo")) if folder.is_dir() else []:
        with mo.open("rb") as fh:
            found = gettext.GNUTranslations(fh)
        if merged is None:
            merged = found
            continue
        into: dict[Any, str] = merged._catalog  # type: ignore[attr-defined]
        for key, text in found._catalog.items():  # type: ignore[attr-defined]
            into.setdefault(key, text)
    return merged if merged is not None else gettext.NullTranslations()


def template_in(code: str, lang: str) -> str:
    """The message template of ``code`` in ``lang`` (English when there is no translation)."""
    kind = _KINDS.get(code)
    english = kind.template if kind else code
    return _catalogue(_check_language(lang)).pgettext(code, english)


# ---------------------------------------------------------------------------- words

#: subject and param keys whose values are words of the domain, said in the message's
#: language (catalogue context ``word.<key>``): ``{"stage": "final"}`` is "finale" in Italian
WORDS: dict[str, tuple[str, ...]] = {}


def define_words(key: str, values: Sequence[str]) -> None:
    """Declare ``values`` as words of ``key`` (translated in messages; see :data:`WORDS`)."""
    WORDS[key] = tuple(dict.fromkeys((*WORDS.get(key, ()), *values)))


define_words("stage", ("qualifying", "semifinal", "final"))
#: the fields a message names (a key of a season file, a field of a form, a checked value):
#: said by their label in the message's language, never as the program's name for them
FIELDS = (
    "absent", "appeal points", "arrivals", "at", "carry-over points", "carry_over",
    "closing", "conquests", "dice total", "discipline", "draws", "evenings", "file",
    "format", "format_params", "penalised", "penalties", "penalty points", "phoned_at",
    "player", "players", "points", "position", "reason", "ruleset", "ruleset version",
    "schedule", "scores", "seat", "season", "seed", "sheet", "state", "table name",
    "table number", "table score", "table_number", "tournament", "username", "your name",
)
define_words("field", FIELDS)


def word(key: str, value: str, lang: str | None = None) -> str:
    """A word of the domain (``word("stage", "final", "it") == "finale"``)."""
    return _catalogue(_check_language(lang or current_language())).pgettext(
        f"word.{key}", value)


def _ordinal(n: Any, lang: str) -> str:
    try:
        number = int(n)
    except (TypeError, ValueError):
        return str(n)
    if lang == "it":
        return f"{number}º"
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(
        number % 10, "th")
    return f"{number}{suffix}"


class _Value:
    """A subject or param as a message shows it, in one language (see :class:`FaultKind`)."""

    def __init__(self, key: str, raw: Any, lang: str) -> None:
        self.key, self.raw, self.lang = key, raw, lang

    def _one(self, v: Any) -> str:
        if isinstance(v, Mapping) and "code" in v:
            return Fault.from_dict(v).message(self.lang)
        if isinstance(v, str) and self.key in WORDS:
            return word(self.key, v, self.lang)
        return str(v)

    def _items(self) -> list[str]:
        raw = self.raw
        if isinstance(raw, list | tuple | set | frozenset):
            return [self._one(v) for v in raw]
        return [self._one(raw)]

    def __str__(self) -> str:
        return ", ".join(self._items())

    def __repr__(self) -> str:
        return repr(self.raw)

    def __format__(self, spec: str) -> str:
        if spec == "ordinal":
            return _ordinal(self.raw, self.lang)
        if spec == "times":
            if self.lang == "it":
                return f"{self.raw} volte"
            return "twice" if self.raw == 2 else f"{self.raw} times"
        if spec in ("and", "or"):
            items = self._items()
            if len(items) <= 1:
                return "".join(items)
            if spec == "or":
                return (" o " if self.lang == "it" else " or ").join(items)
            return ", ".join(items[:-1]) + (" e " if self.lang == "it" else " and ") + items[-1]
        return format(str(self), spec)


class _Fields(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


# ---------------------------------------------------------------------------- where

WHERE_EVENING = define("where.evening", "", "evening {evening} ({stage})")
WHERE_EVENING_DATE = define("where.evening_date", "", "evening {evening}")
WHERE_TABLE = define("where.table", "", "table {table}")
WHERE_LINE = define("where.line", "", "line {line}")
WHERE_ROW = define("where.row", "", "row {row}")
WHERE_STAGE = define("where.stage", "", "{stage}")
WHERE_SEAT = define("where.seat", "", "seat {seat}")
WHERE_DRAW = define("where.draw", "", "draw {draw}")
WHERE_DRAW_STAGE = define("where.draw_stage", "", "draw {draw} ({stage})")


def fault_param(error: BaseException) -> Any:
    """An error as a param of another fault: its first fault (in JSON form, so a message
    says it in its own language), or its text when it carries none."""
    if isinstance(error, RisikoError):
        return error.fault.to_dict()
    return str(error)


def value_param(value: object) -> Any:
    """A value read from input as a param of a fault: a JSON scalar (None, a bool, a number,
    text) as it is, anything else as its ``repr`` (a fault's JSON holds only JSON).

    >>> value_param(21), value_param(["a"])
    (21, "['a']")
    """
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return repr(value)


def where(subjects: Mapping[str, Any], params: Mapping[str, Any], lang: str,
          template: str = "") -> str:
    """Where a located fault is, in ``lang``: ``evening 2027-03-02 (qualifying), table 2,
    arrivals, line 5: Anna`` from the subjects ``evening`` (and ``stage``; a ``stage`` alone
    is said too), ``table``, ``field`` (a key of the file or a form: said by its label, see
    :data:`FIELDS`), ``draw``, ``line`` / ``row``, then the ``seat``, ``player`` and
    ``territory`` the ``template`` does not name itself; "" when none."""
    values = _Fields({k: _Value(k, v, lang) for k, v in {**params, **subjects}.items()})
    parts: list[str] = []
    if "evening" in subjects:
        kind = WHERE_EVENING if "stage" in values else WHERE_EVENING_DATE
        parts.append(template_in(kind.code, lang).format_map(values))
    elif "stage" in subjects and "draw" not in subjects:
        parts.append(template_in(WHERE_STAGE.code, lang).format_map(values))
    if "table" in subjects:
        parts.append(template_in(WHERE_TABLE.code, lang).format_map(values))
    if subjects.get("field"):
        label = word("field", str(subjects["field"]), lang)
        if not template.startswith(label + ":"):  # "formato: ..." says its field itself
            parts.append(label)
    if "draw" in subjects:
        kind = WHERE_DRAW_STAGE if "stage" in values else WHERE_DRAW
        parts.append(template_in(kind.code, lang).format_map(values))
    for key, kind in (("line", WHERE_LINE), ("row", WHERE_ROW)):
        if key in subjects:
            parts.append(template_in(kind.code, lang).format_map(values))
    names: list[str] = []
    if "seat" in subjects and not subjects.get("player") and "{seat" not in template:
        names.append(template_in(WHERE_SEAT.code, lang).format_map(values))
    for key in ("player", "territory"):
        if subjects.get(key) and "{" + key not in template:
            names.append(str(values[key]))
    return ": ".join(x for x in (", ".join(parts), *names) if x)


# ---------------------------------------------------------------------------- faults


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

    def at(self, **subjects: Any) -> Fault:
        """This fault with more subjects (where it is: ``evening``, ``table``, ``field``,
        ``player``, ...); subjects it has already are kept."""
        return replace(self, subjects={**subjects, **self.subjects})

    @property
    def is_error(self) -> bool:
        """True when the fault blocks (severity ``error``)."""
        return self.severity is Severity.ERROR

    def message(self, lang: str | None = None) -> str:
        """The fault in words, in ``lang`` (default: :func:`current_language`); a located
        kind starts with where it is (see :func:`where`)."""
        lang = _check_language(lang or current_language())
        template = template_in(self.code, lang)
        values = _Fields({k: _Value(k, v, lang)
                          for k, v in {**self.params, **self.subjects}.items()})
        text = template.format_map(values)
        kind = _KINDS.get(self.code)
        if kind is not None and kind.located:
            place = where(self.subjects, self.params, lang, template)
            if place:
                return f"{place}: {text}"
        return text

    def __str__(self) -> str:
        return self.message("en")

    def to_dict(self, lang: str = "en") -> dict[str, Any]:
        """JSON form: ``{"code", "clause", "severity", "subjects", "params", "message"}``;
        the message in English unless ``lang`` says otherwise; ``aliases`` too when the code
        has any (the old codes of the same fault, :func:`alias`)."""
        out: dict[str, Any] = {
            "code": self.code,
            "clause": self.clause,
            "severity": self.severity.value,
            "subjects": dict(self.subjects),
            "params": dict(self.params),
            "message": self.message(lang),
        }
        old = aliases_of(self.code)
        if old:
            out["aliases"] = old
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Fault:
        """The fault :meth:`to_dict` wrote (the message is not read back; an old code is
        read as the kind it is an alias of)."""
        return cls(
            _ALIASES.get(str(data["code"]), str(data["code"])),
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
