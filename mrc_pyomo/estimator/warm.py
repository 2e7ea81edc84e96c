"""The warm start of :class:`~mrc_pyomo.MRCClassifier` (``warm_start=True``): a fit of an estimator fitted before starts
from that fit, as scikit-learn's ``warm_start`` does and as each stage of a path starts from the one before
(:mod:`mrc_pyomo.methods.pathwise`).

What carries over (:func:`warm_start_of`): the previous ``mu_``, in the new problem's columns, a candidate for the new
``mu_`` (so the rule returned is at least as good as the previous one at the new ``lambda0``); and, for a method that
warm-starts (MRC-CCG), the previous master's rows and features added to the paper's initial master of the new data
(:func:`seeded_master`).  The feature map, ``tau``, ``lambda`` and the certificate are the new fit's own, so a warm fit
is certified as any fit is, whatever changed.  Every row of ``P`` is a valid row of the master of any data with as many
samples, so the rows are a start, never a risk, and at a nearby ``lambda0`` on the same data most of the rows the fit
needs (measured: docs/benchmarks.md, "The library's choices", "Warm starts").
"""

import numpy as np

from ..methods.ccg import initial_master
from ..methods.result import Start

#: the regimes whose masters a warm start reuses (a full LP's master holds every row: only its rule carries over)
SEEDED_REGIMES = ("n", "nm")


def problem_columns(problem, mu):
    """The rule ``mu`` of the user's units (as ``mu_``) in the columns of ``problem`` (its scale, centring and fixed
    features): the inverse of :meth:`~mrc_pyomo.problem.MRCProblem.rule`."""
    mu = np.array(mu, dtype=float)
    if problem.centre is not None:
        mu[:, 0] += mu[:, 1:] @ problem.centre
    if problem.scale is not None:
        mu = mu / problem.scale
    if problem.reduction is not None:
        mu[problem.reduction.fixed] = 0.0
    return mu


def seeded_master(problem, config, previous):
    """MRC-CCG's first master of ``problem`` (:func:`~mrc_pyomo.methods.ccg.initial_master` with ``config``) with the
    rows ``(i, C)`` of the master ``previous`` whose samples are samples of both problems (not its centroids) and its
    features (but those the reduction leaves out)."""
    samples, subsets = np.asarray(previous.samples), np.asarray(previous.subsets)
    kept = samples < min(previous.n_samples, problem.n_samples)
    return initial_master(problem, config, rows=[(samples[kept], subsets[kept])], features=previous.features)


def check_warm_start(estimator, problem):
    """A ``ValueError`` if the previous fit of ``estimator`` is not a start for ``problem``: other classes, or a
    rule of another shape (a feature map of another width), as scikit-learn's warm starts refuse."""
    name = type(estimator).__name__
    if not np.array_equal(estimator.classes_, problem.classes):
        raise ValueError(f"{name} with warm_start=True starts from its previous fit, whose classes "
                         f"{estimator.classes_.tolist()!r} are not those of y {problem.classes.tolist()!r}: fit with "
                         f"warm_start=False for a fit from scratch")
    if estimator.mu_.shape != problem.tau.shape:
        raise ValueError(f"{name} with warm_start=True starts from its previous fit, whose mu_ has the shape "
                         f"{estimator.mu_.shape} where this fit's feature map gives {problem.tau.shape} (another "
                         f"phi, fit_intercept or width of X): fit with warm_start=False for a fit from scratch")


def warm_start_of(estimator, problem, method, config):
    """The :class:`~mrc_pyomo.methods.result.Start` of a warm fit of ``estimator`` on ``problem`` (module docstring), or
    None for a fit from scratch: ``warm_start`` False, the estimator not fitted, or a method that starts from nothing
    (``Method.warm_starts`` False, or MRC-CCG's regime ``"full"``).  A previous fit that cannot be a start raises
    (:func:`check_warm_start`)."""
    if not (estimator.warm_start and hasattr(estimator, "mu_")):
        return None
    if not method.warm_starts or getattr(config, "regime", None) not in SEEDED_REGIMES:
        return None
    check_warm_start(estimator, problem)
    # a model read from a file may have no master (cli/model_format.py): then only its rule carries over
    previous = getattr(estimator, "master_", None) if getattr(estimator, "regime_", None) in SEEDED_REGIMES else None
    master = None if previous is None else seeded_master(problem, config, previous)
    return Start(master=master, candidates=(problem_columns(problem, estimator.mu_),))
