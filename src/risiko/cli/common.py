"""Shared plumbing of the command line: options, JSON output, faults, who, the database.

- :data:`JsonOpt`, :data:`ByOpt`, :data:`RulesetOpt`: the options every family uses;
- :func:`emit_json` (UTF-8 names kept), :func:`fail` (one ``error:`` line, exit 2),
  :func:`fail_faults` (one line per fault, in the language of ``risiko --lang``, exit 1),
  :func:`faults_of` (the :class:`~risiko.faults.Fault` values an error carries);
- :func:`who` ("who made this change" for the audit log: ``--by`` or the login name);
- :func:`start_django` (the one start-up of the web app's database for the CLI; without the
  ``[web]`` extra it exits with one line saying how to install it).

Rich names are escaped with :func:`rich.markup.escape` wherever a name is printed.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from typing import TYPE_CHECKING, Annotated, Any, NoReturn, TypeVar

import typer
from rich.console import Console
from rich.markup import escape

from ..faults import Fault, RisikoError, current_language, define, define_words, faults_json

if TYPE_CHECKING:
    from ..ruleset import Ruleset

__all__ = [
    "ByOpt",
    "JsonOpt",
    "RulesetOpt",
    "console",
    "emit_json",
    "err_console",
    "fail",
    "fail_faults",
    "fault_lines",
    "faults_of",
    "require_web",
    "ruleset_or_fail",
    "start_django",
    "who",
]

console = Console()
err_console = Console(stderr=True)

#: ``--json``: machine-readable output (English, shape-stable)
JsonOpt = Annotated[bool, typer.Option("--json", help="machine-readable output")]
#: ``--by``: who makes the change (audit log; default: the login name)
ByOpt = Annotated[str, typer.Option("--by", help="who makes the change (audit log)")]
#: ``--club SLUG``: the club whose tournaments a command reads and writes (issue 21 item 1)
ClubOpt = Annotated[str | None, typer.Option(
    "--club", metavar="SLUG", help="the club whose tournament it is (default: the "
    "tournament's club when only one club has it; a new one: the default club)",
    show_default=False)]
#: ``--ruleset``: a ruleset preset
RulesetOpt = Annotated[
    str | None, typer.Option("--ruleset", help="club-milano (default), rtu or classic")
]


def emit_json(data: Any) -> None:
    """Print ``data`` as indented JSON (UTF-8 names kept)."""
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")


ERROR_LINE = define("cli.error", "", "error: {message}")
AT_LEAST_ONE = define("cli.at_least_one", "", "{option} must be at least 1, not {value}")
SEATS_RANGE = define("cli.seats_range", "R1", "--seats {seats}: a table has 3 to 6 seats")
CANNOT_READ = define("cli.cannot_read", "", "cannot read {path}: {reason}")
IN_FILE = define("cli.in_file", "", "{path}: {fault}")
WEB_EXTRA = define("cli.web_extra", "",
                   "the database needs the web extra: pip install 'risiko-club[web]' "
                   "(or use a season file: risiko tournament --file SEASON.json ...)")
DATABASE_UNREACHABLE = define("cli.database_unreachable", "", "database: {detail}")
BAD_JSON = define("cli.bad_json", "", "{path}: not valid JSON (line {line}, column {column})")

#: why a file cannot be read or written, said in the message's language
REASONS = ("no such file", "permission denied", "is a directory", "not UTF-8 text",
           "not readable")
define_words("reason", REASONS)


def os_reason(error: BaseException) -> str:
    """Why a file could not be read or written, as one of :data:`REASONS` (the OS's own
    words stay out of a message: they are English)."""
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, PermissionError):
        return "permission denied"
    if isinstance(error, IsADirectoryError):
        return "is a directory"
    if isinstance(error, UnicodeDecodeError):
        return "not UTF-8 text"
    return "not readable"


def in_file(path: object, error: BaseException) -> list[Fault]:
    """The faults of ``error``, each said after the file ``path`` (``torneo.json: ...``)."""
    from ..record import LINE, RecordError

    faults = faults_of(error)
    if not faults:
        return [IN_FILE(path=str(path), fault=str(error))]
    if isinstance(error, RecordError):  # the record's fault, at its line
        first = faults[0]
        said = LINE(line=error.line, reason=first.to_dict()) if error.line else first
        return [IN_FILE(first.subjects, path=str(path), fault=said.to_dict())]
    return [IN_FILE(f.subjects, f.severity, path=str(path), fault=f.to_dict())
            for f in faults]


#: True while a command run with ``--json`` refuses in JSON too (:func:`refusals_in_json`)
_JSON_REFUSALS: ContextVar[bool] = ContextVar("json_refusals", default=False)
_Command = TypeVar("_Command", bound=Callable[..., Any])


def refusals_in_json(command: _Command) -> _Command:
    """A command whose ``--json`` (its ``json_out`` parameter) holds for its refusals too:
    every :func:`fail` and :func:`fail_faults` while it runs also prints
    ``{"faults": [{"code", "clause", "severity", "subjects", "params", "message"}]}``
    (English messages) on stdout, so a script reads the refusal, not an empty stdout; the
    exit code and the lines on stderr are the same as without ``--json``."""
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        token = _JSON_REFUSALS.set(bool(kwargs.get("json_out")))
        try:
            return command(*args, **kwargs)
        finally:
            _JSON_REFUSALS.reset(token)
    return run  # type: ignore[return-value]


def _emit_faults(faults: list[Fault]) -> None:
    if faults:
        emit_json({"faults": faults_json(faults)})


def fail(message: str | Fault | BaseException | list[Fault], code: int = 2) -> NoReturn:
    """Print one ``error:`` line per fault to stderr, in the language of ``risiko --lang``
    (``errore:`` in Italian), and exit with ``code`` (2); under :func:`refusals_in_json`
    with ``--json``, the faults also as JSON on stdout.

    ``message``: a :class:`~risiko.faults.Fault` (``KIND(params...)``) or an error carrying
    faults (each said in the language); a plain string is printed as it is (a name, a path).
    """
    lang = current_language()
    faults: list[Fault] = []
    if isinstance(message, Fault):
        faults = [message]
        lines = [message.message(lang)]
    elif isinstance(message, BaseException):
        faults = faults_of(message)
        lines = fault_lines(message)
    elif isinstance(message, list):
        faults = list(message)
        lines = [f.message(lang) for f in message]
    else:
        lines = [message]
    if _JSON_REFUSALS.get():
        _emit_faults(faults)
    for line in lines:
        text = ERROR_LINE(message=line).message(lang)
        err_console.print(escape(text), highlight=False, soft_wrap=True)
    raise typer.Exit(code)


#: what the web commands need (the ``web`` extra)
WEB_MODULES = ("django", "dj_database_url", "uvicorn", "channels", "whitenoise")


def require_web(command: str) -> None:
    """Exit 1 with one line when the ``web`` extra is not installed (``pip install
    risiko-club`` gives the library and the game commands; ``risiko-club[web]`` adds the web
    app that ``serve``, ``backup``, ``restore`` and the database need)."""
    import importlib.util

    missing = [m for m in WEB_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        fail(f"risiko {command} needs the web app: pip install 'risiko-club[web]' "
             f"(missing: {', '.join(missing)})", code=1)


def faults_of(error: BaseException) -> list[Fault]:
    """The faults an error carries (a :class:`RisikoError`, or any error with ``faults``
    holding :class:`Fault` values); [] when it carries none."""
    if isinstance(error, RisikoError):
        return list(error.faults)
    found = getattr(error, "faults", None)
    if isinstance(found, Iterable) and not isinstance(found, str):
        items = list(found)
        if items and all(isinstance(f, Fault) for f in items):
            return items
    return []


def fault_lines(error: BaseException | Iterable[Fault]) -> list[str]:
    """One line per fault, in the current language (``risiko --lang``); an error without
    faults gives its own text."""
    if isinstance(error, BaseException):
        faults = faults_of(error)
        if not faults:
            return [str(error)]
    else:
        faults = list(error)
    lang = current_language()
    return [f.message(lang) for f in faults]


def fail_faults(error: BaseException | Iterable[Fault], code: int = 1,
                as_json: bool = False) -> NoReturn:
    """Print every fault on stderr, one line each, and exit with ``code`` (1).

    With ``as_json`` (or under :func:`refusals_in_json` with ``--json``) the faults are also
    printed on stdout as ``{"faults": [...]}`` (English, see
    :func:`risiko.faults.faults_json`), so a script reads them without parsing text.
    """
    if as_json or _JSON_REFUSALS.get():
        _emit_faults(faults_of(error) if isinstance(error, BaseException) else list(error))
    for line in fault_lines(error):
        typer.echo(line, err=True)
    raise typer.Exit(code)


def ruleset_or_fail(name: str | None, *, new: bool = False) -> Ruleset:
    """The named ruleset, or exit 2 with one line naming the known presets. ``new``: for a
    game created now, a bare name (or none) is the newest version
    (:func:`risiko.ruleset.new_ruleset`); else the version a bare name always meant."""
    from ..ruleset import get_ruleset, new_ruleset

    try:
        return new_ruleset(name) if new else get_ruleset(name)
    except ValueError as e:
        fail(e)


def who(by: str = "") -> str:
    """Who made a change, for the audit log: ``--by``, else the login name, else "cli"."""
    if by.strip():
        return by.strip()
    import getpass

    try:
        return getpass.getuser()
    except Exception:
        return "cli"


def start_django() -> Any:
    """Start the web app's database (migrations on first use) and return
    :mod:`risiko.web.services`.

    Exits 1 with one line when the web extra is not installed or the database cannot be
    reached (a bad ``DATABASE_URL``).
    """
    try:
        import django  # noqa: F401
    except ImportError:
        fail(WEB_EXTRA(), code=1)
    from risiko.web.bootstrap import setup

    try:
        setup()
    except Exception as e:  # a database that cannot be reached, a bad DATABASE_URL
        fail(DATABASE_UNREACHABLE(detail=str(e)), code=1)
    from risiko.web import services

    return services
