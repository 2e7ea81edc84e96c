"""The user guide, as a fresh install meets it: the docs build with the ``docs`` extra alone and without warnings,
and the pages say what the code does (``verbose`` levels, what the fit is invariant under)."""

import importlib.metadata
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT

DOCS = ROOT / "docs"


# installed in every fresh virtual environment, whatever the extras
INSTALLER = {"pip", "setuptools", "wheel"}


# makes every top-level module of $MRC_BLOCKED_MODULES not importable, in this process and its children
SITECUSTOMIZE = '''
import importlib.abc
import os
import sys

_BLOCKED = frozenset(filter(None, os.environ.get("MRC_BLOCKED_MODULES", "").split(",")))


class _NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in _BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r} (not in the docs extra)", name=name)
        return None


sys.meta_path.insert(0, _NotInstalled())
'''


def _closure(requirements):
    """The canonical names of the distributions ``requirements`` install, with theirs, transitively (as far as
    this environment has them)."""
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    extras_of, todo = {}, [Requirement(r) for r in requirements]
    while todo:
        requirement = todo.pop()
        name, extras = canonicalize_name(requirement.name), set(requirement.extras)
        if name in extras_of and extras <= extras_of[name]:
            continue
        extras_of.setdefault(name, set()).update(extras)
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        for text in distribution.requires or []:
            dependency = Requirement(text)
            if dependency.marker is None or any(dependency.marker.evaluate({"extra": extra})
                                                for extra in extras_of[name] | {""}):
                todo.append(dependency)
    return set(extras_of)


def _modules_outside(allowed):
    """Top-level modules of this environment that no distribution of ``allowed`` provides."""
    from packaging.utils import canonicalize_name
    blocked = set()
    for module, distributions in importlib.metadata.packages_distributions().items():
        if module in sys.stdlib_module_names or module == "sitecustomize":
            continue
        if not {canonicalize_name(d) for d in distributions} & allowed:
            blocked.add(module)
    return blocked


@pytest.fixture(scope="module")
def docs_build(tmp_path_factory):
    """One build of the guide for the tests below, by the command it gives for building itself, with what
    ``pip install ".[docs]"`` installs alone: the package's dependencies and the ``docs`` extra of
    pyproject.toml, every other module of this environment made unimportable (in its children too: the tutorial
    script it runs); warnings are errors, as in CI.  Returns ``(result, html directory, blocked modules)``."""
    pytest.importorskip("sphinx")
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    allowed = _closure(project["dependencies"] + project["optional-dependencies"]["docs"]) | INSTALLER
    allowed.add("mrc-pyomo")
    blocked = _modules_outside(allowed)
    tmp_path = tmp_path_factory.mktemp("docs")
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "site"),
           "MRC_BLOCKED_MODULES": ",".join(sorted(blocked))}
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", "docs",
                             str(tmp_path / "html")], cwd=ROOT, env=env, capture_output=True, text=True)
    return result, tmp_path / "html", blocked


def test_docs_build_with_the_docs_extra_alone(docs_build):
    """The command the guide gives for building itself works with the ``docs`` extra alone (:func:`docs_build`),
    nothing of the ``test`` extra."""
    command = r'pip install (-c constraints\.txt )?"\.\[docs\]" && python -m sphinx -b html docs docs/_build'
    pages = {page.name: page.read_text() for page in DOCS.glob("*.rst")}
    assert any(re.search(command, text) for text in pages.values()), f"no page of docs/ gives {command!r}"
    result, html, blocked = docs_build
    assert "pytest" in blocked and "hypothesis" in blocked   # the test extra is really left out
    assert result.returncode == 0, result.stderr[-3000:]
    tutorial = (html / "tutorial.html").read_text()
    assert "iteration 1: master with" in tutorial and "tutorial.png" in tutorial


def test_the_gallery_shows_each_example_s_code_output_and_figures(docs_build):
    """The examples as a Sphinx-Gallery gallery: a page per script of ``examples/``, the tutorial's and the
    teaching walk-through's with what they printed (the states, the tables of the changes) and their figures, run
    when the pages were built (a teacher read raw pages that show no output)."""
    result, html, _ = docs_build
    assert result.returncode == 0, result.stderr[-3000:]
    gallery = html / "auto_examples"
    scripts = sorted(path.stem for path in (ROOT / "examples").glob("*.py"))
    assert sorted(page.stem for page in gallery.glob("*.html") if page.stem != "index") == scripts
    teaching = (gallery / "teaching.html").read_text()
    assert "sphx-glr-script-out" in teaching and "MRC-CCG iteration 5: master with" in teaching
    assert "row added" in teaching and "<img" in teaching and "converged after" in teaching
    tutorial = (gallery / "tutorial.html").read_text()
    assert "iteration 1: master with" in tutorial and tutorial.count("<img") >= 2
    assert "auto_examples/index.html" in (html / "index.html").read_text()   # in the guide's contents


def test_pages_say_what_verbose_shows_and_what_the_fit_is_invariant_under():
    sources = {path.relative_to(ROOT).as_posix(): path.read_text()
               for path in [*DOCS.glob("*.rst"), *DOCS.glob("*.md"), ROOT / "examples" / "tutorial.py"]}
    # the iteration log is verbose=2 (verbose=True is now the live progress line of verbose=1)
    assert not [name for name, text in sources.items() if re.search(r"verbose\s*=\s*True", text)]
    assert "verbose=2" in sources["examples/tutorial.py"]
    tutorial = sources["docs/tutorial.rst"]
    assert "verbose=1" in tutorial and "verbose=2" in tutorial and "progress line" in tutorial
    # a feature's units do not matter, its origin does: standardise, in a pipeline
    assert not [name for name, text in sources.items() if re.search(r"any\s+units\s+are\s+fine", text)]
    for page in ("docs/tutorial.rst", "docs/quickstart.rst"):
        text = " ".join(sources[page].split())
        assert "make_pipeline(StandardScaler(), MRCClassifier())" in text, page
        assert "invariant under a positive rescaling" in text and "under a shift" in text, page


