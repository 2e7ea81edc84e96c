"""Saved models (:mod:`mrc_pyomo.cli.models`, :mod:`mrc_pyomo.cli.model_format`): data, not programs; a save is
one step, so an interrupted one leaves the file that was there; a model saved and loaded predicts as the fitted
one; a file that does not keep its promises (:mod:`mrc_pyomo.cli.model_checks`) is refused with its cause on one
line, by ``load_model`` and by ``mrc-pyomo predict``."""

import io
import json
import pickle
import warnings
import zipfile

import numpy as np
import pandas as pd
import pytest
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import mrc_pyomo
from helpers import cli_error, needs_solver, random_problem
from mrc_pyomo import MRCClassifier, RandomFourierFeatures
from mrc_pyomo.cli import models
from mrc_pyomo.cli.model_format import ModelFormatError, read_model, write_model


def test_a_saved_model_loads_and_predicts_the_same(tmp_path):
    X, y = random_problem(60, 4, 3, seed=1)
    clf = MRCClassifier().fit(X, y)
    path = models.save_model(clf, tmp_path / "m.npz")
    assert np.array_equal(models.load_model(path).predict(X), clf.predict(X))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz"]


def test_a_solver_instance_class_weights_and_warm_start_are_kept_as_data(tmp_path):
    """A Pyomo solver instance is kept by its name and its options in solver_options (the file held its repr,
    which no fit can use), a dict class_weight as the user's pairs, a class weighted 0 included (it is not in
    classes_, and a refit must leave it out again), warm_start and first_order as they are: the loaded
    classifier refits to the same rule."""
    pyo = pytest.importorskip("pyomo.environ")
    needs_solver("glpk")
    X, y = random_problem(90, 3, 3, seed=2)
    y = np.array(["a", "b", "c"])[y]
    solver = pyo.SolverFactory("glpk")
    solver.options["tmlim"] = 100
    weights = {"a": 2.0, "b": 0.0}
    clf = MRCClassifier(solver=solver, solver_options={"mipgap": 0.5}, class_weight=weights, warm_start=True,
                        first_order=False).fit(X, y)
    assert clf.classes_.tolist() == ["a", "c"]
    loaded = read_model(models.save_model(clf, tmp_path / "m.npz"))
    assert loaded.solver == "glpk" and loaded.solver_options == {"tmlim": 100, "mipgap": 0.5}
    assert loaded.class_weight == weights and loaded.warm_start is True and loaded.first_order is False
    refit = MRCClassifier(**loaded.get_params()).set_params(warm_start=False).fit(X, y)
    assert refit.classes_.tolist() == ["a", "c"] and refit.upper_ == pytest.approx(clf.upper_, abs=1e-6)
    balanced = MRCClassifier(class_weight="balanced").fit(X, y)
    assert read_model(models.save_model(balanced, tmp_path / "b.npz")).class_weight == "balanced"
    with pytest.raises(ModelFormatError, match="solver_options=.*cannot be kept"):
        write_model(balanced.set_params(solver_options={"x": object()}), io.BytesIO())
    with pytest.raises(ModelFormatError, match="not fitted: fit it before saving it"):
        write_model(MRCClassifier(), io.BytesIO())


def test_an_interrupted_save_leaves_the_previous_file(tmp_path, monkeypatch):
    X, y = random_problem(60, 4, 3, seed=1)
    path = models.save_model(MRCClassifier().fit(X, y), tmp_path / "m.npz")
    saved = path.read_bytes()

    def half_written(model, f, label_column=None):
        f.write(b"PK\x03\x04half a model")
        raise KeyboardInterrupt

    monkeypatch.setattr(models, "write_model", half_written)
    with pytest.raises(KeyboardInterrupt):
        models.save_model(MRCClassifier(lambda0=0.1).fit(X, y), path)
    assert path.read_bytes() == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.npz"]   # no temporary file left


