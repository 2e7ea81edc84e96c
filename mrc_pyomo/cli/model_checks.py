"""What a model file of :mod:`mrc_pyomo.cli.model_format` holds, and the checks of a file against itself before a
model is made of it.

A model file comes from anyone: its manifest may lie about its arrays and its arrays about each other (a ``mu_``
with a column too few fails inside NumPy at the first ``predict``; a NaN ``mu_`` predicts the first class always).
So :func:`check_model` checks every entry of the manifest (keys, types, the classifier's parameters) and every array
read by :func:`~mrc_pyomo.cli.model_format.read_archive` (type, shape ``(K, D)`` of ``K = len(classes_)`` and the
feature map's ``D``, finite values, the signs and bounds a fit guarantees: :mod:`mrc_pyomo.cli.model_arrays`)
against the others: the certified interval one a fit gives, ``0 <= lower_ <= upper_ <= 1``, agreeing with
``status_``.  Each failure is a :class:`ModelFormatError` whose one-line message names the cause.
"""

import math
from numbers import Integral, Real

import numpy as np

from .. import __version__
from ..estimator.classifier import MRCClassifier
from ..estimator.parameters import validate_parameters
from ..master.pyomo_solve import solver_name
from ..methods.result import Status, status_of
from ..oracles.certificate import GAP_FLOOR
from .model_arrays import ModelFormatError, check_classes, check_history, check_names, check_rule, numbers, shown

#: the first entry of every model file, and its version
FORMAT = "mrc_pyomo model"
VERSION = 1
#: the classifier's parameters a file keeps (not ``callback``, ``verbose``, ``phi`` objects: :func:`kept_parameters`)
PARAMETERS = ("lambda0", "fit_intercept", "method", "solver", "eps_1", "eps_2", "n_max", "m_max", "max_iter",
              "regime", "time_limit", "random_state", "continuation", "formulation", "class_weight", "warm_start",
              "solver_options", "first_order")
SCALARS = ("nu_", "upper_", "lower_", "objective_", "n_iter_", "n_features_in_", "regime_")
ARRAYS = ("mu_", "tau_", "lambda_", "column_scale_")
SCALER = ("mean_", "scale_", "var_")
#: the manifest's entries; ``scaler`` for a pipeline, ``library_version`` since 0.2.0, ``label_column`` (the CSV
#: column of the labels) for a model the command line fitted on one
MANIFEST = {"format", "version", "parameters", "fitted", "status_", "classes_as_objects", "feature_map",
            "history_columns"}
OPTIONAL = {"scaler", "library_version", "label_column"}
FEATURE_MAPS = {"linear": {"kind", "fit_intercept", "n_features_in"},
                "fourier": {"kind", "fit_intercept", "n_features_in", "n_components", "gamma", "include_original"}}
SCALER_KEYS = {"with_mean", "with_std", "n_samples_seen", "present"}
REGIMES = ("n", "nm", "full")
STATUSES = tuple(s.value for s in Status if s is not Status.NOT_REACHED)
#: the JSON types of the manifest's entries, as the messages name them
TYPES = {bool: "a boolean", Integral: "an integer", Real: "a number", str: "a string", list: "a list",
         dict: "an object"}


# -- the manifest's entries -------------------------------------------------------------------------------------

def json_type(value):
    """The JSON type of ``value`` (and the value, if it is a number or a string), for a message."""
    if value is None:
        return "null"
    kind = next((name for t, name in TYPES.items() if isinstance(value, t)), type(value).__name__)
    return f"{kind} ({shown(value, 40)})" if isinstance(value, (Real, str)) else kind


