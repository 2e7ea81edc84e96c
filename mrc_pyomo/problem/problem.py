"""The prepared problem: the MRC LP (eq. 4) of one training set, made once by :func:`prepare`, solved by any method of
:mod:`mrc_pyomo.methods`.  :func:`prepare` maps samples with ``Psi`` (:mod:`mrc_pyomo.feature_maps`), rescales its
columns to ``Psi D`` (:mod:`~mrc_pyomo.problem.scaling`), estimates ``tau`` and the deviations ``s`` of ``Phi`` (eq. 2)
and finds the reduction (:mod:`~mrc_pyomo.problem.reduction`).  ``lambda = lambda0 * s`` is :class:`MRCProblem`'s only
function of ``lambda0`` (:meth:`MRCProblem.at`); :meth:`MRCProblem.rule` maps rules to the user's units.
"""

from dataclasses import dataclass, replace
from functools import cached_property

import numpy as np
import scipy.sparse as sp
from sklearn.utils.multiclass import check_classification_targets

from ..data import DataSource, InMemorySource, as_source, is_dask_array
from ..feature_maps import make_feature_map
from ..formulations import get_formulation
from ..oracles.dual import relative_residuals
from ..oracles.primal import RulePass, risk, risk_upper_bound, rule_pass
from ..oracles.rounding import gamma, round_down
from .estimates import class_sums_of, mean_and_confidence
from .reduction import complete, find_reduction
from .scaling import center_columns, column_peaks, column_scales, scale_columns, uncenter

#: rows read at a time by the last pass in the user's units (data in memory): no second copy of the mapped data, and a
#: multiple of the blocks of :mod:`mrc_pyomo.data.source` (the same scores as on Dask)
USER_PASS_ROWS = 16_000


@dataclass(frozen=True)
class Rule:
    """A rule in the user's units with its certified interval: ``mu``, ``tau`` and ``lam``, ``(K, D)``, in the columns
    of ``feature_map.transform(X)``; from one exact pass over the training samples, ``upper >= R(mu)``
    (:func:`~mrc_pyomo.oracles.primal.risk_upper_bound`), ``nu = varphi(mu) + 1`` as computed, ``predicted[k]`` the
    samples it predicts class ``k`` for and ``accuracy``; ``lower`` the method's lower end (:meth:`MRCProblem.rule`)."""

    mu: np.ndarray
    tau: np.ndarray
    lam: np.ndarray
    upper: float
    lower: float
    nu: float
    predicted: np.ndarray = None
    accuracy: float = np.nan


