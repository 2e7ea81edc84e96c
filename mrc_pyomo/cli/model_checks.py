"""What a model file of :mod:`mrc_pyomo.cli.model_format` holds, and the checks of a file against itself before a
model is made of it.

A model file comes from anyone: its manifest may lie about its arrays and its arrays about each other.  A file whose
``mu_`` has a column too few fails inside NumPy's product at the first ``predict``; one whose ``mu_`` is NaN
predicts the first class for every sample; one with a class fewer than rows of ``mu_`` never predicts the last.  So
:func:`check_model` checks every entry of the manifest (its keys and types, the classifier's parameters) and every
array (its type, its shape ``(K, D)`` of ``K = len(classes_)`` classes and the ``D`` columns of the feature map,
finite values, the signs that a fit guarantees) against the others, after
:func:`~mrc_pyomo.cli.model_format.read_archive` read them as data.  Each failure is a :class:`ModelFormatError`
whose message is one line naming the cause.
"""

import math
from numbers import Integral, Real

import numpy as np

from .. import __version__
from ..estimator.classifier import MRCClassifier
from ..estimator.parameters import validate_parameters
from ..methods.result import Status
from ..oracles.certificate import gap_tolerance

#: the first entry of every model file, and its version
FORMAT = "mrc_pyomo model"
VERSION = 1
#: the classifier's parameters a file keeps (the others, such as ``callback`` and ``phi`` objects, are not data)
PARAMETERS = ("lambda0", "fit_intercept", "method", "solver", "eps_1", "eps_2", "n_max", "m_max", "max_iter",
              "regime", "time_limit", "random_state", "continuation", "formulation")
SCALARS = ("nu_", "upper_", "lower_", "objective_", "n_iter_", "n_features_in_", "regime_")
ARRAYS = ("mu_", "tau_", "lambda_", "column_scale_")
SCALER = ("mean_", "scale_", "var_")
#: the manifest's entries; ``scaler`` only for a pipeline, ``library_version`` only in files written since 0.2.0
MANIFEST = {"format", "version", "parameters", "fitted", "status_", "classes_as_objects", "feature_map",
            "history_columns"}
OPTIONAL = {"scaler", "library_version"}
FEATURE_MAPS = {"linear": {"kind", "fit_intercept", "n_features_in"},
                "fourier": {"kind", "fit_intercept", "n_features_in", "n_components", "gamma", "include_original"}}
SCALER_KEYS = {"with_mean", "with_std", "n_samples_seen", "present"}
REGIMES = ("n", "nm", "full")
STATUSES = tuple(s.value for s in Status if s is not Status.NOT_REACHED)
#: what an array of each NumPy dtype kind holds, for the messages
KINDS = {"b": "booleans", "i": "integers", "u": "integers", "f": "floats", "c": "complex numbers", "U": "strings",
         "S": "bytes", "V": "raw records", "M": "dates", "m": "time spans", "O": "Python objects"}
#: the JSON types of the manifest's entries, as the messages name them
TYPES = {bool: "a boolean", Integral: "an integer", Real: "a number", str: "a string", list: "a list",
         dict: "an object"}


class ModelFormatError(ValueError):
    """A model that this format cannot hold, or a file that is not a valid model of this format; its message is
    one line (a cause quoted from the file cannot break it)."""

    def __init__(self, message):
        super().__init__(" ".join(str(message).splitlines()))


# -- the manifest's entries -------------------------------------------------------------------------------------

def shown(value, width=60):
    """``repr(value)``, cut to ``width`` characters, for a message."""
    text = repr(value.item() if isinstance(value, np.generic) else value)
    return text if len(text) <= width else text[:width - 3] + "..."


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
    """``mapping[key]`` of type ``kind`` (a key of :data:`TYPES`; ``Integral`` and ``Real`` exclude booleans),
    for which ``check(value)`` holds (``need`` says what it must be); :class:`ModelFormatError` naming the entry
    ``where + key`` otherwise."""
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


