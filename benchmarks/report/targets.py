"""The section "Targets" of the report: the targets of the issue "A useful rule in seconds, the certificate in
minutes", each from the newest record of its (case, method, experiment); a target whose record is missing (or
whose run failed) says "not measured".  Some rows serve the section "Earlier targets" too
(``benchmarks.report.earlier_targets``)."""

from benchmarks.report.cells import (COLD_LABELS, anytime_cell, history, label, not_measured, previous_note, row,
                                     run_name, when)
from benchmarks.report.records import anytime_records, certified, find, reference, usable


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
    return row(target, text + status + previous_note(r) + when(r), ratio <= bound and r["status"] == "converged")


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
    return row(target, text + history(records, r) + when(r), g is not None and g <= gap and r["seconds"] <= seconds)


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
    return row(target, text + history(records, r) + when(r), r["status"] == "converged" and r["seconds"] <= seconds)


def anytime_target_row(latest, records, case, limit, precision):
    """The rule of a fit with ``time_limit = limit`` is within ``precision`` of the reference R*: met if
    ``R - lower_ref <= precision`` (shown), not met if even ``R - R_ref > precision``."""
    target = f"{case}: rule within {precision:g} of R* with time_limit = {limit:g}"
    r = next((r for r in anytime_records(latest, case) if r.get("time_limit") == limit), None)
    if r is None:
        return row(target, f"not measured: no anytime record of {case} at {limit:g} s", None)
    ref = reference(latest, case, records)
    if ref is None:
        return row(target, f"R = {r['R']:.4f}; not measured: no reference run of {case}", None)
    text = f"R = {r['R']:.4f} ({r['status']}); R - R* in {anytime_cell(r, ref)}" + when(r)
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
    stages, grid = [s for s in path.get("stages") or [] if s["status"] != "not_reached"], 8   # the fitted ones
    done = sum(s["status"] == "converged" for s in stages)
    ratio = path["seconds"] / single["seconds"]
    text = (f"{path['seconds']:.1f} s ({done} of the {grid} stages converged, {len(stages)} fitted"
            f"{'' if path['status'] == 'converged' else ' before the ' + path['status']}; stage seconds "
            + ", ".join(f"{s['lambda0']:.3g}: {s['seconds']:.1f}" for s in stages)
            + f") against {single['seconds']:.1f} s ({single['status']}): {ratio:.2f}x")
    return row(target, text + when(path, single), ratio <= factor and done == grid)


def target_rows(latest, records):
    """The rows of the section "Targets" (the issues "A useful rule in seconds" and "A good rule in seconds from a
    first-order method"), in the issues' order."""
    return [
        anytime_target_row(latest, records, "mnist_8000", 10.0, 0.08),
        anytime_target_row(latest, records, "mnist_8000", 60.0, 0.02),
        anytime_target_row(latest, records, "mnist_8000", 300.0, 0.01),
        within_row(latest, records, "mnist_8000", ("ccg",), 120.0, "mnist_8000: certified gap <= 1e-3 within 120 s"),
        anytime_target_row(latest, records, "mnist", 120.0, 0.03),
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


def targets_section(latest, records, quick):
    """The section "Targets": its introduction (with a note when the records are of the quick run) and
    :func:`target_rows`."""
    quick_note = (" This is the quick run: its cases are subsampled, so these rows only preview the targets,"
                  " which are about the full cases." if quick else "")
    return ["", "## Targets", "",
            "The targets of the issues \"A useful rule in seconds, the certificate in minutes\" and \"A good rule in",
            "seconds from a first-order method\", each from the newest record of its case, method and experiment in",
            "this file (its time and commit in brackets); \"not measured\" when the file has no such record or its",
            "run failed." + quick_note, "",
            "| target | measured | met |", "| --- | --- | --- |"] + target_rows(latest, records)
