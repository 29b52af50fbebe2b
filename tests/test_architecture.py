"""The dependency rule of docs/architecture.md, read from the source (every ``import``):

- the game library (``risiko/*.py`` and ``risiko/agents``) imports nothing of ours outside
  itself and nothing outside the standard library;
- the tournament domain (``risiko/tournament``) imports only the library (and the standard
  library);
- the national ranking's domain (``risiko/national``) imports the library and the tournament
  domain (and ``xlrd``/``xlwt`` for GestioneTorneo's workbooks, the ``national`` extra);
- ``risiko/online`` (the online tables' protocol adapter and the remote client) imports
  only the library (and ``websockets``, in the client);
- ``risiko/ratings`` (skill ratings: the bots' ladder, the players' skill view) imports only
  the library (and ``openskill``, the ``ratings`` extra, imported inside a function so the
  package loads without it);
- nothing imports the web app (``risiko.web``) but the web app itself and the command
  line, and the command line only inside a function, after its lazy start
  (:func:`risiko.cli.common.start_django`), so that ``risiko odds`` never loads Django;
- nothing imports the command line but the command line (``web/serving.py`` starts
  ``risiko`` as a child process by its command line: text, not an import).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "risiko"


def layer(module: str) -> str:
    """The layer of a module of ours: library, tournament, national, online, ratings, web
    or cli."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("tournament", "national", "online", "ratings", "web",
                                               "cli"):
        return parts[1]
    return "library"  # risiko/*.py, risiko/agents


def _modules() -> Iterator[tuple[str, Path]]:
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC.parent).with_suffix("").parts
        if "migrations" in parts:
            continue
        yield ".".join(parts).removesuffix(".__init__"), path


def imports(module: str, path: Path) -> Iterator[tuple[str, bool]]:
    """``(module imported, at module level)`` for every import of ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    top = {id(n) for n in tree.body}
    top |= {id(n) for s in tree.body if isinstance(s, ast.If | ast.Try) for n in ast.walk(s)}
    checking = {id(n) for s in tree.body if isinstance(s, ast.If)
                and "TYPE_CHECKING" in ast.unparse(s.test) for n in ast.walk(s)}
    for node in ast.walk(tree):
        if id(node) in checking:
            continue  # names for the type checker only
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, id(node) in top
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join([*base, *([node.module] if node.module else [])])
            else:
                name = node.module or ""
            yield name, id(node) in top
            for alias in node.names:  # from risiko import web
                if name in ("risiko", "risiko.tournament"):
                    yield f"{name}.{alias.name}", id(node) in top


MODULES = list(_modules())
ALLOWED = {  # layer -> the layers of ours it may import
    "library": {"library"},
    "tournament": {"library", "tournament"},
    "national": {"library", "tournament", "national"},
    "online": {"library", "online"},
    "ratings": {"library", "ratings"},
    "web": {"library", "tournament", "national", "online", "ratings", "web"},
    "cli": {"library", "tournament", "national", "online", "ratings", "web", "cli"},
}
# mypy_extensions: the compiled build's class marker (mypyc_attr), imported in a try whose
# ImportError falls back to risiko._build's no-op: never needed at run time
# xlrd, xlwt: the national ranking's GestioneTorneo workbooks (the 'national' extra)
THIRD_PARTY = {"library": {"mypy_extensions"}, "tournament": set(),
               "national": {"xlrd", "xlwt"}, "online": {"websockets"},
               "ratings": {"openskill"}}


def test_every_module_is_in_a_layer_and_the_tree_was_read() -> None:
    layers = {layer(m) for m, _ in MODULES}
    assert layers == set(ALLOWED)
    assert len(MODULES) > 100


@pytest.mark.parametrize(("module", "path"), MODULES, ids=[m for m, _ in MODULES])
def test_a_module_imports_only_the_layers_below_it(module: str, path: Path) -> None:
    mine = layer(module)
    for name, at_top in imports(module, path):
        if name.split(".")[0] == "risiko":
            theirs = layer(name)
            assert theirs in ALLOWED[mine], f"{module} imports {name} ({mine} -> {theirs})"
            if theirs == "web" and mine != "web":
                assert not at_top, f"{module} imports {name} at module level: the web app " \
                                   "is started lazily (risiko.cli.common.start_django)"
        elif mine in THIRD_PARTY:
            top = name.split(".")[0]
            assert top in sys.stdlib_module_names or top in THIRD_PARTY[mine], (
                f"{module} imports {name}: the {mine} layer uses the standard library only")


def test_the_rule_catches_what_it_forbids(tmp_path: Path) -> None:
    """A domain module importing the web app, a library module importing the domain and
    a command module importing the web app at module level are each caught."""
    cases = {
        "risiko.tournament.bad": "from risiko.web import services\n",
        "risiko.board_bad": "from .tournament import model\n",
        "risiko.cli.bad": "import risiko.web.services\n",
    }
    for module, text in cases.items():
        path = tmp_path / "bad.py"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(AssertionError):
            test_a_module_imports_only_the_layers_below_it(module, path)
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from risiko.web import services\n", encoding="utf-8")
    test_a_module_imports_only_the_layers_below_it("risiko.cli.lazy", lazy)