def test_a_model_file_is_data_and_a_pickle_is_not_run(tmp_path):
    """A saved model is an archive of arrays that NumPy reads with allow_pickle=False; a pickle crafted to run code
    when loaded is refused unread, and runs only with trust_pickle=True."""
    X, y = random_problem(60, 4, 3, seed=1)
    path = models.save_model(MRCClassifier().fit(X, y), tmp_path / "m.npz")
    with np.load(path, allow_pickle=False) as data:
        assert "manifest" in data.files and all(data[name].dtype != object for name in data.files)
    witness = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (open, (str(witness), "w"))

    crafted = tmp_path / "crafted.pkl"
    crafted.write_bytes(pickle.dumps(Payload()))
    with pytest.raises(models.CommandError, match="--trust-pickle"):
        models.load_model(crafted)
    assert not witness.exists()
    with pytest.raises(models.CommandError):
        models.load_model(crafted, trust_pickle=True)   # it runs (creates the file), then is no model
    assert witness.exists()


def test_a_fourier_pipeline_with_feature_names_round_trips(tmp_path):
    import pandas as pd
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = random_problem(80, 4, 3, seed=2)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    labels = np.array(["x", "y", "z"], dtype=object)[y]
    model = make_pipeline(StandardScaler(), MRCClassifier(phi="fourier", random_state=0)).fit(frame, labels)
    again = models.load_model(models.save_model(model, tmp_path / "m.npz"))
    clf, back = model[-1], again[-1]
    assert np.array_equal(again.predict(frame), model.predict(frame))
    assert np.array_equal(again.predict_proba(frame), model.predict_proba(frame))
    assert list(again.feature_names_in_) == ["a", "b", "c", "d"] and back.status_ == clf.status_
    assert back.upper_ == clf.upper_ and back.lower_ == clf.lower_ and np.array_equal(back.mu_, clf.mu_)
    pd.testing.assert_frame_equal(back.history_, clf.history_, check_dtype=False)
    assert back.master_ is None and back.get_params()["lambda0"] == clf.lambda0


def test_a_model_the_format_cannot_hold_is_refused_with_its_reason(tmp_path):
    from sklearn.preprocessing import FunctionTransformer

    X, y = random_problem(40, 3, 2, seed=1)
    clf = MRCClassifier(phi=FunctionTransformer(np.tanh)).fit(X, y)
    with pytest.raises(models.CommandError, match="FunctionTransformer cannot be saved as data"):
        models.save_model(clf, tmp_path / "m.npz")
    assert not list(tmp_path.iterdir())


# -- files that do not keep their promises --------------------------------------------------------------------

@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """Two small fitted models written by write_model, and their data: ``linear`` (3 classes of integers, 3
    features, intercept: mu_ of shape (3, 4)) and ``fourier`` (a StandardScaler, then 6 random Fourier features
    of 3 named columns, string labels: mu_ of shape (3, 10))."""
    folder = tmp_path_factory.mktemp("saved")
    X, y = random_problem(40, 3, 3, seed=3)
    frame = pd.DataFrame(X, columns=["a", "b", "c"])
    linear = MRCClassifier().fit(X, y)
    fourier = make_pipeline(StandardScaler(), MRCClassifier(phi=RandomFourierFeatures(n_components=6, random_state=0)))
    fourier.fit(frame, np.array(["x", "y", "z"])[y])
    for name, model in (("linear", linear), ("fourier", fourier)):
        with open(folder / f"{name}.npz", "wb") as f:
            write_model(model, f)
    return {"linear": (folder / "linear.npz", X, linear), "fourier": (folder / "fourier.npz", frame, fourier)}


def unpack(path):
    """``(manifest, arrays)`` of a model file, read as any .npz archive."""
    with np.load(path, allow_pickle=False) as data:
        arrays = {name: data[name] for name in data.files}
    return json.loads(arrays.pop("manifest").tobytes()), arrays


def pack(path, manifest, arrays, text=None):
    """Write a model file of ``manifest`` (or the manifest's bytes ``text``) and ``arrays`` (pickles allowed: the
    crafted file may hold what write_model never writes)."""
    text = json.dumps(manifest).encode() if text is None else text
    np.savez(path, manifest=np.frombuffer(text, dtype=np.uint8), **arrays)
    return path


