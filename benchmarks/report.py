"""Turn benchmark records (``results/*.jsonl``) into ``docs/benchmarks.md`` and plots in ``docs/img/``.

    python -m benchmarks.report [RECORDS [OUT]]

RECORDS defaults to ``benchmarks/results/full.jsonl``; OUT to ``docs/benchmarks.md`` (``docs/benchmarks_quick.md``
for ``quick.jsonl``), with the plots in ``img/`` next to it.  The section "Targets" checks the targets of the
issue "A useful rule in seconds" (:func:`target_rows`), the section "Earlier targets" those of the issue
"Stable generation" (:func:`earlier_target_rows`).
"""

import json
import sys
from pathlib import Path

import numpy as np

from benchmarks.environment import describe

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LABELS = {"ccg": "MRC-CCG (eps_1=1e-3)", "ccg_precise": "MRC-CCG (eps_1=1e-4)", "lp": "MRC-LP",
          "subgradient": "MRC-SUB", "path": "mrc_path (eps_1=1e-3)"}


def label(record):
    """The method's label, with the eps_1 the record ran at (older MRC-CCG records ran at other values)."""
    if record.get("eps_1") is None or record["method"] == "path":
        return LABELS[record["method"]]
    return f"MRC-CCG (eps_1={record['eps_1']:.0e})".replace("e-0", "e-")


def read(path):
    """Every record of a results file, in the file's order (oldest first: runs append)."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def newest(records):
    """The newest record of each run: (experiment, case, method, fraction, and K in the experiment scaling_K)."""
    latest = {}
    for r in records:
        key = (r.get("experiment", "speed"), r["case"], r["method"], r.get("fraction") or 1.0, r.get("K")
               if r.get("experiment") == "scaling_K" else None,
               r.get("time_limit") if r.get("experiment") == "anytime" else None)
        latest[key] = r
    return list(latest.values())


def load(path):
    return newest(read(path))


def run_environment(records):
    """The machine and versions the records ran with (stored in each record since issue 16; older records have
    none), as a line; several environments are each listed."""
    seen = list(dict.fromkeys(describe(r["versions"]) for r in records if r.get("versions")))
    if not seen:
        return "not recorded (records made before versions were stored)"
    return "; ".join(seen)


def slope(x, y):
    x, y = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    return float(np.polyfit(x, y, 1)[0])


COLD_LABELS = {"dual_simplex": "dual simplex", "ipm": "IPM", "ipm_no_crossover": "IPM, no crossover"}


def gap_cell(record):
    """The certified gap ``upper - lower`` for a table cell (older records: none)."""
    return "-" if record.get("lower") is None else f"{record['R'] - record['lower']:.1e}"


def limit_ratio_cell(record):
    """The limit ratio (fit seconds / the best cold solve of the final master) for a table cell: ``<= x`` when
    every cold solve hit its cap (then only bounded), ``-`` for records without it (not MRC-CCG, or older)."""
    if record.get("limit_ratio") is not None:
        return f"{record['limit_ratio']:.1f}"
    if record.get("limit_ratio_bound") is not None:
        return f"<= {record['limit_ratio_bound']:.1f}"
    return "-"


def cold_cell(record, method):
    """A method's cold-solve seconds; ``>= s`` when the solve stopped without an optimum (its cap)."""
    seconds = (record.get("cold_seconds") or {}).get(method)
    if seconds is None:
        return "-"
    optimal = (record.get("cold_objective") or {}).get(method) is not None
    return f"{seconds:.2f}" if optimal else f">= {seconds:.2f} ({record['cold_status'][method]})"


def time_to_reach(trace, target):
    """First time at which a (time, R) trace is at or below ``target``; None if never."""
    for t, r in trace or []:
        if r <= target + 1e-12:
            return t
    return None


def fmt(v, spec):
    return "-" if v is None or (isinstance(v, float) and not np.isfinite(v)) else format(v, spec)


def limit_ratio_table(records):
    """The section "Limit ratio": every MRC-CCG run's cold solves of its final master, per HiGHS method."""
    from benchmarks.run import QUICK_COLD_TIME_LIMIT
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
             "objective then differs from the last R^k (last column).", "",
             "| experiment | case | method | n | K | fit s | status | "
             + " | ".join(f"{COLD_LABELS.get(m, m)} s" for m in methods)
             + " | best | limit ratio | certified gap | cold objective - R^k |",
             "| --- | --- | --- | ---: | ---: | ---: | --- | " + " | ".join("---:" for _ in methods)
             + " | --- | ---: | ---: | ---: |"]
    order = {"speed": 0, "scaling_n": 1, "scaling_K": 2}
    for r in sorted(runs, key=lambda r: (order.get(r.get("experiment"), 3), r["case"], r["method"], r["n"], r["K"])):
        objectives = [v for v in (r.get("cold_objective") or {}).values() if v is not None]
        drift = max(objectives, key=lambda v: abs(v - r["R_master"])) - r["R_master"] if objectives else None
        lines.append(f"| {r.get('experiment', 'speed')} | {r['case']} | {label(r)} | {r['n']} | {r['K']} "
                     f"| {r['seconds']:.2f} | {r['status']} | "
                     + " | ".join(cold_cell(r, m) for m in methods)
                     + f" | {COLD_LABELS.get(r.get('cold_best'), r.get('cold_best') or '-')} | {limit_ratio_cell(r)} "
                     f"| {gap_cell(r)} | {fmt(drift, '.1e')} |")
    return lines


