"""A model file that is data, not a program: the fitted state of a model as arrays and a JSON manifest in a NumPy
``.npz`` archive, read with ``allow_pickle=False``, so that loading a file runs no code of the file's author.

A pickle runs whatever its author put in it when it is loaded.  This format holds only what ``predict`` needs and
what describes the fit: the classifier's parameters and fitted attributes (``classes_``, ``mu_``, ``tau_``,
``lambda_``, ``nu_``, the certified interval, ``status_``, ``history_``, ...), its feature map (the linear map,
or the random Fourier features' draws ``W`` and ``b``), and an optional ``StandardScaler`` before it
(``mrc-pyomo fit --standardize``).  It does not hold ``master_`` (a Pyomo model): a model read back has
``master_ = None``.  Anything else (a feature map of the user's own, another pipeline step, labels that are not
numbers or strings) is refused by :func:`write_model` with the reason.
"""

import json

import numpy as np
import pandas as pd
from sklearn.kernel_approximation import RBFSampler
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from ..estimator.classifier import MRCClassifier
from ..estimator.fitted import set_fitted
from ..feature_maps import FeatureMap, LinearFeatures, RandomFourierFeatures
from ..methods.result import Status

#: the first entry of every model file, and its version
FORMAT = "mrc_pyomo model"
VERSION = 1
#: the classifier's parameters a file keeps (the others, such as ``callback`` and ``phi`` objects, are not data)
PARAMETERS = ("lambda0", "fit_intercept", "method", "solver", "eps_1", "eps_2", "n_max", "m_max", "max_iter",
              "regime", "time_limit", "random_state", "continuation", "formulation")
SCALARS = ("nu_", "upper_", "lower_", "objective_", "n_iter_", "n_features_in_", "regime_")
ARRAYS = ("mu_", "tau_", "lambda_", "column_scale_")
SCALER = ("mean_", "scale_", "var_")


class ModelFormatError(ValueError):
    """A model that this format cannot hold, or a file that is not a model of this format."""


def _labels(values, name):
    """``values`` (labels, feature names) as an array ``np.load`` reads without pickle, and how to restore it."""
    values = np.asarray(values)
    if values.dtype != object:
        if values.dtype.kind not in "biufU":
            raise ModelFormatError(f"{name} of type {values.dtype} cannot be saved as data")
        return values, False
    if all(isinstance(v, str) for v in values):
        return values.astype(str), True
    raise ModelFormatError(f"{name} mixes types ({sorted({type(v).__name__ for v in values})}): only numbers or "
                           "strings can be saved as data")


def _feature_map(feature_map, arrays):
    """The manifest of a fitted :class:`~mrc_pyomo.feature_maps.FeatureMap` (its draws into ``arrays``)."""
    base = feature_map.base_
    if type(base) is LinearFeatures:
        return {"kind": "linear", "fit_intercept": feature_map.fit_intercept, "n_features_in": base.n_features_in_}
    if type(base) is RandomFourierFeatures:
        arrays["fourier_weights"] = base.sampler_.random_weights_
        arrays["fourier_offset"] = base.sampler_.random_offset_
        return {"kind": "fourier", "fit_intercept": feature_map.fit_intercept, "n_features_in": base.n_features_in_,
                "n_components": base.n_components, "gamma": base.gamma_, "include_original": base.include_original}
    raise ModelFormatError(f"a feature map of type {type(base).__name__} cannot be saved as data (only the linear "
                           "map and RandomFourierFeatures can)")


