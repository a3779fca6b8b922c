"""The house stays as issue 64 left it: the core names no family and no proof; a family's
folder holds everything about it; the contract module is a leaf; no function-level import
closes a loop back to the driver."""

import ast
import re
from pathlib import Path

from solver.kernels import FAMILIES, FAMILY_PACKAGES

SOLVER = Path(__file__).resolve().parent.parent / "solver"
FAMILY_DIRS = {p.split(".", 1)[1] for p in FAMILY_PACKAGES}
# the check: a family's name, a test of one, or a proof's name
NAMES = re.compile(r'"alhambra"|"terrace"|"algerian"|family ==|schedule_|free_reserve')
# where the core may name them: the registry's package list, the variant catalogue, the report plan
ALLOWED = {"kernels.py", "variants.py", "report.py"}


def _docstring_lines(tree: ast.Module) -> set[int]:
    """The lines of every docstring (documentation may show a variant's name)."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                    and isinstance(body[0].value.value, str):
                out.update(range(body[0].lineno, body[0].end_lineno + 1))
    return out


def _core_files():
    for f in sorted(SOLVER.rglob("*.py")):
        rel = f.relative_to(SOLVER)
        if rel.parts[0] not in FAMILY_DIRS:
            yield rel, f


def test_the_core_names_no_family_and_no_proof():
    hits = []
    for rel, f in _core_files():
        if str(rel) in ALLOWED:
            continue
        text = f.read_text()
        docs = _docstring_lines(ast.parse(text))
        for n, line in enumerate(text.splitlines(), 1):
            if n not in docs and NAMES.search(line):
                hits.append(f"solver/{rel}:{n}: {line.strip()}")
    assert not hits, "\n".join(hits)


def test_the_check_finds_a_family_name(tmp_path):
    """The check above is not blind: it finds a family's name in code, not in a docstring."""
    text = '"""A "terrace" in a docstring."""\nif rules.family == "terrace":\n    pass\n'
    docs = _docstring_lines(ast.parse(text))
    found = [n for n, line in enumerate(text.splitlines(), 1) if n not in docs and NAMES.search(line)]
    assert found == [2]


def test_every_family_folder_is_registered():
    folders = {p.parent.name for p in SOLVER.glob("*/family.py")}
    assert folders == FAMILY_DIRS == set(FAMILIES)


def test_the_contract_is_a_leaf():
    tree = ast.parse((SOLVER / "contract.py").read_text())
    imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)} | \
               {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    assert {m for m in imported if m.startswith("solver")} <= {"solver.errors"}, imported


def test_no_family_imports_the_driver_or_the_cli():
    """A family gets the driver's goal search as a callback (``root_verdict``'s ``reach``)."""
    hits = []
    for d in FAMILY_DIRS:
        for f in (SOLVER / d).glob("*.py"):
            for node in ast.walk(ast.parse(f.read_text())):
                mods = [node.module] if isinstance(node, ast.ImportFrom) else \
                    [a.name for a in node.names] if isinstance(node, ast.Import) else []
                hits += [f"{f.name}: {m}" for m in mods if m and m.startswith(("solver.driver", "solver.cli"))]
    assert not hits, hits


def _imports():
    """Each module's imports of the project's modules, at module level and inside functions."""
    mods = {}
    for f in SOLVER.rglob("*.py"):
        parts = ("solver",) + f.relative_to(SOLVER).with_suffix("").parts
        mods[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = f
    top, inner = {m: set() for m in mods}, {m: set() for m in mods}
    for name, f in mods.items():
        tree = ast.parse(f.read_text())
        at_top = {sub for n in tree.body if not isinstance(n, (ast.FunctionDef, ast.ClassDef))
                  for sub in ast.walk(n)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                found = [f"{node.module}.{a.name}" if f"{node.module}.{a.name}" in mods else node.module
                         for a in node.names]
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            else:
                continue
            (top if node in at_top else inner)[name].update(m for m in found if m in mods)
    # the registry imports each family's modules by name when they are first asked for
    for fam in FAMILIES.values():
        inner["solver.kernels"] |= {fam.kernel, fam.hooks, fam.engine.split(":")[0]}
    return top, inner


# By design, and not loops to break: the package's public API loads on first use
# (``solver.__init__``, ``solver.api``: ``import solver`` stays light), and the registry
# imports a family's modules when first asked for them (its kernels import ``solver.jit``,
# which reads the registry).
LAZY_API = {("solver", "solver.api"), ("solver.api", "solver.driver"), ("solver.api", "solver.in_play")}


def _loops(top, inner) -> list[str]:
    def reach(start):
        seen, todo = set(), [start]
        while todo:
            m = todo.pop()
            for nxt in top[m] | inner[m]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen
    return [f"{m} -> {t}" for m in inner for t in inner[m]
            if m != "solver.kernels" and (m, t) not in LAZY_API and m in reach(t)]


def test_no_function_level_import_closes_a_loop():
    """An import inside a function that leads back to its own module hides a loop."""
    assert not _loops(*_imports())


def test_the_loop_check_finds_the_old_loop():
    """Before issue 64 ``late_refills`` imported the driver inside a function, and the driver
    reaches it through the registry: the check finds that loop."""
    top, inner = _imports()
    inner["solver.alhambra.late_refills"].add("solver.driver")
    assert "solver.alhambra.late_refills -> solver.driver" in _loops(top, inner)
