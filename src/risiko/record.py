"""Game records: a PGN-like text that replays a game exactly.

A record is a header roster of ``[Key "value"]`` lines, a blank line, then one line per item:
``deal`` (the 42 territories in the order dealt, one at a time in seat order), ``objectives``
(the objective number of each seat), ``deck`` (the 44 cards, top first), then every action,
prefixed by the 1-based seat that made it or ``R`` for the referee, with its dice::

    [Event "Serata di qualificazione"]
    [Date "2027-03-02"]
    [Table "1"]
    [Ruleset "club-milano@1"]
    [Seats "Anna|Bruno|Carla|Dario|Elena"]
    [Late "2"]
    [LastRoundsAt "8"]
    [Result "closing_dice Anna"]

    deal Alaska Perù ...
    objectives 7 13 2 9 1
    deck Cina jolly ...
    1 place Alaska 3
    2 trade Cina Siam jolly = 8 +2 Cina
    3 attack Cina Siam 1-6-5 4-4
    3 move 4
    4 end 2-3
    5 forfeit R3 4
    R call

Territory and card names use underscores for spaces. ``#`` starts a comment. Territories are
written in Italian; any accepted name parses. Dice are written as entered or rolled (the rules
compare them sorted). A trade line gives the set's value by the cards in hand (R9) and each
owned-territory bonus. ``<seat> forfeit <clause> <armies>`` lines say what a seat lost after
the action above them: under R3 (a late seat's penalised turn), R4 (the army limit) or R11 (a
turn that timed out). ``R late <seat>`` marks a seat that arrived late after the start
(R3, :class:`~risiko.actions.Late`). A game that starts from a position has one
``position {...}`` line (the JSON of :mod:`risiko.position`) instead of the deal, objectives
and deck.

The reader is tolerant: older records (dice sorted, trades without value, no forfeit lines)
replay as before; what a record states (values, bonuses, forfeits when it has forfeit lines,
Result, Scores) is checked. :func:`replay` refuses a corrupt record with a
:class:`RecordError` (an InvalidInputError) giving the line number and the reason.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from . import jsonread
from .actions import (
    REFEREE_ACTIONS,
    Action,
    Dice,
    parse_action,
)
from .board import NUM_TERRITORIES, parse_territory, territory_code
from .cards import NUM_CARDS, card_name, parse_card
from .dice import ChanceExhaustedError, ScriptedChance
from .faults import Fault, InvalidInputError, RisikoError, define, fault_param
from .game import Game, IllegalActionError
from .objectives import OBJECTIVES
from .ruleset import get_ruleset
from .state import FORFEIT_CLAUSES

HEADER_ORDER = (
    "Event", "Site", "Date", "Evening", "Table", "Ruleset", "Seats", "Bots", "Late",
    "LastRoundsAt", "Seed", "Chance", "SeedCommitment", "SkippedDraws", "Result", "Rounds",
    "Scores",
)


FAULT = define("record.fault", "", "{reason}")
LINE = define("record.line", "", "line {line}: {reason}")
ILLEGAL = define("record.illegal", "", "illegal: {reason}")
DICE_MISSING = define("record.dice_missing", "", "dice missing for this action")
WRONG_SEAT = define(
    "record.wrong_seat", "", "seat {seat} acts, but it is seat {expected}'s turn"
)
REFEREE_SEAT = define("record.referee_seat", "", "a seat action is marked as the referee's")
AFTER_END = define("record.after_end", "", "action after the end of the game")
RESULT_DIFFERS = define(
    "record.result_differs", "",
    "the record says Result {stated}, the replay gives {replayed}",
)
SCORES_DIFFERS = define(
    "record.scores_differs", "",
    "the record says Scores {stated}, the replay gives {replayed}",
)
SHORT = define(
    "record.short", "", "the record has {actions} actions: no position after action {ply}"
)
HEADER_FORM = define("record.header_form", "", "a header is [Key \"value\"]")
HEADER_QUOTES = define("record.header_quotes", "", "a header value goes in double quotes")
GIVEN_TWICE = define("record.given_twice", "", "'{part}' given twice")
POSITION_NOT_JSON = define("record.position_not_json", "",
                           "position: not valid JSON (line {json_line}, column {json_column})")
POSITION_NOT_OBJECT = define("record.position_not_object", "", "position: a JSON object")
FORFEIT_FORM = define("record.forfeit_form", "",
                      "a forfeit line is '<seat> forfeit R3|R4|R11 <armies>'")
PART_BAD = define("record.part_bad", "", "{part}: {fault}")
EXPECTED_ACTION = define("record.expected_action", "",
                         "expected '<seat> <action>', got {text!r}")
LINE_START = define("record.line_start", "",
                    "a line starts with a seat number or R, not {head!r}")
POSITION_AND_DEAL = define("record.position_and_deal", "",
                           "a record starts from a position or from a deal, not both")
MISSING_HEADER = define("record.missing_header", "", "missing header [{header} \"...\"]")
MISSING_PART = define("record.missing_part", "", "missing the '{part}' line")
POSITION_BAD = define("record.position_bad", "", "position: {fault}")
BAD_LATE = define("record.bad_late", "R3", "bad Late header {value!r}")
NO_SEAT = define("record.no_seat", "", "no seat {seat} at this table")



def _said_fault(error: BaseException) -> Fault | str:
    """The fault an error carries, or its text when it carries none."""
    return error.fault if isinstance(error, RisikoError) else str(error)


FORFEIT_DIFFERS = define(
    "record.forfeit_differs", "",
    "the record says forfeited {stated}, the replay gives {replayed}",
)


class RecordError(InvalidInputError):
    """A corrupt record: ``line`` (1-based, 0 = whole record) and ``reason`` (English).

    ``faults``: the record's fault (code ``record.*``, subject ``line``), then, for an
    illegal action, the game's own fault with the ``line`` subject added.
    """

    def __init__(self, line: int, reason: str | Fault | RisikoError,
                 cause: RisikoError | None = None) -> None:
        self.line = line
        if isinstance(reason, RisikoError):
            reason = reason.fault
        fault = reason if isinstance(reason, Fault) else FAULT(reason=reason)
        subjects = {**fault.subjects, "line": line} if line else dict(fault.subjects)
        fault = Fault(fault.code, fault.clause, subjects, fault.params, fault.severity)
        more = [
            Fault(f.code, f.clause, {**f.subjects, "line": line} if line else f.subjects,
                  f.params, f.severity)
            for f in (cause.faults if cause is not None else ())
        ]
        self.reason = fault.message("en")
        super().__init__(fault, *more)

    def messages(self, lang: str | None = None) -> list[str]:
        """The record's fault in ``lang``, prefixed by its line."""
        first = self.faults[0].message(lang)
        if self.line:
            first = LINE(line=self.line, reason=first).message(lang)
        return [first]

    def __str__(self) -> str:
        return f"line {self.line}: {self.reason}" if self.line else self.reason