@dataclass(frozen=True, eq=False)
class MRCProblem:
    """The MRC LP of one training set, in the rescaled columns ``Psi D`` (module docstring).

    ``data``: ``Psi D`` (centred if ``centre`` is set), a :class:`~mrc_pyomo.data.DataSource`; ``y``: the class index of
    each sample (into ``classes``); ``tau`` and ``std``: ``(K, D)``, the mean of ``Phi`` and its standard deviations,
    ``lam = lambda0 * std`` (eq. 2); ``reduction``: a :class:`~mrc_pyomo.problem.reduction.Reduction` or None;
    ``scale``: the column scale ``d``, ``(D,)``; ``centre``: the column means subtracted (user's units), or None; ``X``
    and ``feature_map``: the training data as given and its fitted map, for the last pass in the user's units (None from
    :meth:`from_arrays`); ``weights``: positive sample weights of ``tau``, ``std`` and a first master's centroids, or
    None; ``feature_names``: the column names of ``X`` (``feature_names_in_``), or None, for a stepped fit;
    ``label_gap``: a bound on ``|tau - m|``, ``m`` the mean of the rows ``(i, {y_i})`` (:meth:`radius`), or None where
    ``tau`` is that mean (:func:`prepare`)."""

    data: DataSource
    y: np.ndarray
    tau: np.ndarray
    std: np.ndarray
    lambda0: float = 1.0
    classes: np.ndarray = None
    reduction: object = None
    scale: np.ndarray = None
    centre: np.ndarray = None
    X: object = None
    feature_map: object = None
    weights: np.ndarray = None
    feature_names: np.ndarray = None
    label_gap: np.ndarray = None

    @classmethod
    def from_arrays(cls, Psi, y, tau, lam, reduction=None):
        """The problem of a given ``Psi`` (array, sparse matrix or data source, not rescaled), class indices ``y``,
        ``tau`` and ``lam`` (``lambda0 = 1``, ``std = lam``): the LP of eq. 4 as it is, for experiments and tests.
        ``y`` may be None; what needs labels (MRC-CCG's first master, :meth:`rule`) then raises ``ValueError``.  Any
        ``tau`` is taken: its distance to the mean ``m`` of the rows ``(i, {y_i})`` (two passes; rounding included) is
        kept for :meth:`radius` (infinite without labels)."""
        data, tau = as_source(Psi), np.asarray(tau, dtype=float)
        if y is None:
            gap = np.full(tau.shape, np.inf)
        else:
            y = np.asarray(y)
            mean = class_sums_of(data, y, tau.shape[0]) / data.n_samples
            gap = np.abs(tau - mean) + gamma(data.n_samples + 2) * column_peaks(data)[None, :]
        return cls(data=data, y=y, tau=tau, std=np.asarray(lam, dtype=float), classes=np.arange(tau.shape[0]),
                   reduction=reduction, label_gap=gap)

    @property
    def lam(self):
        """``lambda = lambda0 * std`` (eq. 2), shape ``(K, D)``."""
        return self.lambda0 * self.std

    def radius(self, risk):
        """A bound ``rho >= lambda.|mu*|`` from ``risk = R(mu)`` of any rule, the ``rho`` of the Lagrangian bound
        (:mod:`~mrc_pyomo.oracles.certificate`).  The rows ``(i, {y_i})`` averaged give ``varphi(mu) + 1 >= m.mu``,
        so ``R(mu) >= (m - tau).mu + lambda.|mu| >= (1 - r_0) lambda.|mu|`` with ``r_0 = max_j |m_j - tau_j| /
        lambda_j``, and ``lambda.|mu*| <= R* / (1 - r_0) <= risk / (1 - r_0)``: ``risk`` itself where ``tau`` is
        ``m`` (``label_gap`` None), ``inf`` where ``r_0 >= 1`` (a ``lambda_j = 0`` with ``m_j != tau_j`` to
        :data:`~mrc_pyomo.oracles.dual.ROUND_OFF`, or no labels)."""
        if self.label_gap is None:
            return risk
        bound = self.label_gap * (1.0 + 4 * np.finfo(np.float64).eps)   # with the rounding of the ratio
        r_0 = float(relative_residuals(bound, self.tau, self.lam).max())
        return risk / (1.0 - r_0) * (1.0 + 4 * np.finfo(np.float64).eps) if r_0 < 1.0 else np.inf

    @property
    def n_classes(self):
        return self.tau.shape[0]

    @property
    def n_samples(self):
        return self.data.n_samples

    @property
    def n_features(self):
        """``D``, the columns of ``Psi``."""
        return self.tau.shape[1]

    @property
    def blocked(self):
        """The labels the reduction leaves out of each sample's subsets, ``(n, K)``, or None."""
        return None if self.reduction is None else self.reduction.blocked

    @cached_property
    def row_nonzeros(self):
        """``nnz(Psi_i)`` of every sample, ``(n,)``, one pass (kept)."""
        return self.data.row_nonzeros()

    @property
    def nonzeros(self):
        """``nnz(Psi)``."""
        return int(self.row_nonzeros.sum())

    def at(self, lambda0):
        """The same problem at another ``lambda0`` (no pass).  Centring is R-invariant only at ``lambda0 = 0``:
        elsewhere a centred problem is a warm start for it (continuation), whose rules :meth:`rule` refuses."""
        return replace(self, lambda0=float(lambda0))

    def full_lp_size(self, formulation="paper"):
        """``(rows, nonzeros)`` of the reduced full LP in ``formulation`` (:mod:`mrc_pyomo.formulations`)."""
        labels = np.full(self.n_samples, self.n_classes)
        if self.reduction is not None:
            labels = labels - self.reduction.blocked.sum(axis=1)
        return get_formulation(formulation).full_lp_size(labels, self.n_classes, self.row_nonzeros)

    def rule(self, mu, lower=0.0):
        """The :class:`Rule` in the user's units of a rule ``mu`` of this problem: completed over the fixed features
        (:func:`~mrc_pyomo.problem.reduction.complete`), back in the columns of ``Psi`` (``mu d``, ``tau / d``,
        ``lambda / d``), uncentred, and certified by one exact pass over the training samples.  ``lower``, certified on
        the rescaled LP, holds on the LP in the user's units once lowered by the upper end's margin (the two LPs differ
        by the rounding of the change of units) and kept at most the upper end (:mod:`~mrc_pyomo.oracles.rounding`)."""
        if self.y is None:
            raise ValueError("this problem was made without labels (MRCProblem.from_arrays with y=None): its rules "
                             "are not certified in the user's units; give the labels")
        if self.centre is not None and self.lambda0 != 0:
            raise ValueError("a problem centred for lambda0 = 0 has rules in the user's units at lambda0 = 0 only")
        if self.reduction is not None:
            mu = complete(self.reduction, self.data, mu)
        scale = np.ones(self.n_features) if self.scale is None else self.scale
        tau, lam, mu = self.tau / scale, self.lam / scale, mu * scale
        if self.centre is not None:
            mu, tau = uncenter(mu, tau, self.centre)
        if not np.all(np.isfinite(mu)):
            raise ValueError("the coefficients mu are beyond the floating-point range in the data's units: "
                             "rescale the data")
        found = self._user_pass(mu)
        upper = risk_upper_bound(mu, found.bound, tau, lam)
        margin = upper - risk(mu, found.varphi, tau, lam)
        lower = min(upper, max(0.0, round_down(lower, margin))) if lower > 0 else 0.0
        return Rule(mu=mu, tau=tau, lam=lam, upper=upper, lower=lower, nu=found.varphi + 1.0,
                    predicted=found.predicted, accuracy=found.correct / max(self.n_samples, 1))

    def _user_pass(self, mu):
        """The :class:`~mrc_pyomo.oracles.primal.RulePass` of ``mu`` over ``feature_map.transform(X)``: by rows of
        :data:`USER_PASS_ROWS` for data in memory, by the source's passes otherwise (or over ``data`` without ``X``)."""
        if self.X is None:
            return rule_pass(self.data, mu, self.y)
        if isinstance(self.X, DataSource) or is_dask_array(self.X):
            return rule_pass(as_source(self.X).map_blocks(self.feature_map.transform), mu, self.y)
        return RulePass.combine([rule_pass(self.feature_map.transform(self.X[start:start + USER_PASS_ROWS]), mu,
                                           self.y[start:start + USER_PASS_ROWS])
                                 for start in range(0, self.X.shape[0], USER_PASS_ROWS)])


