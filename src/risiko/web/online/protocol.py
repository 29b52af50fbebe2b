"""The WebSocket protocol of online tables: one JSON Schema per message (docs/online.md).

Client to server: ``auth``, ``act``, ``referee``, ``odds``, ``sync``, ``ping``, ``leave``.
Server to client: ``welcome``, ``state``, ``event``, ``private``, ``ack``, ``refused``,
``odds_result``, ``pong``, ``error``, ``bye``.
Every message is a JSON object with a ``type``; seats are 1-based; territories are named as
``risiko board`` prints them. :func:`markdown` renders the schemas for the documentation (a
test checks that docs/online.md shows exactly these).
"""

from __future__ import annotations

import json
from typing import Any

Schema = dict[str, Any]

_ID = {"type": "string", "minLength": 1, "maxLength": 64,
       "description": "the sender's message id: sent again, it is answered, not applied again"}
_SEQ = {"type": ["integer", "null"], "minimum": 0,
        "description": "the seq of the view the sender acted on (null: do not check)"}
_SEAT = {"type": "integer", "minimum": 1, "maximum": 6}
_TERRITORY = {"type": "string", "minLength": 1, "maxLength": 40}
_FAULT: Schema = {
    "type": "object",
    "required": ["code", "clause", "severity", "subjects", "params", "message"],
    "properties": {
        "code": {"type": "string"},
        "clause": {"type": "string"},
        "severity": {"enum": ["error", "warning"]},
        "subjects": {"type": "object"},
        "params": {"type": "object"},
        "message": {"type": "string", "description": "in the viewer's language"},
    },
}
_CLOCK: Schema = {
    "type": "object",
    "required": ["seconds", "running", "deadline", "remaining_ms"],
    "properties": {
        "seconds": {"type": "integer", "minimum": 0, "description": "R11 limit; 0 = off"},
        "warning_seconds": {"type": "integer"},
        "running": {"type": "boolean"},
        "deadline": {"type": ["string", "null"], "description": "ISO 8601, UTC"},
        "remaining_ms": {"type": ["integer", "null"]},
    },
}
_LOG_ENTRY: Schema = {
    "type": "object",
    "required": ["seq", "actor", "kind", "text", "undone"],
    "properties": {
        "seq": {"type": "integer", "minimum": 1},
        "actor": {"type": "string", "description": "seat:N, bot:N, referee:NAME, clock"},
        "kind": {"enum": ["action", "referee", "clock", "system"]},
        "seat": {"type": ["integer", "null"]},
        "text": {"type": "string",
                 "description": "the record line, dice included ('# ...': not a game action)"},
        "value": {
            "type": "object", "required": ["code", "params"],
            "description": "the entry as a value: players by name, territories as the board "
                           "writes them, dice as lists of pips (risiko.online.log); absent "
                           "for entries written before it",
            "properties": {
                "code": {"type": "string", "description": "log.place, log.attack, ..."},
                "params": {"type": "object"},
                "also": {"type": "array", "description": "what followed it (closing dice)"},
            },
        },
        "messages": {
            "type": "object", "required": ["it", "en"],
            "description": "the value said in each language, dice drawn as dice (⚅ ⚃): "
                           "each viewer shows his",
            "properties": {"it": {"type": "string"}, "en": {"type": "string"}},
        },
        "reason": {"type": "string"},
        "undone": {"type": "boolean"},
    },
}
_TABLE: Schema = {
    "type": "object",
    "description": "the table: seats (the lobby), presence, the commitment, the settings",
    "required": ["code", "name", "kind", "ruleset", "status", "seats", "commitment", "seed"],
    "properties": {
        "code": {"type": "string"}, "name": {"type": "string"},
        "kind": {"enum": ["casual", "tournament"]}, "ruleset": {"type": "string"},
        "status": {"enum": ["lobby", "playing", "paused", "over"]},
        "seats": {"type": "array", "items": {
            "type": "object", "required": ["seat", "player", "kind", "connected"],
            "properties": {
                "seat": _SEAT, "player": {"type": "string"},
                "kind": {"enum": ["open", "member", "guest", "bot"]},
                "bot": {"type": ["string", "null"]}, "connected": {"type": "boolean"},
                "stand_in": {"type": "boolean", "description": "a bot plays for the absent"},
                "r13_requested": {"type": "boolean",
                                  "description": "the referee is asked to declare R13"},
                "level": {"type": ["integer", "null"], "minimum": 1,
                          "description": "the level of the bot that plays the seat (a bot, "
                          "or a stand-in): 1 = weakest"},
                "labels": {"type": "object", "description": "a bot's name by language "
                           "(it, en): Bot Aldo (livello 3)",
                           "additionalProperties": {"type": "string"}},
            },
        }},
        "commitment": {"type": "string", "pattern": "^[0-9a-f]{64}$",
                       "description": "SHA-256 of the seed, public from the creation"},
        "seed": {"type": ["string", "null"], "description": "revealed when the game is over"},
        "settings": {"type": "object"},
        "penalties": {"type": "array"},
    },
}
_PUBLIC: Schema = {
    "type": ["object", "null"],
    "description": "the game as everybody at the table may see it (null in the lobby)",
    "required": ["phase", "round", "to_act", "seats", "territories"],
    "properties": {
        "phase": {"enum": ["setup", "reinforce", "attack", "move", "over"]},
        "round": {"type": "integer", "minimum": 0},
        "to_act": {"type": ["integer", "null"]},
        "pending": {"type": "integer", "description": "armies the seat to act still places"},
        "last_round": {"type": ["integer", "null"]},
        "closing_round": {"type": ["integer", "null"]},
        "closing_band": {"type": ["array", "null"], "items": {"type": "integer"}},
        "move": {"type": ["object", "null"],
                 "description": "the conquest move due: from, to, min, max"},
        "conquests": {"type": "integer"},
        "late_turn": {"type": "boolean", "description": "the seat to act is penalised (R3)"},
        "seats": {"type": "array", "items": {
            "type": "object",
            "required": ["seat", "player", "status", "cards", "territories", "armies",
                         "objective"],
            "properties": {
                "seat": _SEAT, "player": {"type": "string"},
                "status": {"enum": ["in_play", "eliminated", "abandoned"]},
                "cards": {"type": "integer"}, "territories": {"type": "integer"},
                "armies": {"type": "integer"},
                "late_turns": {"type": "integer", "description": "R3 penalised turns left"},
                "objective": {"type": ["object", "null"],
                              "description": "shown to everybody only when the game is over"},
            },
        }},
        "territories": {"type": "array", "minItems": 42, "maxItems": 42, "items": {
            "type": "object", "required": ["t", "name", "owner", "armies"],
            "properties": {"t": {"type": "integer"}, "name": {"type": "string"},
                           "owner": _SEAT, "armies": {"type": "integer", "minimum": 1}},
        }},
        "closing_rolls": {"type": "array"},
        "outcome": {"type": ["object", "null"]},
        "scores": {"type": ["array", "null"]},
    },
}
_PRIVATE: Schema = {
    "type": ["object", "null"],
    "description": "the seat's own secrets: sent to that seat only (null for others)",
    "required": ["seat", "objective", "cards", "sets"],
    "properties": {
        "seat": _SEAT,
        "objective": {"type": "object", "required": ["number", "name", "territories"]},
        "cards": {"type": "array", "items": {
            "type": "object", "required": ["card", "name", "symbol"]}},
        "sets": {"type": "array", "description": "sets it may trade now with their R9 value "
                 "(cards: as a trade sends them; names: as the board writes them)",
                 "items": {"type": "object", "required": ["cards", "value", "bonus"],
                           "properties": {"names": {"type": "array",
                                                    "items": {"type": "string"}}}}},
        "must_trade": {"type": "boolean"},
        "attacks": {"type": "array", "description": "legal attacks now (R7, R8)"},
    },
}

