"""Click's own usage errors ("Missing option '--reason'", "No such option", "Invalid value")
said in the language of ``risiko --lang`` (Italian or English).

Typer's Click says them in English, as plain strings. :func:`say_usage_error` reads what the
error is (its class, its parameter, the value refused) and renders it from our catalogue
(``cli.usage_*`` in ``src/risiko/locale/<lang>/LC_MESSAGES/cli.po``); the root group of
``risiko`` calls it on every usage error before Typer prints it, together with the words
around the message (the "Usage:" line, "Try ... for help.", the "Error" title). A message
of no known shape (one of our own ``typer.BadParameter`` texts) is kept as it is.
"""

from __future__ import annotations

import re
from typing import Any

from typer._click import exceptions as _click

from ..faults import FaultKind, current_language, define

__all__ = ["say_usage_error"]

MISSING = {
    "option": define("cli.usage_missing_option", "", "Missing option {name}."),
    "argument": define("cli.usage_missing_argument", "", "Missing argument {name}."),
    "parameter": define("cli.usage_missing_parameter", "", "Missing parameter {name}."),
}
NO_SUCH_OPTION = define("cli.usage_no_such_option", "", "No such option: {option}")
POSSIBLE = define("cli.usage_possible_options", "", "(Possible options: {options})")
INVALID_VALUE_FOR = define("cli.usage_invalid_value_for", "", "Invalid value for {name}: {why}")
INVALID_VALUE = define("cli.usage_invalid_value", "", "Invalid value: {why}")
USAGE = define("cli.usage_usage", "", "Usage:")
TRY_HELP = define("cli.usage_try_help", "", "Try {command} for help.")
ERROR_TITLE = define("cli.usage_error_title", "", "Error")

#: the English sentences of Click (and Typer) -> the kind that says them in our words
SHAPES: list[tuple[re.Pattern[str], FaultKind]] = [
    (re.compile(r"(?P<value>.+) is not a valid (?P<type>int range|float range|integer|float"
                r"|int|boolean|UUID)\."
                r"(?: Recognized values: .*)?$"),
     define("cli.usage_not_a_number", "", "{value} is not a valid {type}.")),
    (re.compile(r"(?P<value>.+) is not one of (?P<choices>.+)\.$"),
     define("cli.usage_not_a_choice", "", "{value} is not one of {choices}.")),
    (re.compile(r"(?P<kind>File|Directory|Path) (?P<path>'.*') does not exist\.$"),
     define("cli.usage_path_missing", "", "{kind} {path} does not exist.")),
    (re.compile(r"(?P<kind>File|Directory|Path) (?P<path>'.*') is a file\.$"),
     define("cli.usage_path_is_file", "", "{kind} {path} is a file.")),
    (re.compile(r"(?P<kind>File|Directory|Path) (?P<path>'.*') is a directory\.$"),
     define("cli.usage_path_is_directory", "", "{kind} {path} is a directory.")),
    (re.compile(r"(?P<kind>File|Directory|Path) (?P<path>'.*') is not readable\.$"),
     define("cli.usage_path_not_readable", "", "{kind} {path} is not readable.")),
    (re.compile(r"(?P<kind>File|Directory|Path) (?P<path>'.*') is not writable\.$"),
     define("cli.usage_path_not_writable", "", "{kind} {path} is not writable.")),
    (re.compile(r"(?P<value>.+) is not in the range (?P<range>.+)\.$"),
     define("cli.usage_not_in_range", "", "{value} is not in the range {range}.")),
    (re.compile(r"(?P<value>.+) does not match the formats (?P<formats>.+)\.$"),
     define("cli.usage_bad_format", "", "{value} does not match the formats {formats}.")),
    (re.compile(r"Got unexpected extra argument\(s\) \((?P<extra>.*)\)$"),
     define("cli.usage_extra_arguments", "", "Got unexpected extra argument(s) ({extra})")),
    (re.compile(r"Option (?P<option>'[^']*') requires an argument\.$"),
     define("cli.usage_needs_value", "", "Option {option} requires an argument.")),
    (re.compile(r"Option (?P<option>'[^']*') requires (?P<n>\d+) arguments\.$"),
     define("cli.usage_needs_values", "", "Option {option} requires {n} arguments.")),
    (re.compile(r"Option (?P<option>'[^']*') does not take a value\.$"),
     define("cli.usage_takes_no_value", "", "Option {option} does not take a value.")),
    (re.compile(r"No such command (?P<name>'[^']*')\.$"),
     define("cli.usage_no_such_command", "", "No such command {name}.")),
    (re.compile(r"Missing command\.$"),
     define("cli.usage_missing_command", "", "Missing command.")),
]
#: the type names Click puts in "is not a valid ..." (said in the message's language)
TYPE_WORDS = define("cli.usage_type_integer", "", "integer"), define(
    "cli.usage_type_float", "", "number"), define("cli.usage_type_boolean", "", "boolean")