def write_model(model, file):
    """Write a fitted :class:`~mrc_pyomo.MRCClassifier`, or a ``Pipeline`` of a ``StandardScaler`` and one, to the
    binary ``file`` (a path or an open file); :class:`ModelFormatError` for anything else."""
    steps = model.steps if isinstance(model, Pipeline) else [(None, model)]
    *before, (_, clf) = steps
    if not isinstance(clf, MRCClassifier) or len(before) > 1 or any(type(s) is not StandardScaler for _, s in before):
        raise ModelFormatError("only an MRCClassifier, or a Pipeline of a StandardScaler and one, can be saved")
    arrays = {name: np.asarray(getattr(clf, name), dtype=float) for name in ARRAYS}
    arrays["classes_"], classes_as_objects = _labels(clf.classes_, "the labels")
    parameters = {p: getattr(clf, p) for p in PARAMETERS}
    if not isinstance(parameters["random_state"], (int, np.integer, type(None))):
        parameters["random_state"] = None   # a RandomState object is not data; the draws are kept below
    manifest = {"format": FORMAT, "version": VERSION, "parameters": parameters,
                "fitted": {name: getattr(clf, name) for name in SCALARS}, "status_": str(clf.status_),
                "classes_as_objects": classes_as_objects, "feature_map": _feature_map(clf.feature_map_, arrays)}
    if not isinstance(manifest["parameters"]["formulation"], str):
        manifest["parameters"]["formulation"] = manifest["parameters"]["formulation"].name
    if hasattr(clf, "feature_names_in_"):
        arrays["feature_names_in_"], _ = _labels(clf.feature_names_in_, "the feature names")
    history = clf.history_
    manifest["history_columns"] = list(history.columns)
    for k, column in enumerate(history.columns):
        values = history[column].to_numpy()
        arrays[f"history_{k}"] = values.astype(str) if values.dtype == object else values
    if before:
        scaler = before[0][1]
        manifest["scaler"] = {"with_mean": scaler.with_mean, "with_std": scaler.with_std,
                              "n_samples_seen": int(np.max(scaler.n_samples_seen_)),
                              "present": [name for name in SCALER if getattr(scaler, name) is not None]}
        arrays.update({f"scaler_{name}": getattr(scaler, name) for name in manifest["scaler"]["present"]})
        if hasattr(scaler, "feature_names_in_"):
            arrays["scaler_feature_names_in_"], _ = _labels(scaler.feature_names_in_, "the feature names")
    text = json.dumps(manifest, default=lambda value: value.item() if hasattr(value, "item") else str(value))
    np.savez(file, manifest=np.frombuffer(text.encode(), dtype=np.uint8), **arrays)


def read_model(file):
    """The model of a file written by :func:`write_model`, read without running any code of the file (NumPy's
    ``allow_pickle=False``); :class:`ModelFormatError` if it is not one."""
    try:
        with np.load(file, allow_pickle=False) as data:
            arrays = {name: data[name] for name in data.files}
        manifest = json.loads(arrays.pop("manifest").tobytes().decode())
    except (ValueError, KeyError, OSError, UnicodeDecodeError) as error:
        raise ModelFormatError(f"not a model file of this format ({error})") from None
    if manifest.get("format") != FORMAT or manifest.get("version") != VERSION:
        raise ModelFormatError(f"not a model file of this format (version {manifest.get('version')!r})")
    clf = MRCClassifier(**manifest["parameters"])
    spec = manifest["feature_map"]
    if spec["kind"] == "linear":
        base = LinearFeatures()
    else:
        base = RandomFourierFeatures(n_components=spec["n_components"], include_original=spec["include_original"])
        sampler = RBFSampler(gamma=spec["gamma"], n_components=spec["n_components"])
        set_fitted(sampler, {"random_weights_": arrays.pop("fourier_weights"), "n_features_in_": spec["n_features_in"],
                             "random_offset_": arrays.pop("fourier_offset")})
        set_fitted(base, {"gamma_": spec["gamma"], "sampler_": sampler})
        clf.set_params(phi=RandomFourierFeatures(n_components=spec["n_components"], gamma=spec["gamma"],
                                                 include_original=spec["include_original"]))
    set_fitted(base, {"n_features_in_": spec["n_features_in"]})
    feature_map = set_fitted(FeatureMap(base=base, fit_intercept=spec["fit_intercept"]), {"base_": base})
    classes = arrays.pop("classes_")
    history = pd.DataFrame({column: arrays.pop(f"history_{k}")
                            for k, column in enumerate(manifest["history_columns"])})
    fitted = {**manifest["fitted"], **{name: arrays.pop(name) for name in ARRAYS},
              "classes_": classes.astype(object) if manifest["classes_as_objects"] else classes,
              "status_": Status(manifest["status_"]), "feature_map_": feature_map, "history_": history,
              "master_": None}
    if "feature_names_in_" in arrays:
        fitted["feature_names_in_"] = arrays.pop("feature_names_in_").astype(object)
    set_fitted(clf, fitted)
    if "scaler" not in manifest:
        return clf
    spec = manifest["scaler"]
    scaler = StandardScaler(with_mean=spec["with_mean"], with_std=spec["with_std"])
    set_fitted(scaler, {"n_features_in_": clf.n_features_in_, "n_samples_seen_": spec["n_samples_seen"],
                        **{name: arrays[f"scaler_{name}"] if name in spec["present"] else None for name in SCALER}})
    if "scaler_feature_names_in_" in arrays:
        scaler.feature_names_in_ = arrays["scaler_feature_names_in_"].astype(object)
    return make_pipeline(scaler, clf)
