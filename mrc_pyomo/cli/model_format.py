"""A model file that is data, not a program: the fitted state of a model as arrays and a JSON manifest in a NumPy
``.npz`` archive (``model.npz``), read with ``allow_pickle=False``, so that loading a file runs no code of its author.

It holds what ``predict`` needs and what describes the fit: the classifier's parameters and fitted attributes
(``classes_``, ``mu_``, ``tau_``, ``lambda_``, ``nu_``, the certified interval, ``status_``, ``history_``, ...), its
feature map (linear, or the random Fourier features' draws ``W`` and ``b``) and an optional ``StandardScaler``
before it (``--standardize``); not ``master_`` (a Pyomo model), ``None`` when read back.  :func:`write_model`
refuses anything else (a feature map of the user's own, another pipeline step, labels neither numbers nor strings).

A file is read as data (:func:`read_archive`), then checked against itself (:mod:`mrc_pyomo.cli.model_checks`,
:mod:`mrc_pyomo.cli.model_arrays`): one that would predict wrongly, or fail inside NumPy, is refused with its cause
in one line.  The manifest names the library version that wrote it (``library_version``, since 0.2.0).
"""

import io
import json
import math
import struct
import zipfile
from collections import Counter

import numpy as np
import pandas as pd
from sklearn.kernel_approximation import RBFSampler
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler

from .. import __version__
from ..estimator.classifier import MRCClassifier
from ..estimator.fitted import set_fitted
from ..feature_maps import FeatureMap, LinearFeatures, RandomFourierFeatures
from ..methods.result import Status
from .model_arrays import ModelFormatError, shown
from .model_checks import (ARRAYS, FORMAT, SCALARS, SCALER, VERSION, check_model, class_weight_of,
                           json_type, kept_parameters)


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


def write_model(model, file, label_column=None):
    """Write a fitted :class:`~mrc_pyomo.MRCClassifier`, or a ``Pipeline`` of a ``StandardScaler`` and one, to the
    binary ``file`` (a path or an open file), :class:`ModelFormatError` for anything else; ``label_column``: the
    CSV column of its labels (``predict`` drops it)."""
    steps = model.steps if isinstance(model, Pipeline) else [(None, model)]
    *before, (_, clf) = steps
    if not isinstance(clf, MRCClassifier) or len(before) > 1 or any(type(s) is not StandardScaler for _, s in before):
        raise ModelFormatError("only an MRCClassifier, or a Pipeline of a StandardScaler and one, can be saved")
    if not hasattr(clf, "mu_"):
        raise ModelFormatError("the MRCClassifier is not fitted: fit it before saving it")
    arrays = {name: np.asarray(getattr(clf, name), dtype=float) for name in ARRAYS}
    arrays["classes_"], classes_as_objects = _labels(clf.classes_, "the labels")
    parameters = kept_parameters(clf)
    manifest = {"format": FORMAT, "version": VERSION, "library_version": __version__, "parameters": parameters,
                "fitted": {name: getattr(clf, name) for name in SCALARS}, "status_": str(clf.status_),
                "classes_as_objects": classes_as_objects, "feature_map": _feature_map(clf.feature_map_, arrays)}
    if hasattr(clf, "feature_names_in_"):
        arrays["feature_names_in_"], _ = _labels(clf.feature_names_in_, "the feature names")
    if label_column is not None:
        manifest["label_column"] = str(label_column)
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


def read_archive(file):
    """``(manifest, arrays)`` of the zip archive ``file`` (a path or an open binary file): the manifest as a dict,
    the other members as arrays by name, each header checked against its bytes; :class:`ModelFormatError` otherwise."""
    try:
        with zipfile.ZipFile(file) as archive:
            twice = sorted(name for name, count in Counter(archive.namelist()).items() if count > 1)
            if twice:
                raise ModelFormatError(f"the archive holds {shown(twice[0])} twice")
            arrays = {info.filename[:-4]: _member(archive, info) for info in archive.infolist()}
    except ModelFormatError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError, RuntimeError, struct.error,
            NotImplementedError, MemoryError) as error:
        raise ModelFormatError(f"not a readable zip archive of arrays ({type(error).__name__}: {error})") from None
    if "manifest" not in arrays:
        raise ModelFormatError("the archive has no manifest (not a model file of this format)")
    return _manifest(arrays.pop("manifest")), arrays