@dataclass
class RecordItem:
    """One action line: ``seat`` (0-based, None for the referee) and the action."""

    line: int
    seat: int | None
    action: Action


@dataclass
class ForfeitItem:
    """One forfeit line: ``seat`` (0-based) lost ``armies`` under ``clause`` (R3, R4, R11)
    after the action above it."""

    line: int
    seat: int
    clause: str
    armies: int


@dataclass
class Record:
    """A parsed record: headers, the initial chance, and the action lines."""

    headers: dict[str, str]
    header_lines: dict[str, int] = field(default_factory=dict)
    part_lines: dict[str, int] = field(default_factory=dict)
    deal: list[int] = field(default_factory=list)
    objectives: list[int] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)
    items: list[RecordItem | ForfeitItem] = field(default_factory=list)
    position: dict[str, Any] | None = None


def _dice_text(d: Dice | None) -> str:
    return "-".join(str(x) for x in d) if d else "-"


def write_record(game: Game, headers: dict[str, str] | None = None) -> str:
    """The record of ``game`` (finished or not) as text.

    ``headers`` adds or overrides header lines (Event, Date, Evening, Table, Bots, Seed ...).
    Seat attribution and the forfeit lines are those the game kept
    (:meth:`Game.acted_by`, :meth:`Game.forfeit_lines`).
    """
    h: dict[str, str] = {
        "Ruleset": game.ruleset.label,
        "Seats": "|".join(game.players),
    }
    start = game.start_state
    if game.deal is not None:
        late = [str(s + 1) for s in game.late_seats]
        if late:
            h["Late"] = ",".join(late)
        if start.last_rounds_at is not None:
            h["LastRoundsAt"] = str(start.last_rounds_at)
    if headers:
        h.update(headers)
    if game.outcome is not None:
        h["Result"] = f"{game.outcome.end} {game.outcome.winner or '-'}"
        h["Rounds"] = str(game.outcome.rounds)
        h["Scores"] = "|".join(f"{s.player} {s.score}" for s in game.scores())
    else:
        h["Result"] = "*"
    lines = []
    for key in sorted(h, key=lambda k: (HEADER_ORDER.index(k) if k in HEADER_ORDER else 99, k)):
        value = h[key].replace("\\", "\\\\").replace('"', '\\"')
        lines.append(f'[{key} "{value}"]')
    lines.append("")
    if game.deal is not None:
        lines.append("deal " + " ".join(territory_code(t) for t in game.deal))
        lines.append("objectives " + " ".join(str(o.number) for o in game.objectives))
        lines.append("deck " + " ".join(card_name(c) for c in game.deck_order))
    else:
        from .position import position_of

        lines.append("position " + json.dumps(position_of(start), ensure_ascii=False,
                                              separators=(",", ":")))
    # who made each action, and what it forfeited: kept by the game as it went
    forfeits = game.forfeit_lines()
    for i, (seat, action) in enumerate(zip(game.acted_by(), game.history, strict=True)):
        lines.append(f"{'R' if seat is None else seat + 1} {action.text()}")
        for s, clause, lost in forfeits.get(i, ()):
            lines.append(f"{s + 1} forfeit {clause} {lost}")
    return "\n".join(lines) + "\n"