#: the path kinds Typer puts before a path it refuses ("File 'x' does not exist.")
PATH_WORDS = {"File": define("cli.usage_path_word_file", "", "File"),
              "Directory": define("cli.usage_path_word_directory", "", "Directory"),
              "Path": define("cli.usage_path_word_path", "", "Path")}


def _type_word(name: str, lang: str) -> str:
    kind = {"integer": 0, "int": 0, "int range": 0, "float": 1, "float range": 1,
            "boolean": 2}.get(name)
    return name if kind is None else TYPE_WORDS[kind]().message(lang)


def _sentence(text: str, lang: str) -> str:
    """``text`` (a sentence of Click) in ``lang``; unknown shapes are kept as they are."""
    for pattern, kind in SHAPES:
        found = pattern.match(text)
        if found:
            params: dict[str, Any] = found.groupdict()
            if "type" in params:
                params["type"] = _type_word(params["type"], lang)
            if "kind" in params:
                params["kind"] = PATH_WORDS[params["kind"]]().message(lang)
            return kind(None, **params).message(lang)
    return text


def _hint(error: Any) -> str | None:
    hint = error.param_hint
    if hint is None and error.param is not None:
        hint = error.param.get_error_hint(error.ctx)
    if hint is None:
        return None
    return hint if isinstance(hint, str) else " / ".join(hint)


def message_of(error: _click.ClickException, lang: str) -> str:
    """The message of a Click usage error in ``lang`` (see the module's docstring)."""
    if isinstance(error, _click.MissingParameter):
        kind = error.param_type or (error.param.param_type_name if error.param else None)
        said = MISSING.get(kind or "parameter", MISSING["parameter"])(
            name=_hint(error) or "").message(lang)
        return f"{said} {_sentence(error.message, lang)}" if error.message else said
    if isinstance(error, _click.NoSuchOption):
        said = NO_SUCH_OPTION(option=error.option_name).message(lang)
        if error.possibilities:
            said += " " + POSSIBLE(options=", ".join(sorted(error.possibilities))).message(lang)
        return said
    if isinstance(error, _click.BadParameter):
        why = _sentence(error.message, lang)
        hint = _hint(error)
        return (INVALID_VALUE(why=why) if hint is None
                else INVALID_VALUE_FOR(name=hint, why=why)).message(lang)
    return _sentence(error.format_message(), lang)


def say_usage_error(error: _click.ClickException) -> None:
    """Make ``error`` (and the lines Typer prints around it) say itself in the current
    language: its ``format_message``, the "Usage:" line of its context, "Try ... for help."
    and the "Error" title. English words are the catalogue's English (Click's own)."""
    lang = current_language()
    text = message_of(error, lang)
    error.format_message = lambda: text  # type: ignore[method-assign]
    ctx = getattr(error, "ctx", None)
    if ctx is not None:
        usage = ctx.get_usage()
        said = USAGE().message(lang)
        ctx.get_usage = lambda: usage.replace("Usage:", said, 1)
    from typer import rich_utils

    rich_utils.RICH_HELP = TRY_HELP(
        command="[blue]'{command_path} {help_option}'[/]").message(lang)
    rich_utils.ERRORS_PANEL_TITLE = ERROR_TITLE().message(lang)
