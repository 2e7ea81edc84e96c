"""The default fit before and after a change, case by case, side by side: the measurements behind the route of the
default fit (``route`` of ``mrc_pyomo/methods/plan.py``, once ``mrc_pyomo/methods/route.py``) and the section "The
route of the default fit" of docs/benchmarks.md.

    python -m benchmarks.experiments.default_route run --before PYTHON [--tags TAG ...] [--out DIR] [--record]
    python -m benchmarks.experiments.default_route import DIR [--record]

``run``: for each case of :data:`CASES` (or the ``--tags`` given), ``python -m benchmarks.harness.run_case`` with its
arguments twice at once, one process per core with single-threaded BLAS: by the interpreter ``--before`` (an
environment where an earlier commit of the package is installed, the harness being this one's: it runs there
against that package) and by this interpreter; each writes its record to ``DIR/TAG_{before,after}.json``.  Then,
as ``import`` does, the records go to ``experiments.jsonl`` (experiment ``default_route``, each with its ``tag``
and ``side``; ``benchmarks/runs/``, or ``benchmarks/results/`` with ``--record``), and the table is printed.
``import DIR`` takes such files as they are.
"""

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

from benchmarks.harness.record_files import append, records_file, records_path

#: the cases: tag -> the arguments of run_case (the time limits of the issue that asked for them)
CASES = {
    "sat_rff": ["satellite_rff", "ccg", "--time-limit", "600", "--cold-time-limit", "120"],
    "k50": ["many_classes_50", "ccg", "--time-limit", "600", "--cold-time-limit", "120"],
    "k100": ["many_classes", "--classes", "100", "ccg", "--time-limit", "600", "--cold-time-limit", "120"],
    "k26": ["many_classes_26", "ccg", "--time-limit", "600", "--cold-time-limit", "120"],
    "digits_rff": ["digits_rff", "ccg", "--time-limit", "600", "--cold-time-limit", "120"],
    "bean_rff": ["dry_bean_rff", "ccg", "--time-limit", "600", "--cold-time-limit", "60"],
    "pulsar_rff": ["pulsar_rff", "ccg", "--time-limit", "600", "--cold-time-limit", "60"],
    "sat2000": ["satellite", "ccg", "--quick", "--time-limit", "600", "--cold-time-limit", "60"],
    "bean3000": ["dry_bean_3000", "ccg", "--time-limit", "600", "--cold-time-limit", "60"],
    "pulsar4000": ["pulsar_4000", "ccg", "--time-limit", "600", "--cold-time-limit", "60"],
    "mnist8k_10": ["mnist_8000", "ccg", "--time-limit", "10", "--cold-time-limit", "1"],
    "mnist8k_60": ["mnist_8000", "ccg", "--time-limit", "60", "--cold-time-limit", "1"],
    "mnist8k_600": ["mnist_8000", "ccg", "--time-limit", "600", "--cold-time-limit", "1"],
    "mnist10k_60": ["mnist_10000", "ccg", "--time-limit", "60", "--cold-time-limit", "1"],
    "mnist10k_600": ["mnist_10000", "ccg", "--time-limit", "600", "--cold-time-limit", "1"],
}
SIDES = ("before", "after")


def run(tags, before, out):
    """Each case's two runs side by side (module docstring); their files in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    for tag in tags:
        running = []
        for side, python in zip(SIDES, (before, sys.executable)):
            with open(out / f"{tag}_{side}.json", "w") as stdout, open(out / f"{tag}_{side}.err", "w") as stderr:
                running.append(subprocess.Popen([python, "-m", "benchmarks.harness.run_case", *CASES[tag]],
                                                stdout=stdout, stderr=stderr, env=env))
        for process in running:
            process.wait()


def records_of(directory, tags=None):
    """The records of the files ``TAG_SIDE.json`` in ``directory`` (the last line of each, run_case's record), each
    with its ``experiment``, ``tag`` and ``side``; the files of a failed run left out."""
    found = []
    for path in sorted(Path(directory).glob("*_*.json")):
        tag, side = path.stem.rsplit("_", 1)
        lines = path.read_text().strip().splitlines()
        if side in SIDES and lines and (tags is None or tag in tags):
            found.append({**json.loads(lines[-1]), "experiment": "default_route", "tag": tag, "side": side,
                          "commit": None})
    for record in found:
        record["commit"] = record.get("versions", {}).get("commit")
    return found


def table(records):
    """The cases' lines: each side's fit seconds, status, certified interval, masters and limit ratio."""
    by = {(r["tag"], r["side"]): r for r in records}
    lines = []
    for tag in dict.fromkeys(r["tag"] for r in records):
        cells = [f"{tag:12s}"]
        for side in SIDES:
            r = by.get((tag, side))
            if r is None:
                cells.append(f"{side}: -")
                continue
            ratio = r.get("limit_ratio")
            cells.append(f"{side}: {r['seconds']:6.1f} s {r['status']:10s} [{r['lower']:.4f}, {r['R']:.4f}] "
                         f"{r.get('waste', {}).get('masters', '-')} masters"
                         + (f", ratio {ratio:.1f}" if ratio else ""))
        lines.append("  ".join(cells))
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    running = sub.add_parser("run")
    running.add_argument("--before", required=True, help="the interpreter of the earlier package")
    running.add_argument("--tags", nargs="*", choices=sorted(CASES), default=list(CASES))
    running.add_argument("--out", type=Path, default=records_path("default_route"))
    running.add_argument("--record", action="store_true")
    importing = sub.add_parser("import")
    importing.add_argument("directory", type=Path)
    importing.add_argument("--record", action="store_true")
    args = parser.parse_args(argv)
    directory = args.directory if args.command == "import" else args.out
    tags = None
    if args.command == "run":
        run(args.tags, args.before, directory)
        tags = set(args.tags)
    records = records_of(directory, tags)
    path = records_file("experiments.jsonl", args.record)
    for record in records:
        append(path, record)
    print("\n".join(table(records)))


if __name__ == "__main__":
    main()
