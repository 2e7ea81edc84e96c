"""Run the benchmark: every case and method in its own process, side by side; then write the report.

    python -m benchmarks.harness.run            # full run (hours: mnist and the full LPs dominate)
    python -m benchmarks.harness.run --quick    # subsampled cases, 60 s per fit at most (about 10 minutes)

    # two parts of the plan side by side, into the same file (every record is appended as one whole line;
    # each part writes the report of the whole file when it ends, so the last to end has every record):
    python -m benchmarks.harness.run --skip-scaling &    # or --cases mnist tweets --skip-scaling: only those cases
    python -m benchmarks.harness.run --only-scaling

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
FORMULATION_CASES in the paper's and in the compact formulation, one right after the other).  Records go to
``benchmarks/results/{quick,full}.jsonl`` (one JSON per run, :mod:`benchmarks.harness.record_files`); at the
end ``python -m benchmarks.report.report`` (:func:`write_report`) turns them into ``docs/benchmarks.md`` and the
plots in ``docs/img/``.
"""

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

from benchmarks.harness.plan import (ANYTIME_CASES, ANYTIME_LIMITS, ANYTIME_METHODS, CLASSES, FORMULATION_CASES,
                                     FRACTIONS, PATH_CASES, QUICK_COLD_TIME_LIMIT, QUICK_LP, QUICK_METHODS,
                                     REFERENCE_LIMIT, SPEED_CASES)
from benchmarks.harness.record_files import append

ROOT = Path(__file__).resolve().parents[2]   # the repository: every process of the harness runs there
RESULTS = ROOT / "benchmarks" / "results"


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
    own, as each case runs, so that the harness imports nothing of the report (which reads the harness's plan)."""
    subprocess.run([sys.executable, "-m", "benchmarks.report.report", str(path)], cwd=ROOT, check=True)


def main():
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
    args = parser.parse_args()
    time_limit = args.time_limit or (60.0 if args.quick else 3600.0)
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / ("quick.jsonl" if args.quick else "full.jsonl")

    def measure(case, method, experiment, extra=(), limit=time_limit, **fields):
        """Run one (case, method), append its record (with ``fields``) to the file and return it."""
        record = run(case, method, args.quick, limit, extra, args.subgradient_iterations, args.cold_time_limit)
        record.update(fields, experiment=experiment, timestamp=time.strftime("%Y-%m-%d %H:%M:%S"))
        append(path, record)
        summary = {k: record.get(k) for k in ("experiment", "case", "method", "n", "K", "seconds", "R",
                                              "limit_ratio", "error")}
        print(json.dumps(summary), flush=True)
        return record

    def chosen(case):
        """Whether the plan runs ``case``'s speed, anytime, reference and path runs."""
        return not args.only_scaling and (not args.cases or case in args.cases)

    if args.formulations:
        for case, methods in FORMULATION_CASES.items():
            if chosen(case):
                for method in [m for m in methods if not args.methods or m in args.methods]:
                    measure(case, method, "formulations")
                    measure(case, f"{method}_compact", "formulations")
        write_report(path)
        return

    speed = []
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
            speed.append((case, method))
    for case, method in speed:
        measure(case, method, "speed")

    anytime = [case for case in ANYTIME_CASES if chosen(case)]
    if args.reference:
        for case in anytime:
            measure(case, "ccg_precise", "reference", limit=args.reference_time_limit)
    if not args.skip_anytime:
        for case in anytime:
            for limit in [t for t in ANYTIME_LIMITS if not args.quick or t <= time_limit]:
                for method in ANYTIME_METHODS:
                    measure(case, method, "anytime", limit=limit)
        for case in filter(chosen, PATH_CASES):
            measure(case, "path", "path")

    if not args.skip_scaling:
        for f in (FRACTIONS[1::2] + [1.0] if args.quick else FRACTIONS):
            measure("pulsar_rff", "ccg", "scaling_n", ("--fraction", str(f)))
        for K in (CLASSES[:3] if args.quick else CLASSES):
            measure("many_classes", "ccg", "scaling_K", ("--classes", str(K)))

    write_report(path)


if __name__ == "__main__":
    main()
