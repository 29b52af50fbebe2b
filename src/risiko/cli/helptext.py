"""The ``--help`` pages of ``risiko`` in the language of ``--lang`` (Italian or English).

The English help stays the source in the code (docstrings, ``help=`` of each option and
argument, the one-liners of :data:`risiko.cli.main.COMMANDS`). In Italian each paragraph of
a help text (its words with the line breaks made single spaces) is looked up in the catalogue
``src/risiko/locale/it/LC_MESSAGES/cli_help.po`` (message context ``help``, msgid the English
paragraph; ``tools/catalogue.py`` collects them with :func:`every_help_text`); a paragraph
without a translation stays English. One mechanism for every command:

- the lazy top-level group hands each command it loads to :func:`speak_help`, which
  translates the help of the command, of its options and arguments, and of its subcommands,
  in place (the click objects are built afresh for each run of ``risiko``);
- when a page is printed (:func:`help_words`), Typer's own words, which
  :mod:`typer.rich_utils` reads from module constants ("Options", "Arguments", "Commands",
  "[default: ...]", "[required]"), the help option's "Show this message and exit." and the
  "Usage:" of the usage line are said in the language too, and set back after.

Metavars, option names and the values of defaults are left as they are. English is the
code's own text: nothing is looked up.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

from typer import _click
from typer._click.formatting import HelpFormatter

__all__ = [
    "CONTEXT",
    "HELP_OPTION",
    "TYPER_WORDS",
    "every_help_text",
    "help_words",
    "missing_help",
    "paragraphs",
    "said",
    "say_own_help",
    "speak_help",
]

#: the message context of every entry of ``cli_help.po``
CONTEXT = "help"
_DOMAIN = "cli_help"
_LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"

#: Typer's words in a help page, by the name of their constant in :mod:`typer.rich_utils`
#: (English as Typer says them)
TYPER_WORDS: dict[str, str] = {
    "ARGUMENTS_PANEL_TITLE": "Arguments",
    "OPTIONS_PANEL_TITLE": "Options",
    "COMMANDS_PANEL_TITLE": "Commands",
    "DEFAULT_STRING": "[default: {}]",
    "ENVVAR_STRING": "[env var: {}]",
    "REQUIRED_LONG_STRING": "[required]",
    "DEPRECATED_STRING": "(deprecated) ",
}
#: the help of Click's ``--help`` option
HELP_OPTION = "Show this message and exit."
#: the word before the usage line (Click writes "Usage: ")
USAGE_WORD = "Usage:"


@cache
def _catalogue(lang: str) -> gettext.NullTranslations:
    """The compiled ``cli_help`` catalogue of ``lang`` (an empty one when there is none)."""
    return gettext.translation(_DOMAIN, _LOCALE_DIR, languages=[lang], fallback=True)


def _key(paragraph: str) -> str:
    """The msgid of a paragraph: its words, one space between them."""
    return " ".join(paragraph.split())


def paragraphs(text: str | None) -> list[str]:
    """The msgids of a help text: its paragraphs (split at blank lines) before any ``\\f``
    line (Click's cut: what follows is not shown), each as :func:`_key` writes it.

    >>> paragraphs("Play one game.\\n\\nThe bots play\\n  on.\\f\\nnot shown")
    ['Play one game.', 'The bots play on.']
    """
    shown = (text or "").partition("\f")[0]
    return [k for k in (_key(p) for p in shown.split("\n\n")) if k]


def said(text: str, lang: str) -> str:
    """``text`` (an English help text) in ``lang``: each paragraph from the catalogue, kept
    as it is when it has no translation (and in English, always).

    >>> said("Show this message and exit.", "en")
    'Show this message and exit.'
    >>> said("Show this message and exit.", "it")
    'Mostra questo aiuto ed esce.'
    """
    if lang == "en" or not text:
        return text
    shown, cut, rest = text.partition("\f")
    catalogue = _catalogue(lang)
    out = []
    for paragraph in shown.split("\n\n"):
        key = _key(paragraph)
        found = catalogue.pgettext(CONTEXT, key) if key else key
        out.append(paragraph if found == key else found)
    return "\n\n".join(out) + cut + rest


def say_own_help(command: _click.Command, lang: str) -> None:
    """Translate in place ``command``'s own help, short help and the help of each of its
    options and arguments into ``lang`` (:func:`said`; not its subcommands, not Typer's
    words). English: nothing is done."""
    if lang == "en":
        return
    if command.help:
        command.help = said(command.help, lang)
    if command.short_help:
        command.short_help = said(command.short_help, lang)
    for param in command.params:
        text = getattr(param, "help", None)
        if text:
            param.help = said(text, lang)  # type: ignore[attr-defined]


def speak_help(command: _click.Command, lang: str) -> None:
    """Make ``command`` (and its subcommands, for a group) show its help in ``lang``: its
    help and short help and those of its parameters translated in place
    (:func:`say_own_help`), and its pages printed with Typer's words in ``lang``
    (:func:`help_words`). English: nothing is done."""
    if lang == "en":
        return
    say_own_help(command, lang)
    original: Callable[[_click.Context, HelpFormatter], None] = command.format_help

    def format_help(ctx: _click.Context, formatter: HelpFormatter) -> None:
        with help_words(ctx, lang):
            original(ctx, formatter)

    command.format_help = format_help  # type: ignore[method-assign]
    for sub in getattr(command, "commands", {}).values():
        speak_help(sub, lang)


def _formatter_class(word: str) -> type[HelpFormatter]:
    class Formatter(HelpFormatter):
        def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
            super().write_usage(prog, args, f"{word} " if prefix is None else prefix)

    return Formatter


@contextmanager
def help_words(ctx: _click.Context, lang: str) -> Iterator[None]:
    """Inside the block, a help page of ``ctx`` says Typer's words (:data:`TYPER_WORDS`),
    the help option's and the "Usage:" word in ``lang``; they are set back after."""
    if lang == "en":
        yield
        return
    from typer import rich_utils

    saved = {name: getattr(rich_utils, name) for name in TYPER_WORDS}
    saved_formatter = ctx.formatter_class
    option = ctx.command.get_help_option(ctx)
    saved_help = option.help if option is not None else None
    try:
        for name, english in TYPER_WORDS.items():
            setattr(rich_utils, name, said(english, lang))
        ctx.formatter_class = _formatter_class(said(USAGE_WORD, lang))
        if option is not None:
            option.help = said(HELP_OPTION, lang)
        yield
    finally:
        for name, value in saved.items():
            setattr(rich_utils, name, value)
        ctx.formatter_class = saved_formatter
        if option is not None:
            option.help = saved_help


def _walk(command: _click.Command) -> Iterator[str]:
    yield from paragraphs(command.help)
    yield from paragraphs(command.short_help)
    for param in command.params:
        yield from paragraphs(getattr(param, "help", None))
    for sub in getattr(command, "commands", {}).values():
        yield from _walk(sub)


def every_help_text() -> list[str]:
    """Every msgid a ``risiko`` help page may look up, sorted: Typer's words, the top-level
    group's help and options, the :data:`~risiko.cli.main.COMMANDS` lines, and the help of
    every registered command, option and argument (imports every command module)."""
    import typer

    from . import main

    texts: list[str] = [*TYPER_WORDS.values(), HELP_OPTION, USAGE_WORD]
    texts += [p for _, short in main.COMMANDS.values() for p in paragraphs(short)]
    texts += list(_walk(typer.main.get_group(main.app)))  # lazy: no commands yet
    for module in sorted({module for module, _ in main.COMMANDS.values()}):
        for command in main.load_commands(module).values():
            texts += list(_walk(command))
    return sorted(set(texts))


def missing_help(lang: str, texts: list[str] | None = None,
                 catalogue: Any = None) -> list[str]:
    """The help texts (default :func:`every_help_text`) with no entry, or an empty one, in
    ``lang``'s compiled catalogue (English needs none: it is the code's own text)."""
    if lang == "en":
        return []
    entries: dict[Any, str] = getattr(catalogue or _catalogue(lang), "_catalog", {})
    return [t for t in (every_help_text() if texts is None else texts)
            if not entries.get(f"{CONTEXT}\x04{t}")]