def refused(path, *causes):
    """The one-line message of the ModelFormatError of read_model(path), which names every one of ``causes``; then
    load_model's CommandError: the same cause, after the file's name."""
    with pytest.raises(ModelFormatError) as error:
        read_model(path)
    message = str(error.value)
    assert "\n" not in message and all(cause in message for cause in causes), message
    with pytest.raises(models.CommandError) as error:
        models.load_model(path)
    assert str(error.value) == f"{path} is not a valid model file: {message}"
    return message


def edit(key, change):
    """A corruption of the model file ``key`` (linear or fourier): ``change(manifest, arrays)`` in place."""
    return key, change


def set_in(where, name, value):
    """A change that sets ``manifest[where][name]`` (``manifest[name]`` for ``where=None``) to ``value``."""
    return lambda manifest, arrays: (manifest[where] if where else manifest).__setitem__(name, value)


def set_array(name, change):
    """A change that replaces the array ``name`` by ``change(array)``."""
    return lambda manifest, arrays: arrays.__setitem__(name, change(arrays[name]))


def remove(name, where="arrays"):
    """A change that removes the array ``name`` (``where="arrays"``), or the manifest's entry ``name`` of
    ``manifest[where]`` (of the manifest itself for ``where=None``)."""
    return lambda manifest, arrays: (arrays if where == "arrays" else manifest[where] if where else manifest).pop(name)


def at(index, value):
    """A change of an array that sets its entry ``index`` to ``value``."""
    def change(values):
        values = values.copy()
        values[index] = value
        return values
    return change


