"""Tournament categories of the national ranking and their ``classe`` factor.

A category says what kind of event a tournament is; the national ranking weighs a result by
it. The ten categories are GestioneTorneo's ``SchedaTorneo.TipoTorneo`` (its workbook's
"Tipologia di Torneo" cell), each accepted by our name, by GestioneTorneo's three-letter code
or by its label:

=============  ====  ==========================
category       code  GestioneTorneo's label
=============  ====  ==========================
raduno         RDN   Raduno Nazionale
master         MST   Torneo Master
open           OPN   Torneo Open
interclub      ITC   Torneo Interclub
campionato     CPP   Campionato Periodico
nazionale      CNI   Campionato Nazionale
inviti         IVT   Torneo a Inviti
squadre        SQD   Torneo a Squadre
2vs2           2V2   Torneo 2VS2
amichevole     AMC   Amichevoli
=============  ====  ==========================

:func:`classe` is RisiKoDataManager's ``RankingScorer.classe``: 5 raduno, 4 master, 2 open,
1.5 interclub, campionato by its planned rounds (0.2 below 3, 0.5 at 3, 0.7 at 4, 0.8 at 5,
1 from 6), 0 for the five others (they count nothing).

>>> parse_category("OPN"), parse_category("torneo open"), parse_category("open")
(<Category.OPEN: 'open'>, <Category.OPEN: 'open'>, <Category.OPEN: 'open'>)
>>> classe(Category.CAMPIONATO, 4), classe(Category.NAZIONALE, 8)
(0.7, 0.0)
"""

from __future__ import annotations

from enum import StrEnum

from ..faults import InvalidInputError, define

__all__ = ["CODES", "LABELS", "Category", "classe", "parse_category"]

UNKNOWN_CATEGORY = define(
    "national.unknown_category", "",
    "{value!r} is not a tournament category: {known}")


class Category(StrEnum):
    """A tournament's category (our names; JSON and URLs use these values)."""

    RADUNO = "raduno"
    MASTER = "master"
    OPEN = "open"
    INTERCLUB = "interclub"
    CAMPIONATO = "campionato"
    NAZIONALE = "nazionale"
    INVITI = "inviti"
    SQUADRE = "squadre"
    DUE_VS_DUE = "2vs2"
    AMICHEVOLE = "amichevole"


#: GestioneTorneo's acronym of each category (``SchedaTorneo.TipoTorneo``'s second value)
CODES: dict[Category, str] = {
    Category.RADUNO: "RDN", Category.MASTER: "MST", Category.OPEN: "OPN",
    Category.INTERCLUB: "ITC", Category.CAMPIONATO: "CPP", Category.NAZIONALE: "CNI",
    Category.INVITI: "IVT", Category.SQUADRE: "SQD", Category.DUE_VS_DUE: "2V2",
    Category.AMICHEVOLE: "AMC",
}

#: GestioneTorneo's label of each category (the workbook's "Tipologia di Torneo"; its
#: ``parseTipoTorneo`` compares it ignoring case)
LABELS: dict[Category, str] = {
    Category.RADUNO: "Raduno Nazionale", Category.MASTER: "Torneo Master",
    Category.OPEN: "Torneo Open", Category.INTERCLUB: "Torneo Interclub",
    Category.CAMPIONATO: "Campionato Periodico", Category.NAZIONALE: "Campionato Nazionale",
    Category.INVITI: "Torneo a Inviti", Category.SQUADRE: "Torneo a Squadre",
    Category.DUE_VS_DUE: "Torneo 2VS2", Category.AMICHEVOLE: "Amichevoli",
}

_BY_TEXT: dict[str, Category] = {}
for _c in Category:
    for _text in (_c.value, CODES[_c], LABELS[_c]):
        _BY_TEXT[_text.casefold()] = _c


def parse_category(value: object) -> Category:
    """The category named by ``value``: our name, GestioneTorneo's code or its label, in any
    case, spaces around ignored.

    Raises :class:`~risiko.faults.InvalidInputError` (``national.unknown_category``) for
    anything else.
    """
    if isinstance(value, str):
        found = _BY_TEXT.get(" ".join(value.split()).casefold())
        if found is not None:
            return found
    raise InvalidInputError(UNKNOWN_CATEGORY(
        value=value, known=", ".join(f"{c.value} ({CODES[c]})" for c in Category)))


def classe(category: Category, rounds: int) -> float:
    """The category's weight in a result's score (RisiKoDataManager ``RankingScorer.classe``).

    ``rounds``: the tournament's planned rounds (``numeroTurni``), read for campionato only.
    The values are the Java's double literals (``new BigDecimal(0.2)`` keeps the double's
    exact value: :func:`risiko.national.ranking.result_score` does the same with
    ``Decimal(0.2)``).

    >>> [classe(Category.CAMPIONATO, r) for r in (1, 2, 3, 4, 5, 6, 12)]
    [0.2, 0.2, 0.5, 0.7, 0.8, 1.0, 1.0]
    >>> classe(Category.RADUNO, 1), classe(Category.INTERCLUB, 3), classe(Category.AMICHEVOLE, 3)
    (5.0, 1.5, 0.0)
    """
    if category is Category.RADUNO:
        return 5.0
    if category is Category.MASTER:
        return 4.0
    if category is Category.OPEN:
        return 2.0
    if category is Category.INTERCLUB:
        return 1.5
    if category is Category.CAMPIONATO:
        if rounds < 3:
            return 0.2
        return {3: 0.5, 4: 0.7, 5: 0.8}.get(rounds, 1.0)
    return 0.0