def _strip_comment(raw: str) -> str:
    """The line without a ``#`` comment; a ``#`` inside a double-quoted string stays."""
    quoted = False
    escaped = False
    for i, ch in enumerate(raw):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return raw[:i]
    return raw


def _parse_action(words: list[str], line: int) -> Action:
    """The action of a record line's words (:func:`risiko.actions.parse_action`); a
    RecordError naming ``line`` for words that are no action."""
    try:
        return parse_action(" ".join(words))
    except ValueError as e:
        raise RecordError(line, _said_fault(e)) from None


def _part_fault(head: str, rec: Record) -> str | None:
    """Why a deal, objectives or deck line cannot be right, or None."""
    if head == "deal" and sorted(rec.deal) != list(range(NUM_TERRITORIES)):
        twice = sorted({territory_code(t) for t in rec.deal if rec.deal.count(t) > 1})
        return ("deal: each of the 42 territories once"
                + (f"; twice: {', '.join(twice)}" if twice else f"; got {len(rec.deal)}"))
    if head == "objectives":
        bad = [o for o in rec.objectives if not 1 <= o <= len(OBJECTIVES)]
        if bad:
            return f"objectives: numbers go from 1 to {len(OBJECTIVES)}, not {bad[0]}"
        if len(set(rec.objectives)) != len(rec.objectives):
            return "objectives: two seats have the same objective"
    if head == "deck" and sorted(rec.deck) != list(range(NUM_CARDS)):
        return "deck: each of the 44 cards once"
    return None