CLIENT: dict[str, Schema] = {
    "auth": {
        "type": "object", "additionalProperties": False, "required": ["type", "token"],
        "description": "a remote bot's first message: its seat's secret token (never in the "
                       "URL, which servers log); answered by a new welcome and state as that "
                       "seat, or refused (online.bad_token) and closed with 4403",
        "properties": {"type": {"const": "auth"},
                       "token": {"type": "string", "minLength": 1, "maxLength": 200}},
    },
    "act": {
        "type": "object", "additionalProperties": False,
        "required": ["type", "id", "action"],
        "properties": {
            "type": {"const": "act"}, "id": _ID, "seq": _SEQ,
            "action": {
                "type": "object", "required": ["kind"],
                "properties": {
                    "kind": {"enum": ["place", "trade", "attack", "move", "fortify", "end"]},
                    "territory": _TERRITORY,
                    "armies": {"type": "integer", "minimum": 1},
                    "cards": {"type": "array", "minItems": 3, "maxItems": 3,
                              "items": {"type": ["string", "integer"]}},
                    "from": _TERRITORY, "to": _TERRITORY,
                },
            },
        },
    },
    "referee": {
        "type": "object", "additionalProperties": False,
        "required": ["type", "id", "command"],
        "properties": {
            "type": {"const": "referee"}, "id": _ID, "seq": _SEQ,
            "command": {
                "type": "object", "required": ["kind"],
                "properties": {
                    "kind": {"enum": ["pause", "resume", "call", "widen", "end_game", "penalty",
                                      "expel", "abandon", "undo", "bot_level"]},
                    "seat": _SEAT,
                    "points": {"type": "integer", "maximum": -1},
                    "level": {"type": "integer", "minimum": 1,
                              "description": "bot_level: the level of the bot that plays "
                              "the seat (a bot's, or a stand-in's for the absent)"},
                    "reason": {"type": "string", "maxLength": 300},
                },
            },
        },
    },
    "odds": {
        "type": "object", "additionalProperties": False,
        "required": ["type", "from", "to"],
        "properties": {"type": {"const": "odds"}, "from": _TERRITORY, "to": _TERRITORY},
    },
    "sync": {
        "type": "object", "additionalProperties": False, "required": ["type"],
        "properties": {"type": {"const": "sync"}, "seq": _SEQ},
    },
    "ping": {
        "type": "object", "additionalProperties": False, "required": ["type"],
        "properties": {"type": {"const": "ping"}},
    },
    "leave": {
        "type": "object", "additionalProperties": False, "required": ["type"],
        "description": "leave the table: a seat in a casual table's lobby is free again; in "
                       "play a bot stands in at once (casual) or the referee is asked for "
                       "R13 (tournament); the server answers bye and closes (1000)",
        "properties": {"type": {"const": "leave"}},
    },
}

