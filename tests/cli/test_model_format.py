"""The model file (:mod:`mrc_pyomo.cli.model_format`), on what ``tests/cli/test_models.py`` leaves out: what
:func:`write_model` puts in the archive (to an open file: the manifest's entries and the arrays a manifest calls
for, equal to the classifier's attributes), what it refuses with its reason (another estimator or pipeline,
labels of mixed types or of no number or string type), what it makes data of (a ``RandomState``, a formulation
object), and what :func:`read_archive` refuses of a manifest (a version that is a boolean) and reads from an open
file."""

import io
import json

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler, StandardScaler

import mrc_pyomo
from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.cli.model_checks import FORMAT, PARAMETERS, SCALARS, VERSION, expected_arrays
from mrc_pyomo.cli.model_format import ModelFormatError, read_archive, read_model, write_model
from mrc_pyomo.formulations import PaperFormulation


@pytest.fixture(scope="module")
def data():
    return random_problem(30, 3, 3, seed=4)


@pytest.fixture(scope="module")
def fitted(data):
    return MRCClassifier(lambda0=0.05).fit(*data)


def written(model):
    buffer = io.BytesIO()
    write_model(model, buffer)
    buffer.seek(0)
    return buffer


def test_the_archive_holds_the_manifest_and_the_arrays_it_calls_for(fitted):
    manifest, arrays = read_archive(written(fitted))
    assert manifest["format"] == FORMAT and manifest["version"] == VERSION
    assert manifest["library_version"] == mrc_pyomo.__version__
    assert set(manifest["parameters"]) == set(PARAMETERS) and set(manifest["fitted"]) == set(SCALARS)
    assert manifest["parameters"]["lambda0"] == 0.05 and manifest["status_"] == str(fitted.status_)
    assert manifest["feature_map"] == {"kind": "linear", "fit_intercept": True, "n_features_in": 3}
    assert manifest["classes_as_objects"] is False and "scaler" not in manifest
    assert set(arrays) == expected_arrays(manifest, manifest["history_columns"]) - {"feature_names_in_"}
    for name in ("mu_", "tau_", "lambda_", "column_scale_", "classes_"):
        assert np.array_equal(arrays[name], getattr(fitted, name)), name
    for k, column in enumerate(manifest["history_columns"]):
        values = fitted.history_[column].to_numpy()
        assert np.array_equal(arrays[f"history_{k}"], values.astype(str) if values.dtype == object else values,
                              equal_nan=values.dtype != object)
    for name in SCALARS:
        assert manifest["fitted"][name] == pytest.approx(getattr(fitted, name), nan_ok=True)


def test_what_is_not_an_mrc_or_a_scaler_and_an_mrc_is_refused(data, fitted):
    X, y = data
    for model in (LogisticRegression().fit(X, y), make_pipeline(MinMaxScaler(), MRCClassifier()).fit(X, y),
                  make_pipeline(StandardScaler(), StandardScaler(), MRCClassifier()).fit(X, y)):
        with pytest.raises(ModelFormatError, match="only an MRCClassifier, or a Pipeline of a StandardScaler"):
            write_model(model, io.BytesIO())


def test_labels_of_mixed_types_or_of_another_type_are_refused(data):
    """Labels (here set on a fitted model) that ``np.load`` cannot read without pickle: objects of several types,
    dates."""
    X, y = data
    clf = MRCClassifier().fit(X, y)
    clf.classes_ = np.array([1, "b", 2.5], dtype=object)
    with pytest.raises(ModelFormatError, match=r"the labels mixes types \(\['float', 'int', 'str'\]\)"):
        write_model(clf, io.BytesIO())
    clf.classes_ = np.array(["2020-01-01", "2021-01-01", "2022-01-01"], dtype="datetime64[D]")
    with pytest.raises(ModelFormatError, match=r"the labels of type datetime64\[D\] cannot be saved as data"):
        write_model(clf, io.BytesIO())


def test_string_labels_are_kept_as_objects(data):
    X, y = data
    labels = np.array(["no", "maybe", "yes"], dtype=object)[y]
    clf = MRCClassifier().fit(X, labels)
    manifest, arrays = read_archive(written(clf))
    assert manifest["classes_as_objects"] is True and arrays["classes_"].dtype.kind == "U"
    back = read_model(written(clf))
    assert back.classes_.dtype == object and list(back.classes_) == list(clf.classes_)


def test_a_random_state_object_and_a_formulation_object_are_saved_as_data(data):
    X, y = data
    clf = MRCClassifier(random_state=np.random.RandomState(3), formulation=PaperFormulation()).fit(X, y)
    manifest, _ = read_archive(written(clf))
    assert manifest["parameters"]["random_state"] is None and manifest["parameters"]["formulation"] == "paper"
    back = read_model(written(clf))
    assert back.formulation == "paper" and np.array_equal(back.predict(X), clf.predict(X))


def test_a_manifest_whose_version_is_a_boolean_is_refused(fitted, tmp_path):
    """JSON ``true`` is not the integer 1, though Python's ``True == 1``."""
    manifest, arrays = read_archive(written(fitted))
    manifest["version"] = True
    path = tmp_path / "m.npz"
    np.savez(path, manifest=np.frombuffer(json.dumps(manifest).encode(), dtype=np.uint8), **arrays)
    with pytest.raises(ModelFormatError, match=r"version True, this library reads version 1"):
        read_archive(path)
    with open(path, "rb") as f:   # an open file as well as a path
        with pytest.raises(ModelFormatError, match="version True"):
            read_archive(f)