def parse_record(text: str) -> Record:
    """Parse a record's text; raises RecordError (line, reason) on a malformed line."""
    headers: dict[str, str] = {}
    rec = Record(headers)
    seen: set[str] = set()
    for no, raw in enumerate(text.splitlines(), start=1):
        line = _strip_comment(raw).strip() if not raw.lstrip().startswith("[") else raw.strip()
        if not line:
            continue
        if line.startswith("["):
            if not line.endswith("]") or ' "' not in line:
                raise RecordError(no, HEADER_FORM())
            key, _, rest = line[1:-1].partition(" ")
            rest = rest.strip()
            if not (rest.startswith('"') and rest.endswith('"')):
                raise RecordError(no, HEADER_QUOTES())
            headers[key] = rest[1:-1].replace('\\"', '"').replace("\\\\", "\\")
            rec.header_lines[key] = no
            continue
        words = line.split()
        head = words[0]
        if head == "position":
            if "position" in seen:
                raise RecordError(no, GIVEN_TWICE(part="position"))
            seen.add("position")
            rec.part_lines["position"] = no
            try:
                data = jsonread.loads(line[len("position"):].strip())
            except json.JSONDecodeError as e:
                raise RecordError(no, POSITION_NOT_JSON(json_line=e.lineno, json_column=e.colno))\
                    from None
            except InvalidInputError as e:
                raise RecordError(no, e.faults[0]) from None
            if not isinstance(data, dict):
                raise RecordError(no, POSITION_NOT_OBJECT())
            rec.position = data
            continue
        if len(words) >= 2 and words[1] == "forfeit":
            if len(words) != 4 or words[2] not in FORFEIT_CLAUSES or not words[0].isdigit() \
                    or not words[3].isdigit():
                raise RecordError(no, FORFEIT_FORM())
            rec.items.append(ForfeitItem(no, int(words[0]) - 1, words[2], int(words[3])))
            continue
        if head in ("deal", "objectives", "deck"):
            if head in seen:
                raise RecordError(no, GIVEN_TWICE(part=head))
            seen.add(head)
            rec.part_lines[head] = no
            try:
                if head == "deal":
                    rec.deal = [parse_territory(w) for w in words[1:]]
                elif head == "objectives":
                    rec.objectives = [int(w) for w in words[1:]]
                else:
                    rec.deck = [parse_card(w) for w in words[1:]]
            except ValueError as e:
                raise RecordError(no, PART_BAD(part=head, fault=fault_param(e))) from None
            fault = _part_fault(head, rec)
            if fault:
                raise RecordError(no, fault)
            continue
        if len(words) < 2:
            raise RecordError(no, EXPECTED_ACTION(text=line))
        if head == "R":
            seat = None
        else:
            try:
                seat = int(head) - 1
            except ValueError:
                raise RecordError(no, LINE_START(head=head)) from None
        rec.items.append(RecordItem(no, seat, _parse_action(words[1:], no)))
    if rec.position is not None:
        if seen & {"deal", "objectives", "deck"}:
            raise RecordError(rec.part_lines["position"], POSITION_AND_DEAL())
        return rec
    for required in ("Seats",):
        if required not in headers:
            raise RecordError(0, MISSING_HEADER(header=required))
    for part in ("deal", "objectives", "deck"):
        if part not in seen:
            raise RecordError(0, MISSING_PART(part=part))
    return rec


def _start_game(rec: Record) -> Game:
    h = rec.headers
    if rec.position is not None:
        from .position import parse_position

        try:
            state = parse_position(rec.position, ruleset=h.get("Ruleset"))
        except ValueError as e:  # a RisikoError: its first fault; its others follow it
            cause = e if isinstance(e, RisikoError) else None
            raise RecordError(rec.part_lines["position"], POSITION_BAD(fault=fault_param(e)),
                              cause) from None
        return Game.from_state(state, chance=ScriptedChance())
    try:
        ruleset = get_ruleset(h.get("Ruleset"))
    except ValueError as e:
        raise RecordError(0, _said_fault(e)) from None
    players = h["Seats"].split("|")
    late: list[int] = []
    if h.get("Late"):
        try:
            late = [int(x) - 1 for x in h["Late"].split(",")]
        except ValueError:
            raise RecordError(0, BAD_LATE(value=h["Late"])) from None
    lra = h.get("LastRoundsAt")
    try:
        return Game(
            players, ruleset, deal=rec.deal, objectives=rec.objectives, deck=rec.deck,
            chance=ScriptedChance(), late=late,
            last_rounds_at=int(lra) if lra else None,
        )
    except ValueError as e:
        raise RecordError(0, _said_fault(e)) from None


