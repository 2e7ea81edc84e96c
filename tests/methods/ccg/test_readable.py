"""An iteration of MRC-CCG, readable (:mod:`mrc_pyomo.methods.ccg.readable`): the tables of the changes decode the
loop's arrays (sample ids, centroid ids ``n + k``, boolean label subsets, flat feature ids ``y * D + j``) into the
user's class labels, with the violations of the paper's rows and of FEAT computed here by hand from ``Psi``; the
summary's most violated row and feature are the maxima of the state's violations; the one-line and HTML forms
say the size, the value and the certified interval."""

import html.parser

import numpy as np
import pytest
from sklearn.preprocessing import StandardScaler

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.methods.ccg.readable import (CHANGE_COLUMNS, changes_table, column_names, next_changes_table, state_html,
                                            state_line, summary)

NAMES = np.array(["ant", "bee", "cat"])


def stepped(regime="nm", n=40, seed=0, **params):
    """``(states, psi, y, readings)``: a stepped fit of 3 classes named by strings, ``Psi`` as the loop sees it
    (dense), the class indices, and the next changes of each state read while the loop waited at it."""
    X, y = random_problem(n, 2, 3, seed=seed)
    clf = MRCClassifier(regime=regime, n_max=4, m_max=2, eps_1=0.0, eps_2=0.0, **params)
    states, readings = [], []
    for state in clf.steps(X, NAMES[y]):
        states.append(state)
        readings.append(next_changes_table(state))
    psi = np.asarray(states[0].data.rows(np.arange(n)))
    return states, psi, y, readings


def by_hand(psi, y, state, samples, subsets):
    """The violation ``(sum_{c in C} Psi(x_i).mu_c - 1) / |C| + 1 - nu`` of each row, the centroids' rows from the
    class means of ``Psi`` computed here."""
    centroids = np.array([psi[y == k].mean(axis=0) for k in range(3)])
    points = np.vstack([psi, centroids])[samples]
    scores = points @ state.mu.T
    return ((scores * subsets).sum(axis=1) - 1) / subsets.sum(axis=1) + 1 - state.nu


def test_the_first_master_s_rows_are_the_centroids_and_its_features_the_intercepts():
    states, psi, y, _ = stepped()
    state = states[0]
    table = changes_table(state)
    assert list(table.columns) == CHANGE_COLUMNS
    rows, features = table[table.change == "row added"], table[table.change == "feature added"]
    samples, subsets = state.rows_added
    assert len(rows) == len(samples) == state.record["rows_added"] == 21   # 3 centroids x 7 label subsets
    assert list(rows["sample"]) == [f"centroid {i - 40}" for i in samples]
    assert list(rows["labels"]) == [tuple(NAMES[np.flatnonzero(C)]) for C in subsets]
    assert ("ant", "bee", "cat") in list(rows["labels"]) and ("bee",) in list(rows["labels"])
    assert rows["violation"].to_numpy() == pytest.approx(by_hand(psi, y, state, samples, subsets), abs=1e-12)
    assert rows[["class", "feature", "name"]].isna().all().all()
    # the intercept of each class: flat ids 0, D, 2D with D = 3 columns (intercept, x0, x1)
    assert list(features["class"]) == ["ant", "bee", "cat"] and list(features["feature"]) == [0, 0, 0]
    assert list(features["name"]) == ["intercept"] * 3
    assert features["violation"].to_numpy() == pytest.approx(state.dual_violations[:, 0])
    assert features[["sample", "labels"]].isna().all().all()