CORRUPTIONS = {
    # mu_ against classes_ and the feature map: K = 3 rows, D = 4 columns (3 features and the intercept)
    "mu_ with a column too many": (edit("linear", set_array("mu_", lambda v: np.hstack([v, v[:, :1]]))),
                                   ["mu_", "(3, 5)", "(3, 4)", "D = 4"]),
    "mu_ with a column too few": (edit("linear", set_array("mu_", lambda v: v[:, :-1])), ["mu_", "(3, 3)", "(3, 4)"]),
    "mu_ with a row too many": (edit("linear", set_array("mu_", lambda v: np.vstack([v, v[:1]]))),
                                ["mu_", "(4, 4)", "(3, 4)", "K = 3"]),
    "classes_ with a class fewer than mu_": (edit("linear", set_array("classes_", lambda v: v[:2])),
                                             ["mu_", "(3, 4)", "(2, 4)", "K = 2"]),
    "classes_ with a class more than mu_": (edit("linear", set_array("classes_", lambda v: np.append(v, 7))),
                                            ["mu_", "(3, 4)", "(4, 4)", "K = 4"]),
    "classes_ of one class": (edit("linear", set_array("classes_", lambda v: v[:1])), ["classes_", "at least two"]),
    "classes_ of two dimensions": (edit("linear", set_array("classes_", lambda v: v[None])),
                                   ["classes_", "shape (1, 3)"]),
    "classes_ out of order": (edit("linear", set_array("classes_", lambda v: v[::-1].copy())),
                              ["classes_", "not sorted and distinct"]),
    "classes_ twice the same": (edit("linear", set_array("classes_", at(1, 0))), ["classes_", "not sorted"]),
    "classes_ NaN": (edit("linear", set_array("classes_", lambda v: at(2, np.nan)(v.astype(float)))),
                     ["classes_", "not finite"]),
    "classes_ of numbers said to be strings": (edit("linear", set_in(None, "classes_as_objects", True)),
                                               ["classes_", "integers", "not strings"]),
    "n_features_in_ that lies": (edit("linear", set_in("fitted", "n_features_in_", 5)),
                                 ["n_features_in_", "5", "the feature map's n_features_in (3)"]),
    "a feature map that lies with it": (edit("linear", lambda m, a: (m["fitted"].__setitem__("n_features_in_", 4),
                                                                     m["feature_map"].__setitem__("n_features_in", 4))),
                                        ["mu_", "(3, 4), not (3, 5)", "4 features and the intercept"]),
    "n_features_in of 0": (edit("linear", set_in("feature_map", "n_features_in", 0)),
                           ["feature_map.n_features_in", "a positive integer"]),
    "the intercept said to be absent": (edit("linear", set_in("feature_map", "fit_intercept", False)),
                                        ["fit_intercept", "disagrees"]),
    # values
    "mu_ NaN": (edit("linear", set_array("mu_", at((1, 2), np.nan))), ["mu_", "not finite", "mu_[1, 2] = nan"]),
    "mu_ all NaN": (edit("linear", set_array("mu_", lambda v: np.full_like(v, np.nan))), ["mu_", "nan"]),
    "mu_ infinite": (edit("linear", set_array("mu_", at((0, 0), -np.inf))), ["mu_[0, 0] = -inf"]),
    "tau_ NaN": (edit("linear", set_array("tau_", at((2, 3), np.nan))), ["tau_[2, 3] = nan"]),
    "lambda_ negative": (edit("linear", set_array("lambda_", at((0, 1), -1.0))), ["lambda_", "non-negative"]),
    "column_scale_ zero": (edit("linear", set_array("column_scale_", at(0, 0.0))), ["column_scale_", "positive"]),
    "column_scale_ of another width": (edit("linear", set_array("column_scale_", lambda v: v[:3])),
                                       ["column_scale_", "(3,), not (4,)"]),
    "mu_ of strings": (edit("linear", set_array("mu_", lambda v: v.astype(str))), ["mu_", "strings", "not"]),
    "mu_ of complex numbers": (edit("linear", set_array("mu_", lambda v: v + 1j)), ["mu_", "complex numbers"]),
    "mu_ of booleans": (edit("linear", set_array("mu_", lambda v: v > 0)), ["mu_", "booleans"]),
    "mu_ of Python objects (a pickle)": (edit("linear", set_array("mu_", lambda v: v.astype(object))),
                                         ["mu_", "Python objects"]),
    "mu_ missing": (edit("linear", remove("mu_")), ["mu_ is missing"]),
    # mu_ against its certificate (lambda_ . |mu_| <= upper_), and small enough for its scores to be finite: a
    # huge finite mu_ loaded, then its scores overflowed and predict_proba gave NaN
    "mu_ huge where lambda_ > 0": (edit("linear", set_array("mu_", at((0, 1), 1e308))),
                                   ["mu_ breaks its certificate", "lambda_ . |mu_| = ", "above upper_ = 0.437279",
                                    "mu_[0, 1] = 1e+308"]),
    "mu_ whose penalty overflows": (edit("linear", lambda m, a: (set_array("mu_", at((2, 3), -1e308))(m, a),
                                                                 set_array("lambda_", at((2, 3), 10.0))(m, a))),
                                    ["mu_ breaks its certificate", "lambda_ . |mu_| = inf", "mu_[2, 3] = -1e+308"]),
    "mu_ huge where lambda_ is 0": (edit("linear", lambda m, a: (set_array("lambda_", np.zeros_like)(m, a),
                                                                 set_array("mu_", at((1, 2), 1e200))(m, a))),
                                    ["mu_ is too large", "scores", "mu_[1, 2] = 1e+200", "below 1e+150"]),
    # the manifest's entries
    "no fitted entry": (edit("linear", remove("fitted", None)), ["no entry fitted"]),
    "no upper_": (edit("linear", remove("upper_", "fitted")), ["no entry fitted.upper_"]),
    "n_iter_ a string": (edit("linear", set_in("fitted", "n_iter_", "3")), ["fitted.n_iter_", "a string", "integer"]),
    "n_iter_ a boolean": (edit("linear", set_in("fitted", "n_iter_", True)), ["fitted.n_iter_", "a boolean"]),
    "n_iter_ negative": (edit("linear", set_in("fitted", "n_iter_", -1)), ["fitted.n_iter_", "non-negative"]),
    "upper_ NaN": (edit("linear", set_in("fitted", "upper_", float("nan"))), ["fitted.upper_", "finite"]),
    "upper_ too large for a float": (edit("linear", set_in("fitted", "upper_", 10 ** 400)), ["fitted.upper_"]),
    "objective_ infinite": (edit("linear", set_in("fitted", "objective_", float("inf"))), ["objective_", "or NaN"]),
    "lower_ above upper_": (edit("linear", set_in("fitted", "lower_", 2.0)), ["lower_", "upper_", "empty"]),
    "a certified interval above 1": (edit("linear", lambda m, a: m["fitted"].update(lower_=4.9995, upper_=5.0)),
                                     ["certified interval", "not within [0, 1]", "lower_ = 4.9995, upper_ = 5.0"]),
    "a certified interval below 0": (edit("linear", lambda m, a: m["fitted"].update(lower_=-0.5, upper_=-0.4999)),
                                     ["certified interval", "not within [0, 1]", "lower_ = -0.5, upper_ = -0.4999"]),
    "stalled with a gap within eps_1": (edit("linear", set_in(None, "status_", "stalled")),
                                        ["status_ is 'stalled'", "upper_ - lower_", "within eps_1 = 0.001"]),
    "max_iter with no gap": (edit("linear", lambda m, a: m.update(status_="max_iter") or m["fitted"].update(
        lower_=m["fitted"]["upper_"])), ["status_ is 'max_iter'", "upper_ - lower_ = 0.0 is within eps_1"]),
    "converged with a gap above eps_1": (edit("linear", set_in("fitted", "lower_", 0.0)),
                                         ["status_ is 'converged'", "upper_ - lower_", "eps_1 = 0.001"]),
    "an unknown regime_": (edit("linear", set_in("fitted", "regime_", "fast")), ["regime_", "'fast'"]),
    "an unknown status_": (edit("linear", set_in(None, "status_", "done")), ["status_", "'done'", "converged"]),
    "a fitted attribute of no model": (edit("linear", set_in("fitted", "coef_", 1.0)), ["fitted", "coef_"]),
    "an unknown parameter": (edit("linear", set_in("parameters", "kernel", "rbf")), ["parameters", "kernel"]),
    "an invalid parameter": (edit("linear", set_in("parameters", "lambda0", -1)), ["parameters", "lambda0"]),
    "an unknown formulation": (edit("linear", set_in("parameters", "formulation", "mine")), ["formulation"]),
    "parameters not an object": (edit("linear", set_in(None, "parameters", [1, 2])), ["parameters", "a list"]),
    "an unknown entry": (edit("linear", set_in(None, "author", "me")), ["unknown entries ['author']"]),
    "an unknown feature map": (edit("linear", set_in("feature_map", "kind", "poly")), ["feature_map.kind", "poly"]),
    "another format": (edit("linear", set_in(None, "format", "sklearn model")), ["format 'sklearn model'"]),
    "another version": (edit("linear", set_in(None, "version", 2)), ["version 2", "version 1"]),
    "a version that is a string": (edit("linear", set_in(None, "version", "1")), ["version '1'"]),
    "library_version not a string": (edit("linear", set_in(None, "library_version", 2)), ["library_version"]),
    # the history
    "a history column missing": (edit("linear", remove("history_0")), ["history_0 is missing"]),
    "history columns of two lengths": (edit("linear", set_array("history_1", lambda v: v[:-1])),
                                       ["history", "different lengths"]),
    "a history column of two dimensions": (edit("linear", set_array("history_1", lambda v: v[:, None])),
                                           ["history_1", "not 1-d"]),
    "history column names twice": (edit("linear", lambda m, a: m["history_columns"].append(m["history_columns"][0])),
                                   ["history_columns", "distinct"]),
    # the archive
    "an unexpected array": (edit("linear", lambda m, a: a.__setitem__("extra", np.zeros(3))),
                            ["unexpected array 'extra'"]),
    "the other map's arrays": (edit("linear", lambda m, a: a.__setitem__("fourier_weights", np.zeros((3, 6)))),
                               ["unexpected array 'fourier_weights'"]),
    # the random Fourier features (3 features, 6 components) and the scaler
    "fourier_weights of another shape": (edit("fourier", set_array("fourier_weights", lambda v: v.T.copy())),
                                         ["fourier_weights", "(6, 3), not (3, 6)"]),
    "fourier_offset of another length": (edit("fourier", set_array("fourier_offset", lambda v: v[:5])),
                                         ["fourier_offset", "(5,), not (6,)"]),
    "fourier_weights NaN": (edit("fourier", set_array("fourier_weights", at((0, 0), np.nan))),
                            ["fourier_weights[0, 0] = nan"]),
    "n_components that lies": (edit("fourier", set_in("feature_map", "n_components", 7)),
                               ["mu_", "(3, 10), not (3, 11)", "7 random Fourier features"]),
    "n_components negative": (edit("fourier", set_in("feature_map", "n_components", -6)), ["n_components", "positive"]),
    "n_components a float": (edit("fourier", set_in("feature_map", "n_components", 6.0)), ["n_components", "integer"]),
    "gamma zero": (edit("fourier", set_in("feature_map", "gamma", 0)), ["gamma", "positive finite"]),
    "gamma a string": (edit("fourier", set_in("feature_map", "gamma", "scale")), ["gamma", "a string"]),
    # feature names twice: the file loaded, then predicting on a DataFrame raised narwhals' DuplicateError
    "the scaler's feature names twice": (edit("fourier", set_array("scaler_feature_names_in_", lambda v: v[[0, 1, 0]])),
                                         ["scaler_feature_names_in_", "twice", "scaler_feature_names_in_[2] = 'a' is "
                                          "scaler_feature_names_in_[0]"]),
    "the classifier's feature names twice": (
        edit("linear", lambda m, a: a.update(feature_names_in_=np.array(["f0"] * 3))),
        ["the array feature_names_in_", "twice", "feature_names_in_[1] = 'f0' is feature_names_in_[0]"]),
    "feature names too few": (edit("fourier", set_array("scaler_feature_names_in_", lambda v: v[:2])),
                              ["scaler_feature_names_in_", "(2,), not (3,)"]),
    "feature names that are numbers": (edit("fourier", set_array("scaler_feature_names_in_", lambda v: np.arange(3.))),
                                       ["scaler_feature_names_in_", "floats", "not strings"]),
    "the scaler's scale_ zero": (edit("fourier", set_array("scaler_scale_", at(1, 0.0))),
                                 ["scaler_scale_", "positive"]),
    "the scaler's mean_ NaN": (edit("fourier", set_array("scaler_mean_", at(0, np.nan))), ["scaler_mean_[0] = nan"]),
    "the scaler's mean_ too long": (edit("fourier", set_array("scaler_mean_", lambda v: np.append(v, 0.0))),
                                    ["scaler_mean_", "(4,), not (3,)"]),
    "the scaler without its mean_": (edit("fourier", lambda m, a: (a.pop("scaler_mean_"),
                                                                   m["scaler"]["present"].remove("mean_"))),
                                     ["scaler", "with_mean True", "['mean_']"]),
    "the scaler's n_samples_seen negative": (edit("fourier", set_in("scaler", "n_samples_seen", -3)),
                                              ["n_samples_seen"]),
    "class weights not pairs": (edit("linear", set_in("parameters", "class_weight", [1.0, 2.0])),
                                ["class_weight", "pairs [label, weight]"]),
    "a class weight negative": (edit("linear", set_in("parameters", "class_weight", [[0, 1.0], [1, -2.0]])),
                                ["class_weight"]),
    "a class weighted twice": (edit("linear", set_in("parameters", "class_weight", [[0, 1.0], [0, 2.0]])),
                               ["class_weight", "twice"]),
    "solver_options not a dict": (edit("linear", set_in("parameters", "solver_options", [1])), ["solver_options"]),
    "class weights as text": (edit("linear", set_in("parameters", "class_weight", "heavy")), ["class_weight"]),
    "warm_start a number": (edit("linear", set_in("parameters", "warm_start", 3)), ["warm_start"]),
}