# ---------------------------------------------------------------------------------------------------------------
# The section "Targets": the targets of the issue "Stable generation", each from the newest record of its
# (case, method, experiment) in the file; a target whose record is missing (or whose run failed) says "not measured".

PREVIOUS_RUN_BEFORE = "2026-11-22"   # records timestamped before this day are the previous run: the issue's "today"
FINISHED = ("converged", "optimal")   # statuses of a run that reached its goal (MRC-CCG, MRC-LP)


def is_previous(record):
    """Whether a record belongs to the previous run: timestamped before :data:`PREVIOUS_RUN_BEFORE` (a record
    without a timestamp, not written by ``benchmarks/run.py``, counts as a new one)."""
    return record.get("timestamp", PREVIOUS_RUN_BEFORE) < PREVIOUS_RUN_BEFORE


def find(latest, case, method, experiment="speed"):
    """The newest record of (case, method, experiment) among ``latest`` (the output of :func:`load`), or None."""
    for r in latest:
        if r["case"] == case and r["method"] == method and r.get("experiment", "speed") == experiment:
            return r
    return None


def usable(record):
    return record is not None and "error" not in record


def run_name(case, method, experiment="speed"):
    return f"{case} / {LABELS[method]}" + ("" if experiment == "speed" else f" ({experiment})")


def not_measured(latest, case, method, experiment="speed"):
    """The "measured" cell of a target whose record is missing, or whose run failed."""
    r = find(latest, case, method, experiment)
    if r is None:
        return f"not measured: no record of {run_name(case, method, experiment)}"
    return f"not measured: the run of {run_name(case, method, experiment)} failed ({r['error']})"


def row(target, measured, met):
    """A row of the targets table; ``met`` is True, False or None (not measured)."""
    return f"| {target} | {measured} | {'not measured' if met is None else 'yes' if met else 'no'} |"


def run_key(record):
    """What makes two runs comparable across benchmark runs: (case, method, experiment, n, K)."""
    return record["case"], record["method"], record.get("experiment", "speed"), record.get("n"), record.get("K")


def previous_record(records, record):
    """The newest record of the previous run with the same :func:`run_key` as ``record`` (errors left out)."""
    old = [r for r in records if is_previous(r) and "error" not in r and run_key(r) == run_key(record)]
    return old[-1] if old else None


def previous_note(*records):
    """A note that some of a row's records are the previous run's (with their timestamps); "" if none is."""
    old = [r.get("timestamp") for r in records if is_previous(r)]
    if not old:
        return ""
    return f" [record{'s' if len(old) > 1 else ''} of the previous run, {', '.join(old)}]"


def history(records, record):
    """A note for a timed row: that the record is the previous run's own, or the previous run's time."""
    if is_previous(record):
        return previous_note(record)
    old = previous_record(records, record)
    return f"; previous run: {old['seconds']:.1f} s, {old['status']}" if old else ""


def certified(record):
    """The certified gap ``R - lower`` (R* lies in [lower, R]); None for records without a lower bound."""
    return None if record.get("lower") is None else record["R"] - record["lower"]


def limit_ratio_row(latest, case, bound=3.0):
    """Target 1: the limit ratio of MRC-CCG (default eps_1) on ``case`` is at most ``bound``.

    The ratio is the record's ``limit_ratio`` (fit seconds over the best cold solve of the fit's final master).
    When every cold solve stopped at its cap the record holds only ``limit_ratio_bound`` = fit seconds / cap:
    the cold solves would have needed longer than the cap, so the ratio is below it (shown as ``<= bound``,
    met if that bound is at most ``bound``).  A fit that did not converge does not meet the target.
    """
    target = f"limit ratio <= {bound:g}: {case}" + (" (synthetic, K = 50)" if case == "many_classes_50" else "")
    r = find(latest, case, "ccg")
    if not usable(r):
        return row(target, not_measured(latest, case, "ccg"), None)
    status = "" if r["status"] == "converged" else f"; fit {r['status']}"
    if r.get("limit_ratio") is not None:
        ratio = r["limit_ratio"]
        text = (f"{ratio:.2f} (fit {r['seconds']:.1f} s / cold solve {r['cold_best_seconds']:.2f} s, "
                f"{COLD_LABELS.get(r['cold_best'], r['cold_best'])})")
    elif r.get("limit_ratio_bound") is not None:
        ratio = r["limit_ratio_bound"]
        text = (f"<= {ratio:.2f} (fit {r['seconds']:.1f} s; every cold solve stopped at its cap of "
                f"{r['cold_time_limit']:.1f} s)")
    else:
        return row(target, f"not measured: the record of {run_name(case, 'ccg')} has no cold solves", None)
    return row(target, text + status + previous_note(r), ratio <= bound and r["status"] == "converged")