def check_parameters(parameters, fit_intercept):
    """The classifier of the parameters: names of :data:`PARAMETERS` (one missing takes its default), values the
    classifier accepts, and ``fit_intercept`` the feature map's."""
    clf = MRCClassifier(**known_keys(parameters, PARAMETERS, "parameters"))
    try:
        validate_parameters(clf)
    except (ValueError, TypeError) as error:
        raise ModelFormatError(f"the manifest's parameters: {error}") from None
    if clf.fit_intercept is not fit_intercept:
        raise ModelFormatError("the manifest's parameters.fit_intercept disagrees with feature_map.fit_intercept")
    return clf


def check_feature_map(spec):
    """``(n_features_in, D, words)`` of the feature map's manifest: its input width, its output width ``D`` (the
    columns of ``mu_``) and how ``D`` is made, for the messages."""
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
    """The fitted numbers: finite (``objective_`` may be NaN, where no master was solved), a certified interval
    ``[lower_, upper_]`` not empty and, for the status ``"converged"``, no wider than ``eps_1`` (the fit's promise),
    counts that are counts, a known regime, the input width the feature map's."""
    known_keys(fitted, SCALARS, "fitted")
    for name in ("nu_", "upper_", "lower_"):
        entry(fitted, name, Real, "fitted.", finite, "a finite number")
    entry(fitted, "objective_", Real, "fitted.", lambda v: finite(v) or v != v, "a finite number or NaN")
    lower, upper = fitted["lower_"], fitted["upper_"]
    if not lower <= upper:
        raise ModelFormatError(f"the manifest's certified interval is empty: lower_ = {shown(lower)} > upper_ = "
                               f"{shown(upper)}")
    if status == Status.CONVERGED and upper - lower > gap_tolerance(eps_1):
        raise ModelFormatError(f"the manifest's status_ is 'converged', but its certified gap upper_ - lower_ = "
                               f"{upper - lower:.3g} is above eps_1 = {eps_1:g}")
    entry(fitted, "n_iter_", Integral, "fitted.", lambda v: v >= 0, "a non-negative integer")
    entry(fitted, "n_features_in_", Integral, "fitted.", lambda v: v == n_features_in,
          f"the feature map's n_features_in ({n_features_in})")
    entry(fitted, "regime_", str, "fitted.", lambda v: v in REGIMES, f"one of {list(REGIMES)}")


def check_scaler(spec):
    """The names of the ``StandardScaler``'s arrays, of its manifest: those its ``transform`` needs among them."""
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


# -- the arrays -------------------------------------------------------------------------------------------------

def shaped(arrays, name, shape, why, kinds):
    """``arrays[name]``, if its dtype's kind is one of ``kinds`` and its shape is ``shape`` (``why`` says where the
    shape comes from); :class:`ModelFormatError` naming what is wrong otherwise."""
    if name not in arrays:
        raise ModelFormatError(f"the array {name} is missing")
    values = arrays[name]
    if values.dtype.kind not in kinds:
        wanted = " or ".join(dict.fromkeys(KINDS[k] for k in kinds))
        raise ModelFormatError(f"the array {name} holds {KINDS.get(values.dtype.kind, values.dtype)}, not {wanted}")
    if values.shape != shape:
        raise ModelFormatError(f"the array {name} has shape {values.shape}, not {shape} ({why})")
    return values


def _entry_of(name, values, index):
    """``name[i, j] = value``: the entry ``index`` of the array ``values``, for a message."""
    return f"{name}[{', '.join(map(str, index))}] = {values[tuple(index)]}"


def not_finite(name, values):
    """:class:`ModelFormatError` naming the first entry of the float array ``values`` that is not finite, if any."""
    bad = np.argwhere(~np.isfinite(values))
    if len(bad):
        raise ModelFormatError(f"the array {name} is not finite: {_entry_of(name, values, bad[0])}")