def test_each_change_decodes_its_flat_id_and_sample_against_the_raw_state():
    states, psi, y, _ = stepped()
    seen_rows = seen_features = False
    for state in states:
        table = changes_table(state)
        counts = table.change.value_counts()
        for change, column in (("row added", "rows_added"), ("row removed", "rows_removed"),
                               ("feature added", "features_added")):
            assert counts.get(change, 0) == state.record[column], (state.iteration, change)
        features = table[table.change == "feature added"]
        D = state.mu.shape[1]
        assert [(c, j) for c, j in zip(features["class"], features["feature"])] == \
               [(NAMES[f // D], f % D) for f in state.features_added]
        rows = table[table.change == "row added"]
        samples, subsets = state.rows_added
        if state.iteration > 1 and len(samples):
            seen_rows = True
            assert list(rows["sample"]) == [int(i) for i in samples] and all(i < 40 for i in samples)
            assert rows["violation"].to_numpy() == pytest.approx(by_hand(psi, y, state, samples, subsets), abs=1e-12)
            assert (rows["violation"] <= 1e-7).all()   # rows the master now holds: not violated
        seen_features |= state.iteration > 1 and len(features) > 0
    assert seen_rows and seen_features


def test_the_next_changes_are_the_oracles_picks_with_the_violations_that_chose_them():
    states, psi, y, readings = stepped()
    for state, table, following in zip(states, readings, states[1:]):
        added = table[table.change == "row added"]
        features = table[table.change == "feature added"]
        samples, subsets = state.next_rows
        D = state.mu.shape[1]
        assert [NAMES[f // D] for f in state.next_features] == list(features["class"])
        assert features["violation"].to_numpy() == pytest.approx(state.dual_violations.ravel()[state.next_features])
        if state.record["features_only"] and len(state.next_features):
            assert len(added) == 0   # the first rounds of the regime "nm" add features only
            # ... and next_rows says so (it listed samples the next master never added)
            assert len(samples) == 0 and following.record["rows_added"] == 0
        else:
            assert list(added["sample"]) == [int(i) for i in samples]
            # each picked row is its sample's most violated one: its violation is CONSTR's psi(x_i) + 1 - nu
            assert added["violation"].to_numpy() == pytest.approx(state.primal_violations[samples], abs=1e-12)
            assert added["violation"].to_numpy() == pytest.approx(by_hand(psi, y, state, samples, subsets))
        # what the step chose is what made the next master
        made = changes_table(following)
        assert list(made.loc[made.change != "row removed", "sample"]) == list(table.loc[table.change != "row removed",
                                                                                         "sample"])


def test_rows_removed_in_the_regime_n_are_decoded_while_the_loop_waits_and_refused_after():
    states, psi, y, readings = stepped(regime="n", n=150, seed=3)
    removing = [k for k, state in enumerate(states[:-1]) if state.next_removed.any()]
    assert removing, "no row was removed: pick another problem"
    k = removing[0]
    removed = readings[k][readings[k].change == "row removed"]
    assert len(removed) == states[k].next_removed.sum() == states[k + 1].record["rows_removed"]
    assert (removed["violation"] < 0).all()   # over-satisfied rows
    made = changes_table(states[k + 1])
    assert list(made.loc[made.change == "row removed", "sample"]) == list(removed["sample"])
    assert list(made.loc[made.change == "row removed", "labels"]) == list(removed["labels"])
    # a removed row is shown with the violation that removed it (at the master before: held with room), the
    # number next_changes showed there, not its violation at the new master, which may be positive
    assert made.loc[made.change == "row removed", "violation"].to_numpy() == pytest.approx(
        removed["violation"].to_numpy(), abs=1e-12)
    with pytest.raises(RuntimeError, match="has changed since"):
        next_changes_table(states[k])   # its master is a later one now


def test_the_summary_s_most_violated_row_and_feature_are_the_maxima_of_the_violations():
    states, psi, y, _ = stepped()
    for k, state in enumerate(states[:4]):
        s = summary(state)
        primal, dual = state.primal_violations, state.dual_violations
        assert s["max_primal_violation"] == pytest.approx(primal.max())
        assert s["most_violated_row"][0] == int(np.argmax(primal))
        cls, j = s["most_violated_feature"]
        assert s["max_dual_violation"] == dual.max() == dual[list(NAMES).index(cls), j]
        assert (s["lower"], s["upper"], s["R_master"]) == (state.lower, state.upper, state.record["R_master"])
        made = states[:k + 1]   # the master's size: what made it, added up
        assert s["rows"] == sum(len(m.rows_added[0]) - len(m.rows_removed[0]) for m in made)
        assert s["features"] == sum(len(m.features_added) for m in made)
    # the row's labels: the most violated subset of that sample, by enumeration over the 7 subsets
    s = summary(states[3])
    i = s["most_violated_row"][0]
    subsets = np.array([[c >> b & 1 for b in range(3)] for c in range(1, 8)], dtype=bool)
    values = by_hand(psi, y, states[3], np.full(7, i), subsets)
    assert s["most_violated_row"][1] == tuple(NAMES[np.flatnonzero(subsets[np.argmax(values)])])


def test_the_line_and_the_html_say_size_value_interval_and_changes():
    states, _, _, _ = stepped()
    for state in states:
        line, r = state_line(state), state.record
        assert "\n" not in line and len(line) < 160
        assert f"iteration {state.iteration}: master with {r['n_rows']} rows x {r['n_features']} features" in line
        assert f"R^k {r['R_master']:.4g}" in line and f"R* in [{state.lower:.4g}, {state.upper:.4g}]" in line
        if r["rows_added"]:
            assert f"+{r['rows_added']} row" in line
    page = state_html(states[4])
    assert f"R* in [{states[4].lower:.6g}, {states[4].upper:.6g}]" in page and "<table" in page

    class Tags(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.open = []

        def handle_starttag(self, tag, attrs):
            self.open.append(tag)

        def handle_endtag(self, tag):
            assert self.open.pop() == tag

    parser = Tags()
    parser.feed(page)
    assert parser.open == []   # well formed: a notebook shows it as a table


def test_column_names():
    X = np.random.default_rng(0).normal(size=(20, 2))
    assert column_names(make_feature_map("linear").fit(X), 3) == ["intercept", "x0", "x1"]
    assert column_names(make_feature_map("linear", fit_intercept=False).fit(X), 2) == ["x0", "x1"]
    fourier = make_feature_map("fourier", random_state=0)
    fourier.base.set_params(n_components=3)
    assert column_names(fourier.fit(X), 6) == ["intercept", "x0", "x1", "cos0", "cos1", "cos2"]
    assert column_names(make_feature_map(StandardScaler()).fit(X), 3) == ["intercept", "psi1", "psi2"]
    assert column_names(None, 2) == ["psi0", "psi1"]


def test_labels_of_an_object_array_read_as_they_are():
    """String labels in an object array (a pandas Series of str): the tables, the summary and the HTML name
    them (a NumPy scalar's ``.item()`` was asked of a Python str: AttributeError in every view)."""
    X, y = random_problem(60, 3, 3, seed=4)
    labels = np.array(["a", "b", "c"], dtype=object)[y]
    state = next(MRCClassifier(regime="nm", first_order=False).steps(X, labels))
    table = state.describe()
    assert set(table["labels"].dropna().explode()) <= {"a", "b", "c"}
    assert set(state.next_changes()["class"].dropna()) <= {"a", "b", "c"}
    assert state.summary()["most_violated_feature"][0] in {"a", "b", "c"} and "R*" in state._repr_html_()


def test_a_data_frame_s_features_are_named_by_their_columns():
    """Fitted on a data frame (iris with its column names, ``feature_names_in_``), the tables name a feature by the
    column it came from, as ``get_feature_names_out`` would (they showed Psi's "x0" ... "x3")."""
    from sklearn.datasets import load_iris
    X, y = load_iris(return_X_y=True, as_frame=True)
    states = list(MRCClassifier(regime="nm", first_order=False, eps_1=0.0).steps(X, y))
    named = set()
    for state in states:
        named |= set(state.describe()["name"].dropna())
    assert named <= {"intercept", *X.columns} and named & set(X.columns)
    assert column_names(None, 3, ["a", "b"]) == ["psi0", "psi1", "psi2"]   # no map known: Psi's columns

