"""The report's section "Formulations": the records of ``python -m benchmarks.run --formulations``, each case
fitted in the paper's formulation and in the compact one (:mod:`mrc_pyomo.formulations`) one right after the
other, with the compact fit's time as a ratio of the paper's."""

from benchmarks.report_cells import fmt, gap_cell


def _cells(r):
    if r is None:
        return ["not run"] * 5
    if "error" in r:
        return [f"error: {r['error'][:40]}"] + [""] * 4
    rows = (r.get("waste") or {}).get("final_rows")
    masters = str(r["iterations"]) if r.get("iterations") else "-"   # the full LP has none
    return [f"{r['seconds']:.1f}", masters, fmt(rows, ","), f"{r['R']:.4f}", f"{gap_cell(r)} ({r['status']})"]


def formulations_section(records):
    """The section's lines (none without a record of the experiment)."""
    runs = [r for r in records if r.get("experiment") == "formulations"]
    if not runs:
        return []
    lines = ["", "## Formulations", "",
             "`python -m benchmarks.run --formulations`: each case fitted in the paper's formulation (rows `(i, C)`)",
             "and in the compact one (`(sample, class)` pairs with a column each, `formulation=\"compact\"`), one",
             "right after the other in the same process slot, so the ratio compares like with like. \"Items\" are",
             "the final master's rows `(i, C)` (paper) or samples with their class sets (compact: `|P| + 1` LP",
             "rows each); the full LP (`lp`) is the paper's dual form against the compact primal.", "",
             "| case | method | n | K | paper s | masters | items | R | gap (status) | compact s | masters "
             "| items | R | gap (status) | compact / paper |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: | --- | ---: |"]
    for r in runs:
        if r["method"].endswith("_compact"):
            continue
        twin = next((c for c in runs if c["case"] == r["case"] and c["method"] == f"{r['method']}_compact"), None)
        ratio = (f"{twin['seconds'] / r['seconds']:.2f}" if twin is not None and "error" not in twin
                 and "error" not in r else "")
        lines.append(f"| {r['case']} | {r['method']} | {fmt(r.get('n'), ',')} | {r.get('K', '')} | "
                     + " | ".join(_cells(r) + _cells(twin)) + f" | {ratio} |")
    return lines
