"""Run the benchmark: every case and method in its own process, side by side; then write the report.

    python -m benchmarks.harness.run            # full run (hours: mnist and the full LPs dominate)
    python -m benchmarks.harness.run --quick    # subsampled cases, 60 s per fit at most (about 10 minutes)
    python -m benchmarks.harness.run --quick --record   # the same, into the tracked records and docs/

    # two parts of the plan side by side, into the same file (every record is appended as one whole line;
    # each part writes the report of the whole file when it ends, so the last to end has every record):
    python -m benchmarks.harness.run --skip-scaling &    # or --cases mnist tweets --skip-scaling: only those cases
    python -m benchmarks.harness.run --only-scaling

    # two commits side by side (a pair): --quick without --record in a clone at each, then from this checkout
    python -m benchmarks.harness.compare --import BEFORE..AFTER ../a/benchmarks/runs/quick.jsonl \
        ../b/benchmarks/runs/quick.jsonl --record      # into benchmarks/results/pairs.jsonl

Methods: MRC-CCG (ours: ``ccg`` with the default eps_1 = 1e-3 and ``ccg_precise`` with eps_1 = 1e-4),
MRC-LP (``lp``: the full LP solved by HiGHS) and MRC-SUB (``subgradient``: 10 000 accelerated subgradient
steps, 2 000 in quick mode).  After every MRC-CCG fit its final restricted master is solved cold with a few
HiGHS methods, for the limit ratio, and its waste decomposition is kept (:mod:`benchmarks.harness.run_case`).
Experiments (their cases and limits in :mod:`benchmarks.harness.plan`): "speed" (every case and method of
SPEED_CASES), "anytime" (ANYTIME_METHODS on ANYTIME_CASES with each time limit of ANYTIME_LIMITS: the rule a
user gets who stops there, from the default fit, MRC-CCG without its first-order phase and MRC-FOM), "path"
(``mrc_path`` over its default grid on PATH_CASES), "reference" (only with
``--reference``: MRC-CCG at eps_1 = 1e-4 without a time limit on ANYTIME_CASES, whose ``lower`` is the R* the
anytime rules are measured against; hours on mnist), "scaling_n" and "scaling_K" (MRC-CCG against the number
of samples and of classes), and, only with ``--formulations`` (and then alone), "formulations" (each case of
FORMULATION_CASES in the paper's and in the compact formulation, one right after the other).

Before any run the harness checks that every data set its plan reads is there (:func:`benchmarks.data.require`;
which case reads which: :data:`benchmarks.harness.cases.DATA_SETS`): without one it stops at once, exit status
2, naming the missing files and where to get them (README.md, section "Benchmarks"), having written nothing.
Records go to ``benchmarks/runs/{quick,full}.jsonl`` (one JSON per run, :mod:`benchmarks.harness.record_files`;
git ignores the folder) and at the end ``python -m benchmarks.report.report`` (:func:`write_report`) turns them
into a report beside them (``benchmarks/runs/benchmarks[_quick].md``, plots in ``benchmarks/runs/img/``).  Only
with ``--record`` do they go to the tracked ``benchmarks/results/{quick,full}.jsonl``, and the report to
``docs/benchmarks.md`` (``docs/benchmarks_quick.md``) and ``docs/img/``: a run never dirties the working tree
unless asked to.
"""

import argparse
import json
import subprocess
import sys
import time

from benchmarks.data import require
from benchmarks.harness.cases import data_sets
from benchmarks.harness.plan import (ANYTIME_CASES, ANYTIME_LIMITS, ANYTIME_METHODS, CLASSES, FORMULATION_CASES,
                                     FRACTIONS, PATH_CASES, QUICK_COLD_TIME_LIMIT, QUICK_LP, QUICK_METHODS,
                                     REFERENCE_LIMIT, SPEED_CASES)
from benchmarks.harness.record_files import ROOT, append, records_path   # ROOT: where every process runs


def run(case, method, quick, time_limit, extra=(), subgradient_iterations=None, cold_time_limit=None):
    name = method.removesuffix("_compact")   # "ccg_compact", "lp_compact": the compact formulation
    args = [sys.executable, "-m", "benchmarks.harness.run_case", case, "ccg" if name.startswith("ccg") else name,
            "--time-limit", str(time_limit), *extra]
    if name != method:
        args += ["--formulation", "compact"]
    if method == "ccg_precise":
        args += ["--eps-1", "1e-4"]
    if method == "ccg_no_first_order":   # MRC-CCG alone: the default fit without its first-order phase
        args += ["--first-order", "off"]
    if method == "subgradient" and (quick or subgradient_iterations):
        args += ["--subgradient-iterations", str(subgradient_iterations or 2000)]
    if quick:
        args += ["--quick"]
        cold_time_limit = cold_time_limit or QUICK_COLD_TIME_LIMIT
    if cold_time_limit and method.startswith("ccg"):
        args += ["--cold-time-limit", str(cold_time_limit)]
    start = time.perf_counter()
    try:
        out = subprocess.run(args, capture_output=True, text=True, timeout=4 * time_limit + 600, cwd=ROOT)
        if out.returncode != 0:
            error = (out.stderr.strip().splitlines() or ["failed"])[-1]
            return {"case": case, "method": method, "error": error[:300], "seconds": time.perf_counter() - start}
        record = json.loads(out.stdout.strip().splitlines()[-1])
    except subprocess.TimeoutExpired:
        return {"case": case, "method": method, "error": "timeout", "seconds": time.perf_counter() - start}
    record["method"] = method
    return record


