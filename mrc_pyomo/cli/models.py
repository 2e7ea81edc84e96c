"""Models saved by ``mrc-pyomo fit --save`` (:func:`save_model`) and read by ``mrc-pyomo predict`` (:func:`load_model`).

A model file (``model.npz``) is data, not a program (:mod:`mrc_pyomo.cli.model_format`).  A pickle runs its
author's code when it is loaded, so :func:`load_model` reads one, as version 0.1.0 saved them, only when told to
trust it (``--trust-pickle``); :class:`ModelUnpickler` maps that version's module names (``mrc_pyomo.classifier``,
...) to their subpackages', as pandas' ``read_pickle`` does for its own moves.
"""

import os
import pickle
import tempfile
from pathlib import Path

from .data import CommandError
from .model_format import ModelFormatError, read_archive, read_model, write_model

#: how a model file of :mod:`mrc_pyomo.cli.model_format` begins (a zip archive)
ZIP_MAGIC = b"PK\x03\x04"

#: where the modules of version 0.1.0 went (docs/architecture.rst, "Where things moved")
MOVED_MODULES = {
    "mrc_pyomo.estimates": "mrc_pyomo.problem.estimates",
    "mrc_pyomo.scaling": "mrc_pyomo.problem.scaling",
    "mrc_pyomo.reduction": "mrc_pyomo.problem.reduction",
    "mrc_pyomo.initialization": "mrc_pyomo.problem.initialization",
    "mrc_pyomo.primal_oracle": "mrc_pyomo.oracles.primal",
    "mrc_pyomo.dual_oracle": "mrc_pyomo.oracles.dual",
    "mrc_pyomo.selection": "mrc_pyomo.oracles.selection",
    "mrc_pyomo.certificate": "mrc_pyomo.oracles.certificate",
    "mrc_pyomo.full_lp": "mrc_pyomo.methods.full_lp",
    "mrc_pyomo.subgradient": "mrc_pyomo.methods.subgradient",
    "mrc_pyomo.continuation": "mrc_pyomo.methods.pathwise",
    "mrc_pyomo.result": "mrc_pyomo.methods.result",
    "mrc_pyomo.classifier": "mrc_pyomo.estimator.classifier",
    "mrc_pyomo.rule": "mrc_pyomo.estimator.rule",
    "mrc_pyomo.parameters": "mrc_pyomo.estimator.parameters",
    "mrc_pyomo.path": "mrc_pyomo.estimator.path",
    "mrc_pyomo.formulation": "mrc_pyomo.formulations.paper",
    "mrc_pyomo.master.highs": "mrc_pyomo.master.highs_backend",
}
#: classes that left their module for a module of their own
MOVED_CLASSES = {("mrc_pyomo.path", "MRCClassifierCV"): "mrc_pyomo.estimator.cv"}


class ModelUnpickler(pickle.Unpickler):
    """An unpickler that finds the classes of version 0.1.0's modules where they are now (:data:`MOVED_MODULES`)."""

    def find_class(self, module, name):
        module = MOVED_CLASSES.get((module, name), MOVED_MODULES.get(module, module))
        return super().find_class(module, name)


def save_model(model, path, label_column=None):
    """Write ``model`` to ``path`` (:func:`~mrc_pyomo.cli.model_format.write_model`) through a temporary file renamed
    over it: an interrupted save leaves the file that was there, never half a model.  :class:`CommandError` for a
    model the format cannot hold."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as f:
            write_model(model, f, label_column)
        os.replace(temporary, path)
    except BaseException as error:
        os.unlink(temporary)
        if isinstance(error, ModelFormatError):
            raise CommandError(f"--save: {error}") from None
        raise
    return path


def load_model(path, trust_pickle=False):
    """The model saved by 'fit --save': a fitted MRCClassifier, or a Pipeline ending in one (--standardize);
    :class:`~mrc_pyomo.cli.data.CommandError` naming the cause in one line otherwise.  A pickle (version 0.1.0's) is
    read only with ``trust_pickle=True``: loading it runs its author's code."""
    from sklearn.exceptions import NotFittedError
    from sklearn.pipeline import Pipeline
    from sklearn.utils.validation import check_is_fitted

    from ..estimator.classifier import MRCClassifier

    path = Path(path)
    if not path.exists():
        raise CommandError(f"no such file: {path}")
    with open(path, "rb") as f:
        is_data = f.read(len(ZIP_MAGIC)) == ZIP_MAGIC
        f.seek(0)
        if not is_data and not trust_pickle:
            raise CommandError(f"{path} is not a model file of this version (data), maybe a pickle, which runs its "
                               "author's code when it is loaded: if you made it yourself (models saved by mrc_pyomo "
                               "0.1.0 are pickles), read it with --trust-pickle")
        try:
            model = read_model(f) if is_data else ModelUnpickler(f).load()
        except ModelFormatError as exc:
            raise CommandError(f"{path} is not a valid model file: {exc}") from None
        except Exception as exc:
            cause = " ".join(str(exc).splitlines())
            raise CommandError(f"{path} is not a model saved by 'mrc-pyomo fit --save': {cause}") from exc
    last = model.steps[-1][1] if isinstance(model, Pipeline) and model.steps else model
    if not isinstance(last, MRCClassifier):
        what = f"a Pipeline ending in a {type(last).__name__}" if last is not model else f"a {type(model).__name__}"
        raise CommandError(f"{path} holds {what}, not an MRCClassifier or a Pipeline ending in one")
    try:
        check_is_fitted(last)
    except NotFittedError as exc:
        raise CommandError(f"{path} holds an MRCClassifier that is not fitted") from exc
    return model


def saved_label_column(path):
    """The CSV column the labels of the model file ``path`` were read from (its manifest's ``label_column``), or
    None (svmlight data, a labels file, a file written before 0.2.0, a pickle)."""
    try:
        manifest, _ = read_archive(path)
    except (ModelFormatError, OSError):
        return None
    column = manifest.get("label_column")
    return column if isinstance(column, str) else None


def check_argument_order(model_path, data_path):
    """:class:`CommandError` saying the order ``MODEL DATA`` where the two seem swapped: the model is text and the
    data a model file (a zip archive), or the model's first line reads as a CSV header."""
    def start(path):
        try:
            with open(path, "rb") as f:
                return f.read(4096)
        except OSError:
            return None
    model, data = start(model_path), start(data_path)
    if model is None or model.startswith(ZIP_MAGIC):
        return
    try:
        first = model.decode("utf-8").splitlines()[0] if model.strip() else ""
    except UnicodeDecodeError:
        return
    if (data is not None and data.startswith(ZIP_MAGIC)) or "," in first or "\t" in first:
        raise CommandError(f"{model_path} is a data file, not a model (its first line: {first[:60]!r}): the order "
                           f"is 'mrc-pyomo predict MODEL DATA', the model saved by 'fit --save' first")