def finite(value):
    """Whether the number ``value`` is finite (a JSON integer too large for a float is not)."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def entry(mapping, key, kind, where, check=None, need=None):
    """``mapping[key]`` of type ``kind`` (a key of :data:`TYPES`; no booleans for numbers) for which ``check(value)``
    holds (``need`` says what it must be); :class:`ModelFormatError` naming ``where + key`` otherwise."""
    if key not in mapping:
        raise ModelFormatError(f"the manifest has no entry {where}{key}")
    value = mapping[key]
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise ModelFormatError(f"the manifest's {where}{key} is {json_type(value)}, not {TYPES[kind]}")
    if check is not None and not check(value):
        said = f"is {shown(value)}," if isinstance(value, (Real, str)) else "is"
        raise ModelFormatError(f"the manifest's {where}{key} {said} not {need}")
    return value


def known_keys(mapping, allowed, where):
    """``mapping``, if it has no key outside ``allowed``."""
    unknown = sorted(map(str, set(mapping) - set(allowed)))
    if unknown:
        raise ModelFormatError(f"the manifest's {where or 'top level'} has unknown entries {unknown[:5]}")
    return mapping


def check_saved_parameters(parameters, fit_intercept):
    """The classifier of the parameters: names of :data:`PARAMETERS` (a missing one takes its default), values it
    accepts, ``fit_intercept`` the feature map's; a list ``class_weight``: :func:`class_weight_of`."""
    known_keys(parameters, PARAMETERS, "parameters")
    if isinstance(parameters.get("class_weight"), list):
        parameters = {**parameters, "class_weight": class_weight_of(parameters["class_weight"])}
    clf = MRCClassifier(**parameters)
    try:
        validate_parameters(clf)
    except (ValueError, TypeError) as error:
        raise ModelFormatError(f"the manifest's parameters: {error}") from None
    if clf.fit_intercept is not fit_intercept:
        raise ModelFormatError("the manifest's parameters.fit_intercept disagrees with feature_map.fit_intercept")
    return clf


def class_weight_of(pairs):
    """The dict ``class_weight`` of its pairs ``[label, weight]`` in a file: labels JSON strings or numbers."""
    if not all(isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], (str, Real)) for pair in pairs):
        raise ModelFormatError("the manifest's parameters.class_weight is a list, but not of pairs [label, weight]")
    weights = dict(pairs)
    if len(weights) != len(pairs):
        raise ModelFormatError("the manifest's parameters.class_weight names a label twice")
    return weights


def kept_parameters(clf):
    """The :data:`PARAMETERS` of ``clf`` as JSON values: a Pyomo solver instance by its name
    (:func:`~mrc_pyomo.master.pyomo_solve.solver_name`), its options under ``solver_options`` (below the classifier's
    own), a dict ``class_weight`` as its pairs (zero weights kept: a refit leaves those classes out), a random state
    that is not a seed as None (the feature map keeps its draws); :class:`ModelFormatError` if JSON cannot hold one."""
    parameters = {p: getattr(clf, p) for p in PARAMETERS}
    solver = parameters["solver"]
    if not isinstance(solver, str):
        parameters["solver"] = solver_name(solver)
        options = {**dict(getattr(solver, "options", None) or {}), **(parameters["solver_options"] or {})}
        parameters["solver_options"] = options or None
    if isinstance(parameters["class_weight"], dict):
        parameters["class_weight"] = [[label.item() if isinstance(label, np.generic) else label, weight]
                                      for label, weight in parameters["class_weight"].items()]
    if not isinstance(parameters["random_state"], (int, np.integer, type(None))):
        parameters["random_state"] = None
    if not isinstance(parameters["formulation"], str):
        parameters["formulation"] = parameters["formulation"].name
    for name in ("solver_options", "class_weight"):
        if not json_data(parameters[name]):
            raise ModelFormatError(f"{name}={parameters[name]!r} cannot be kept in a model file: its entries must be "
                                   f"strings, numbers or booleans")
    return parameters


