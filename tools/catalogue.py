"""The fault catalogues: `python tools/catalogue.py` (or `make catalogues`).

Imports every module of the library (and of the web app, when Django is installed) so that
every fault kind is declared, then for each language writes the missing entries into
``src/risiko/locale/<lang>/LC_MESSAGES/<area>.po`` (``<area>`` is the code's first part:
``attack.r7_dice_parity`` goes to ``attack.po``): English entries take the declared template,
Italian ones are left empty for a translator (the test suite refuses an empty one). Then it
compiles every ``.po`` with ``msgfmt``. ``--check`` changes nothing and exits 1 when an entry
is missing, untranslated or not compiled.

The help of the ``risiko`` command has its own file, ``cli_help.po`` (message context ``help``,
msgid the English paragraph): every paragraph of the help of every registered command, option
and argument, the command list and Typer's own words (``risiko.cli.helptext.every_help_text``,
which imports every command module and walks its Typer app's click commands).
"""

from __future__ import annotations

import gettext
import importlib
import json
import pkgutil
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "src" / "risiko" / "locale"
LANGUAGES = ("en", "it")
FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:![rsa])?(?::[^{}]*)?\}")

Entries = dict[tuple[str, str], str]  # (msgctxt, msgid) -> msgstr


def import_everything() -> None:
    """Import every module of ``risiko`` so that every fault kind is declared."""
    sys.path.insert(0, str(ROOT / "src"))
    import risiko

    web = True
    try:
        import os

        import django

        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "risiko.web.settings")
        django.setup()
    except ImportError:  # without the web extra: the library's kinds only
        web = False
    for info in pkgutil.walk_packages(risiko.__path__, "risiko."):
        name = info.name
        if ".migrations" in name or name.endswith(("manage", "asgi", "wsgi")):
            continue
        if name.startswith("risiko.web") and not web:
            continue
        importlib.import_module(name)


def read_po(path: Path) -> Entries:
    """The entries of a ``.po`` file (``msgctxt``/``msgid``/``msgstr``; no plurals)."""
    entries: Entries = {}
    if not path.exists():
        return entries
    values: dict[str, str] = {}
    current = ""

    def flush() -> None:
        if "msgid" in values and values.get("msgid"):
            entries[(values.get("msgctxt", ""), values["msgid"])] = values.get("msgstr", "")
        values.clear()

    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        line = line.strip()
        if line.startswith(("msgctxt ", "msgid ", "msgstr ")):
            name, _, rest = line.partition(" ")
            if name == "msgctxt" or (name == "msgid" and "msgid" in values):
                flush()
            values[name] = json.loads(rest)
            current = name
        elif line.startswith('"') and current:
            values[current] += json.loads(line)
        elif not line:
            current = ""
    flush()
    return entries


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


HELP_AREA = "cli_help"


def write_po(path: Path, lang: str, entries: Entries) -> None:
    """Write ``entries`` sorted by code, with the header msgfmt needs."""
    title = (f"# RisiKo! club: the help of the risiko command ({lang}). Each msgid is an "
             "English paragraph of the code." if path.stem == HELP_AREA else
             f"# RisiKo! club: fault messages ({lang}). Codes are the message contexts.")
    lines = [
        title,
        "# Update with `make catalogues` (tools/catalogue.py), then translate.",
        'msgid ""',
        'msgstr ""',
        '"Content-Type: text/plain; charset=UTF-8\\n"',
        f'"Language: {lang}\\n"',
        "",
    ]
    for (ctx, msgid), msgstr in sorted(entries.items()):
        lines += [f"msgctxt {_quote(ctx)}", f"msgid {_quote(msgid)}", f"msgstr {_quote(msgstr)}",
                  ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines), encoding="utf-8")


def wanted() -> dict[str, Entries]:
    """Per area file name, the (code, English template) entries the declared kinds need."""
    from risiko.faults import WORDS, kinds

    out: dict[str, Entries] = {}
    for kind in kinds():
        if kind.code.startswith(("example.", "test.")):  # doctests and tests declare these
            continue
        area = kind.code.split(".")[0]
        out.setdefault(area, {})[(kind.code, kind.template)] = kind.template
    for key, values in sorted(WORDS.items()):  # words of the domain said in messages
        for value in values:
            out.setdefault("word", {})[(f"word.{key}", value)] = value
    from risiko.cli.helptext import CONTEXT, every_help_text

    out[HELP_AREA] = {(CONTEXT, text): text for text in every_help_text()}
    return out


def problems() -> list[str]:
    """Everything missing, untranslated, mismatched or not compiled, one line each."""
    out: list[str] = []
    for lang in LANGUAGES:
        folder = LOCALE / lang / "LC_MESSAGES"
        for area, needed in wanted().items():
            po = folder / f"{area}.po"
            have = read_po(po)
            for key in needed:
                text = have.get(key, "")
                name = repr(key[1]) if area == HELP_AREA else key[0]
                if not text:
                    out.append(f"{lang}/{area}.po: {name} has no message")
                elif sorted(FIELD.findall(text)) != sorted(FIELD.findall(key[1])):
                    out.append(f"{lang}/{area}.po: {name} names other fields than "
                               f"{key[1]!r}")
        for po in sorted(folder.glob("*.po")):
            mo = po.with_suffix(".mo")
            if not mo.exists():
                out.append(f"{lang}/{po.name}: not compiled")
                continue
            with mo.open("rb") as fh:
                compiled = gettext.GNUTranslations(fh)
            for (ctx, msgid), msgstr in read_po(po).items():
                if msgstr and compiled.pgettext(ctx, msgid) != msgstr:
                    out.append(f"{lang}/{po.name}: {ctx} is not compiled (run make catalogues)")
    return out


def update() -> None:
    """Add the missing entries (English filled, Italian empty) and compile every file."""
    for lang in LANGUAGES:
        folder = LOCALE / lang / "LC_MESSAGES"
        for area, needed in wanted().items():
            po = folder / f"{area}.po"
            have = read_po(po)
            merged = {k: v for k, v in have.items() if k in needed}  # drop obsolete entries
            for key, english in needed.items():
                if not merged.get(key):
                    merged[key] = english if lang == "en" else ""
            write_po(po, lang, merged)
        for po in sorted(folder.glob("*.po")):
            subprocess.run(["msgfmt", "-o", str(po.with_suffix(".mo")), str(po)], check=True)


def main() -> int:
    import_everything()
    if "--check" not in sys.argv:
        update()
    found = problems()
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
