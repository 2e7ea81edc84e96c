"""``MRCClassifier``: the scikit-learn estimator of 0-1 minimax risk classifiers.

``fit`` maps the data with ``Psi``, rescales its columns (:mod:`mrc_pyomo.scaling`: ``R`` is invariant),
estimates ``tau`` and ``lambda`` (eq. 2), and solves the MRC LP (eq. 4) by MRC-CCG (``method="ccg"``,
:mod:`mrc_pyomo.generation`), in full (``method="lp"``, :mod:`mrc_pyomo.full_lp`) or by MRC-SUB
(``method="subgradient"``).  ``mu``, ``tau`` and ``lambda`` are mapped back to the user's units.  The rule is
``h(x) = argmax_y Psi(x).mu_y`` with probabilities ``max(v_y - psi(x), 0)`` (:mod:`mrc_pyomo.rule`).

Every fit ends with a certified interval ``lower_ <= R* <= upper_`` (:mod:`mrc_pyomo.certificate`):
``upper_ = R(mu_)``, one exact pass of the primal oracle over the training samples in the user's units,
and ``lower_`` the Lagrangian bound of the fit's dual weights; neither is the LP solver's value.
``status_ == "converged"`` exactly when ``upper_ - lower_ <= eps_1``; any other stop with a larger gap raises a
scikit-learn ``ConvergenceWarning`` that gives the gap, and returns the best certified rule found.
"""

import warnings

import numpy as np
import pandas as pd
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.exceptions import ConvergenceWarning
from sklearn.utils.multiclass import check_classification_targets

from . import continuation as continuation_
from .data import InMemorySource, as_source
from .data.validation import validate_training_data
from .estimates import mean_and_confidence
from .feature_maps import make_feature_map
from .full_lp import fit_full_lp
from .generation import HISTORY_COLUMNS, CCGConfig, choose_regime, feature_density, gap_tolerance, row_age
from .master import check_solver
from .parameters import PARAMETER_CONSTRAINTS, check_parameters
from .progress import progress_display
from .primal_oracle import risk, varphi
from .reduction import complete, find_reduction, full_lp_rows
from .rule import RuleMixin
from .scaling import center_columns, column_scales, scale_columns, uncenter
from .subgradient import HISTORY_COLUMNS as SUBGRADIENT_COLUMNS
from .subgradient import fit_subgradient


