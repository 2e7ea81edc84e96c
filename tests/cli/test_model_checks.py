"""The checks of a model file's manifest (:mod:`mrc_pyomo.cli.model_checks`), called directly on entries made here:
JSON types named as JSON names them (a boolean is no number), finiteness without overflow, an entry's messages,
unknown keys, the parameters' classifier, the feature map's width ``D`` against a real fitted map's, the status
against the gap and its floor ``max(eps_1, GAP_FLOOR)``, the scaler's arrays, the arrays a manifest calls for, the
version note, and the arrays made float64 in place.  Files crafted from real models that break these checks, read
whole by ``read_model``, are in ``tests/cli/test_models.py``."""

import io

import numpy as np
import pytest

import mrc_pyomo
from helpers import random_problem
from mrc_pyomo import MRCClassifier, RandomFourierFeatures
from mrc_pyomo.cli import model_checks
from mrc_pyomo.cli.model_arrays import ModelFormatError
from mrc_pyomo.cli.model_checks import (ARRAYS, PARAMETERS, STATUSES, check_feature_map, check_fitted, check_model,
                                        check_saved_parameters, check_scaler, entry, expected_arrays, finite, json_type,
                                        known_keys)
from mrc_pyomo.cli.model_format import read_archive, write_model
from mrc_pyomo.feature_maps import make_feature_map
from mrc_pyomo.methods.result import Status
from mrc_pyomo.oracles.certificate import GAP_FLOOR


def test_json_types_are_named_as_json_names_them():
    assert json_type(None) == "null"
    assert json_type(True) == "a boolean (True)"   # not an integer, though bool is one in Python
    assert json_type(3) == "an integer (3)" and json_type(2.5) == "a number (2.5)"
    assert json_type("x" * 100) == f"a string ({repr('x' * 100)[:37]}...)"   # the value cut to 40 characters
    assert json_type([1]) == "a list" and json_type({"a": 1}) == "an object"


def test_finite_numbers_and_integers_too_large_for_a_float():
    assert finite(1) and finite(-2.5) and finite(10 ** 300)
    assert not finite(float("nan")) and not finite(float("inf")) and not finite(10 ** 400)


def test_an_entry_of_the_wrong_type_or_value_is_named():
    mapping = {"n": 3, "flag": True, "x": 0.5, "name": "a"}
    assert entry(mapping, "n", model_checks.Integral, "fitted.") == 3
    assert entry(mapping, "n", model_checks.Real, "fitted.") == 3   # an integer is a number
    with pytest.raises(ModelFormatError, match=r"^the manifest has no entry fitted\.m$"):
        entry(mapping, "m", model_checks.Integral, "fitted.")
    with pytest.raises(ModelFormatError, match=r"fitted\.flag is a boolean \(True\), not an integer"):
        entry(mapping, "flag", model_checks.Integral, "fitted.")
    with pytest.raises(ModelFormatError, match=r"fitted\.flag is a boolean \(True\), not a number"):
        entry(mapping, "flag", model_checks.Real, "fitted.")
    with pytest.raises(ModelFormatError, match=r"fitted\.x is a number \(0\.5\), not an integer"):
        entry(mapping, "x", model_checks.Integral, "fitted.")
    with pytest.raises(ModelFormatError, match=r"^the manifest's fitted\.x is 0\.5, not above 1$"):
        entry(mapping, "x", model_checks.Real, "fitted.", lambda v: v > 1, "above 1")
    assert entry(mapping, "flag", bool, "") is True


def test_unknown_keys_are_named_sorted_and_at_most_five():
    assert known_keys({"a": 1}, {"a", "b"}, "scaler") == {"a": 1}
    with pytest.raises(ModelFormatError, match=r"the manifest's top level has unknown entries \['c', 'd'\]"):
        known_keys({"d": 1, "a": 2, "c": 3}, {"a"}, "")
    with pytest.raises(ModelFormatError) as error:
        known_keys({k: 0 for k in "zyxwvut"}, set(), "fitted")
    assert "['t', 'u', 'v', 'w', 'x']" in str(error.value)


def test_the_parameters_make_the_classifier_missing_ones_at_their_defaults():
    clf = check_saved_parameters({"lambda0": 0.5, "regime": "nm"}, True)
    assert isinstance(clf, MRCClassifier) and clf.lambda0 == 0.5 and clf.regime == "nm"
    assert clf.get_params()["eps_1"] == MRCClassifier().eps_1 and set(PARAMETERS) <= set(clf.get_params())
    with pytest.raises(ModelFormatError, match="the manifest's parameters: .*n_max"):
        check_saved_parameters({"n_max": 0}, True)
    with pytest.raises(ModelFormatError, match="disagrees"):
        check_saved_parameters({"fit_intercept": False}, True)


@pytest.mark.parametrize("phi,intercept", [("linear", True), ("linear", False), ("fourier", True),
                                           ("fourier_only", True), ("fourier_only", False)])