SERVER: dict[str, Schema] = {
    "welcome": {
        "type": "object", "required": ["type", "table", "role", "seat", "player", "commitment"],
        "properties": {
            "type": {"const": "welcome"}, "table": {"type": "string"},
            "role": {"enum": ["seat", "spectator", "referee"]},
            "seat": {"type": ["integer", "null"]}, "player": {"type": ["string", "null"]},
            "commitment": {"type": "string"},
        },
    },
    "state": {
        "type": "object",
        "required": ["type", "seq", "table", "game", "private", "clock", "log"],
        "properties": {
            "type": {"const": "state"}, "seq": {"type": "integer", "minimum": 0},
            "table": _TABLE, "game": _PUBLIC, "private": _PRIVATE, "clock": _CLOCK,
            "log": {"type": "array", "items": _LOG_ENTRY},
        },
    },
    "event": {
        "type": "object",
        "required": ["type", "seq", "entries", "table", "game", "private", "clock"],
        "properties": {
            "type": {"const": "event"}, "seq": {"type": "integer", "minimum": 0},
            "entry": {"anyOf": [{"type": "null"}, _LOG_ENTRY]},
            "entries": {"type": "array", "items": _LOG_ENTRY,
                        "description": "the events since the last message (the log)"},
            "table": _TABLE, "game": _PUBLIC, "private": _PRIVATE, "clock": _CLOCK,
        },
    },
    "private": {
        "type": "object", "required": ["type", "seq", "private"],
        "description": "a seat's own secrets changed (sent to that seat only, before the "
                       "event of the same seq); an event's private null means unchanged",
        "properties": {"type": {"const": "private"}, "seq": {"type": "integer"},
                       "private": _PRIVATE},
    },
    "ack": {
        "type": "object", "required": ["type", "id", "seq", "duplicate"],
        "properties": {"type": {"const": "ack"}, "id": _ID, "seq": {"type": "integer"},
                       "duplicate": {"type": "boolean"}},
    },
    "refused": {
        "type": "object", "required": ["type", "id", "seq", "faults"],
        "properties": {"type": {"const": "refused"}, "id": {"type": ["string", "null"]},
                       "seq": {"type": "integer"},
                       "faults": {"type": "array", "minItems": 1, "items": _FAULT}},
    },
    "odds_result": {
        "type": "object", "required": ["type", "from", "to", "legal", "faults"],
        "properties": {
            "type": {"const": "odds_result"}, "from": _TERRITORY, "to": _TERRITORY,
            "legal": {"type": "boolean"}, "faults": {"type": "array", "items": _FAULT},
            "attacker_dice": {"type": "integer"}, "defender_dice": {"type": "integer"},
            "conquest": {"type": "number", "description": "chance of conquering, attacking "
                         "while the rules allow"},
            "expected_losses": {"type": "object",
                                "description": "armies: attacker, defender"},
        },
    },
    "pong": {"type": "object", "required": ["type"], "properties": {"type": {"const": "pong"}}},
    "error": {
        "type": "object", "required": ["type", "message"],
        "properties": {
            "type": {"const": "error"}, "message": {"type": "string"},
            "faults": {"type": "array", "items": _FAULT},
            "close": {"type": "integer", "description": "the server closes the socket with "
                      "this code: 1003 a frame that is not one JSON object in text, 1008 a "
                      "limit (messages per second, sockets per user or address)"},
        },
    },
    "bye": {"type": "object", "required": ["type"], "description": "the answer to leave",
            "properties": {"type": {"const": "bye"}}},
}


def markdown() -> str:
    """The schemas as the Markdown of docs/online.md (one heading and JSON block each)."""
    parts = []
    for side, schemas in (("client → server", CLIENT), ("server → client", SERVER)):
        for name, schema in schemas.items():
            body = json.dumps(schema, indent=2, ensure_ascii=False)
            parts.append(f"### `{name}` ({side})\n\n```json\n{body}\n```\n")
    return "\n".join(parts)
