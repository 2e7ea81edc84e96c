"""The report's tables of runs: speed and precision, the limit ratio's cold solves, the anytime rules and the
waste decomposition; and the note on the plan's runs that have no record."""

from benchmarks.harness.plan import ANYTIME_CASES, ANYTIME_METHODS, QUICK_COLD_TIME_LIMIT, SPEED_CASES
from benchmarks.report.cells import (COLD_LABELS, LABELS, anytime_cell, cold_cell, fmt, gap_cell, label,
                                     limit_ratio_cell, minimal_cell)
from benchmarks.report.records import anytime_records, reference, usable


def speed_table(speed, cases):
    """The section "Speed and precision": every speed run of ``cases``, with its R against the best any method
    found for the case."""
    best = {c: min((r["R"] for r in speed if r["case"] == c and "R" in r), default=None) for c in cases}
    lines = ["", "## Speed and precision", "",
             "| case | method | n | d | K | m | fit s | peak MB | R | R - best | certified gap | limit ratio "
             "| test error | iter. | oracle | update | solver | status |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: "
             "| ---: | ---: | ---: | --- |"]
    for c in cases:
        for r in [r for r in speed if r["case"] == c]:
            if "error" in r:
                lines.append(f"| {c} | {LABELS[r['method']]} | | | | | {r['seconds']:.0f} | | | | | | | | | | | "
                             f"{r['error']} |")
                continue
            share = (lambda k: f"{r[k] / r['seconds']:.0%}") if "seconds_update" in r else (lambda k: "-")
            lines.append(
                f"| {c} | {label(r)} | {r['n']} | {r['d']} | {r['K']} | {r['m']} | {r['seconds']:.2f} "
                f"| {r['peak_mb']:.0f} | {r['R']:.6f} | {r['R'] - best[c]:.1e} | {gap_cell(r)} "
                f"| {limit_ratio_cell(r)} | {r['test_error']:.4f} "
                f"| {r['iterations']} | {share('seconds_oracle')} | {share('seconds_update')} "
                f"| {share('seconds_solve')} | {r['status']} |")
    return lines


def limit_ratio_table(records):
    """The section "Limit ratio": every MRC-CCG run's cold solves of its final master, per HiGHS method."""
    runs = [r for r in records if "cold_seconds" in r and "error" not in r]
    if not runs:
        return []
    methods = list(dict.fromkeys(m for r in runs for m in r["cold_seconds"]))
    lines = ["", "## Limit ratio", "",
             "Right after each MRC-CCG fit, in the same process, fresh copies of the fit's final restricted master",
             "(`copy.deepcopy(clf.master_)`: a new HiGHS instance loaded from the master's arrays, no basis) are",
             f"solved once per HiGHS method, each capped at the fit time (and at {QUICK_COLD_TIME_LIMIT:.0f} s in the "
             "quick run; `>=`",
             "marks a capped solve); solves well under a second are repeated on fresh copies and the fastest kept.",
             "The limit ratio is the fit time over the best of them: what generating the rows and features cost",
             "against an oracle that knew them from the start. Cold solves",
             "run at HiGHS's default tolerances (not the tighter ones `refine()` may have set during the fit).",
             "A run stopped inside a solve (time limit) leaves a final master the fit never solved: its cold",
             "objective then differs from the last R^k (last column).  Beside it, the minimal master: the final",
             "master without its rows of zero dual, the smallest master that certifies (an LP keeps its optimum",
             "without its slack rows), solved cold the same ways; the minimal ratio, the fit time over its best",
             "cold solve, is what the whole fit cost against the floor of any generation method.", "",
             "| experiment | case | method | n | K | fit s | status | "
             + " | ".join(f"{COLD_LABELS.get(m, m)} s" for m in methods)
             + " | best | limit ratio | minimal master: rows, ratio | certified gap | cold objective - R^k |",
             "| --- | --- | --- | ---: | ---: | ---: | --- | " + " | ".join("---:" for _ in methods)
             + " | --- | ---: | ---: | ---: | ---: |"]
    order = {"speed": 0, "scaling_n": 1, "scaling_K": 2}
    for r in sorted(runs, key=lambda r: (order.get(r.get("experiment"), 3), r["case"], r["method"], r["n"], r["K"])):
        objectives = [v for v in (r.get("cold_objective") or {}).values() if v is not None]
        drift = max(objectives, key=lambda v: abs(v - r["R_master"])) - r["R_master"] if objectives else None
        lines.append(f"| {r.get('experiment', 'speed')} | {r['case']} | {label(r)} | {r['n']} | {r['K']} "
                     f"| {r['seconds']:.2f} | {r['status']} | "
                     + " | ".join(cold_cell(r, m) for m in methods)
                     + f" | {COLD_LABELS.get(r.get('cold_best'), r.get('cold_best') or '-')} | {limit_ratio_cell(r)} "
                     f"| {minimal_cell(r)} | {gap_cell(r)} | {fmt(drift, '.1e')} |")
    return lines


