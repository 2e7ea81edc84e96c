"""An iteration of MRC-CCG, readable: what a teacher shows of each step of a stepped fit
(:meth:`MRCClassifier.steps <mrc_pyomo.MRCClassifier.steps>`), decoded from the loop's own arrays by the methods of
:class:`~mrc_pyomo.methods.ccg.record.IterationState`.

A row of the master is a pair ``(i, C)`` of a sample id and a boolean label subset (``C[y]``: label ``y`` is in it), the
ids ``n, ..., n + K - 1`` being the class centroids of the first master (:mod:`mrc_pyomo.problem.initialization`); a
feature is a flat id ``f = y * D + j``, column ``j`` of ``Psi`` in the coefficients ``mu_y`` of class ``y``.  Here they
become tables with one line per change (:data:`CHANGE_COLUMNS`), in the user's terms:

* a row ``(i, C)``: its ``sample``, ``i`` (the row of ``X`` among the samples of positive weight) or ``"centroid k"``,
  its ``labels`` ``classes_[y]`` for ``y`` in ``C``, and its ``violation``
  ``(sum_{y in C} Psi(x_i).mu_y - 1) / |C| + 1 - nu^k`` (eq. 4's row
  ``(1/|C|) sum_{y in C} Psi(x_i).mu_y - nu <= 1/|C| - 1`` moved to one side): positive where ``(mu^k, nu^k)`` violates
  the row, 0 where it is tight, negative where it holds with room; for the most violated subset of ``x_i``, CONSTR's
  ``psi(x_i) + 1 - nu^k``.  A removed row shows its violation at the master that removed it;
* a feature ``f``: its ``class`` ``classes_[y]``, its ``feature`` ``j`` (``mu_[y, j]`` is its coefficient) with its
  ``name`` (:func:`column_names`), and its ``violation``, FEAT's dual violation
  (:class:`~mrc_pyomo.methods.ccg.check.Check`): positive where adding the feature can lower ``R^k``.

A compact formulation's item ``(i, P)`` (:mod:`mrc_pyomo.formulations.compact`) is shown as the paper's row ``(i, P)``;
a problem made from arrays alone (:meth:`~mrc_pyomo.problem.MRCProblem.from_arrays`) shows class indices as labels."""

import html

import numpy as np
import pandas as pd

from ...feature_maps import LinearFeatures, RandomFourierFeatures
from ...master.points import Points
from ...oracles.primal import class_scores, most_violated_subsets, subset_values

#: the columns of :func:`changes_table`, one line per change of the master; a row's line has no ``class``,
#: ``feature`` and ``name`` and a feature's no ``sample`` and ``labels``: those entries are None
CHANGE_COLUMNS = ["change", "sample", "labels", "class", "feature", "name", "violation"]
#: the ``change`` of a line: what happens to a row or a feature of the master (no regime removes features)
ROW_ADDED, ROW_REMOVED, FEATURE_ADDED = "row added", "row removed", "feature added"


def classes_of(state):
    """The class labels of ``state``'s problem (``classes_``), or the class indices where it has none."""
    classes = getattr(getattr(state, "problem", None), "classes", None)
    return np.arange(state.mu.shape[0]) if classes is None else np.asarray(classes)


def column_names(feature_map, n_columns, names=None):
    """A name for each column ``j`` of ``Psi``, as scikit-learn's ``get_feature_names_out`` names them: ``"intercept"``
    (column 0 with ``fit_intercept``), the column of ``X`` it is for the linear map and the original columns random
    Fourier features keep (from ``names``, the data frame's columns, or ``"x3"``), ``"cos5"`` for random Fourier feature
    5 (from 0), else ``"psi7"`` (column 7 of a map of your own)."""
    intercept = int(bool(getattr(feature_map, "fit_intercept", False)))
    base = getattr(feature_map, "base_", None)
    kept = getattr(base, "n_features_in_", 0)
    if isinstance(base, RandomFourierFeatures) and not base.include_original:
        kept = 0
    shown = []
    for j in range(n_columns):
        k = j - intercept
        if k < 0:
            shown.append("intercept")
        elif isinstance(base, (LinearFeatures, RandomFourierFeatures)) and k < kept:
            shown.append(str(names[k]) if names is not None and k < len(names) else f"x{k}")
        elif isinstance(base, RandomFourierFeatures):
            shown.append(f"cos{k - kept}")
        else:
            shown.append(f"psi{j}")
    return shown


