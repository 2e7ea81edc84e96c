"""The package's layout, checked from its source: rooms without import cycles, no private name taken across
modules, small modules, few loose modules at the top, no re-export shim (docs/architecture.rst)."""

import ast
from pathlib import Path

import pytest

import mrc_pyomo

PACKAGE = Path(mrc_pyomo.__file__).resolve().parent
MAX_LINES = 300
MAX_FUNCTION_LINES = 80
MAX_LOOSE_MODULES = 8


def modules():
    """``{dotted name: path}`` of every module of the installed package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def package_of(name, path):
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports(name, path, known):
    """The package's modules that ``name`` imports, anywhere in its body (functions too): ``from .x import y``
    counts ``x.y`` when ``y`` is a module, else ``x``."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in known)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package_of(name, path).split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("mrc_pyomo"):
                continue
            for alias in node.names:
                full = f"{target}.{alias.name}"
                found.add(full if full in known else target)
    return found - {name}


def private_names(name, path, known):
    """Where ``name`` takes a private name of another module: ``from m import _x``, ``m._x`` on a module, or
    ``obj._x`` on any object but ``self``, ``cls`` and ``super()``."""
    found = []
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("mrc_pyomo")):
            found += [f"line {node.lineno}: imports {alias.name}" for alias in node.names
                      if alias.name.startswith("_") and not alias.name.startswith("__")]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            found.append(f"line {node.lineno}: .{node.attr} of {ast.unparse(owner)}")
    return found


def test_no_import_cycle_between_the_package_s_modules():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    # a package's __init__ re-exports its modules: an edge module -> its own package's __init__ is not a cycle
    # as long as the __init__ does not import the module back; the check is on the whole graph, no exception
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                cycles.append(stack[stack.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, stack + [nxt])
        state[node] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, "import cycles: " + "; ".join(" -> ".join(c) for c in cycles)


def test_the_display_imports_nothing_above_it():
    """``display/`` is a ground floor: what a fit shows is given its method by the estimator, it imports no method,
    master or estimator (``display/progress.py`` imported the registry of methods)."""
    known = modules()
    above = ("mrc_pyomo.methods", "mrc_pyomo.estimator", "mrc_pyomo.master", "mrc_pyomo.cli")
    found = {name: sorted(target for target in imports(name, path, known) if target.startswith(above))
             for name, path in known.items() if name.startswith("mrc_pyomo.display")}
    assert not {name: targets for name, targets in found.items() if targets}


def test_the_data_package_imports_nothing_from_the_rest_of_the_library():
    known = modules()
    outside = {name: sorted(m for m in imports(name, path, known) if not m.startswith("mrc_pyomo.data"))
               for name, path in known.items() if name.startswith("mrc_pyomo.data")}
    assert not any(outside.values()), outside


def test_no_module_takes_a_private_name_of_another():
    known = modules()
    found = {name: private_names(name, path, known) for name, path in known.items()}
    found = {name: hits for name, hits in found.items() if hits}
    assert not found, found


def test_the_checks_see_what_they_look_for(tmp_path):
    """The two checks above find a cycle and a private name where there is one (so that a green run means
    something)."""
    source = tmp_path / "m.py"
    source.write_text("from .a import _hidden\nx = other._state\ny = self._fine\n")
    hits = private_names("mrc_pyomo.m", source, {})
    assert hits == ["line 1: imports _hidden", "line 2: ._state of other"]
    (tmp_path / "a.py").write_text("from . import b\n")
    assert imports("mrc_pyomo.a", tmp_path / "a.py", {"mrc_pyomo.b"}) == {"mrc_pyomo.b"}


def test_modules_are_small_and_few_lie_loose():
    known = modules()
    long = {name: n for name, path in known.items() if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"
    loose = [path.name for path in PACKAGE.glob("*.py")]
    assert len(loose) <= MAX_LOOSE_MODULES, loose


@pytest.mark.parametrize("name", sorted(modules()))
def test_no_module_is_a_re_export_shim(name):
    """A module whose only statements are imports (besides its docstring and ``__all__``) re-exports another's
    names: the package's ``__init__`` modules may gather their room's public names, no other module may."""
    path = modules()[name]
    body = [node for node in ast.parse(path.read_text()).body
            if not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
            and not (isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets))]
    star = [node for node in body if isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)]
    assert not star, f"{name} re-exports with *"
    if path.name != "__init__.py" and body:
        assert not all(isinstance(node, (ast.Import, ast.ImportFrom)) for node in body), f"{name} only imports"


def test_every_module_has_its_mirror_test_module():
    """The tests mirror the package (tests/conftest.py): ``tests/<room>/test_<module>.py`` for each module
    ``mrc_pyomo/<room>/<module>.py`` but ``__init__.py`` and ``__main__.py`` (``tests/test_<module>.py`` for a
    module at the top)."""
    tests = Path(__file__).resolve().parents[1]
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name in ("__init__.py", "__main__.py"):
            continue
        mirror = tests / path.parent.relative_to(PACKAGE) / f"test_{path.name}"
        if not mirror.is_file():
            missing.append(str(mirror.relative_to(tests.parent)))
    assert not missing, f"modules without their test module: {missing}"


def test_no_function_is_over_80_lines():
    """Every function of the package, its docstring included, fits in :data:`MAX_FUNCTION_LINES` lines: a longer
    one is several steps that want names of their own."""
    long = {}
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long[f"{name}.{node.name}"] = lines
    assert not long, long


def test_the_path_is_below_the_estimator():
    """``mrc_path`` imports nothing of the classifier (the classifier fits through the path at the core, as
    scikit-learn's ``ElasticNet.fit`` calls ``enet_path``), and no method carries a time limit in its config."""
    known = modules()
    assert "mrc_pyomo.estimator.classifier" not in imports("mrc_pyomo.estimator.path",
                                                           known["mrc_pyomo.estimator.path"], known)
    assert "mrc_pyomo.methods.pathwise" in imports("mrc_pyomo.estimator.classifier",
                                                   known["mrc_pyomo.estimator.classifier"], known)
    sources = "\n".join(path.read_text() for path in PACKAGE.rglob("*.py"))
    assert "time_limit=remaining" not in sources and "replace(config, time_limit" not in sources