def mnist_row(latest, records, gap=1e-3, seconds=900.0):
    """Target 2: on all of mnist (56 000 training samples) MRC-CCG certifies ``R - lower <= gap`` within
    ``seconds`` (:func:`within_row`: the record (mnist, ccg_precise), else (mnist, ccg))."""
    return within_row(latest, records, "mnist", ("ccg_precise", "ccg"), seconds,
                      f"mnist (all samples): certified gap <= {gap:g} in <= {seconds:.0f} s", gap)


def converged_within_row(latest, records, case, seconds, target):
    """Targets 3 and 5: MRC-CCG (default eps_1) converges on ``case`` within ``seconds``."""
    r = find(latest, case, "ccg")
    if not usable(r):
        return row(target, not_measured(latest, case, "ccg"), None)
    text = f"{r['seconds']:.1f} s, {r['status']} (n = {r['n']}, K = {r['K']})"
    return row(target, text + history(records, r), r["status"] == "converged" and r["seconds"] <= seconds)


def scaling_K_row(latest, records, bound=1.5):
    """Target 3: MRC-CCG's fit time grows in K with a log-log slope of at most ``bound`` over the experiment
    scaling_K (synthetic many_classes, n fixed, K = 5 .. 100): the least-squares slope of log seconds against
    log K through the newest record per K.  Met if every one of those fits converged (a time-limited fit's
    time is only a lower bound) and the slope is at most ``bound``.  The previous run's slope is shown too."""
    target = f"fit-time slope in K <= {bound:g} (scaling_K: synthetic, K = 5..100)"
    runs = sorted([r for r in latest if r.get("experiment") == "scaling_K" and "error" not in r], key=lambda r: r["K"])
    if len(runs) < 2:
        return row(target, "not measured: fewer than two scaling_K records", None)
    s = slope([r["K"] for r in runs], [r["seconds"] for r in runs])
    timed_out = [r["K"] for r in runs if r["status"] != "converged"]
    text = f"slope {s:.2f} over K = {', '.join(str(r['K']) for r in runs)} (n = {runs[-1]['n']})"
    if timed_out:
        text += f"; not converged at K = {timed_out}"
    if all(is_previous(r) for r in runs):
        text += " [records of the previous run]"
    else:
        old = sorted([r for r in newest([r for r in records if is_previous(r)])
                      if r.get("experiment") == "scaling_K" and "error" not in r], key=lambda r: r["K"])
        if len(old) >= 2:
            text += f"; previous run: slope {slope([r['K'] for r in old], [r['seconds'] for r in old]):.2f}"
    return row(target, text, s <= bound and not timed_out)


def tweets_row(latest, records, gap=1e-3, seconds=60.0):
    """Target 4: on tweets (all samples) MRC-CCG (default eps_1) certifies ``R - lower <= gap`` within
    ``seconds`` and in less time than the full LP (the record tweets / MRC-LP).  Met if all three hold;
    "not measured" when the CCG record is missing, or when it meets the first two and the LP's is missing."""
    target = f"tweets (all samples): certified gap <= {gap:g} in <= {seconds:.0f} s and faster than the full LP"
    r, lp = find(latest, "tweets", "ccg"), find(latest, "tweets", "lp")
    if not usable(r):
        return row(target, not_measured(latest, "tweets", "ccg"), None)
    g = certified(r)
    own = g is not None and g <= gap and r["seconds"] <= seconds
    text = (f"{r['seconds']:.1f} s, {r['status']}, regime {r.get('regime')}, "
            + ("no certified lower bound in the record" if g is None else f"certified gap {g:.1e}")
            + history(records, r))
    if not usable(lp):
        return row(target, text + "; full LP " + not_measured(latest, "tweets", "lp"), None if own else False)
    text += f"; full LP: {lp['seconds']:.1f} s ({lp['status']})" + previous_note(lp)
    return row(target, text, own and r["seconds"] < lp["seconds"])