def write_report(path):
    """Write the report of the records in ``path``: ``python -m benchmarks.report.report PATH`` in a process of its
    own, as each case runs, so that the harness imports nothing of the report (which reads the harness's plan).
    The report goes beside the records, or to ``docs/`` for the tracked records (:func:`records_file`)."""
    subprocess.run([sys.executable, "-m", "benchmarks.report.report", str(path)], cwd=ROOT, check=True)


def records_file(quick, record):
    """The harness's records file, ``quick.jsonl`` or ``full.jsonl``: in the tracked ``benchmarks/results/`` with
    ``--record`` (``record``), else in ``benchmarks/runs/``, which git ignores."""
    return records_path("quick.jsonl" if quick else "full.jsonl", record)


def planned(args, time_limit):
    """Every run that the options ``args`` ask for, in the order the harness runs them: tuples ``(case, method,
    experiment, extra arguments of run_case, time limit)``.  Known before any run starts, so that the data sets
    they read are checked first."""

    def chosen(case):
        """Whether the plan runs ``case``'s speed, anytime, reference and path runs."""
        return not args.only_scaling and (not args.cases or case in args.cases)

    if args.formulations:
        return [(case, name, "formulations", (), time_limit)
                for case, methods in FORMULATION_CASES.items() if chosen(case)
                for method in methods if not args.methods or method in args.methods
                for name in (method, f"{method}_compact")]

    runs = []
    for case, methods in SPEED_CASES.items():
        if not chosen(case):
            continue
        if args.quick:
            methods = QUICK_METHODS.get(case, methods)
        for method in methods + (["lp"] if args.quick and case in QUICK_LP and "lp" not in methods else []):
            if args.quick and method == "lp" and case not in QUICK_LP:
                continue
            if args.methods and method not in args.methods:
                continue
            runs.append((case, method, "speed", (), time_limit))

    anytime = [case for case in ANYTIME_CASES if chosen(case)]
    if args.reference:
        runs += [(case, "ccg_precise", "reference", (), args.reference_time_limit) for case in anytime]
    if not args.skip_anytime:
        runs += [(case, method, "anytime", (), limit) for case in anytime
                 for limit in [t for t in ANYTIME_LIMITS if not args.quick or t <= time_limit]
                 for method in ANYTIME_METHODS]
        runs += [(case, "path", "path", (), time_limit) for case in filter(chosen, PATH_CASES)]

    if not args.skip_scaling:
        runs += [("pulsar_rff", "ccg", "scaling_n", ("--fraction", str(f)), time_limit)
                 for f in (FRACTIONS[1::2] + [1.0] if args.quick else FRACTIONS)]
        runs += [("many_classes", "ccg", "scaling_K", ("--classes", str(K)), time_limit)
                 for K in (CLASSES[:3] if args.quick else CLASSES)]
    return runs


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cases", nargs="*", choices=list(SPEED_CASES), metavar="CASE",
                        help="only these speed cases (and their anytime runs)")
    parser.add_argument("--methods", nargs="*", help="only these methods (ccg, ccg_precise, lp, subgradient)")
    parser.add_argument("--subgradient-iterations", type=int,
                        help="MRC-SUB steps (default 10 000, quick 2 000); the time limit also stops it")
    scaling = parser.add_mutually_exclusive_group()
    scaling.add_argument("--skip-scaling", action="store_true", help="no scaling experiments")
    scaling.add_argument("--only-scaling", action="store_true",
                         help="only the scaling experiments (no speed or anytime runs)")
    parser.add_argument("--time-limit", type=float, help="seconds per run (default 3600, quick 60)")
    parser.add_argument("--reference", action="store_true",
                        help="also the reference runs (eps_1 = 1e-4, no time limit) of the anytime cases")
    parser.add_argument("--reference-time-limit", type=float, default=REFERENCE_LIMIT,
                        help="seconds for each reference run (default: a day)")
    parser.add_argument("--skip-anytime", action="store_true", help="no anytime or path runs")
    parser.add_argument("--cold-time-limit", type=float,
                        help="cap on each cold solve of a final master (default: the fit time; quick 30)")
    parser.add_argument("--formulations", action="store_true",
                        help="only the experiment 'formulations': MRC-CCG (and the full LP where planned) in the "
                             "paper's and the compact formulation, one after the other, on FORMULATION_CASES")
    parser.add_argument("--record", action="store_true",
                        help="records to the tracked benchmarks/results/{quick,full}.jsonl and the report to docs/ "
                             "(default: both to benchmarks/runs/, which git ignores)")
    args = parser.parse_args(argv)
    time_limit = args.time_limit or (60.0 if args.quick else 3600.0)
    runs = planned(args, time_limit)
    require(data_sets(case for case, *_ in runs))   # a missing data set: exit 2 now, nothing run or written
    path = records_file(args.quick, args.record)
    path.parent.mkdir(exist_ok=True)
    for case, method, experiment, extra, limit in runs:
        record = run(case, method, args.quick, limit, extra, args.subgradient_iterations, args.cold_time_limit)
        record.update(experiment=experiment, timestamp=time.strftime("%Y-%m-%d %H:%M:%S"))
        append(path, record)
        summary = {k: record.get(k) for k in ("experiment", "case", "method", "n", "K", "seconds", "R",
                                              "limit_ratio", "error")}
        print(json.dumps(summary), flush=True)
    write_report(path)


if __name__ == "__main__":
    main()
