"""The layers of docs/architecture.md, checked on the source rather than trusted.

Rules engines import nothing that draws, reads photos or parses command lines, and touch
no files; vision never draws PDFs or parses command lines; layouts never read photos.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

IO_MODULES = {"sys", "io", "pathlib", "shutil", "tempfile", "subprocess", "socket", "urllib",
              "http", "pickle", "sqlite3"}
# folder -> module prefixes its files must not import (docs/architecture.md, "never imports")
BANNED: dict[str, set[str]] = {
    "companion/games": {"cv2", "reportlab", "click", "PIL", "pypdfium2", "numpy", "segno",
                        "pytesseract", "layouts", "companion.vision", "tools",
                        "companion.cli", "companion.fileio", "companion.store",
                        "companion.web", "starlette"} | IO_MODULES,
    "companion/paper": {"cv2", "reportlab", "click", "PIL", "companion.cli"},
    "companion/vision": {"reportlab", "click", "companion.cli"},
    "tools/synth": {"click", "companion.cli"},
    "layouts": {"cv2", "click", "companion.vision", "companion.cli", "companion.store",
                "companion.web"},
    # the store keeps plays; it reads no photo, draws nothing and serves no page
    "companion/store": {"cv2", "reportlab", "click", "PIL", "numpy", "layouts", "starlette",
                        "companion.vision", "companion.cli", "companion.web", "tools"},
    # the web app serves pages over the engines and the store, never the command line
    "companion/web": {"click", "companion.cli", "tools"},
}
# Calls that read or write files (or the terminal); engines make none of them.
IO_CALLS = {"open", "print", "input", "read_text", "write_text", "read_bytes", "write_bytes",
            "load", "dump", "mkdir", "unlink", "iterdir", "glob"}
# Known exceptions, each a (file, what) pair with its reason; every one must still be needed.
# (file, import or call) pairs that may break the layer rules, each with a reason; none now.
ALLOWED: set[tuple[str, str]] = set()


@dataclass(frozen=True)
class Finding:
    file: str
    what: str
    line: int


def _imports(tree: ast.AST) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.module, node.lineno))
    return out


def _is_package_data(func: ast.AST) -> bool:
    """``resources.files(...)...read_text()``: data shipped with the code, not a user's file."""
    node = func
    while isinstance(node, ast.Attribute | ast.Call):
        node = node.func if isinstance(node, ast.Call) else node.value
        if isinstance(node, ast.Attribute) and node.attr == "files":
            return True
    return False


def _io_calls(tree: ast.AST) -> list[tuple[str, int]]:
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in IO_CALLS:
            out.append((f.id, node.lineno))
        elif isinstance(f, ast.Attribute) and f.attr in IO_CALLS and not _is_package_data(f):
            out.append((f"{ast.unparse(f)}()", node.lineno))
    return out


def _banned(name: str, banned: set[str]) -> bool:
    return any(name == b or name.startswith(b + ".") for b in banned)


def findings(folder: str, check_calls: bool) -> list[Finding]:
    out = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), rel)
        out += [Finding(rel, name, line) for name, line in _imports(tree)
                if _banned(name, BANNED[folder])]
        if check_calls:
            out += [Finding(rel, call, line) for call, line in _io_calls(tree)]
    return out


@pytest.mark.parametrize("folder", sorted(BANNED))
def test_layers_import_only_what_they_may(folder: str) -> None:
    bad = [f for f in findings(folder, check_calls=folder == "companion/games")
           if (f.file, f.what) not in ALLOWED]
    assert not bad, "\n".join(f"{f.file}:{f.line}: {f.what}" for f in bad)


def test_every_allowed_exception_is_still_needed() -> None:
    seen = {(f.file, f.what) for folder in BANNED for f in findings(folder, True)}
    assert ALLOWED <= seen, f"remove from ALLOWED: {sorted(ALLOWED - seen)}"


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("import cv2", ["cv2"]),
        ("from reportlab.pdfgen import canvas", ["reportlab.pdfgen"]),
        ("from PIL import Image", ["PIL"]),
        ("import click.testing", ["click.testing"]),
        ("import pathlib", ["pathlib"]),
        ("import clickhouse", []),  # a prefix of a name is not the name
        ("from . import cv2", []),  # relative: a sibling module, not OpenCV
        ("x = open('f')", ["open"]),
        ("from pathlib import Path\nPath('f').read_text()", ["pathlib", "Path('f').read_text()"]),
        ("json.load(fh)", ["json.load()"]),
        ("json.loads(text)", []),
        ("resources.files(__package__).joinpath('d.json').read_text()", []),
    ],
)
def test_the_checker_sees_what_it_should(source: str, found: list[str]) -> None:
    tree = ast.parse(source)
    got = [n for n, _ in _imports(tree) if _banned(n, BANNED["companion/games"])]
    got += [c for c, _ in _io_calls(tree)]
    assert got == found


def _tools_imports(tree: ast.AST) -> list[tuple[str, int]]:
    """Imports of ``tools``, plain or through ``importlib.import_module("tools...")``."""
    out = [(n, line) for n, line in _imports(tree) if _banned(n, {"tools"})]
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and ast.unparse(node.func).endswith("import_module")
                and node.args and isinstance(node.args[0], ast.Constant)
                and _banned(str(node.args[0].value), {"tools"})):
            out.append((str(node.args[0].value), node.lineno))
    return out


@pytest.mark.parametrize("folder", ["companion", "layouts"])
def test_installed_code_never_imports_tools(folder: str) -> None:
    """``tools`` is not installed: what the wheel ships must run without it."""
    bad = [f"{p.relative_to(ROOT).as_posix()}:{line}: {name}"
           for p in sorted((ROOT / folder).rglob("*.py"))
           for name, line in _tools_imports(ast.parse(p.read_text(encoding="utf-8")))]
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize(
    ("source", "found"),
    [("import tools.synth", ["tools.synth"]), ("from tools import bench", ["tools"]),
     ("importlib.import_module('tools.bench')", ["tools.bench"]),
     ("import toolsmith", []), ("from .tools import x", [])],
)
def test_the_tools_check_sees_what_it_should(source: str, found: list[str]) -> None:
    assert [n for n, _ in _tools_imports(ast.parse(source))] == found


def test_engines_import_without_opencv_reportlab_or_click() -> None:
    """Importing every engine module with those libraries blocked must work (no cycles in)."""
    modules = sorted(
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in (ROOT / "companion" / "games").rglob("*.py")
    )
    code = (
        "import sys\n"
        "for name in ('cv2', 'reportlab', 'click', 'PIL', 'numpy', 'pypdfium2'):\n"
        "    sys.modules[name] = None\n"
        f"import importlib\nfor m in {modules!r}:\n    importlib.import_module(m)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(package: str = "companion") -> dict[str, set[str]]:
    """Each module of ``package`` and the package's modules it imports, anywhere in its
    code (a function's late import too; only ``if TYPE_CHECKING:`` blocks are left out,
    since they never run). ``from a import b`` is an edge to ``a.b`` when that is a module."""
    files = {_module_name(p): p for p in (ROOT / package).rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                       and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        deps: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                deps |= {a.name for a in node.names if a.name in files}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*up, *([node.module] if node.module else [])])
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    deps |= {sub} if sub in files else {base} if base in files else set()
        graph[name] = deps - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_anywhere_in_the_package() -> None:
    graph = import_graph()
    assert len(graph) > 100 and "companion.web.history" in graph["companion.web.app"]
    assert cycles(graph) == []


def test_the_cycle_finder_finds_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}}
    assert cycles(graph) == [["a", "b", "c"]]
