"""The text of the report's table cells and rows: method labels, numbers, and the rows of a targets table with
their notes ("not measured", the previous run's)."""

import numpy as np

from benchmarks.report.records import find, is_previous, previous_record

LABELS = {"ccg": "MRC-CCG (eps_1=1e-3)", "ccg_precise": "MRC-CCG (eps_1=1e-4)", "lp": "MRC-LP",
          "subgradient": "MRC-SUB", "path": "mrc_path (eps_1=1e-3)", "fom": "MRC-FOM",
          "ccg_no_first_order": "MRC-CCG, no first-order phase"}
COLD_LABELS = {"dual_simplex": "dual simplex", "ipm": "IPM", "ipm_no_crossover": "IPM, no crossover"}
#: the cold solves of a master in its dual form (benchmarks.harness.run_case.cold_solves)
COLD_LABELS.update({f"dual_lp_{name}": f"dual LP, {words}" for name, words in COLD_LABELS.items()})


def label(record):
    """The method's label, with the eps_1 the record ran at (older MRC-CCG records ran at other values), and
    the compact formulation named where it ran (methods ``*_compact``)."""
    method = record["method"].removesuffix("_compact")
    compact = ", compact" if method != record["method"] else ""
    if record.get("eps_1") is None or method not in ("ccg", "ccg_precise"):
        return LABELS[method] + compact
    return f"MRC-CCG (eps_1={record['eps_1']:.0e}{compact})".replace("e-0", "e-")


def run_name(case, method, experiment="speed"):
    name = LABELS[method.removesuffix("_compact")] + (", compact" if method.endswith("_compact") else "")
    return f"{case} / {name}" + ("" if experiment == "speed" else f" ({experiment})")


def key_name(key):
    case, method, experiment, n, K = key
    return f"{run_name(case, method, experiment)}, n = {n}, K = {K}"


def fmt(v, spec):
    return "-" if v is None or (isinstance(v, float) and not np.isfinite(v)) else format(v, spec)


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


def minimal_cell(record):
    """The smallest master that certifies (the final master without its rows of zero dual) for a table cell: its rows
    and the minimal ratio, fit seconds over its best cold solve (``<= x`` when every solve hit its cap); ``-`` for
    records without it (not MRC-CCG, or older)."""
    if record.get("minimal_rows") is None:
        return "-"
    if record.get("minimal_ratio") is not None:
        return f"{record['minimal_rows']} rows, {record['minimal_ratio']:.1f}"
    return f"{record['minimal_rows']} rows, <= {record.get('minimal_ratio_bound', float('nan')):.1f}"


def cold_cell(record, method):
    """A method's cold-solve seconds; ``>= s`` when the solve stopped without an optimum (its cap)."""
    seconds = (record.get("cold_seconds") or {}).get(method)
    if seconds is None:
        return "-"
    optimal = (record.get("cold_objective") or {}).get(method) is not None
    return f"{seconds:.2f}" if optimal else f">= {seconds:.2f} ({record['cold_status'][method]})"


def anytime_cell(r, ref):
    """``R - R*`` of an anytime record against the reference: exact to the reference's gap, ``R - lower_ref``
    bounds it from above (and ``R - R_ref`` from below)."""
    if ref is None:
        return "no reference"
    return f"{max(r['R'] - ref['R'], 0.0):.4f} .. {r['R'] - ref['lower']:.4f}"


def row(target, measured, met):
    """A row of the targets table; ``met`` is True, False or None (not measured)."""
    return f"| {target} | {measured} | {'not measured' if met is None else 'yes' if met else 'no'} |"


def not_measured(latest, case, method, experiment="speed"):
    """The "measured" cell of a target whose record is missing, or whose run failed."""
    r = find(latest, case, method, experiment)
    if r is None:
        return f"not measured: no record of {run_name(case, method, experiment)}"
    return f"not measured: the run of {run_name(case, method, experiment)} failed ({r['error']})"


def when(*records):
    """When and at which commit ``records`` ran, for a targets row: `` [2026-11-26 02:41, 8f48c0a]`` (the
    commit stored in the record's ``versions``, "commit not recorded" in older records)."""
    stamps = [f"{(r.get('timestamp') or 'no timestamp')[:16]}, "
              f"{(r.get('versions') or {}).get('commit', 'commit not recorded')}" for r in records]
    return " [" + "; ".join(dict.fromkeys(stamps)) + "]"


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