def replay(text: str, *, ply: int | None = None) -> Game:
    """Replay a record exactly and return the game; checks the Result header if present.

    ``ply``: stop after that many actions (0: the start) and return the game there (the
    Result and Scores headers are then not checked; the forfeit lines of the actions
    replayed are). Raises RecordError with the line and reason for any fault: a malformed
    line, an action made by the wrong seat, an illegal action (with the rule's reason),
    missing dice, a trade value or bonus, a forfeit or a result that differs from the
    replay; a record with fewer than ``ply`` actions (``record.short``).
    """
    rec = parse_record(text)
    h = rec.headers
    game = _start_game(rec)
    checks_forfeits = any(isinstance(item, ForfeitItem) for item in rec.items)
    stated: dict[tuple[int, str], int] = {}
    before = [f.copy() for f in game.state.forfeited]
    last_line = 0
    done = 0

    def settle() -> None:
        """Compare the forfeit lines after the last action with the replay."""
        if not checks_forfeits:
            return
        now = game.state.forfeited
        replayed = {
            (s, clause): now[s][k] - before[s][k]
            for s in range(game.n) for k, clause in enumerate(FORFEIT_CLAUSES)
            if now[s][k] != before[s][k]
        }
        if replayed != stated:
            def show(d: dict[tuple[int, str], int]) -> str:
                return ", ".join(f"seat {s + 1} {c} {n}" for (s, c), n in sorted(d.items())) \
                    or "nothing"

            raise RecordError(last_line, FORFEIT_DIFFERS(stated=show(stated),
                                                         replayed=show(replayed)))

    for item in rec.items:
        if isinstance(item, ForfeitItem):
            if not 0 <= item.seat < game.n:
                raise RecordError(item.line, NO_SEAT(seat=item.seat + 1))
            key = (item.seat, item.clause)
            stated[key] = stated.get(key, 0) + item.armies
            last_line = last_line or item.line
            continue
        settle()
        if done == ply:
            return game
        done += 1
        stated = {}
        before = [f.copy() for f in game.state.forfeited]
        last_line = item.line
        if game.over:
            raise RecordError(item.line, AFTER_END())
        if item.seat is not None and item.seat != game.seat:
            raise RecordError(item.line, WRONG_SEAT(seat=item.seat + 1, expected=game.seat + 1))
        if item.seat is None and not isinstance(item.action, REFEREE_ACTIONS):
            raise RecordError(item.line, REFEREE_SEAT())
        try:
            game.push(item.action)
        except ChanceExhaustedError:
            raise RecordError(item.line, DICE_MISSING()) from None
        except IllegalActionError as e:
            raise RecordError(item.line, ILLEGAL(reason=e.fault.to_dict()), e) from None
    settle()
    if ply is not None and done < ply:
        raise RecordError(0, SHORT(actions=done, ply=ply))
    if ply is not None:
        return game
    expected = h.get("Result")
    if expected and expected != "*":
        got = (
            f"{game.outcome.end} {game.outcome.winner or '-'}" if game.outcome else "*"
        )
        if got != expected:
            raise RecordError(
                rec.header_lines.get("Result", 0),
                RESULT_DIFFERS(stated=repr(expected), replayed=repr(got)),
            )
    stored = h.get("Scores")
    if stored and game.outcome is not None:
        got_scores = "|".join(f"{s.player} {s.score}" for s in game.scores())
        if got_scores != stored:
            raise RecordError(
                rec.header_lines.get("Scores", 0),
                SCORES_DIFFERS(stated=repr(stored), replayed=repr(got_scores)),
            )
    return game


def iter_actions(rec: Record) -> Iterable[Action]:
    """The actions of a parsed record, in order."""
    return (item.action for item in rec.items if isinstance(item, RecordItem))