def _member(archive, info):
    """The array of the archive's member ``info``, an uncompressed ``.npy`` file (a compressed one may expand to any
    size) whose header's shape and type take exactly the bytes that follow: no header makes NumPy allocate more."""
    name = info.filename
    if not name.endswith(".npy"):
        raise ModelFormatError(f"the archive's member {shown(name)} is not an array (.npy)")
    if info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
        raise ModelFormatError(f"the archive's member {shown(name)} is compressed (write_model stores arrays as "
                               "they are, and a compressed member may expand to any size)")
    raw = io.BytesIO(archive.read(info))   # no more than the file holds: a stored member is read as it is
    try:
        version = np.lib.format.read_magic(raw)
        if version not in ((1, 0), (2, 0)):
            raise ValueError(f"format version {version} of .npy files is not read")
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else np.lib.format.read_array_header_2_0
        shape, _, dtype = read_header(raw)
        if dtype.hasobject:
            raise ValueError("it holds Python objects, which only a pickle holds (this format never reads one)")
        data = len(raw.getbuffer()) - raw.tell()
        if math.prod(shape) * dtype.itemsize != data:
            raise ValueError(f"its header declares shape {shape} of {dtype}, but it has {data} bytes of data")
        raw.seek(0)
        return np.lib.format.read_array(raw, allow_pickle=False)
    except (ValueError, TypeError, OverflowError) as error:
        raise ModelFormatError(f"the array {shown(name[:-4])} cannot be read: {error}") from None


def _manifest(values):
    """The manifest of its array of UTF-8 bytes: a JSON object naming this format and version."""
    if values.ndim != 1 or values.dtype != np.uint8:
        raise ModelFormatError(f"the manifest is an array of shape {values.shape} of {values.dtype}, not of bytes")
    try:
        manifest = json.loads(values.tobytes().decode())
    except (ValueError, RecursionError) as error:   # UnicodeDecodeError and JSONDecodeError are ValueErrors
        raise ModelFormatError(f"the manifest is not UTF-8 JSON ({type(error).__name__}: {error})") from None
    if not isinstance(manifest, dict):
        raise ModelFormatError(f"the manifest is {json_type(manifest)}, not a JSON object")
    if manifest.get("format") != FORMAT:
        raise ModelFormatError(f"not a model file of this format (format {shown(manifest.get('format'))})")
    if type(manifest.get("version")) is not int or manifest["version"] != VERSION:
        raise ModelFormatError(f"not a model file of this format (version {shown(manifest.get('version'))}, this "
                               f"library reads version {VERSION})")
    return manifest


def read_model(file):
    """The model of a file of :func:`write_model`, read without running its code and checked against itself
    (:func:`~mrc_pyomo.cli.model_checks.check_model`); :class:`ModelFormatError` naming the cause otherwise."""
    manifest, arrays = read_archive(file)
    check_model(manifest, arrays)
    classes = arrays.pop("classes_")
    classes = classes.astype(object) if manifest["classes_as_objects"] else classes
    parameters = manifest["parameters"]
    if isinstance(parameters.get("class_weight"), list):   # a dict's pairs
        parameters = {**parameters, "class_weight": class_weight_of(parameters["class_weight"])}
    clf = MRCClassifier(**parameters)
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
    history = pd.DataFrame({column: arrays.pop(f"history_{k}")
                            for k, column in enumerate(manifest["history_columns"])})
    fitted = {**manifest["fitted"], **{name: arrays.pop(name) for name in ARRAYS},
              "classes_": classes,
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