def anytime_table(latest, records=()):
    """The section "Anytime": the rule of a fit stopped at each time limit, against the reference R*
    (:func:`~benchmarks.report.records.reference`, which may take it from ``records``, every record)."""
    lines = ["", "## Anytime rules", "",
             "Separate fits stopped by `time_limit` (the default fit, with its first-order phase where",
             "`first_order=\"auto\"` runs it; MRC-CCG without that phase; MRC-FOM): the certified R of the rule each",
             "returns, against the reference R* of its case, the interval [lower, R] of a fit run to eps_1 = 1e-4",
             "without a time limit (experiment \"reference\", kept with the records; `--reference`). `R - R*` is",
             "shown as an interval: R* lies in the reference's interval.", "",
             "| case | method | time limit s | fit s | R | lower | status | R - R* | reference R* in |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- |"]
    rows = []
    for case in ANYTIME_CASES:
        ref = reference(latest, case, records)
        span = "-" if ref is None else (f"[{ref['lower']:.4f}, {ref['R']:.4f}] ({ref['status']}, {ref['seconds']:.0f} s"
                                        + (", a speed run: lower = R - eps_1" if ref.get("lower_from_eps_1") else "")
                                        + ")")
        rows += [f"| {case} | {LABELS[method]} | {fmt(r.get('time_limit'), '.0f')} | {r['seconds']:.1f} "
                 f"| {r['R']:.4f} | {r['lower']:.4f} | {r['status']} | {anytime_cell(r, ref)} | {span} |"
                 for method in ANYTIME_METHODS for r in anytime_records(latest, case, method)]
    return lines + rows if rows else []


def waste_table(latest):
    """The section "Waste decomposition": every MRC-CCG run's masters, churn and solver seconds per phase,
    against one cold solve of its final master (``benchmarks.harness.run_case.waste``)."""
    runs = [r for r in latest if usable(r) and r.get("waste")]
    if not runs:
        return []
    lines = ["", "## Waste decomposition", "",
             "Where each MRC-CCG fit's time went beyond one cold solve of its final master: the masters solved,",
             "the rows added, dropped again and re-added after a drop (the churn), the solver's seconds (in all;",
             "the first master; the masters whose solve alone took longer than the cold solve of the final",
             "master) and the oracles' and updates' seconds.", "",
             "| experiment | case | method | fit s | status | masters | rows added | dropped | re-added "
             "| final rows | solver s | first master s | slower than cold (s) | oracles + updates s | cold s |",
             "| --- | --- | --- | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: |"]
    for r in sorted(runs, key=lambda r: (r.get("experiment", "speed"), r["case"], r["method"],
                                         r.get("time_limit") or 0.0)):
        w = r["waste"]
        slow = ("-" if "slower_than_cold" not in w
                else f"{w['slower_than_cold']} ({w['seconds_slower_than_cold']:.1f})")
        lines.append(f"| {r.get('experiment', 'speed')} | {r['case']} | {label(r)} | {r['seconds']:.1f} "
                     f"| {r['status']} | {w['masters']} | {w['rows_added']} | {w['rows_dropped']} "
                     f"| {w['rows_readded']} | {w['final_rows']} | {w['seconds_solve']:.1f} "
                     f"| {w['solve_by_phase'].get('first master', 0.0):.1f} | {slow} | {w['seconds_other']:.1f} "
                     f"| {fmt(r.get('cold_best_seconds'), '.2f')} |")
    return lines


def missing_runs(speed):
    """A note naming the runs of the plan (:data:`benchmarks.harness.plan.SPEED_CASES`) that have no speed record in
    ``speed``; [] if none is missing."""
    present = {(r["case"], r["method"]) for r in speed}
    missing = [f"{c} / {LABELS[m]}" for c, ms in SPEED_CASES.items() for m in ms if (c, m) not in present]
    if not missing:
        return []
    return ["", "Runs of the plan with no record in this file (not run, or stopped before they wrote one): "
            + ", ".join(missing) + "."]