@pytest.mark.parametrize("case", list(CORRUPTIONS))
def test_a_file_that_breaks_its_promises_is_refused_with_the_cause(saved, tmp_path, case):
    """Each corruption of a real model file is refused by read_model (and load_model) with a one-line message that
    names the array or entry, and what it has against what it should have."""
    (key, change), causes = CORRUPTIONS[case]
    manifest, arrays = unpack(saved[key][0])
    change(manifest, arrays)
    refused(pack(tmp_path / "m.npz", manifest, arrays), *causes)


@pytest.mark.parametrize("text, cause", [
    (b"{not json", "not UTF-8 JSON"), (b"\xff\xfe", "not UTF-8 JSON"), (b"[1, 2]", "a list, not a JSON object"),
    (b'"a model"', "a string"), (b"[" * 100000, "not UTF-8 JSON"), (b'{"format": "mrc_pyomo model"}', "version None")])
def test_a_manifest_that_is_not_a_json_object_is_refused(saved, tmp_path, text, cause):
    manifest, arrays = unpack(saved["linear"][0])
    refused(pack(tmp_path / "m.npz", manifest, arrays, text=text), cause)


def members(path):
    """The members of a zip archive, as bytes by name."""
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def zip_of(path, members, compression=zipfile.ZIP_STORED):
    """A zip archive of ``members``, ``(name, bytes)`` pairs, as it is (a name twice too)."""
    with zipfile.ZipFile(path, "w", compression=compression) as archive:
        for name, data in members:
            archive.writestr(name, data)
    return path


