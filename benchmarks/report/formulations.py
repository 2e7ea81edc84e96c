"""The report's section "Formulations": the records of ``python -m benchmarks.harness.run --formulations``, each case
fitted in the paper's formulation and in the compact one (:mod:`mrc_pyomo.formulations`) one right after the
other, with the compact fit's time as a ratio of the paper's."""

from benchmarks.report.cells import fmt, gap_cell


def _cells(r):
    if r is None:
        return ["not run"] * 5
    if "error" in r:
        refused = "full LP would have" in r["error"]   # mrc_pyomo.methods.full_lp's size limits
        return ["refused: beyond the size limits" if refused else f"error: {r['error'][:40]}"] + [""] * 4
    rows = (r.get("waste") or {}).get("final_rows")
    masters = str(r["iterations"]) if r.get("iterations") else "-"   # the full LP has none
    return [f"{r['seconds']:.1f}", masters, fmt(rows, ","), f"{r['R']:.4f}", f"{gap_cell(r)} ({r['status']})"]


def formulations_section(records):
    """The section's lines (none without a record of the experiment)."""
    runs = [r for r in records if r.get("experiment") == "formulations"]
    if not runs:
        return []
    lines = ["", "## Formulations", "",
             "`python -m benchmarks.harness.run --formulations`: each case fitted in the paper's formulation "
             "(rows `(i, C)`)",
             "and in the compact one (`(sample, class)` pairs with a column each, `formulation=\"compact\"`), one",
             "right after the other in the same process slot, so the ratio compares like with like. \"Items\" are",
             "the final master's rows `(i, C)` (paper) or samples with their class sets (compact: `|P| + 1` LP",
             "rows each); the full LP (`lp`) is the paper's dual form against the compact primal (the paper's is",
             "refused beyond its size limits). The last column sets the compact full LP against the paper's",
             "MRC-CCG, the default, of the same run. Each fit was bounded by "
             + " / ".join(f"{t:g}" for t in sorted({r["time_limit"] for r in runs if r.get("time_limit")}))
             + " s (a fit stopped there returns its best certified rule: `mu = 0` for the full LP).", "",
             "| case | method | n | K | paper s | masters | items | R | gap (status) | compact s | masters "
             "| items | R | gap (status) | compact / paper | compact LP / paper CCG |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: "
             "| ---: |"]
    cases = list(dict.fromkeys(r["case"] for r in runs))
    for r in sorted(runs, key=lambda r: cases.index(r["case"])):
        if r["method"].endswith("_compact"):
            continue
        twin = _find(runs, r["case"], f"{r['method']}_compact")
        ccg = _find(runs, r["case"], "ccg") if r["method"] == "lp" else None
        lines.append(f"| {r['case']} | {r['method']} | {fmt(r.get('n'), ',')} | {r.get('K', '')} | "
                     + " | ".join(_cells(r) + _cells(twin)) + f" | {_ratio(twin, r)} | {_ratio(twin, ccg)} |")
    return lines


def _find(runs, case, method):
    return next((r for r in runs if r["case"] == case and r["method"] == method), None)


def _ratio(new, old):
    usable = new is not None and old is not None and "error" not in new and "error" not in old
    return f"{new['seconds'] / old['seconds']:.2f}" if usable else ""
