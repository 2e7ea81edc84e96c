"""The section "Earlier targets" of the report: the targets of the issue "Stable generation", each from the newest
record of its (case, method, experiment) (a record of the previous run, before
:data:`benchmarks.report.records.PREVIOUS_RUN_BEFORE`, says so), and two older targets kept for reference."""

from benchmarks.harness.record_files import run_key
from benchmarks.report.cells import LABELS, history, key_name, label, not_measured, previous_note, row, run_name
from benchmarks.report.records import (FINISHED, PREVIOUS_RUN_BEFORE, certified, find, is_previous, master_steps,
                                       newest, slope, time_to_reach, usable)
from benchmarks.report.targets import converged_within_row, limit_ratio_row, mnist_row


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
            f"master {k} of {len(master_steps(r))} took {t:.1f} s against a cold solve of "
            f"{r['cold_best_seconds']:.1f} s"
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
    """The rows of the section "Earlier targets" (the issue "Stable generation"), in that issue's order.
    ``latest``: the newest record per run (:func:`benchmarks.report.records.newest`); ``records``: every record of
    the file, in its order (for the previous run's)."""
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


def earlier_targets_section(latest, records, speed):
    """The section "Earlier targets": :func:`earlier_target_rows`, then the older targets kept for reference
    (``speed``: the newest speed records)."""
    lines = ["", "## Earlier targets", "",
             "The targets of the issue \"Stable generation\" (a record of the previous run, before "
             + PREVIOUS_RUN_BEFORE + ", says so). The last two rows are older targets kept for reference.", "",
             "| target | measured | met |", "| --- | --- | --- |"]
    lines += earlier_target_rows(latest, records)
    return lines + [r for r in (model_updates_row(latest), memory_row(speed)) if r]
