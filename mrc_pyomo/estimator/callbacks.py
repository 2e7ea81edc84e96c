"""scikit-learn's callbacks (:mod:`sklearn.callback`, since scikit-learn 1.9) on the estimators: ``set_callbacks``
(:class:`FitCallbacks`), and the tasks of a fit the callbacks see, so that ``ProgressBar`` shows a fit as it shows
``LogisticRegression``'s and ``ScoringMonitor`` scores its iterations.  Where the installed scikit-learn has no
``sklearn.callback`` (1.7 to 1.8) the estimators have no ``set_callbacks`` and nothing here runs.

The tasks of a fit of :class:`~mrc_pyomo.MRCClassifier` (:class:`FitTasks`): the fit, then its parts, each
first-order phase and each stage at a ``lambda0`` (one, or those of ``continuation``), then each part's iterations
(MRC-CCG's masters), a leaf that begins and ends when the fit reports it (the methods report an iteration once it
ended, :mod:`mrc_pyomo.methods.result`); a true value of an iteration's ``on_fit_task_end`` stops the fit there, as
``callback=`` does.  Of :class:`~mrc_pyomo.MRCClassifierCV`: the fit, then each fold (:func:`fold_tasks`, its path's
stages as leaves, reported when its path ends, where it ran) and the refit (:func:`refit_task`), into which
``GridSearchCV`` and ``Pipeline`` pass their callbacks down as they do into their own estimators.  ``callback=``,
``verbose`` and stepped fits (:meth:`MRCClassifier.steps <mrc_pyomo.MRCClassifier.steps>`, which the callbacks do not
see) are unchanged.
"""

import math
from contextlib import contextmanager

from ..display.progress import phase_method

try:
    from sklearn.callback import CallbackSupportMixin
except ImportError:   # scikit-learn before 1.9: no callbacks to support
    CallbackSupportMixin = object


def callback_metadata(sample_weight):
    """The fit's ``metadata`` for the callbacks' hooks, as scikit-learn's estimators give it."""
    return None if sample_weight is None else {"sample_weight": sample_weight}


class FitCallbacks(CallbackSupportMixin):
    """``set_callbacks(*callbacks)`` (scikit-learn's :class:`~sklearn.callback.CallbackSupportMixin`, where the
    installed scikit-learn has it) and the root task of a fit."""

    def _callback_root(self, X, y, sample_weight, max_subtasks=None):
        """The root task of this fit for scikit-learn's callbacks, begun (``max_subtasks`` parts at most; None: not
        known); None where no callback is set, its own or passed down by a meta-estimator."""
        if not getattr(self, "_skl_callbacks", None):
            return None
        context = self._init_callback_context(max_subtasks=max_subtasks)
        return context.call_on_fit_task_begin(estimator=self, X=X, y=y, metadata=callback_metadata(sample_weight))


def end_root(root, estimator, X, y, sample_weight):
    """End the fit's ``root`` task (None: none), the fitted ``estimator`` its ``fitted_estimator``."""
    if root is not None:
        root.call_on_fit_task_end(estimator=estimator, X=X, y=y, metadata=callback_metadata(sample_weight),
                                  reconstruction_attributes={})


class FitTasks:
    """The parts and iterations of a fit of ``estimator`` by ``method`` after the first-order ``phases`` (methods)
    under its ``root`` task (module docstring): called with each item the fit reports, it returns whether a callback
    asks the fit to stop there.  ``rebuild(item)``: the fitted attributes of the rule the fit would return if it
    stopped at ``item`` (None: none), evaluated only for a callback that asks for ``fitted_estimator``."""

    def __init__(self, root, estimator, method, phases, X, y, sample_weight, rebuild):
        self.root, self.method, self.phases, self.rebuild = root, method, phases, rebuild
        self.hook = {"estimator": estimator, "X": X, "y": y, "metadata": callback_metadata(sample_weight)}
        self.part, self.key = None, None

    def part_of(self, record):
        """``(key, name)`` of the part of the fit ``record`` belongs to: a first-order phase, or a stage."""
        if record.get("phase") == "first-order":
            title = phase_method(record, self.phases, self.method).title
            return ("phase", title), f"{title} phase"
        lambda0 = record.get("lambda0")
        return ("stage", lambda0), f"{self.method.title} at lambda0 = {lambda0:g}"

    def __call__(self, item):
        record = getattr(item, "record", item)
        key, name = self.part_of(record)
        if key != self.key:
            self.close()
            self.part = self.root.subcontext(task_name=name, max_subtasks=None)
            self.part.call_on_fit_task_begin(**self.hook)
            self.key = key
        leaf = self.part.subcontext(task_name=f"iteration {record.get('iteration', '')}".strip())
        leaf.call_on_fit_task_begin(**self.hook)
        return leaf.call_on_fit_task_end(**self.hook, reconstruction_attributes=lambda: self.rebuild(item))

    def close(self):
        """End the part the last iteration belonged to."""
        if self.part is not None:
            self.part.call_on_fit_task_end(**self.hook)
            self.part, self.key = None, None


def watched(steps, tasks):
    """The fit's generator ``steps`` passed on, each item shown first to ``tasks`` (a :class:`FitTasks`; None: none),
    whose true value stops the fit there as the caller's stop does; the last part ended with the fit."""
    if tasks is None:
        return (yield from steps)
    try:
        item = next(steps)
        while True:
            stop = tasks(item)
            stop = (yield item) or stop
            item = steps.send(bool(stop))
    except StopIteration as end:
        tasks.close()
        return end.value


def fold_tasks(root, estimator, k, lambda0s, scores, hook):
    """Report fold ``k`` of a cross-validation (``estimator``, its ``root`` task; None: nothing) once its path
    ended: the fold, with a leaf per ``lambda0`` its path reached (a score that is not NaN); ``hook``: the hooks'
    ``X``, ``y`` and ``metadata``."""
    if root is None:
        return
    fold = root.subcontext(task_name=f"fold {k}", max_subtasks=len(lambda0s))
    fold.call_on_fit_task_begin(estimator=estimator, **hook)
    for lambda0, score in zip(lambda0s, scores):
        if not math.isnan(score):   # the stage was reached
            stage = fold.subcontext(task_name=f"lambda0 = {lambda0:g}")
            stage.call_on_fit_task_begin(estimator=estimator, **hook)
            stage.call_on_fit_task_end(estimator=estimator, **hook)
    fold.call_on_fit_task_end(estimator=estimator, **hook)


@contextmanager
def refit_task(root, estimator, refitted, hook):
    """The refit of ``refitted`` by the cross-validation ``estimator`` as a task under ``root`` (None: nothing), into
    which ``estimator``'s propagated callbacks pass, as ``GridSearchCV``'s refit; ``hook``: its ``X``, ``y`` and
    ``metadata``."""
    if root is None:
        yield refitted
        return
    task = root.subcontext(task_name="refit")
    with task.propagate_callback_context(refitted):
        task.call_on_fit_task_begin(estimator=estimator, **hook)
        yield refitted
    task.call_on_fit_task_end(estimator=estimator, **hook)