class MRCClassifier(RuleMixin, ClassifierMixin, BaseEstimator):
    """Minimax risk classifier with the 0-1 loss, learned by constraint and column generation.

    Standardise raw features: ``R``, the rule and its certificate are invariant under a positive rescaling of
    a column of ``X`` (its units do not matter), not under a shift of it, which the regularised intercept pays
    for.  ``make_pipeline(StandardScaler(), MRCClassifier())`` centres and scales in a way ``predict`` repeats
    (``examples/standardize.py``: on wine, ``upper_`` 0.311 raw, 0.248 standardised).

    Parameters
    ----------
    phi : {"linear", "fourier"} or transformer, default="linear"
        Feature map ``Psi``: identity, random Fourier features appended to the data
        (:class:`~mrc_pyomo.feature_maps.RandomFourierFeatures`, 400 of them), or any object with ``fit`` and
        ``transform`` (cloned).
    lambda0 : float, default=0.01
        Regularisation: ``lambda = lambda0 * std(Phi)``.
    continuation : bool, default=False
        MRC-CCG only: reach ``lambda0`` through larger values (:func:`mrc_pyomo.continuation.schedule`: up to
        three stages, each ``3x`` the next, below the value at which ``mu = 0`` is optimal), each stage
        warm-started from the one before (:mod:`mrc_pyomo.continuation`).  ``upper_``, ``lower_`` and
        ``status_`` are always those at ``lambda0``; every stage's rule is a candidate for ``mu_``, so a fit
        stopped by ``time_limit`` returns the best rule seen.  ``history_`` has a ``lambda0`` column and
        ``n_iter_`` counts the masters of all stages.  Use it where the loop at ``lambda0`` churns without a
        useful rule (images): mnist, 8,000 images, 300 s: ``upper_`` 0.416 (lower 0.343) against 0.898
        (lower 0.382) without.  It is off by default because the benchmark's other cases, which the loop
        certifies directly, take 1.4x to 3.5x longer through the stages (quick run, median 1.92x;
        ``benchmarks/results/quick_{before,after}_continuation.jsonl``), and digits + 400 random Fourier
        features converges alone in 280 s but is still open at 300 s through the stages.
    fit_intercept : bool, default=True
        Prepend the constant feature 1 to ``Psi``.
    method : {"ccg", "lp", "subgradient"}, default="ccg"
        MRC-CCG (Algorithm 1), the full LP over all ``n (2^K - 1)`` rows (its primal or dual form by the
        simplex or the interior point method, chosen by size: :func:`mrc_pyomo.full_lp.choose_method`), or MRC-SUB,
        the accelerated subgradient method of the MRC literature (:mod:`mrc_pyomo.subgradient`; the
        paper's baseline; ``max_iter`` subgradient steps, no LP, ``master_`` is None).
    solver : str, default="highs"
        ``"highs"``: the built-in HiGHS backend, the master loaded in bulk from NumPy arrays.  Any other name is
        a Pyomo solver name (``pyomo.environ.SolverFactory``): a persistent interface (``"appsi_highs"``,
        ``"gurobi_persistent"``, ``"cplex_persistent"``, ...) is handed the master's Pyomo model once and then
        each change; any other solver (``"glpk"``, ``"cbc"``, ...) is handed the model at every solve.
    formulation : {"paper", "compact"}, another registered name, or Formulation, default="paper"
        The formulation of the master (:mod:`mrc_pyomo.formulations`): the paper's rows ``(i, C)``, or the
        compact form of ``(sample, class)`` pairs, a column ``u_iy >= 0`` each and one row per sample (``n (K +
        1)`` rows for the full LP instead of ``n (2^K - 1)``).  Both give the same ``R*`` and the same
        certificate.  MRC-CCG is faster in the paper's rows; the compact full LP (``method="lp"``) is the one
        for many classes and a few hundred samples (docs/architecture.rst, "The formulation seam").
    eps_1 : float, default=1e-3
        Target of the certified gap: the fit has converged when ``upper_ - lower_ <= eps_1``, so ``upper_``
        is then within ``eps_1`` of the minimax risk ``R*``.  ``0`` asks for the gap of round-off
        (:data:`mrc_pyomo.generation.config.GAP_FLOOR`).
    eps_2 : float, default=1e-5
        Threshold on the dual (feature) violations of the regime ``"nm"``.
    n_max, m_max : int, default=400
        Rows and features added per iteration at most.
    max_iter : int, default=1000
        Iterations of the generation loop at most (subgradient steps for ``method="subgradient"``).
    regime : {"auto", "n", "nm"}, default="auto"
        ``"n"``: all features, rows added and removed; ``"nm"``: rows and features added.  ``"auto"`` uses
        ``"n"`` when ``K * D <= LARGE_M``, else the full LP when it has few rows (``regime_ = "full"``: the
        master with every row and feature, as ``method="lp"``; sparse text with few classes), else ``"nm"``
        for sparse features and ``"n"`` for dense ones (random Fourier features, images: the certificate of
        ``"nm"`` cannot close while dense features lie outside ``J``); :func:`mrc_pyomo.generation.config.choose_regime`
        states the rule and its measurements.
    time_limit : float, optional
        Seconds after which the loop stops (checked after each iteration).
    solver_options : dict, optional
        Options passed to the solver (HiGHS option names on the default path).
    random_state : int, RandomState or None
        Seeds the random Fourier features.
    verbose : int or bool, default=False
        What the fit shows while it runs (:mod:`mrc_pyomo.progress`): ``0`` / ``False`` nothing; ``1`` / ``True``
        a live progress line on stderr (iteration, certified interval and gap, rows and features, elapsed time),
        drawn by tqdm in a terminal or a notebook; ``2`` the iteration log on stdout.  The solver's own log
        appears at no level, only when ``solver_options`` asks for it (HiGHS's ``output_flag``).
    callback : callable, optional
        Called after each master solve and check with a :class:`~mrc_pyomo.generation.record.IterationState` (the master
        and its Pyomo model, ``mu``, ``nu``, the duals, the rows and features added and removed, the
        violations, the rows and features chosen next); returning a true value stops the loop.

    Attributes
    ----------
    classes_, n_features_in_, feature_map_, tau_, lambda_, mu_, nu_, n_iter_, history_, master_, regime_
        As in ../shared/SPEC.md.  ``master_`` is the LP in the rescaled columns: its ``mu_pos[y, j]`` and
        ``mu_neg[y, j]`` are ``mu1`` and ``mu2`` divided by ``column_scale_[j]``.
    upper_, lower_ : float
        The certified interval ``lower_ <= R* <= upper_ = R(mu_)``.
    status_ : str
        ``"converged"`` (``upper_ - lower_ <= eps_1``), ``"max_iter"``, ``"time_limit"``, ``"callback"`` or
        ``"solver_error"`` (the solver failed on a later master, or its answers no longer narrow the gap; the
        history's last record says why).
    column_scale_ : ndarray of shape (D,)
        The internal scale ``d`` of the columns of ``Psi`` (:mod:`mrc_pyomo.scaling`).
    coef_ : ndarray of shape (n_classes, n_features)
        The linear map only (``phi="linear"``, ``Psi(x) = [1, x]`` or ``x``; ``n_features = n_features_in_``):
        the weights of the original features in the user's units, ``mu_`` without its intercept column (a
        read-only view of ``mu_``, not a copy).  The class scores are ``X @ coef_.T + intercept_``;
        ``decision_function`` is their difference ``v_1 - v_0`` for two classes and the scores themselves
        otherwise.  With any other ``phi`` (random
        Fourier features, a transformer) the weights belong to the mapped features ``Psi(x)``, not to ``x``:
        ``coef_`` and ``intercept_`` then raise ``AttributeError`` (``hasattr(clf, "coef_")`` is False) and the
        scores are ``feature_map_.transform(X) @ mu_.T``.
    intercept_ : ndarray of shape (n_classes,)
        The linear map only: ``mu_[:, 0]``, the weights of the constant feature, with ``fit_intercept=True``;
        zeros with ``fit_intercept=False``.
    """

    _parameter_constraints = PARAMETER_CONSTRAINTS

    def __init__(self, phi="linear", lambda0=0.01, fit_intercept=True, method="ccg", solver="highs",
                 eps_1=1e-3, eps_2=1e-5, n_max=400, m_max=400, max_iter=1000, regime="auto", time_limit=None,
                 solver_options=None, random_state=None, verbose=False, callback=None, continuation=False,
                 formulation="paper"):
        self.phi = phi
        self.lambda0 = lambda0
        self.fit_intercept = fit_intercept
        self.method = method
        self.solver = solver
        self.eps_1 = eps_1
        self.eps_2 = eps_2
        self.n_max = n_max
        self.m_max = m_max
        self.max_iter = max_iter
        self.regime = regime
        self.time_limit = time_limit
        self.solver_options = solver_options
        self.random_state = random_state
        self.verbose = verbose
        self.callback = callback
        self.continuation = continuation
        self.formulation = formulation

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def _validate_params(self):
        """Check the parameters (:func:`mrc_pyomo.parameters.check_parameters`)."""
        super()._validate_params()
        check_parameters(self)

    # nested validation on: the parameters of a user's feature map (phi) are checked before it is fitted
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y):
        """Learn the MRC from ``X`` (dense or scipy.sparse, shape ``(n, d)``) and labels ``y``."""
        X, data, y_idx, tau, std, centre, reduction = self._prepare(X, y, centre=self.lambda0 == 0)
        scale, lam = self.column_scale_, self.lambda0 * std
        method = "lp" if self.method == "lp" or self.regime_ == "full" else self.method
        with progress_display(self.verbose, method) as progress:
            result = self._fit_scaled(data, y_idx, tau, std, reduction, progress)
            mu = result.mu if reduction is None else complete(reduction, data, result.mu)
            del data   # not held during the last pass over X
            self._set_result(X, result, mu, tau, lam, scale, centre)
            progress.close(self.status_, self.lower_, self.upper_, self.n_iter_)
        gap = self.upper_ - self.lower_
        if gap > gap_tolerance(self.eps_1):
            warnings.warn(
                f"the fit stopped ({self.status_}) with a certified gap upper_ - lower_ = {gap:.3g} above "
                f"eps_1 = {self.eps_1:g}: R* is in [{self.lower_:.6g}, {self.upper_:.6g}]; the rule returned "
                f"is the best certified one found", ConvergenceWarning, stacklevel=3)
        return self

    def _prepare(self, X, y, centre=False):
        """Validate the data and set ``classes_``, ``feature_map_``, ``column_scale_`` and ``regime_``; return
        ``(X, Psi, y_idx, tau, std, centre, reduction)``: the validated ``X``, ``Psi`` with rescaled columns
        (:mod:`mrc_pyomo.scaling`, R-invariant; if ``centre`` and dense, centred first, R-invariant without
        regularisation only, ``centre`` then the column means in the user's units, else None), the class
        indices, ``tau`` and the standard deviations ``std`` of ``Phi`` (``lambda = lambda0 * std``, eq. 2),
        and the exact reduction (:mod:`mrc_pyomo.reduction`; None for MRC-SUB, the baseline, which solves the
        LP as it is)."""
        # the solver is checked on every fit, even with scikit-learn's parameter validation switched off:
        # whether it is usable depends on the machine, not only on the name
        check_solver(self.solver)
        X, y = validate_training_data(self, X, y)
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        # the smallest integer type: a pass over data beyond memory ships each block's class indices
        y_idx = y_idx.astype(np.min_scalar_type(len(self.classes_) - 1))
        if len(self.classes_) < 2:
            raise ValueError(f"MRCClassifier needs at least two classes; got 1 class ({self.classes_.tolist()[0]!r})")
        n_classes = len(self.classes_)
        self.feature_map_ = make_feature_map(self.phi, self.fit_intercept, self.random_state).fit(X)
        # the fit works on Psi D (R-invariant, better conditioned); the original Psi is not held meanwhile
        data = self._mapped(X)
        means = None
        if centre and self.fit_intercept and not data.sparse:
            # first, so that the scale is that of the centred columns: a column far from 0 (x + 1e6) would
            # otherwise be scaled to 1 + O(1e-6) and centred to O(1e-6), an ill-conditioned LP at lambda0 > 0
            # (the stages of continuation)
            data, means = center_columns(data)
        self.column_scale_ = scale = column_scales(data)
        data = data.map_blocks(lambda block: scale_columns(block, scale))
        tau, std = mean_and_confidence(data, y_idx, n_classes, 1.0)
        reduction = None if self.method == "subgradient" else find_reduction(data, y_idx, n_classes)
        self.regime_ = self.regime
        if self.regime == "auto":
            rows = full_lp_rows(reduction, data.n_samples, n_classes)
            self.regime_ = choose_regime(n_classes, data.n_features, rows, feature_density(data))
        return X, data, y_idx, tau, std, means, reduction

    def _mapped(self, X):
        """``Psi(X)`` of the fitted feature map as a :class:`~mrc_pyomo.data.DataSource` (in memory for an array,
        mapped block by block for a Dask array)."""
        return as_source(X).map_blocks(self.feature_map_.transform)

    def _ccg_config(self):
        """The :class:`~mrc_pyomo.generation.config.CCGConfig` of this estimator's parameters."""
        return CCGConfig(
            regime=self.regime_, fit_intercept=self.fit_intercept, eps_1=self.eps_1, eps_2=self.eps_2,
            n_max=self.n_max, m_max=self.m_max, max_iter=self.max_iter, time_limit=self.time_limit,
            solver=self.solver, solver_options=self.solver_options, row_age=row_age(self.lambda0),
            formulation=self.formulation)

    def _set_result(self, X, result, mu, tau, lam, scale, centre):
        """The fitted attributes in the user's units, from the ``result`` of a fit on the rescaled columns (its
        rule ``mu``, completed), and the certificate's upper end ``upper_ = R(mu_)`` by one exact pass over ``X``."""
        self.tau_, self.lambda_ = tau / scale, lam / scale
        self.mu_ = mu * scale
        if centre is not None:
            self.mu_, self.tau_ = uncenter(self.mu_, self.tau_, centre)
        if not np.all(np.isfinite(self.mu_)):
            raise ValueError("the coefficients mu are beyond the floating-point range in the data's units: "
                             "rescale the data")
        # the certificate's upper end, once more over all training samples, in the user's units
        value = varphi(self._mapped(X), self.mu_)
        self.upper_ = risk(self.mu_, value, self.tau_, self.lambda_)
        self.nu_ = value + 1.0
        self.lower_ = float(result.lower)
        self.objective_ = float(result.objective)
        self.status_ = result.status
        self.n_iter_ = len(result.history)
        columns = SUBGRADIENT_COLUMNS if self.method == "subgradient" else HISTORY_COLUMNS
        self.history_ = pd.DataFrame(result.history, columns=columns)
        if "lambda0" not in self.history_:
            self.history_.insert(1, "lambda0", float(self.lambda0))
        self.master_ = None if result.master is None else result.master.compact()

    def _fit_scaled(self, Psi, y_idx, tau, std, reduction, progress=None):
        """Run the chosen method on the rescaled ``Psi`` (a :class:`~mrc_pyomo.data.DataSource`; ``std``: the
        standard deviations of ``Phi``, ``lambda = lambda0 * std``), showing each iteration's record to
        ``progress``; a :class:`~mrc_pyomo.result.FitResult`."""
        lam = self.lambda0 * std
        if self.method == "subgradient":
            if not isinstance(Psi, InMemorySource):
                raise ValueError("method='subgradient' takes thousands of passes over the data: it needs the data "
                                 "in memory (a NumPy array or a SciPy sparse matrix), not a Dask array")
            return fit_subgradient(Psi.array, tau, lam, max_iter=self.max_iter, time_limit=self.time_limit,
                                   log=progress, gap=gap_tolerance(self.eps_1))
        if self.method == "lp" or (self.method == "ccg" and self.regime_ == "full"):
            return fit_full_lp(Psi, tau, lam, eps_1=self.eps_1, solver=self.solver,
                               solver_options=self.solver_options, reduction=reduction,
                               time_limit=self.time_limit, formulation=self.formulation)
        config = self._ccg_config()
        stages = [self.lambda0]
        if self.continuation:
            zero_rule = continuation_.zero_rule_lambda0(Psi, tau, std, len(self.classes_))
            stages = continuation_.schedule(self.lambda0, zero_rule)
        return continuation_.fit_continued(Psi, y_idx, tau, std, stages, config, reduction=reduction, log=progress,
                                           callback=self.callback)
