"""The page "Teaching with mrc_pyomo" (``docs/teaching.rst``) and the tutorial it is built from: the tutorial
prints each step from the states' readable forms (no decoding of its own), and prints every passage, figure and
HTML file the page includes; the page is in the guide's table of contents and cites the paper by its title."""

import re
import subprocess
import sys

from helpers import ROOT

DOCS = ROOT / "docs"


def test_the_tutorial_prints_what_the_teaching_page_includes(tmp_path):
    page = (DOCS / "teaching.rst").read_text()
    script = (ROOT / "examples" / "tutorial.py").read_text()
    # the tutorial's own decoding of the loop's arrays is gone: the states' readable forms print each step
    assert "subset_label" not in script and "y*D+j" not in script
    assert all(name in script for name in ("state.describe()", "state.next_changes()", "state.summary()"))
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "tutorial.py"), "--fast", "--steps-plot",
                             "steps.png", "--state-html", "state.html"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    out = result.stdout
    # every passage of the output the page shows is there (start-after / end-before of its literalincludes)
    markers = re.findall(r":(?:start-after|end-before): (.+)", page)
    assert len(markers) >= 4 and all(marker.strip() in out for marker in markers), markers
    assert "row added" in out and "feature added" in out and "centroid 0" in out and "(red,)" in out
    assert re.search(r"<MRC-CCG iteration 5: master with \d+ rows x \d+ features, R\^k", out)
    # the figure and the notebook's HTML the page includes, made by the same run
    assert "_generated/tutorial_steps.png" in page and (tmp_path / "steps.png").stat().st_size > 0
    assert "_generated/tutorial_state.html" in page
    state = (tmp_path / "state.html").read_text()
    assert "MRC-CCG iteration 5" in state and "certified interval" in state and "R* in [" in state
    generate = (DOCS / "generate.py").read_text()
    assert '"--steps-plot", "tutorial_steps.png"' in generate and '"--state-html", "tutorial_state.html"' in generate


def test_the_teaching_page_is_in_the_guide_and_cites_the_paper_by_title():
    index = (DOCS / "index.rst").read_text()
    toctree = index[index.index(".. toctree::"):index.index("Building this guide")]
    assert re.search(r"^\s+teaching$", toctree, re.M)
    page = " ".join((DOCS / "teaching.rst").read_text().split())
    assert "*Efficient Large-Scale Learning of Minimax Risk Classifiers*" in page
    assert "plot_steps" in page and "describe()" in page and "next_changes()" in page and "repr" in page
