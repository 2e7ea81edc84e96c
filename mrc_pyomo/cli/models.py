"""Models saved by ``mrc-pyomo fit --save`` (:func:`save_model`) and read by ``mrc-pyomo predict``
(:func:`load_model`).

A model is a pickle of a fitted :class:`~mrc_pyomo.MRCClassifier` (or of a ``Pipeline`` ending in one).  Version
0.1.0 of the library kept its modules at the top of the package (``mrc_pyomo.classifier``,
``mrc_pyomo.primal_oracle``, ...); they have moved into its subpackages (``mrc_pyomo.estimator.classifier``, ...).
:func:`load_model` reads the models of both layouts (:class:`ModelUnpickler` maps the old module names to the new,
as pandas' ``read_pickle`` does for its own moves); ``pickle.load`` reads those of this layout only.
"""

import os
import pickle
import tempfile
from pathlib import Path

from .data import CommandError

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
    "mrc_pyomo.continuation": "mrc_pyomo.methods.continuation",
    "mrc_pyomo.result": "mrc_pyomo.methods.result",
    "mrc_pyomo.classifier": "mrc_pyomo.estimator.classifier",
    "mrc_pyomo.rule": "mrc_pyomo.estimator.rule",
    "mrc_pyomo.parameters": "mrc_pyomo.estimator.parameters",
    "mrc_pyomo.path": "mrc_pyomo.estimator.path",
    "mrc_pyomo.formulation": "mrc_pyomo.formulations.paper",
}
#: classes that left their module for a module of their own
MOVED_CLASSES = {("mrc_pyomo.path", "MRCClassifierCV"): "mrc_pyomo.estimator.cv"}


class ModelUnpickler(pickle.Unpickler):
    """An unpickler that finds the classes of version 0.1.0's modules where they are now (:data:`MOVED_MODULES`)."""

    def find_class(self, module, name):
        module = MOVED_CLASSES.get((module, name), MOVED_MODULES.get(module, module))
        return super().find_class(module, name)


def save_model(model, path):
    """Write ``model`` to ``path`` (a pickle) as one step: into a temporary file beside it, then renamed over it, so
    that an interrupted save leaves the file that was there (or none), never half a model."""
    path = Path(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as f:
            pickle.dump(model, f)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise
    return path


def load_model(path):
    """The model saved by 'fit --save': a fitted MRCClassifier, or a Pipeline ending in one (--standardize);
    :class:`~mrc_pyomo.cli.data.CommandError` naming the cause otherwise."""
    from sklearn.exceptions import NotFittedError
    from sklearn.pipeline import Pipeline
    from sklearn.utils.validation import check_is_fitted

    from ..estimator.classifier import MRCClassifier

    path = Path(path)
    if not path.exists():
        raise CommandError(f"no such file: {path}")
    with open(path, "rb") as f:
        try:
            model = ModelUnpickler(f).load()
        except Exception as exc:
            raise CommandError(f"{path} is not a model saved by 'mrc-pyomo fit --save': {exc}") from exc
    last = model.steps[-1][1] if isinstance(model, Pipeline) and model.steps else model
    if not isinstance(last, MRCClassifier):
        what = f"a Pipeline ending in a {type(last).__name__}" if last is not model else f"a {type(model).__name__}"
        raise CommandError(f"{path} holds {what}, not an MRCClassifier or a Pipeline ending in one")
    try:
        check_is_fitted(last)
    except NotFittedError as exc:
        raise CommandError(f"{path} holds an MRCClassifier that is not fitted") from exc
    return model