def row_violations(state, samples, subsets):
    """The violation of each row ``(samples[r], subsets[r])`` at ``state``'s solution (module docstring), the rows of
    the centroids included; one read of those samples' rows of ``Psi``."""
    samples = np.asarray(samples, dtype=np.int64)
    if not len(samples):
        return np.zeros(0)
    points = Points(state.data, state.live_master.points.centroids)   # all the data's rows: a compacted master's
    scores = np.asarray(class_scores(points(samples), state.mu))          # points keep only its own rows' samples
    return subset_values(scores, np.asarray(subsets, dtype=bool)) + 1.0 - state.nu


def sample_name(sample, n_samples):
    """``sample`` (an int) for a training sample, ``"centroid k"`` for the centroid of class ``k``."""
    return int(sample) if sample < n_samples else f"centroid {int(sample) - n_samples}"


def row_lines(change, samples, subsets, violations, classes, n_samples):
    """One line of :data:`CHANGE_COLUMNS` per row ``(samples[r], subsets[r])``."""
    return [{"change": change, "sample": sample_name(i, n_samples), "class": None, "feature": None, "name": None,
             "labels": tuple(classes[np.flatnonzero(C)].tolist()), "violation": float(v)}
            for i, C, v in zip(samples, np.asarray(subsets, dtype=bool), violations)]


def label(value):
    """A class label as Python gives it: a NumPy scalar as its Python value, any other as it is."""
    return value.item() if isinstance(value, np.generic) else value


def feature_lines(change, features, violations, classes, names):
    """One line of :data:`CHANGE_COLUMNS` per flat feature id ``y * D + j``; ``violations``: ``(K, D)``."""
    lines = []
    for f in np.asarray(features, dtype=np.int64):
        y, j = divmod(int(f), violations.shape[1])
        lines.append({"change": change, "sample": None, "labels": None, "class": label(classes[y]), "feature": j,
                      "name": names[j], "violation": float(violations[y, j])})
    return lines


def table(state, rows_added, rows_removed, features_added, removed_violations=None):
    """The :data:`CHANGE_COLUMNS` table of the given changes (``rows_*``: pairs ``(samples, subsets)``,
    ``features_added`` flat ids), their violations at ``state``'s solution, but the removed rows' where
    ``removed_violations`` gives them (at the master that removed them)."""
    classes, n = classes_of(state), state.data.n_samples
    problem = getattr(state, "problem", None)
    names = column_names(getattr(problem, "feature_map", None), state.mu.shape[1],
                         getattr(problem, "feature_names", None))
    lines = []
    for change, (samples, subsets) in ((ROW_ADDED, rows_added), (ROW_REMOVED, rows_removed)):
        known = removed_violations if change == ROW_REMOVED and removed_violations is not None else None
        violations = row_violations(state, samples, subsets) if known is None else known
        lines += row_lines(change, samples, subsets, violations, classes, n)
    lines += feature_lines(FEATURE_ADDED, features_added, state.dual_violations, classes, names)
    frame = pd.DataFrame(lines, columns=CHANGE_COLUMNS, dtype=object)   # a sample stays an int, a missing entry None
    return frame.astype({"violation": float})


def changes_table(state):
    """The changes that made ``state``'s master from the one before (for the first master: its rows and features), one
    line each (:data:`CHANGE_COLUMNS`), with the violation at this master's solution (at most 0, up to the solver's
    tolerance, for what it now holds), but a removed row's at the master that removed it (here it may be violated)."""
    return table(state, state.rows_added, state.rows_removed, state.features_added,
                 getattr(state, "removed_violations", None))


def next_changes_table(state):
    """The changes the oracles chose at ``state``'s master for the next one (:data:`CHANGE_COLUMNS`), each with the
    violation that chose it: the rows and features to add, the over-satisfied rows to remove.  In the first rounds of
    the regime ``"nm"`` (``record["features_only"]``) rows are listed only once no feature is.  The rows to remove are
    read from the master: only while the loop waits at the state (else ``RuntimeError``)."""
    (samples, subsets), features = state.next_rows, state.next_features
    removed = state.next_removed
    if removed.any():
        master = state.master
        removed_rows = master.samples[removed], master.subsets[removed]
    else:
        removed_rows = np.zeros(0, dtype=np.int64), np.zeros((0, state.mu.shape[0]), dtype=bool)
    return table(state, (samples, subsets), removed_rows, features)