def pulsar_row(latest, speedup=10.0, precision=1e-4):
    """Target 6: on pulsar + RFF (all samples) MRC-CCG at eps_1 = 1e-4 is at least ``speedup`` times faster than
    the full LP and within ``precision`` of R*.  Speed-up: the LP's fit seconds over CCG's.  R* is bracketed
    by the full LP (R* <= R(LP); R* >= its ``lower``, or, in records without one, its optimum R(LP) itself)
    and by CCG's own lower bound, so R - R* is at most R(CCG) minus the largest lower end.  Met if the
    speed-up is at least ``speedup`` and that bound at most ``precision``."""
    target = (f"pulsar + RFF (all samples): >= {speedup:g}x faster than the full LP at R - R* <= {precision:g} "
              f"({LABELS['ccg_precise']})")
    ccg, lp = find(latest, "pulsar_rff", "ccg_precise"), find(latest, "pulsar_rff", "lp")
    for r, m in ((ccg, "ccg_precise"), (lp, "lp")):
        if not usable(r):
            return row(target, not_measured(latest, "pulsar_rff", m), None)
    ratio = lp["seconds"] / ccg["seconds"]
    low = lp["R"] if lp.get("lower") is None else lp["lower"]
    if ccg.get("lower") is not None:
        low = max(low, ccg["lower"])
    dist = ccg["R"] - low
    text = (f"{ratio:.1f}x ({lp['seconds']:.0f} s / {ccg['seconds']:.1f} s); R* in [{low:.6f}, "
            f"{min(lp['R'], ccg['R']):.6f}]: R - R* <= {dist:.1e}" + previous_note(ccg, lp))
    return row(target, text, ratio >= speedup and dist <= precision)


def subgradient_row(latest, case, speedup=30.0):
    """Target 7: MRC-CCG (default eps_1) is at least ``speedup`` times faster than MRC-SUB at equal R on ``case``:
    the time MRC-SUB's trace first reaches CCG's R over CCG's fit time.  If MRC-SUB never reaches it, its whole
    run time over CCG's is a lower bound of the ratio: met only if that bound is at least ``speedup``."""
    target = f"{case}: >= {speedup:g}x faster than MRC-SUB at equal R ({LABELS['ccg']})"
    ccg, sub = find(latest, case, "ccg"), find(latest, case, "subgradient")
    for r, m in ((ccg, "ccg"), (sub, "subgradient")):
        if not usable(r):
            return row(target, not_measured(latest, case, m), None)
    reach = time_to_reach(sub.get("trace"), ccg["R"])
    if reach is None:
        ratio = sub["seconds"] / ccg["seconds"]
        text = (f"MRC-SUB did not reach it in {sub['iterations']} steps, {sub['seconds']:.1f} s (its best "
                f"{sub['R']:.6f}): ratio > {ratio:.1f}x")
    else:
        ratio = reach / ccg["seconds"]
        text = f"MRC-SUB needs {reach:.1f} s to reach it: {ratio:.1f}x"
    text = f"{label(ccg)}: R = {ccg['R']:.6f} in {ccg['seconds']:.1f} s; " + text
    return row(target, text + previous_note(ccg, sub), ratio >= speedup)


def master_steps(record):
    """Seconds between successive masters of a record's trace (each solve with its check and update)."""
    times = [0.0] + [t for t, _ in record.get("trace") or []]
    return [b - a for a, b in zip(times, times[1:])]


def master_time_row(latest, bound=3.0, floor=1.0):
    """Item 4 (stall protection): no master takes more than ``bound`` times the best cold solve of its fit's
    final master.  Measured on every MRC-CCG record with cold solves, from the times between successive
    masters of its trace (an upper bound on each solve: the oracles and the update are included); steps under
    ``floor`` seconds are left out (below ``ccg.STALL_FLOOR`` no budget applies, and a cold solve of
    hundredths of a second is within the timer's noise)."""
    target = f"no master takes more than {bound:g}x the cold solve of its fit's final master (stall protection)"
    ratios = []
    for r in latest:
        if r["method"] in ("ccg", "ccg_precise") and usable(r) and r.get("cold_best_seconds"):
            steps = [(t, k + 1) for k, t in enumerate(master_steps(r)) if t >= floor]
            if steps:
                t, k = max(steps)
                ratios.append((t / r["cold_best_seconds"], t, k, r))
    if not ratios:
        return row(target, "not measured: no MRC-CCG record with cold solves", None)
    ratio, t, k, r = max(ratios, key=lambda item: item[0])
    text = (f"largest {ratio:.2f}: {run_name(r['case'], r['method'], r.get('experiment', 'speed'))}, "
            f"master {k} of {len(master_steps(r))} took {t:.1f} s against a cold solve of {r['cold_best_seconds']:.1f} s"
            f"{'' if r['status'] == 'converged' else ' (' + r['status'] + ')'}; over {len(ratios)} runs"
            + previous_note(r))
    return row(target, text, ratio <= bound)