def json_data(value):
    """Whether ``value`` is None, a string, a number, a boolean, or a list or str-keyed dict of these."""
    if isinstance(value, (list, tuple)):
        return all(json_data(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and json_data(v) for k, v in value.items())
    return value is None or isinstance(value, (str, Real, np.generic))


def check_feature_map(spec):
    """``(n_features_in, D, words)`` of the feature map's manifest: its input and output widths, and ``D`` in words."""
    kind = entry(spec, "kind", str, "feature_map.", lambda v: v in FEATURE_MAPS, f"one of {sorted(FEATURE_MAPS)}")
    known_keys(spec, FEATURE_MAPS[kind], "feature_map")
    intercept = entry(spec, "fit_intercept", bool, "feature_map.")
    n = entry(spec, "n_features_in", Integral, "feature_map.", lambda v: v >= 1, "a positive integer")
    width, words = n, f"{n} features"
    if kind == "fourier":
        m = entry(spec, "n_components", Integral, "feature_map.", lambda v: v >= 1, "a positive integer")
        entry(spec, "gamma", Real, "feature_map.", lambda v: finite(v) and v > 0, "a positive finite number")
        original = entry(spec, "include_original", bool, "feature_map.")
        width = original * n + m
        words = f"{words} and {m} random Fourier features" if original else f"{m} random Fourier features"
    return n, width + intercept, words + (" and the intercept" if intercept else "")


def check_fitted(fitted, n_features_in, status, eps_1):
    """The fitted numbers: finite (``objective_`` NaN where no master was solved), ``0 <= lower_ <= upper_ <= 1``
    (``upper_ <= R(0) = 1 - 1/K``), status ``"converged"`` exactly when the gap is within ``max(eps_1, GAP_FLOOR)``
    (:func:`~mrc_pyomo.methods.result.status_of`), counts, a known regime, the feature map's input width."""
    known_keys(fitted, SCALARS, "fitted")
    for name in ("nu_", "upper_", "lower_"):
        entry(fitted, name, Real, "fitted.", finite, "a finite number")
    entry(fitted, "objective_", Real, "fitted.", lambda v: finite(v) or v != v, "a finite number or NaN")
    lower, upper = fitted["lower_"], fitted["upper_"]
    if not lower <= upper:
        raise ModelFormatError(f"the manifest's certified interval is empty: lower_ = {shown(lower)} > upper_ = "
                               f"{shown(upper)}")
    if not 0 <= lower <= upper <= 1:
        raise ModelFormatError(f"the manifest's certified interval is not within [0, 1], as every fit's is (0 <= "
                               f"lower_ <= R* <= upper_ <= R(0) = 1 - 1/K): lower_ = {shown(lower)}, upper_ = "
                               f"{shown(upper)}")
    gap, converged = upper - lower, status == Status.CONVERGED
    if converged != (status_of(lower, upper, eps_1) == Status.CONVERGED):
        floor = f" (the floor is {GAP_FLOOR:g})" if eps_1 < GAP_FLOOR else ""
        raise ModelFormatError(f"the manifest's status_ is {status!r}, but its certified gap upper_ - lower_ = "
                               f"{shown(gap)} is {'above' if converged else 'within'} eps_1 = {eps_1:g}{floor}: a fit "
                               f"has converged exactly when its gap is within eps_1")
    entry(fitted, "n_iter_", Integral, "fitted.", lambda v: v >= 0, "a non-negative integer")
    entry(fitted, "n_features_in_", Integral, "fitted.", lambda v: v == n_features_in,
          f"the feature map's n_features_in ({n_features_in})")
    entry(fitted, "regime_", str, "fitted.", lambda v: v in REGIMES, f"one of {list(REGIMES)}")


def check_scaler(spec):
    """The names of the ``StandardScaler``'s arrays in its manifest, those its ``transform`` needs among them."""
    known_keys(spec, SCALER_KEYS, "scaler")
    with_mean, with_std = entry(spec, "with_mean", bool, "scaler."), entry(spec, "with_std", bool, "scaler.")
    entry(spec, "n_samples_seen", Integral, "scaler.", lambda v: v >= 1, "a positive integer")
    present = entry(spec, "present", list, "scaler.", lambda v: all(isinstance(x, str) for x in v)
                    and set(v) <= set(SCALER) and len(set(v)) == len(v), f"a list of distinct names of {list(SCALER)}")
    needed = {"mean_"} if with_mean else set()
    needed |= {"scale_"} if with_std else set()
    if not needed <= set(present):
        raise ModelFormatError(f"the manifest's scaler standardises (with_mean {with_mean}, with_std {with_std}) "
                               f"without its arrays {sorted(needed - set(present))}")
    return present


# -- the file as a whole -----------------------------------------------------------------------------------------

def expected_arrays(manifest, columns):
    """The names of the arrays the manifest calls for (some optional), to refuse any other."""
    names = {"classes_", "feature_names_in_", *ARRAYS, *(f"history_{k}" for k in range(len(columns)))}
    if manifest["feature_map"]["kind"] == "fourier":
        names |= {"fourier_weights", "fourier_offset"}
    if "scaler" in manifest:
        names |= {"scaler_feature_names_in_", *(f"scaler_{name}" for name in manifest["scaler"]["present"])}
    return names


def check_model(manifest, arrays):
    """Check the manifest and ``arrays`` (:func:`~mrc_pyomo.cli.model_format.read_archive`) against each other, the
    numeric arrays made float64 in place; :class:`ModelFormatError` names the first wrong entry or array (and the
    library version that wrote the file, if another)."""
    try:
        _check_model(manifest, arrays)
    except ModelFormatError as error:
        written_by = manifest.get("library_version")
        if isinstance(written_by, str) and written_by != __version__:
            raise ModelFormatError(f"{error} (the file was written by mrc_pyomo {written_by:.40})") from None
        raise


def _check_model(manifest, arrays):
    """:func:`check_model`, the entries first (the feature map's, which give ``D``), then the arrays."""
    missing = sorted(MANIFEST - set(manifest))
    if missing:
        raise ModelFormatError(f"the manifest has no entry {missing[0]}")
    known_keys(manifest, MANIFEST | OPTIONAL, "")
    for name in ("library_version", "label_column"):
        if name in manifest:
            entry(manifest, name, str, "")
    n, width, words = check_feature_map(entry(manifest, "feature_map", dict, ""))
    clf = check_saved_parameters(entry(manifest, "parameters", dict, ""), manifest["feature_map"]["fit_intercept"])
    status = entry(manifest, "status_", str, "", lambda v: v in STATUSES, f"one of {list(STATUSES)}")
    check_fitted(entry(manifest, "fitted", dict, ""), n, status, clf.eps_1)
    columns = entry(manifest, "history_columns", list, "", lambda v: all(isinstance(c, str) for c in v)
                    and len(set(v)) == len(v), "a list of distinct column names")
    present = check_scaler(entry(manifest, "scaler", dict, "")) if "scaler" in manifest else ()
    unexpected = sorted(set(arrays) - expected_arrays(manifest, columns))
    if unexpected:
        raise ModelFormatError(f"the archive holds an unexpected array {shown(unexpected[0])}")
    k = check_classes(arrays, entry(manifest, "classes_as_objects", bool, ""))
    why = f"K = {k} classes of classes_ by D = {width} columns of the feature map: {words}"
    numbers(arrays, "mu_", (k, width), why)
    numbers(arrays, "tau_", (k, width), why)
    numbers(arrays, "lambda_", (k, width), why, sign=">=")
    numbers(arrays, "column_scale_", (width,), f"D = {width} columns: {words}", sign=">")
    if manifest["feature_map"]["kind"] == "fourier":
        m = manifest["feature_map"]["n_components"]
        numbers(arrays, "fourier_weights", (n, m), f"n_features_in = {n} by n_components = {m}")
        numbers(arrays, "fourier_offset", (m,), f"n_components = {m}")
    check_rule(arrays["mu_"], arrays["lambda_"], manifest["fitted"]["upper_"])
    for name in ("feature_names_in_", "scaler_feature_names_in_"):
        if name in arrays:
            check_names(arrays, name, n)
    check_history(arrays, columns)
    for name in present:
        numbers(arrays, f"scaler_{name}", (n,), f"one per feature, {n}", {"mean_": None, "scale_": ">"}.get(name, ">="))