#: dense features in memory with at most this fraction of nonzeros are passed over as a CSR matrix: a pass then
#: costs its nonzeros, not ``n D`` multiply-adds (docs/benchmarks.md, "The route of the default fit")
SPARSE_PASSES = 0.3


def sparse_passes(data):
    """``data`` (the rescaled ``Psi``) as the passes read it: a dense array in memory with at most :data:`SPARSE_PASSES`
    of nonzeros (images) as a CSR matrix of the same values, anything else as it is."""
    if type(data) is InMemorySource and not data.sparse and data.array.size:
        if np.count_nonzero(data.array) <= SPARSE_PASSES * data.array.size:
            return InMemorySource(sp.csr_matrix(data.array))
    return data


def prepare(X, y, phi="linear", fit_intercept=True, random_state=None, lambda0=0.01, centre=None, reduce=True,
            weights=None):
    """The :class:`MRCProblem` of the training data ``X`` (an array, a CSR matrix, a Dask array or a
    :class:`~mrc_pyomo.data.DataSource`) with labels ``y``; ``ValueError`` for fewer than two classes.  ``phi``,
    ``fit_intercept``, ``random_state``: the feature map (:func:`~mrc_pyomo.feature_maps.make_feature_map`, fitted here,
    with ``weights`` where its ``fit`` takes them); ``weights``: positive sample weights of ``tau`` and ``lambda``
    (:mod:`~mrc_pyomo.problem.estimates`; None: none); ``centre``: centre the columns (dense data with an intercept
    only; None: when ``lambda0 == 0``, the one value at which centring is R-invariant); ``reduce``: find the exact
    reduction (MRC-SUB, the baseline, solves the LP as it is)."""
    check_classification_targets(y)
    classes, y_idx = np.unique(y, return_inverse=True)
    if len(classes) < 2:
        raise ValueError(f"an MRC needs at least two classes; got 1 class ({classes.tolist()[0]!r})")
    # the smallest integer type: a pass over data beyond memory ships each block's class indices
    y_idx = y_idx.astype(np.min_scalar_type(len(classes) - 1))
    feature_map = make_feature_map(phi, fit_intercept, random_state).fit(X, sample_weight=weights)
    data = as_source(X).map_blocks(feature_map.transform)
    means = None
    if (lambda0 == 0 if centre is None else centre) and fit_intercept and not data.sparse:
        # first, so that the scale is that of the centred columns: scaled first, x + 1e6 would centre to O(1e-6)
        data, means = center_columns(data)
    scale = column_scales(data)
    data = sparse_passes(data.map_blocks(lambda block: scale_columns(block, scale)))
    tau, std = mean_and_confidence(data, y_idx, len(classes), 1.0, weights)
    reduction = find_reduction(data, y_idx, len(classes)) if reduce else None
    return MRCProblem(data=data, y=y_idx, tau=tau, std=std, lambda0=float(lambda0), classes=classes,
                      reduction=reduction, scale=scale, centre=means, X=X, feature_map=feature_map, weights=weights)