def regression_row(records, factor=1.2):
    """Target 9: no run slower than in the previous run by more than ``factor``.  For every
    (case, method, experiment, n, K) with a record of the previous run (timestamped before
    :data:`PREVIOUS_RUN_BEFORE`; its newest) and a newer record (its newest), the ratio new seconds / old
    seconds.  Only pairs that reached their goal both times (status converged, or optimal for the full LP) are
    compared; pairs whose status changed are listed.  Met if the largest ratio is at most ``factor``."""
    target = f"no run slower than in the previous run by more than {factor:g}x"
    old, new = {}, {}
    for r in records:
        if "error" not in r:
            (old if is_previous(r) else new)[run_key(r)] = r
    pairs, changed = [], []
    for key in [k for k in new if k in old]:
        a, b = old[key], new[key]
        if a["status"] in FINISHED and b["status"] in FINISHED:
            pairs.append((b["seconds"] / a["seconds"], key, a, b))
        elif a["status"] != b["status"]:
            changed.append(f"{key_name(key)}: {a['status']} -> {b['status']}")
    notes = "; status changed: " + ", ".join(changed) if changed else ""
    if not pairs:
        return row(target, "not measured: no run converged both in the previous run and after it" + notes, None)
    ratio, key, a, b = max(pairs, key=lambda p: p[0])
    text = (f"largest ratio {ratio:.2f}: {key_name(key)} ({a['seconds']:.1f} s -> {b['seconds']:.1f} s"
            + (f", {label(a)} -> {label(b)}" if a.get("eps_1") != b.get("eps_1") else "")
            + f"), over {len(pairs)} runs converged both times")
    other_eps = sum(p[2].get("eps_1") != p[3].get("eps_1") for p in pairs)
    if other_eps:
        text += f" ({other_eps} of them at a different eps_1 than before)"
    return row(target, text + notes, ratio <= factor)


def key_name(key):
    case, method, experiment, n, K = key
    return f"{run_name(case, method, experiment)}, n = {n}, K = {K}"


def model_updates_row(records):
    """Older target (kept): model updates (building blocks and loading them into the solver) take under 15% of
    the fit time in every MRC-CCG run of the file (newest records, every experiment).  None without such runs."""
    runs = [r for r in records if "seconds_update" in r and "error" not in r]
    if not runs:
        return None
    worst = max(runs, key=lambda r: r["seconds_update"] / r["seconds"])
    share = worst["seconds_update"] / worst["seconds"]
    return row("model updates < 15% of the fit time in every CCG run",
               f"largest {share:.1%} ({worst['case']}, {label(worst)})", share < 0.15)


def memory_row(speed):
    """Older target (kept): the full F is never formed.  Over the MRC-CCG speed runs but tweets (sparse), the
    growth of the resident set during the fit (peak - data) against the size of Psi (n x D doubles): met if at
    most 10x for the runs whose Psi takes 20 MB or more.  None without such runs."""
    dense = [r for r in speed if "seconds_update" in r and "error" not in r and r["case"] != "tweets"]
    if not dense:
        return None
    psi_mb = {id(r): r["n"] * r["m"] / r["K"] * 8 / 2**20 for r in dense}  # Psi: n x D doubles
    big = [r for r in dense if psi_mb[id(r)] >= 20]
    small_growth = max((r["peak_mb"] - r["data_mb"] for r in dense if psi_mb[id(r)] < 20), default=0.0)
    text = f"runs with Psi under 20 MB grow the resident set by at most {small_growth:.0f} MB"
    worst_ratio = 0.0
    if big:
        worst_ratio, r = max((((r["peak_mb"] - r["data_mb"]) / psi_mb[id(r)], r) for r in big), key=lambda x: x[0])
        text = (f"growth of the resident set during the fit at most {worst_ratio:.1f}x the size of Psi "
                f"({r['case']}: {psi_mb[id(r)]:.0f} MB); " + text)
    lp_run, ccg_run = find(speed, "pulsar_rff", "lp"), find(speed, "pulsar_rff", "ccg")
    if usable(lp_run) and usable(ccg_run):
        text += f"; pulsar + RFF: MRC-LP peaks at {lp_run['peak_mb']:.0f} MB, MRC-CCG at {ccg_run['peak_mb']:.0f} MB"
    return row("memory: the full F is never formed, peak within a small multiple of the data", text,
               worst_ratio <= 10)


def earlier_target_rows(latest, records):
    """The rows of the section "Earlier targets" (the issue "Stable generation"), in that issue's order.  ``latest``: the newest record per run
    (:func:`load`); ``records``: every record of the file, in its order (for the previous run's)."""
    return [
        *(limit_ratio_row(latest, c) for c in ("many_classes_50", "mnist_8000", "satellite_rff", "optdigits_rff")),
        mnist_row(latest, records),
        converged_within_row(latest, records, "many_classes", 120.0,
                             "many_classes (K = 100, n = 16 000): converged in <= 120 s"),
        scaling_K_row(latest, records),
        tweets_row(latest, records),
        converged_within_row(latest, records, "digits_rff", 30.0, "digits_rff: converged in <= 30 s"),
        converged_within_row(latest, records, "satellite_rff", 7.0,
                             "satellite_rff: converged in <= 7 s (paper, Gurobi: 74 s)"),
        converged_within_row(latest, records, "optdigits_rff", 34.0,
                             "optdigits_rff: converged in <= 34 s (paper, Gurobi: 340 s)"),
        pulsar_row(latest),
        *(subgradient_row(latest, c) for c in ("dry_bean_rff", "optdigits_rff")),
        master_time_row(latest),
        regression_row(records),
    ]

