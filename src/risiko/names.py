"""People's and tournaments' names as people type them.

A name is stored in Unicode NFC with single spaces (:func:`clean_name`) and compared by its
key, NFC + case folding (:func:`name_key`): ``"Luè"``, ``"Lue\\u0300"`` (a combining grave
accent) and ``"LUÈ"`` are one player. Every door (web forms, CLI arguments, season files,
sheets) reads names through these two functions.

A name *search* (the check-in's "find a player", the admin's) also forgives accents:
:func:`search_key` is the name's key without its combining marks, so ``erica``, ``nicolo`` and
``zoe`` find Érica, Nicolò and Zoë (the console's script folds what is typed the same way).

>>> clean_name("  Lue\\u0300   Rossi ") == "Luè Rossi"
True
>>> name_key("LUÈ") == name_key("Lue\\u0300") == "luè"
True
>>> [search_key(n) for n in ("Érica", "Nicolò", "ZOË", "Lue\\u0300")]
['erica', 'nicolo', 'zoe', 'lue']
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from .faults import Fault, InvalidInputError, define

__all__ = ["clean_name", "key_values", "name_faults", "name_key", "same_name", "search_key"]


def clean_name(name: str) -> str:
    """``name`` in NFC, without leading/trailing spaces, inner runs of spaces made one."""
    return " ".join(unicodedata.normalize("NFC", name).split())


def name_key(name: str) -> str:
    """The comparison key of ``name``: :func:`clean_name`, case-folded, NFC again."""
    return unicodedata.normalize("NFC", clean_name(name).casefold())


def search_key(text: str) -> str:
    """The key a name search compares: :func:`name_key` with every combining mark (an
    accent, a diaeresis) taken off, in NFC (``"Nicolò"`` -> ``"nicolo"``)."""
    decomposed = unicodedata.normalize("NFD", name_key(text))
    bare = "".join(c for c in decomposed if not unicodedata.category(c).startswith("M"))
    return unicodedata.normalize("NFC", bare)


def same_name(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are the same name however typed."""
    return name_key(a) == name_key(b)


# ---------------------------------------------------------------------------- a name held

NAME_INVISIBLE = define("name.invisible", "",
                        "{field}: invisible characters and writing-direction marks are not "
                        "allowed")
NAME_NO_LETTER = define("name.no_letter", "", "{field}: a name needs a letter or a digit")
NAME_MARKUP = define("name.markup", "", "{field}: the characters < and > are not allowed")
NAME_LOOKALIKE = define("name.lookalike", "",
                        "{field}: {word!r} mixes look-alike letters (another alphabet, "
                        "full-width or styled letters)")
#: letters that show as nothing (Hangul fillers, the Braille blank)
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
#: alphabets whose letters look like Latin ones ("Аnna" with a Cyrillic А)
_LOOKALIKE_SCRIPTS = frozenset({"LATIN", "CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC"})


def name_faults(name: str, field: str) -> list[Fault]:
    """What keeps ``name`` (cleaned: :func:`clean_name`) from being a name others read as
    it is: an invisible or writing-direction character (zero-width space, right-to-left
    override: Unicode's format characters, blank letters), no letter or digit at all, HTML's
    ``<`` ``>``, a word mixing look-alike alphabets (Latin with Cyrillic or Greek) or
    full-width and styled letters. ``field``: the field's label, said in the message.

    >>> name_faults("Luè Rossi", "your name") + name_faults("Ёлка", "your name")
    []
    >>> [f.code for f in name_faults("\u200b\u200b", "your name")]
    ['name.invisible', 'name.no_letter']
    >>> [f.code for f in name_faults("Anna\u202e", "your name")]
    ['name.invisible']
    >>> [f.code for f in name_faults("\u0410nna <b>", "your name")]
    ['name.markup', 'name.lookalike']
    >>> [f.code for f in name_faults("\uff21nna", "your name")]  # a full-width A
    ['name.lookalike']
    """
    faults = []
    if any(unicodedata.category(c) == "Cf" or c in _BLANK for c in name):
        faults.append(NAME_INVISIBLE(field=field))
    if not any(c.isalnum() and c not in _BLANK for c in name):
        faults.append(NAME_NO_LETTER(field=field))
    if "<" in name or ">" in name:
        faults.append(NAME_MARKUP(field=field))
    for word in name.split():
        scripts = {unicodedata.name(c, "?").split(" ")[0] for c in word if c.isalpha()}
        styled = any(c.isalpha() and c not in _BLANK and unicodedata.normalize("NFKC", c) != c
                     for c in word)
        if styled or len(scripts & _LOOKALIKE_SCRIPTS) > 1:
            faults.append(NAME_LOOKALIKE(field=field, word=word))
            break
    return faults


# ---------------------------------------------------------------------------- NAME=VALUE

NOT_KEY_VALUE = define("name.not_key_value", "",
                       "{field}: write NAME=VALUE (for example Anna=57)")
PLAYER_TWICE = define("name.player_twice", "", "{player} is given twice ({values})")
TERRITORY_TWICE = define("name.territory_twice", "", "{territory} is given twice ({values})")


def key_values(items: Iterable[str], subject: str = "player") -> dict[str, str]:
    """``["Anna=57", "Bruno=40"]`` as ``{"Anna": "57", "Bruno": "40"}``, names cleaned
    (:func:`clean_name`), in the order given.

    ``subject`` is ``"player"`` or ``"territory"``: what the names are. Raises
    :class:`~risiko.faults.InvalidInputError` with every fault: an item without ``=`` or
    without a name, a name given twice however typed (``Bruno=10 ... BRUNO=50``).

    >>> key_values(["Anna=57", "Lue\\u0300=40"]) == {"Anna": "57", "Luè": "40"}
    True
    >>> key_values(["Bruno=10", "Carla=20", "bruno=50"])
    Traceback (most recent call last):
    ...
    risiko.faults.InvalidInputError: Bruno is given twice (10, 50)
    """
    twice = PLAYER_TWICE if subject == "player" else TERRITORY_TWICE
    faults = []
    seen: dict[str, tuple[str, list[str]]] = {}
    for item in items:
        name, sep, value = item.rpartition("=")
        name = clean_name(name)
        if not sep or not name:
            faults.append(NOT_KEY_VALUE({"field": item}))
            continue
        seen.setdefault(name_key(name), (name, []))[1].append(value.strip())
    out: dict[str, str] = {}
    for name, values in seen.values():
        if len(values) > 1:
            faults.append(twice({subject: name}, values=values))
        out[name] = values[-1]
    if faults:
        raise InvalidInputError(faults)
    return out