def npy_header(shape, descr="<f8"):
    """The header of a .npy file of ``shape``, without its data."""
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, {"descr": descr, "fortran_order": False, "shape": shape})
    return header.getvalue()


def test_an_archive_that_is_not_one_of_arrays_is_refused(saved, tmp_path):
    """A truncated archive, a compressed member (which could expand to any size), a member that is not an array,
    a header that declares more data than the member holds (NumPy would allocate it), a member twice, no
    manifest: each refused before any array is used."""
    path, data = saved["linear"][0], saved["linear"][0].read_bytes()
    (tmp_path / "half.npz").write_bytes(data[:len(data) // 2])
    refused(tmp_path / "half.npz", "not a readable zip archive")
    (tmp_path / "cut.npz").write_bytes(data[:-30])
    refused(tmp_path / "cut.npz", "not a readable zip archive")
    manifest, arrays = unpack(path)
    np.savez_compressed(tmp_path / "small.npz", manifest=np.frombuffer(json.dumps(manifest).encode(), np.uint8),
                        **arrays)
    refused(tmp_path / "small.npz", "compressed")
    entries = list(members(path).items())
    refused(zip_of(tmp_path / "notes.npz", entries + [("notes.txt", b"hello")]), "'notes.txt'", "not an array")
    huge = [(n, npy_header((10 ** 12,)) + b"\0" * 16 if n == "mu_.npy" else d) for n, d in entries]
    refused(zip_of(tmp_path / "huge.npz", huge), "'mu_'", "declares shape (1000000000000,)", "16 bytes")
    negative = [(n, npy_header((-3, 4)) if n == "mu_.npy" else d) for n, d in entries]
    refused(zip_of(tmp_path / "negative.npz", negative), "'mu_'")
    with pytest.warns(UserWarning, match="Duplicate name"):
        twice = zip_of(tmp_path / "twice.npz", entries + [("mu_.npy", dict(entries)["mu_.npy"])])
    refused(twice, "'mu_.npy' twice")
    refused(zip_of(tmp_path / "none.npz", [(n, d) for n, d in entries if n != "manifest.npy"]), "no manifest")
    manifest_of_floats = [(n, npy_header((3,)) + b"\0" * 24 if n == "manifest.npy" else d) for n, d in entries]
    refused(zip_of(tmp_path / "floats.npz", manifest_of_floats), "manifest", "not of bytes")


def test_the_command_refuses_a_broken_file_on_one_line(saved, tmp_path, capsys):
    """``mrc-pyomo predict`` on a file whose mu_ is NaN: one line naming the file and the cause, exit code 1, no
    predictions (before this check it predicted the first class for every sample)."""
    manifest, arrays = unpack(saved["linear"][0])
    arrays["mu_"] = np.full_like(arrays["mu_"], np.nan)
    path = pack(tmp_path / "m.npz", manifest, arrays)
    X = saved["linear"][1]
    pd.DataFrame(X, columns=["a", "b", "c"]).to_csv(tmp_path / "new.csv", index=False)
    line = cli_error(capsys, ["predict", path, tmp_path / "new.csv"])
    assert line == (f"mrc-pyomo: error: {path} is not a valid model file: the array mu_ is not finite: "
                    "mu_[0, 0] = nan")


def test_a_valid_file_round_trips_and_names_the_version_that_wrote_it(saved, tmp_path):
    """Both models load and predict as they were fitted; the manifest names the library's version, a file
    without it (written before 0.2.0) loads the same, and the cause of a refused file written by another version
    says which version wrote it."""
    for path, X, model in saved.values():
        again = read_model(path)
        assert np.array_equal(again.predict(X), model.predict(X))
        assert np.array_equal(again.predict_proba(X), model.predict_proba(X))
    path, X, model = saved["linear"]
    manifest, arrays = unpack(path)
    assert manifest["library_version"] == mrc_pyomo.__version__ == "0.2.0.dev0"
    del manifest["library_version"]
    older = models.load_model(pack(tmp_path / "older.npz", manifest, arrays))
    assert np.array_equal(older.predict(X), model.predict(X)) and np.array_equal(older.mu_, model.mu_)
    manifest["library_version"] = "0.3.0"
    arrays["mu_"] = arrays["mu_"][:, :-1]
    refused(pack(tmp_path / "newer.npz", manifest, arrays), "mu_", "(the file was written by mrc_pyomo 0.3.0)")


def test_the_bound_of_mu_by_its_certificate_allows_rounding_only(saved, tmp_path):
    """mu_ scaled so that lambda_ . |mu_| is upper_ (a rule on the bound, as at a large lambda0) loads, and 1e-6
    above it is refused; mu_ where lambda_ is 0 (lambda0 = 0) loads just below the bound that keeps the scores
    finite, and predicts finite probabilities."""
    path, X, _ = saved["linear"]
    manifest, arrays = unpack(path)
    upper = manifest["fitted"]["upper_"]
    on_bound = arrays["mu_"] * (upper / float(np.sum(arrays["lambda_"] * np.abs(arrays["mu_"]))))
    read_model(pack(tmp_path / "on.npz", manifest, dict(arrays, mu_=on_bound)))
    refused(pack(tmp_path / "above.npz", manifest, dict(arrays, mu_=on_bound * (1 + 1e-6))), "breaks its certificate")
    free = dict(arrays, lambda_=np.zeros_like(arrays["lambda_"]), mu_=np.full_like(arrays["mu_"], -9.9e149))
    assert np.isfinite(read_model(pack(tmp_path / "free.npz", manifest, free)).predict_proba(X)).all()


@pytest.mark.parametrize("params", [dict(lambda0=0), dict(lambda0=0, phi="fourier", random_state=0), dict(max_iter=1),
                                    dict(lambda0=0.5, eps_1=0)])
def test_fits_at_the_edges_of_the_checks_round_trip(tmp_path, params):
    """Real fits near what the checks refuse load and predict as fitted: mu_ where lambda_ is 0 (lambda0 = 0), a
    certified interval near 0, a fit stopped by max_iter with its gap open, mu_ = 0 with eps_1 = 0 (the floor)."""
    X, y = random_problem(60, 4, 3, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # max_iter = 1 stops with its gap open: a ConvergenceWarning
        clf = MRCClassifier(**params).fit(X, y)
    again = read_model(models.save_model(clf, tmp_path / "m.npz"))
    assert again.status_ == clf.status_ and again.upper_ == clf.upper_ and again.lower_ == clf.lower_
    assert np.array_equal(again.predict_proba(X), clf.predict_proba(X))