# ---------------------------------------------------------------------------------------------------------------
# The section "Targets": the issue "A useful rule in seconds, the certificate in minutes".

def reference(latest, case):
    """The reference R* of ``case``: the interval [lower, R] of its newest "reference" record (MRC-CCG at
    eps_1 = 1e-4 without a time limit), or None.  When it converged, R* is within 1e-4 of ``lower``."""
    r = find(latest, case, "ccg_precise", "reference")
    return r if usable(r) and r.get("lower") is not None else None


def anytime_records(latest, case):
    """The anytime records of ``case`` (MRC-CCG with a time limit), by increasing time limit."""
    runs = [r for r in latest if r["case"] == case and r.get("experiment") == "anytime" and usable(r)]
    return sorted(runs, key=lambda r: r.get("time_limit") or 0.0)


def anytime_cell(r, ref):
    """``R - R*`` of an anytime record against the reference: exact to the reference's gap, ``R - lower_ref``
    bounds it from above (and ``R - R_ref`` from below)."""
    if ref is None:
        return "no reference"
    return f"{max(r['R'] - ref['R'], 0.0):.4f} .. {r['R'] - ref['lower']:.4f}"


def anytime_table(latest):
    """The section "Anytime": the rule of a fit stopped at each time limit, against the reference R*."""
    from benchmarks.run import ANYTIME_CASES
    lines = ["", "## Anytime rules", "",
             "Separate MRC-CCG fits (default settings) stopped by `time_limit`: the certified R of the rule each",
             "returns, against the reference R* of its case, the interval [lower, R] of a fit run to eps_1 = 1e-4",
             "without a time limit (experiment \"reference\", kept with the records; `--reference`). `R - R*` is",
             "shown as an interval: R* lies in the reference's interval.", "",
             "| case | time limit s | fit s | R | lower | status | R - R* | reference R* in |",
             "| --- | ---: | ---: | ---: | ---: | --- | --- | --- |"]
    rows = []
    for case in ANYTIME_CASES:
        ref = reference(latest, case)
        span = "-" if ref is None else f"[{ref['lower']:.4f}, {ref['R']:.4f}] ({ref['status']}, {ref['seconds']:.0f} s)"
        rows += [f"| {case} | {fmt(r.get('time_limit'), '.0f')} | {r['seconds']:.1f} | {r['R']:.4f} "
                 f"| {r['lower']:.4f} | {r['status']} | {anytime_cell(r, ref)} | {span} |"
                 for r in anytime_records(latest, case)]
    return lines + rows if rows else []


def waste_table(latest):
    """The section "Waste decomposition": every MRC-CCG run's masters, churn and solver seconds per phase,
    against one cold solve of its final master (``benchmarks.run_case.waste``)."""
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


def within_row(latest, records, case, methods, seconds, target, gap=1e-3):
    """MRC-CCG certifies ``R - lower <= gap`` on ``case`` within ``seconds``: the record of the first of
    ``methods`` that has one; met if its certified gap and fit time are within the bounds (a record without a
    lower bound certifies nothing)."""
    r = next((r for r in (find(latest, case, m) for m in methods) if usable(r)), None)
    if r is None:
        return row(target, not_measured(latest, case, methods[0]), None)
    g = certified(r)
    text = (f"{r['seconds']:.1f} s, {label(r)}, n = {r['n']}, {r['status']}, "
            + ("no certified lower bound in the record" if g is None else f"certified gap {g:.1e}"))
    return row(target, text + history(records, r), g is not None and g <= gap and r["seconds"] <= seconds)


def anytime_target_row(latest, case, limit, precision):
    """The rule of a fit with ``time_limit = limit`` is within ``precision`` of the reference R*: met if
    ``R - lower_ref <= precision`` (shown), not met if even ``R - R_ref > precision``."""
    target = f"{case}: rule within {precision:g} of R* with time_limit = {limit:g}"
    r = next((r for r in anytime_records(latest, case) if r.get("time_limit") == limit), None)
    if r is None:
        return row(target, f"not measured: no anytime record of {case} at {limit:g} s", None)
    ref = reference(latest, case)
    if ref is None:
        return row(target, f"R = {r['R']:.4f}; not measured: no reference run of {case}", None)
    text = f"R = {r['R']:.4f} ({r['status']}); R - R* in {anytime_cell(r, ref)}"
    if r["R"] - ref["lower"] <= precision:
        return row(target, text, True)
    return row(target, text, False if r["R"] - ref["R"] > precision else None)


