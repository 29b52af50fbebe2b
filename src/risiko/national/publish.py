"""Publishing a club's tournament to the national ranking: the report of a finished
tournament of ours, and the signed envelope a club's server sends to the national server.

- :func:`tournament_report`: a finished tournament of this product (the tournament domain,
  :mod:`risiko.tournament`) as a ``risiko-report/1`` (:class:`~risiko.national.report.Report`):
  one round per evening (its date), one game per played table (seats with their table
  scores, the table's winners as :func:`risiko.tournament.ranking.table_winners` names them,
  R13), the standings of R18 (the final standings, then the rest of the qualifying ranking in
  its order, shared ranks kept); only players who sat at a game are in it. A player is named
  by the national register when ``register`` knows his name, else anonymous (national id
  null: he plays, the ranking leaves him out, as RisiKoDataManager leaves out players with no
  id). Refused (``national.publish_not_finished``) until the final has its result: a
  finished tournament is what a club publishes.
- :func:`envelope` / :func:`read_envelope`: the body a club's server POSTs,
  ``{"format": "risiko-publish/1", "revision": N, "report": {risiko-report/1}}`` (UTF-8 JSON).
  ``revision`` is the club's revision number of this tournament's report: the national server
  refuses a number not above every one it received for the tournament (a replayed or older
  report).
- :func:`sign` / :func:`signature_ok`: HMAC-SHA256 over the whole body with the club's key,
  written as the ``X-Risiko-Signature: sha256=<64 hex digits>`` header (the revision number
  is inside the body, so it is signed too). The comparison is constant-time.

>>> body = envelope(_example(), 3)
>>> body[:46]
b'{"format": "risiko-publish/1", "revision": 3, '
>>> sig = sign(body, "k" * 64)
>>> sig.startswith("sha256=") and len(sig) == 71
True
>>> signature_ok(body, "k" * 64, sig), signature_ok(body + b" ", "k" * 64, sig)
(True, False)
>>> revision, report = read_envelope(body)
>>> revision, report.name
(3, 'Open')
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable
from datetime import date
from typing import Any

from ..faults import define, define_words
from ..tournament.finals import Stages
from ..tournament.model import Tournament
from ..tournament.ranking import table_winners
from .categories import Category
from .report import Report, ReportError, ReportGame, ReportPlayer, read_report

__all__ = [
    "ENVELOPE",
    "MAX_REVISION",
    "Registered",
    "club_key_text",
    "envelope",
    "read_envelope",
    "sign",
    "signature_ok",
    "split_club_key",
    "tournament_report",
]

#: the envelope's ``format``
ENVELOPE = "risiko-publish/1"
#: the largest revision number (a PostgreSQL bigint)
MAX_REVISION = 2**63 - 1

NOT_FINISHED = define("national.publish_not_finished", "R18",
                      "{tournament}: not finished (the final has no result yet): "
                      "only a finished tournament is published")
NO_GAMES = define("national.publish_no_games", "",
                  "{tournament}: no game played: nothing to publish")
BAD_ENVELOPE = define("national.publish_envelope", "",
                      "the body is not a risiko-publish/1 envelope: {what}")
#: what is wrong with an envelope (``{what}`` above), said in the message's language
define_words("what", ("fields format, revision, report", "format", "revision"))
NOT_JSON = define("national.publish_not_json", "",
                  "the body is not UTF-8 JSON (a risiko-publish/1 envelope is)")

BAD_KEY = define("national.publish_bad_key", "",
                 "the club key is not a key the national officer issued (ck_..., a dot, "
                 "64 hex digits)")

#: what the register knows of a player: (national id, name, surname, birth date)
Registered = tuple[int, str, str, date | None]


def _split(name: str) -> tuple[str, str]:
    first, _sep, rest = name.partition(" ")
    return first, rest or "-"


def tournament_report(tournament: Tournament, stages: Stages, *, club_id: str,
                      club_name: str, category: Category = Category.CAMPIONATO,
                      register: Callable[[str], Registered | None] = lambda name: None,
                      ) -> Report:
    """The ``risiko-report/1`` of a finished ``tournament`` (its ``stages`` computed by
    :func:`risiko.tournament.finals.compute_stages`), as the module's docstring says; each
    player's name is looked up with ``register`` (None: anonymous). Raises
    :class:`~risiko.national.report.ReportError` (``national.publish_not_finished``,
    ``national.publish_no_games``, or the report's own checks)."""
    if stages.final_standings is None:
        raise ReportError(NOT_FINISHED(tournament=tournament.name))
    ruleset = tournament.ruleset
    evenings = tournament.evenings
    keys = {p.name: f"p{i}" for i, p in enumerate(tournament.players, 1)}
    games: list[ReportGame] = []
    played: set[str] = set()
    for rnd, evening in enumerate(evenings, 1):
        for number, table in enumerate(evening.tables, 1):
            if not table.played:
                continue
            seats = table.results(ruleset)
            winners = table_winners(seats, table.winners)
            games.append(ReportGame(
                rnd, number, tuple((keys[s.player], s.score) for s in seats),
                tuple(keys[s.player] for s in seats if s.player in winners)))
            played.update(s.player for s in seats)
    if not games:
        raise ReportError(NO_GAMES(tournament=tournament.name))
    players = []
    for p in tournament.players:
        if p.name not in played:
            continue
        known = register(p.name)
        if known is None:
            name, surname = _split(p.name)
            players.append(ReportPlayer(keys[p.name], None, name, surname, None))
        else:
            players.append(ReportPlayer(keys[p.name], known[0], known[1], known[2], known[3]))
    standings: list[tuple[str, int]] = []
    final = [p for p in stages.final_standings if p in played]
    standings += [(keys[p], i) for i, p in enumerate(final, 1)]
    position, last_rank = len(standings), None
    for row in stages.standings.rows:
        if row.player in final or row.player not in played:
            continue
        if row.rank != last_rank:
            position = len(standings) + 1
            last_rank = row.rank
        standings.append((keys[row.player], position))
    data = Report("", "", "", category, 0, (), True, tuple(players), tuple(games),
                  tuple(standings)).to_json()
    data["club"] = {"id": club_id, "name": club_name}
    data["tournament"] = {"name": tournament.name, "category": category.value,
                          "rounds": len(evenings),
                          "dates": [e.date.isoformat() for e in evenings], "finished": True}
    return read_report(data)  # every check of a report a club sends


def envelope(report: Report, revision: int) -> bytes:
    """The body a club's server sends: the envelope of ``report`` at ``revision`` (1 to
    :data:`MAX_REVISION`), UTF-8 JSON, keys in the contract's order."""
    if not 1 <= revision <= MAX_REVISION:
        raise ValueError(f"revision {revision} out of 1..{MAX_REVISION}")
    return json.dumps({"format": ENVELOPE, "revision": revision, "report": report.to_json()},
                      ensure_ascii=False).encode()


def read_envelope(body: bytes) -> tuple[int, Report]:
    """``(revision, report)`` from a body; raises :class:`~risiko.national.report.ReportError`
    (``national.publish_not_json``, ``national.publish_envelope``, or the report's faults,
    each named)."""
    try:
        data: Any = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise ReportError(NOT_JSON()) from None
    if not isinstance(data, dict) or set(data) != {"format", "revision", "report"}:
        raise ReportError(BAD_ENVELOPE(what="fields format, revision, report"))
    if data["format"] != ENVELOPE:
        raise ReportError(BAD_ENVELOPE(what="format"))
    revision = data["revision"]
    if (isinstance(revision, bool) or not isinstance(revision, int)
            or not 1 <= revision <= MAX_REVISION):
        raise ReportError(BAD_ENVELOPE(what="revision"))
    return revision, read_report(data["report"])


def club_key_text(key_id: str, secret: str) -> str:
    """The club key as the officer gives it to the club: ``<key id>.<secret>``.

    >>> split_club_key(club_key_text("ck_0a", "f" * 64)) == ("ck_0a", "f" * 64)
    True
    """
    return f"{key_id}.{secret}"


def split_club_key(text: str) -> tuple[str, str]:
    """``(key id, secret)`` of a club key's text (surrounding spaces ignored); raises
    :class:`~risiko.national.report.ReportError` (``national.publish_bad_key``) for anything
    else; the text itself is never in the message."""
    key_id, dot, secret = text.strip().partition(".")
    if (not dot or not key_id.startswith("ck_") or not 3 < len(key_id) <= 40
            or not key_id[3:].isalnum() or len(secret) != 64
            or any(c not in "0123456789abcdef" for c in secret)):
        raise ReportError(BAD_KEY())
    return key_id, secret


def sign(body: bytes, secret: str) -> str:
    """The ``X-Risiko-Signature`` of ``body``: ``"sha256="`` and the hex HMAC-SHA256 of the
    body keyed with the club key's text (UTF-8)."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def signature_ok(body: bytes, secret: str, given: str) -> bool:
    """Whether ``given`` is the signature of ``body`` under ``secret`` (constant time)."""
    return hmac.compare_digest(sign(body, secret).encode(), given.strip().encode("utf-8",
                                                                               "replace"))


def _example() -> Report:
    """A one-game report (the doctests')."""
    return read_report({
        "format": "risiko-report/1", "club": {"id": "mi", "name": "MILANO"},
        "tournament": {"name": "Open", "category": "open", "rounds": 1,
                       "dates": ["2024-03-02"], "finished": True},
        "players": [{"key": k, "national_id": n, "name": k, "surname": "X",
                     "birth_date": None} for k, n in (("a", 1), ("b", 2))],
        "games": [{"round": 1, "table": 1, "winners": ["a"], "seats": [
            {"player": "a", "points": 90}, {"player": "b", "points": 40}]}],
        "standings": [{"player": "a", "position": 1}, {"player": "b", "position": 2}]})
