"""The first master of MRC-CCG's loop: the paper's initial master (:mod:`mrc_pyomo.problem.initialization`), one given
by the caller (MRC-FOM's rows of its first-order point, a previous fit's rows), or a warm start
(:mod:`mrc_pyomo.methods.pathwise`): a previous path stage's final master with this stage's costs.  Each comes with the
:class:`~mrc_pyomo.master.solution.Changes` the first record shows."""

import numpy as np
from ...master import RestrictedMaster
from ...master.dual_lp import WarmDualBackend
from ...master.solution import Changes
from ...problem.initialization import class_centroids, initial_features, initial_rows


def reduced_rows(reduction, samples, subsets):
    """The rows ``(samples, subsets)`` without those ``reduction`` leaves out (None: all of them)."""
    if reduction is None:
        return samples, subsets
    kept = reduction.kept_rows(samples, subsets)
    return samples[kept], subsets[kept]


def centroid_rows(n, n_classes, reduction=None):
    """The rows of the first master (:func:`~mrc_pyomo.problem.initialization.initial_rows`: the class centroids'),
    without those a reduction leaves out: ``(samples, subsets, floor)``.  They keep every master bounded."""
    samples, subsets, floor = initial_rows(n, n_classes)
    return *reduced_rows(reduction, samples, subsets), floor


def as_added(master):
    """The :class:`~mrc_pyomo.master.solution.Changes` that make ``master`` from nothing: all of it added."""
    return Changes(master.samples, master.subsets, master.samples[:0], master.subsets[:0], master.features)


def initial_master(problem, config, rows=(), features=(), own_labels_only=False):
    """The first master of ``problem``, the one builder of every first master: the class-centroid rows and the initial
    features (:mod:`mrc_pyomo.problem.initialization`), then the row blocks ``rows`` (pairs ``(samples, subsets)``) and
    the ``features`` given, less what the problem's reduction leaves out, for the solver of ``config`` (any config with
    the fields ``regime``, ``fit_intercept``, ``solver``, ``solver_options`` and ``formulation``; with ``form="dual"``
    (:class:`~mrc_pyomo.methods.ccg.config.CCGConfig`) the built-in solver takes its dual LP).

    ``own_labels_only``: of the centroids' rows only each centroid's own label, ``(n + k, {k})``, for a master given
    rows of its own: those ``K`` rows still keep it bounded, since their mixture by the class weights is the empirical
    distribution, whose ``F^T alpha`` is ``tau`` (the master's dual is feasible)."""
    n_classes, reduction = problem.n_classes, problem.reduction
    samples, subsets, floor = centroid_rows(problem.n_samples, n_classes, reduction)
    if own_labels_only:
        own = subsets[np.arange(len(samples)), samples - problem.n_samples] & (subsets.sum(axis=1) == 1)
        samples, subsets = samples[own], subsets[own]
    first = initial_features(n_classes, problem.n_features, config.regime, config.fit_intercept)
    features = np.concatenate([first, np.setdiff1d(np.asarray(features, dtype=np.int64), first)])
    if reduction is not None:
        features = features[~reduction.fixed.ravel()[features]]
    master = RestrictedMaster(problem.data, problem.tau, problem.lam,
                              centroids=class_centroids(problem.data, problem.y, n_classes, problem.weights),
                              objective_floor=floor, solver=config.solver, solver_options=config.solver_options,
                              formulation=config.formulation,
                              backend=WarmDualBackend if getattr(config, "form", "primal") == "dual" else None)
    master.add_features(features)
    master.add_rows(samples, subsets)
    for samples, subsets in rows:
        master.add_rows(*reduced_rows(reduction, samples, subsets))
    return master


def warm_master(previous, problem):
    """The master ``previous`` (a previous stage's final master) with ``problem``'s costs
    (:meth:`~mrc_pyomo.master.RestrictedMaster.with_costs`) and its dropped centroid rows back, to keep it bounded."""
    master = previous.with_costs(problem.tau, problem.lam)
    master.add_rows(*centroid_rows(previous.n_samples, problem.n_classes, problem.reduction)[:2])
    return master


def first_master(problem, config, start):
    """``(master, kind)``: the first master of a loop on ``problem`` from ``start`` (a
    :class:`~mrc_pyomo.methods.result.Start`): its ``master`` if given (``"given"``), else the previous stage's final
    master with these costs (:func:`warm_master`, ``"warm"``), else :func:`initial_master` (``"initial"``)."""
    if start.master is not None:
        return start.master, "given"
    previous = None if start.previous is None else start.previous.master
    if previous is not None:
        return warm_master(previous, problem), "warm"
    return initial_master(problem, config), "initial"