def path_row(latest, case="satellite_rff", factor=2.0):
    """The path of ``mrc_path``'s default grid on ``case`` in at most ``factor`` times the single fit at
    lambda0 = 0.01 (the speed run of MRC-CCG)."""
    target = f"path of np.geomspace(1, 1e-3, 8) on {case} <= {factor:g}x the single fit at lambda0 = 0.01"
    path, single = find(latest, case, "path", "path"), find(latest, case, "ccg")
    if not usable(path):
        return row(target, not_measured(latest, case, "path", "path"), None)
    if not usable(single):
        return row(target, not_measured(latest, case, "ccg"), None)
    stages, grid = path.get("stages") or [], 8
    done = sum(s["status"] == "converged" for s in stages)
    ratio = path["seconds"] / single["seconds"]
    text = (f"{path['seconds']:.1f} s ({done} of the {grid} stages converged, {len(stages)} fitted"
            f"{'' if path['status'] == 'converged' else ' before the ' + path['status']}; stage seconds "
            + ", ".join(f"{s['lambda0']:.3g}: {s['seconds']:.1f}" for s in stages)
            + f") against {single['seconds']:.1f} s ({single['status']}): {ratio:.2f}x")
    return row(target, text, ratio <= factor and done == grid)


def target_rows(latest, records):
    """The rows of the section "Targets" (the issue "A useful rule in seconds"), in the issue's order."""
    return [
        anytime_target_row(latest, "mnist_8000", 60.0, 0.05),
        anytime_target_row(latest, "mnist_8000", 300.0, 0.01),
        within_row(latest, records, "mnist_8000", ("ccg",), 600.0, "mnist_8000: certified gap <= 1e-3 within 600 s"),
        mnist_row(latest, records),
        *(limit_ratio_row(latest, c, 5.0) for c in ("many_classes_50", "satellite_rff", "optdigits_rff",
                                                    "digits_rff", "mnist_8000")),
        converged_within_row(latest, records, "satellite_rff", 37.0,
                             "satellite_rff: converged in <= 37 s (half the paper's Gurobi 74 s)"),
        converged_within_row(latest, records, "optdigits_rff", 170.0,
                             "optdigits_rff: converged in <= 170 s (half the paper's Gurobi 340 s)"),
        converged_within_row(latest, records, "digits_rff", 60.0, "digits_rff: converged in <= 60 s"),
        within_row(latest, records, "many_classes_26_rff", ("ccg",), 600.0,
                   "many_classes_26_rff (26 classes, dense features): certified gap <= 1e-3 within 600 s"),
        within_row(latest, records, "satellite_unregularised", ("ccg",), 30.0,
                   "satellite at lambda0 = 0: certified gap <= 1e-3 within 30 s"),
        path_row(latest),
    ]