def most_violated_row(state):
    """``(sample, labels, violation)``: the sample of largest ``state.primal_violations`` (one more pass over the
    samples), named as in :func:`changes_table`, with its most violated label subset."""
    violations = state.primal_violations
    i = int(np.argmax(violations))
    blocked = None if state.blocked is None else state.blocked[i:i + 1]
    _, subsets = most_violated_subsets(class_scores(state.data.rows(np.array([i])), state.mu), blocked)
    return i, tuple(classes_of(state)[np.flatnonzero(np.asarray(subsets)[0])].tolist()), float(violations[i])


def summary(state):
    """What a teacher says of ``state``'s step, as a dict: the master's size and value, the certified interval
    ``[lower, upper]`` and its gap, the change counts, the most violated row (:func:`most_violated_row`) and feature."""
    record, classes = state.record, classes_of(state)
    sample, labels, row_violation = most_violated_row(state)
    y, j = np.unravel_index(int(np.argmax(state.dual_violations)), state.dual_violations.shape)
    return {"iteration": state.iteration, "rows": int(record["n_rows"]), "features": int(record["n_features"]),
            "R_master": record["R_master"], "R_mu": record["R_mu"], "lower": state.lower, "upper": state.upper,
            "gap": state.upper - state.lower, "rows_added": int(record["rows_added"]),
            "rows_removed": int(record["rows_removed"]), "features_added": int(record["features_added"]),
            "most_violated_row": (sample_name(sample, state.data.n_samples), labels),
            "max_primal_violation": row_violation, "most_violated_feature": (label(classes[y]), int(j)),
            "max_dual_violation": float(state.dual_violations[y, j])}


def counted(n, word):
    """``"+5 rows"``, ``"-1 row"``: a signed count and its noun."""
    return f"{n} {word}{'' if abs(n) == 1 else 's'}"


def change_counts(record):
    """``"+5 rows, -1 row, +2 features"``: the counts ``rows_added``, ``rows_removed`` and ``features_added`` of a
    record (the changes that made its master), or of any mapping with those keys; zero counts left out."""
    parts = [f"+{counted(int(record['rows_added']), 'row')}" if record["rows_added"] else "",
             f"-{counted(int(record['rows_removed']), 'row')}" if record["rows_removed"] else "",
             f"+{counted(int(record['features_added']), 'feature')}" if record["features_added"] else ""]
    return ", ".join(filter(None, parts)) or "no change"


def plain_number(value):
    """``"0.1235"``: a violation to four decimals, a tiny negative one (the solver's rounding) as ``"0.0000"``."""
    return f"{value:.4f}".replace("-0.0000", "0.0000")


def state_line(state):
    """``repr(state)``: one line, ``<MRC-CCG iteration 3: master with 42 rows x 7 features, R^k 0.3102, R* in [0.3011,
    0.3305]; +5 rows, -1 row, +2 features>``."""
    r = state.record
    return (f"<MRC-CCG iteration {state.iteration}: master with {r['n_rows']} rows x {r['n_features']} features, "
            f"R^k {r['R_master']:.4g}, R* in [{state.lower:.4g}, {state.upper:.4g}]; {change_counts(r)}>")


def state_html(state, max_lines=10):
    """``state._repr_html_()``: a table of the master's size and value, the certified interval and gap, the change
    counts (this master's and the next's), the largest violations, then :func:`changes_table`'s first ``max_lines``."""
    r = state.record
    following = {"rows_added": len(state.next_rows[0]), "rows_removed": int(state.next_removed.sum()),
                 "features_added": len(state.next_features)}
    facts = [("master", f"{r['n_rows']} rows x {r['n_features']} features"), ("R^k (master)", f"{r['R_master']:.6g}"),
             ("R(mu^k)", f"{r['R_mu']:.6g}"), ("certified interval", f"R* in [{state.lower:.6g}, {state.upper:.6g}]"),
             ("gap", f"{state.upper - state.lower:.3g}"), ("changes that made it", change_counts(r)),
             ("changes chosen next", change_counts(following)),
             ("largest violations", f"row {r['max_primal_violation']:.3g}, feature {r['max_dual_violation']:.3g}")]
    cells = "".join(f"<tr><th style='text-align:left'>{html.escape(k)}</th><td style='text-align:left'>"
                    f"{html.escape(v)}</td></tr>" for k, v in facts)
    changes = changes_table(state)
    shown = changes.head(max_lines).dropna(axis=1, how="all").fillna("")
    more = f" (the first {max_lines} of {len(changes)}: state.describe())" if len(changes) > max_lines else ""
    table = f"<p>What made this master{more}:</p>{shown.to_html(index=False, float_format=plain_number)}"
    return (f"<div><p><b>MRC-CCG iteration {state.iteration}</b></p><table>{cells}</table>"
            f"{table if len(changes) else ''}</div>")