def test_the_feature_map_s_width_is_that_of_the_fitted_map(phi, intercept):
    """``D`` of the manifest's feature map is the width of ``feature_map.transform(X)`` of the same map, fitted."""
    X, _ = random_problem(20, 3, 2, seed=1)
    spec = {"kind": "linear", "fit_intercept": intercept, "n_features_in": 3}
    base = "linear"
    if phi != "linear":
        original = phi == "fourier"
        base = RandomFourierFeatures(n_components=5, include_original=original, random_state=0)
        spec.update(kind="fourier", n_components=5, gamma=0.7, include_original=original)
    n, width, words = check_feature_map(spec)
    assert n == 3 and width == make_feature_map(base, intercept).fit(X).transform(X).shape[1]
    assert words.endswith(" and the intercept") == intercept and ("5 random Fourier features" in words) == (
        phi != "linear")


def fitted(lower, upper, **changes):
    return {"nu_": 1.0, "upper_": upper, "lower_": lower, "objective_": float("nan"), "n_iter_": 2,
            "n_features_in_": 3, "regime_": "n", **changes}


@pytest.mark.parametrize("eps_1", [0.0, 1e-12, 1e-3])
def test_the_status_is_converged_exactly_when_the_gap_is_within_eps_1_or_the_floor(eps_1):
    tolerance = max(eps_1, GAP_FLOOR)
    within, above = fitted(0.3, 0.3 + 0.5 * tolerance), fitted(0.3, 0.3 + 2.0 * tolerance)
    check_fitted(within, 3, "converged", eps_1)
    check_fitted(above, 3, "stalled", eps_1)
    with pytest.raises(ModelFormatError, match="'converged'.*above eps_1") as error:
        check_fitted(above, 3, "converged", eps_1)
    assert ("the floor is 1e-09" in str(error.value)) == (eps_1 < GAP_FLOOR)
    with pytest.raises(ModelFormatError, match="'max_iter'.*within eps_1"):
        check_fitted(within, 3, "max_iter", eps_1)


def test_the_fitted_entries_allow_a_nan_objective_and_no_other_key():
    check_fitted(fitted(0.0, 0.0), 3, "converged", 0.0)
    with pytest.raises(ModelFormatError, match=r"regime_ is 'auto', not one of \['n', 'nm', 'full'\]"):
        check_fitted(fitted(0.1, 0.1, regime_="auto"), 3, "converged", 0.0)
    with pytest.raises(ModelFormatError, match="unknown entries"):
        check_fitted(fitted(0.1, 0.1, coef_=1.0), 3, "converged", 0.0)
    assert "not_reached" not in STATUSES and set(STATUSES) == {s.value for s in Status} - {"not_reached"}


def scaler(**changes):
    return {"with_mean": True, "with_std": True, "n_samples_seen": 10, "present": ["mean_", "scale_", "var_"],
            **changes}


def test_the_scaler_s_arrays_are_those_its_transform_needs():
    assert check_scaler(scaler()) == ["mean_", "scale_", "var_"]
    assert check_scaler(scaler(with_mean=False, present=["scale_"])) == ["scale_"]
    assert check_scaler(scaler(with_mean=False, with_std=False, present=[])) == []
    with pytest.raises(ModelFormatError, match=r"without its arrays \['scale_'\]"):
        check_scaler(scaler(present=["mean_"]))
    for present in (["mean_", "mean_", "scale_"], ["mean_", "scale_", "std_"], ["mean_", 1]):
        with pytest.raises(ModelFormatError, match="a list of distinct names"):
            check_scaler(scaler(present=present))


def test_the_arrays_a_manifest_calls_for():
    base = {"classes_", "feature_names_in_", *ARRAYS}
    linear = {"feature_map": {"kind": "linear"}}
    assert expected_arrays(linear, ["a", "b"]) == base | {"history_0", "history_1"}
    fourier = {"feature_map": {"kind": "fourier"}, "scaler": {"present": ["mean_"]}}
    assert expected_arrays(fourier, []) == base | {"fourier_weights", "fourier_offset", "scaler_feature_names_in_",
                                                   "scaler_mean_"}


@pytest.fixture(scope="module")
def written():
    X, y = random_problem(30, 3, 3, seed=2)
    model = MRCClassifier().fit(X, y)
    buffer = io.BytesIO()
    write_model(model, buffer)
    return buffer.getvalue()


def archive(written):
    return read_archive(io.BytesIO(written))


def test_a_valid_file_passes_and_its_arrays_become_float64_in_place(written):
    manifest, arrays = archive(written)
    for name in ARRAYS:
        arrays[name] = arrays[name].astype(np.float32)
    check_model(manifest, arrays)
    assert all(arrays[name].dtype == np.float64 for name in ARRAYS)


@pytest.mark.parametrize("version,noted", [(mrc_pyomo.__version__, False), ("0.1.5", True), (None, False)])
def test_a_refusal_names_the_version_that_wrote_the_file_only_if_another(written, version, noted):
    manifest, arrays = archive(written)
    if version is None:
        del manifest["library_version"]
    else:
        manifest["library_version"] = version
    manifest["status_"] = "done"
    with pytest.raises(ModelFormatError, match="status_") as error:
        check_model(manifest, arrays)
    assert ("(the file was written by mrc_pyomo" in str(error.value)) == noted
    if noted:
        assert str(error.value).endswith(f"(the file was written by mrc_pyomo {version})")


def test_a_missing_manifest_entry_is_named_first_in_order(written):
    manifest, arrays = archive(written)
    del manifest["status_"], manifest["fitted"]
    with pytest.raises(ModelFormatError, match=r"^the manifest has no entry fitted$"):
        check_model(manifest, arrays)