def numbers(arrays, name, shape, why, sign=None):
    """``arrays[name]`` as float64 (written back), if it holds real numbers of shape ``shape``, all finite and, with
    ``sign``, positive (``">"``) or non-negative (``">="``)."""
    values = arrays[name] = shaped(arrays, name, shape, why, "iuf").astype(np.float64)
    not_finite(name, values)
    bad = np.argwhere(values <= 0 if sign == ">" else values < 0) if sign else ()
    if len(bad):
        raise ModelFormatError(f"the array {name} must be {'positive' if sign == '>' else 'non-negative'}: "
                               f"{_entry_of(name, values, bad[0])}")
    return values


def check_classes(arrays, as_objects):
    """``K``, the number of labels of ``classes_``: at least two, numbers or strings (strings if the file says the
    labels were), finite, sorted and distinct, as a fit's ``np.unique`` gives them (``predict`` maps the row ``k``
    of ``mu_`` to ``classes_[k]``)."""
    classes = arrays.get("classes_")
    if classes is None or classes.ndim != 1 or len(classes) < 2:
        what = "missing" if classes is None else f"of shape {classes.shape}"
        raise ModelFormatError(f"the array classes_ is {what}, not a list of at least two labels")
    shaped(arrays, "classes_", classes.shape, "", "U" if as_objects else "biufU")
    if classes.dtype.kind == "f":
        not_finite("classes_", classes)
    unsorted = np.flatnonzero(~(classes[1:] > classes[:-1]))
    if len(unsorted):
        k = unsorted[0]
        raise ModelFormatError(f"the array classes_ is not sorted and distinct, as a fit gives it: classes_[{k}] = "
                               f"{shown(classes[k])} is followed by {shown(classes[k + 1])}")
    return len(classes)


def check_history(arrays, columns):
    """``history_``: one array ``history_{k}`` of numbers or strings per named column, all of one length."""
    lengths = set()
    for k, column in enumerate(columns):
        name, why = f"history_{k}", f"history column {shown(column)}: one value per iteration"
        if name in arrays and arrays[name].ndim != 1:
            raise ModelFormatError(f"the array {name} has shape {arrays[name].shape}, not 1-d ({why})")
        lengths.add(len(shaped(arrays, name, arrays.get(name, np.empty(0)).shape, why, "biufU")))
    if len(lengths) > 1:
        raise ModelFormatError(f"the history's columns have different lengths {sorted(lengths)}")


def expected_arrays(manifest, columns):
    """The names of the arrays the manifest calls for (some optional), to refuse any other."""
    names = {"classes_", "feature_names_in_", *ARRAYS, *(f"history_{k}" for k in range(len(columns)))}
    if manifest["feature_map"]["kind"] == "fourier":
        names |= {"fourier_weights", "fourier_offset"}
    if "scaler" in manifest:
        names |= {"scaler_feature_names_in_", *(f"scaler_{name}" for name in manifest["scaler"]["present"])}
    return names


def check_model(manifest, arrays):
    """Check the manifest and ``arrays`` (:func:`~mrc_pyomo.cli.model_format.read_archive`) against each other, in
    place: the arrays of the rule, the feature map and the scaler become float64.  :class:`ModelFormatError` names
    the first entry or array that is wrong; for a file written by another version of the library, it says which."""
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
    if "library_version" in manifest:
        entry(manifest, "library_version", str, "")
    n, width, words = check_feature_map(entry(manifest, "feature_map", dict, ""))
    clf = check_parameters(entry(manifest, "parameters", dict, ""), manifest["feature_map"]["fit_intercept"])
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
    for name in ("feature_names_in_", "scaler_feature_names_in_"):
        if name in arrays:
            shaped(arrays, name, (n,), f"one name per feature, {n}", "U")
    check_history(arrays, columns)
    for name in present:
        numbers(arrays, f"scaler_{name}", (n,), f"one per feature, {n}", {"mean_": None, "scale_": ">"}.get(name, ">="))
