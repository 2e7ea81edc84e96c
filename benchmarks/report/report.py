"""Turn benchmark records (``results/*.jsonl``) into ``docs/benchmarks.md`` and plots in ``docs/img/``.

    python -m benchmarks.report.report [RECORDS [OUT]]

RECORDS defaults to ``benchmarks/results/full.jsonl``; OUT to ``docs/benchmarks.md`` (``docs/benchmarks_quick.md``
for ``quick.jsonl``) for the tracked records of ``benchmarks/results/``, and to ``benchmarks.md``
(``benchmarks_quick.md``) beside any other records file, such as the harness's untracked ``benchmarks/runs/``
(:func:`default_out`): a report of a run that was not recorded never overwrites the tracked one.  The plots go
to ``img/`` next to OUT.  The section "Targets" checks the targets of the
issue "A useful rule in seconds" (:func:`benchmarks.report.targets.target_rows`), the section "Earlier targets"
those of the issue "Stable generation" (:func:`benchmarks.report.earlier_targets.earlier_target_rows`).

This module assembles the report from the modules of its package: the records (``records``), the text of table
cells and rows (``cells``), the tables of runs (``tables``), the two sections of targets (``targets``,
``earlier_targets``), the figures (``figures``), the formulations (``formulations``) and the Dask runs
(``dask``).  The harness (:mod:`benchmarks.harness.run`) runs it in a process of its own after a run; the report
reads the harness's plan and records files and imports nothing else of it.
"""

import sys
from pathlib import Path

from benchmarks.harness.record_files import RESULTS, read
from benchmarks.report.dask import dask_section
from benchmarks.report.earlier_targets import earlier_targets_section
from benchmarks.report.figures import draw_figures, plots_section
from benchmarks.report.formulations import formulations_section
from benchmarks.report.records import newest, run_environment
from benchmarks.report.route import masters_section, route_grid_section, route_section
from benchmarks.report.tables import anytime_table, limit_ratio_table, missing_runs, speed_table, waste_table
from benchmarks.report.targets import targets_section
from benchmarks.report.text import sparse_text_section

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"


def recorded(path):
    """Whether ``path`` is a tracked records file of ``benchmarks/results/`` (what ``--record`` writes)."""
    return Path(path).resolve().parent == RESULTS.resolve()


def default_out(path):
    """Where the report of the records ``path`` goes unless told: ``docs/benchmarks.md`` (``benchmarks_quick.md``
    for ``quick.jsonl``) for the tracked records of ``benchmarks/results/``, else the same name beside ``path``."""
    name = "benchmarks_quick.md" if Path(path).stem == "quick" else "benchmarks.md"
    return DOCS / name if recorded(path) else Path(path).parent / name


def shown(path):
    """``path`` as the report names it: relative to the repository where it is in it."""
    path = Path(path).resolve()
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def choices_section():
    """The section "The library's choices": ``choices.md`` beside this module, one heading level down, the
    measurements the library's docstrings point to by heading (kept there, not in the docstrings)."""
    text = (Path(__file__).with_name("choices.md")).read_text()
    return ["", *("#" + line if line.startswith("#") else line for line in text.splitlines())]


def write_report(path, out=None):
    """Write the report of the records in ``path`` to ``out`` (default: :func:`default_out`) and its plots to
    ``img/`` next to it; return ``out``."""
    all_records = read(path)
    records = newest(all_records)
    mode = "quick" if Path(path).stem == "quick" else "full"
    out = Path(out) if out is not None else default_out(path)
    img = out.parent / "img"
    img.mkdir(parents=True, exist_ok=True)
    speed = [r for r in records if r.get("experiment") == "speed"]
    cases = list(dict.fromkeys(r["case"] for r in speed))

    flags = (" --quick" if mode == "quick" else "") + (" --record" if recorded(path) else "")
    lines = [f"# Benchmarks ({mode} run)", "",
             f"Produced by `python -m benchmarks.harness.run{flags}` "
             f"(records in `{shown(path)}`, report by `benchmarks/report/report.py`).", "",
             f"Machine and versions: {run_environment(records)}.", "",
             "Each case and method ran in its own process on 80% of the samples (stratified, seed 0); the test",
             "error is on the other 20%. R is the certified worst-case error `upper_` = R(mu) over the training",
             "samples, and its distance is to the best R any method found for the case; the certified gap is",
             "`upper_ - lower_` (so R* is within it of R). The limit ratio (MRC-CCG only) is the fit time over",
             "the time of one cold solve of the fit's final restricted master with the best HiGHS method (see",
             "\"Limit ratio\" below). Peak memory is the process's maximum resident set during the fit.",
             "For MRC-CCG the time is split into oracles, model updates",
             "(building blocks and loading them into the solver) and the solver. Two runs at most shared the",
             "2-core machine at a time; the fit times include that contention."]
    lines += speed_table(speed, cases) + limit_ratio_table(records)
    lines += targets_section(records, all_records, mode == "quick")
    lines += anytime_table(records, all_records) + waste_table(records)
    lines += earlier_targets_section(records, all_records, speed)
    lines += formulations_section(records)
    draw_figures(records, speed, cases, img, mode)
    if mode == "full":
        lines += missing_runs(speed) + dask_section(Path(path).parent / "dask.jsonl")
        experiments = Path(path).parent / "experiments.jsonl"
        lines += route_section(experiments) + route_grid_section(experiments) + masters_section(experiments)
        lines += sparse_text_section(experiments) + choices_section()
    lines += plots_section(img, mode)
    out.write_text("\n".join(lines) + "\n")
    print(f"report written to {out}")
    return out


if __name__ == "__main__":
    write_report(sys.argv[1] if len(sys.argv) > 1 else ROOT / "benchmarks" / "results" / "full.jsonl",
                 sys.argv[2] if len(sys.argv) > 2 else None)