def test_docs_build_without_warnings(docs_build):
    """The build of :func:`docs_build` (warnings are errors) shows the tutorial's output and figure, the benchmark
    reports, and nothing of the machine it was built on."""
    import tempfile
    result, tmp_html, _ = docs_build
    tmp_path = tmp_html.parent
    assert result.returncode == 0, result.stderr[-3000:]
    # the tutorial shows the output and the figure of examples/tutorial.py, made by this build
    tutorial = (tmp_path / "html" / "tutorial.html").read_text()
    assert "iteration 1: master with" in tutorial and "tutorial.png" in tutorial and "primal_v" in tutorial
    # the benchmark reports are pages of the site, their tables and figures included
    full = (tmp_path / "html" / "_generated" / "benchmarks_full.html").read_text()
    assert "Targets" in full and "<table" in full and "convergence_full.png" in full
    # the tutorial's iteration log comes from verbose=2 (verbose=1 is a live progress line, not a log)
    assert "verbose=2" in tutorial and "verbose=1" in tutorial and "+rows -rows +feat seconds" in tutorial
    # no page shows where or by whom the site was built, nor a solver's banner (the banner itself, with its
    # version or year: "Running HiGHS 1.16.0 (git hash: ...): Copyright (c) 2026 ..."; a docstring may name it)
    machine = [str(ROOT), str(Path.home()) + "/", tempfile.gettempdir().rstrip("/") + "/",
               os.path.realpath(tempfile.gettempdir()).rstrip("/") + "/"]
    patterns = [re.escape(path) for path in machine] + [r"Running HiGHS \d", r"Copyright \(c\) \d"]
    shown = {}
    for page in sorted((tmp_path / "html").rglob("*.html")):
        for pattern in patterns:
            match = re.search(pattern, page.read_text())
            if match:
                shown.setdefault(match.group(), []).append(str(page.relative_to(tmp_path / "html")))
    assert not shown, f"pages show {shown}"


def test_the_package_readme_docs_and_examples_stand_alone():
    """No path outside the repository (the paper's and the contract's files, the data sets' folder) in the
    package, the README, the docs or the examples: a user has none of them.  The paper is cited by title,
    authors and year."""
    # and no "pip install mrc_pyomo[extra]": the package is not on PyPI, its extras install from the checkout
    outside = re.compile(r"\.\./shared|shared/(data|paper)|SPEC\.md|SPEC\b|mrc_ccg_paper|mrc_pyomo\[")
    files = [ROOT / "README.md", ROOT / "pyproject.toml", *(ROOT / "mrc_pyomo").rglob("*.py"),
             *DOCS.glob("*.rst"), *DOCS.glob("*.py"), *(ROOT / "examples").glob("*.py")]
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}" for path in files
             for number, line in enumerate(path.read_text().splitlines(), 1) if outside.search(line)]
    assert not found, "\n".join(found)
    readme = " ".join((ROOT / "README.md").read_text().split())
    assert "virtual environment" in readme and "8 minutes on 2 cores" in readme and "repository's root" in readme
    quickstart = (DOCS / "quickstart.rst").read_text()
    assert all(f'".[{extra}]"' in quickstart for extra in ("plot", "dask", "docs", "commercial"))
    assert "When Dask pays" in quickstart
    theory = " ".join((DOCS / "theory.rst").read_text().split())
    assert ("Bondugula, S. Mazuelas and A. Pérez, *Efficient Large-Scale Learning of Minimax Risk "
            "Classifiers*") in theory and "2025" in theory


def test_every_fitted_attribute_is_documented():
    """Each attribute a fit sets (and the properties coef_, intercept_) has an entry in the numpydoc
    ``Attributes`` section of MRCClassifier's docstring."""
    from helpers import random_problem
    from mrc_pyomo import MRCClassifier
    from mrc_pyomo.estimator.fitted import fitted_names
    doc = MRCClassifier.__doc__
    section = doc[doc.index("    Attributes\n    ----------\n"):]
    documented = {name.strip() for line in section.splitlines() if re.match(r"^    [a-z]", line)
                  for name in line.split(" : ")[0].split(",")}
    X, y = random_problem(40, 3, 3, seed=1)
    clf = MRCClassifier().fit(X, y)
    assert set(fitted_names(clf)) | {"coef_", "intercept_", "feature_names_in_"} <= documented, \
        set(fitted_names(clf)) - documented


def test_the_html_repr_s_links_reach_the_estimators_entries_in_the_api_page(docs_build):
    """The HTML repr's link of each estimator (its ``_doc_link_template``, relative to the guide's root) names the
    built API page and an anchor Sphinx gave it there."""
    from mrc_pyomo import MRCClassifier, MRCClassifierCV
    from mrc_pyomo.estimator.path import PathStage
    _, html, _ = docs_build
    page = (html / "api.html").read_text()
    for estimator in (MRCClassifier(), MRCClassifierCV(), PathStage()):
        name, anchor = estimator._get_doc_link().split("#")
        assert name == "api.html" and f'id="{anchor}"' in page, anchor