def write_report(path, out=None):
    """Write the report of the records in ``path`` to ``out`` (default: ``docs/benchmarks.md``, or
    ``docs/benchmarks_quick.md`` for ``quick.jsonl``) and its plots to ``img/`` next to it; return ``out``."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    all_records = read(path)
    records = newest(all_records)
    mode = "quick" if Path(path).stem == "quick" else "full"
    out = Path(out) if out is not None else DOCS / ("benchmarks.md" if mode == "full" else "benchmarks_quick.md")
    img = out.parent / "img"
    img.mkdir(parents=True, exist_ok=True)
    speed = [r for r in records if r.get("experiment") == "speed"]
    cases = list(dict.fromkeys(r["case"] for r in speed))
    best = {c: min((r["R"] for r in speed if r["case"] == c and "R" in r), default=None) for c in cases}

    lines = [f"# Benchmarks ({mode} run)", "",
             f"Produced by `python -m benchmarks.run{' --quick' if mode == 'quick' else ''}` "
             f"(records in `benchmarks/results/{Path(path).name}`, report by `benchmarks/report.py`).", "",
             f"Machine and versions: {run_environment(records)}.", "",
             "Each case and method ran in its own process on 80% of the samples (stratified, seed 0); the test",
             "error is on the other 20%. R is the certified worst-case error `upper_` = R(mu) over the training",
             "samples, and its distance is to the best R any method found for the case; the certified gap is",
             "`upper_ - lower_` (so R* is within it of R). The limit ratio (MRC-CCG only) is the fit time over",
             "the time of one cold solve of the fit's final restricted master with the best HiGHS method (see",
             "\"Limit ratio\" below). Peak memory is the process's maximum resident set during the fit.",
             "For MRC-CCG the time is split into oracles, model updates",
             "(building blocks and loading them into the solver) and the solver. Two runs at most shared the",
             "2-core machine at a time; the fit times include that contention.", "",
             "## Speed and precision", "",
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

    lines += limit_ratio_table(records)

    # targets
    quick_note = (" This is the quick run: its cases are subsampled, so these rows only preview the targets,"
                  " which are about the full cases." if mode == "quick" else "")
    lines += ["", "## Targets", "",
              "The targets of the issue \"A useful rule in seconds, the certificate in minutes\", each from the",
              "newest record of its case, method and experiment in this file; \"not measured\" when the file has",
              "no such record or its run failed." + quick_note, "",
              "| target | measured | met |", "| --- | --- | --- |"]
    lines += target_rows(records, all_records)
    lines += anytime_table(records) + waste_table(records)
    lines += ["", "## Earlier targets", "",
              "The targets of the issue \"Stable generation\" (a record of the previous run, before "
              + PREVIOUS_RUN_BEFORE + ", says so). The last two rows are older targets kept for reference.", "",
              "| target | measured | met |", "| --- | --- | --- |"]
    lines += earlier_target_rows(records, all_records)
    lines += [r for r in (model_updates_row(records), memory_row(speed)) if r]

    # scaling
    sn = sorted([r for r in records if r.get("experiment") == "scaling_n" and "error" not in r], key=lambda r: r["n"])
    sk = sorted([r for r in records if r.get("experiment") == "scaling_K" and "error" not in r], key=lambda r: r["K"])
    if len(sn) >= 2:
        s = slope([r["n"] for r in sn], [r["seconds"] for r in sn])
        fig, ax = plt.subplots(figsize=(5, 3.8))
        ax.loglog([r["n"] for r in sn], [r["seconds"] for r in sn], "o-", label=f"MRC-CCG (slope {s:.2f})")
        ax.set_xlabel("training samples n")
        ax.set_ylabel("fit seconds")
        ax.legend()
        fig.tight_layout()
        fig.savefig(img / f"time_vs_n_{mode}.png", dpi=110)
        plt.close(fig)
    if len(sk) >= 2:
        Ks = np.array([r["K"] for r in sk], float)
        s = slope(Ks, [r["seconds"] for r in sk])
        per_iteration = [r["seconds_oracle"] / r["iterations"] for r in sk]
        s_oracle = slope(Ks, per_iteration)
        fig, ax = plt.subplots(figsize=(5, 3.8))
        ax.loglog(Ks, [r["seconds"] for r in sk], "o-", label=f"MRC-CCG fit (slope {s:.2f})")
        ax.loglog(Ks, per_iteration, "s--", label=f"oracles per iteration (slope {s_oracle:.2f})")
        ref = Ks * np.log(Ks)
        ax.loglog(Ks, ref / ref[0] * sk[0]["seconds"], "k:", label="K log K")
        ax.set_xlabel("classes K")
        ax.set_ylabel("fit seconds")
        ax.legend()
        fig.tight_layout()
        fig.savefig(img / f"time_vs_K_{mode}.png", dpi=110)
        plt.close(fig)

    # convergence plot
    conv = [c for c in cases if any(r.get("trace") for r in speed if r["case"] == c)]
    if conv:
        cols = min(3, len(conv))
        rows = int(np.ceil(len(conv) / cols))
        fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 3.6 * rows), squeeze=False)
        for ax, c in zip(axes.ravel(), conv):
            for r in [r for r in speed if r["case"] == c and r.get("trace")]:   # a full LP has no iterations
                t, R = np.array(r["trace"]).T
                # the certified value of the rule a stop at time t returns: the best R(mu) so far
                ax.plot(t, np.minimum(np.minimum.accumulate(R), 1.0), label=f"{label(r)}: best R(mu)")
                if "trace_master" in r:
                    t, R = np.array(r["trace_master"]).T
                    ax.plot(t, R, "--", label=f"{label(r)}: R^k")
            lp_run = find(speed, c, "lp")
            if usable(lp_run):
                ax.axhline(lp_run["R"], color="k", lw=0.8, label=f"MRC-LP ({lp_run['seconds']:.0f} s)")
            ax.set_xscale("log")
            ax.set_title(c)
            ax.set_xlabel("seconds")
            ax.set_ylabel("worst-case error")
            ax.legend(fontsize=7)
        for ax in axes.ravel()[len(conv):]:
            ax.axis("off")
        fig.tight_layout()
        fig.savefig(img / f"convergence_{mode}.png", dpi=100)
        plt.close(fig)

    from benchmarks.run import SPEED_CASES
    present = {(r["case"], r["method"]) for r in speed}
    missing = [f"{c} / {LABELS[m]}" for c, ms in SPEED_CASES.items() for m in ms if (c, m) not in present]
    if missing and mode == "full":
        lines += ["", "Runs of the plan with no record in this file (not run, or stopped before they wrote one): "
                  + ", ".join(missing) + "."]

    lines += ["", "## Plots", ""]
    for name, caption in [("convergence", "R^k and the best certified R(mu) so far against time, per method (as "
                                          "the paper's convergence figure)"),
                          ("time_vs_n", "fit time against the number of samples (log-log, fitted slope)"),
                          ("time_vs_K", "fit time against the number of classes (log-log, fitted slope)")]:
        if (img / f"{name}_{mode}.png").exists():
            lines += [f"![{caption}](img/{name}_{mode}.png)", "", f"*{caption}.*", ""]
    out.write_text("\n".join(lines) + "\n")
    print(f"report written to {out}")
    return out


if __name__ == "__main__":
    write_report(sys.argv[1] if len(sys.argv) > 1 else ROOT / "benchmarks" / "results" / "full.jsonl",
                 sys.argv[2] if len(sys.argv) > 2 else None)
