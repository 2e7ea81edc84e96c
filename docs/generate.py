"""Pages the docs build generates before Sphinx reads the sources (called from ``conf.py``).

* ``_generated/tutorial_output.txt``, ``_generated/tutorial.png``, ``_generated/tutorial_steps.png`` and
  ``_generated/tutorial_state.html``: the output, the figures and a state as a notebook shows it, of
  ``examples/tutorial.py``, run now on the package of this source tree (as autodoc documents it), so the
  tutorial shows what the code prints today, and run in ``_generated`` so that it prints no path of the
  machine that builds the pages;
* ``_generated/new_backend_output.txt``, ``_generated/new_data_source_output.txt`` and
  ``_generated/new_formulation_output.txt``: what the worked examples of the architecture page
  (``examples/new_backend.py``, ``examples/new_data_source.py``, ``examples/new_formulation.py``) print;
* ``_generated/benchmarks_full.rst`` and ``_generated/benchmarks_quick.rst``: the benchmark harness's
  reports (``benchmarks.md``, ``benchmarks_quick.md``, written by ``python -m benchmarks.report.report``) in
  reStructuredText, tables and figures included, so they are pages of the site.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
OUT = DOCS / "_generated"


def run_example(script, output, *args):
    """Run ``examples/<script>`` on the package in this source tree, in ``_generated``; keep what it prints in
    ``_generated/<output>``."""
    OUT.mkdir(exist_ok=True)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    result = subprocess.run([sys.executable, str(ROOT / "examples" / script), *args],
                            capture_output=True, text=True, cwd=OUT, env=env)
    if result.returncode:
        raise RuntimeError(f"examples/{script} failed (exit {result.returncode}):\n{result.stderr[-3000:]}")
    (OUT / output).write_text(result.stdout)


def run_tutorial():
    """Run the tutorial script on the package in this source tree; keep what it prints, its figures and the HTML
    of a state (the tutorial's and the teaching page's).

    It runs in ``_generated`` and is given the files' names alone, so what it prints (and the pages show)
    holds no path of the machine that built the pages."""
    run_example("tutorial.py", "tutorial_output.txt", "--plot", "tutorial.png", "--steps-plot", "tutorial_steps.png",
                "--state-html", "tutorial_state.html")


def _inline(text):
    """Markdown inline text as reStructuredText: ``code`` for `code`, and the characters that mean markup in
    reStructuredText (``*``, ``|``, a trailing ``_``) escaped outside code."""
    parts = re.split(r"(`[^`]*`)", text)
    out = []
    for part in parts:
        if part.startswith("`") and part.endswith("`") and len(part) > 1:
            out.append(f"``{part[1:-1]}``" if part[1:-1].strip() else part)
        else:
            part = part.replace("\\", "\\\\").replace("*", r"\*").replace("|", r"\|")
            out.append(re.sub(r"(\w)_(?=\W|$)", r"\1\\_", part))
    return "".join(out)


def _cells(line):
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def markdown_to_rst(text, title=None, image_prefix="../"):
    """The subset of Markdown the benchmark report writes (headings, paragraphs, pipe tables, images) as
    reStructuredText; pipe tables become ``list-table`` directives."""
    lines, out, i = text.splitlines(), [], 0
    underline = {1: "=", 2: "-", 3: "~"}
    while i < len(lines):
        line = lines[i]
        heading = re.match(r"^(#{1,3}) (.*)$", line)
        image = re.match(r"^!\[(.*)\]\((.*)\)\s*$", line)
        if heading:
            level, words = len(heading.group(1)), _inline(heading.group(2))
            if level == 1 and title:
                words = title
            out += [words, underline[level] * len(words), ""]
            i += 1
        elif image:   # its caption is the paragraph after it in the report: shown once, not as a second caption
            out += [f".. image:: {image_prefix}{image.group(2)}", "   :width: 100%",
                    f"   :alt: {image.group(1)}", ""]
            i += 1
        elif line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                if not re.match(r"^\|\s*:?-{3,}", lines[i]):
                    rows.append(_cells(lines[i]))
                i += 1
            out += [".. list-table::", "   :header-rows: 1", ""]
            for row in rows:
                out.append(f"   * - {_inline(row[0]) or ' '}")
                out += [f"     - {_inline(cell) or ' '}" for cell in row[1:]]
            out.append("")
        elif re.match(r"^\*[^*].*\*$", line):   # a line in italics: a figure's caption
            out.append(f"*{_inline(line[1:-1]).strip()}*")
            i += 1
        else:
            out.append(_inline(line))
            i += 1
    return "\n".join(out) + "\n"


def convert_benchmarks():
    """The harness's Markdown reports as pages (a page saying so when a report is missing)."""
    OUT.mkdir(exist_ok=True)
    for mode, title in (("full", "Benchmarks: full run"), ("quick", "Benchmarks: quick run")):
        source = DOCS / ("benchmarks.md" if mode == "full" else "benchmarks_quick.md")
        if source.exists():
            text = markdown_to_rst(source.read_text(), title=title)
        else:
            text = f"{title}\n{'=' * len(title)}\n\nNo report yet: run ``python -m benchmarks.harness.run``.\n"
        (OUT / f"benchmarks_{mode}.rst").write_text(text)


def generate(app=None):
    run_tutorial()
    run_example("new_backend.py", "new_backend_output.txt")
    run_example("new_data_source.py", "new_data_source_output.txt")
    run_example("new_formulation.py", "new_formulation_output.txt")
    convert_benchmarks()
