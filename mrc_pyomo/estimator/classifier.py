"""``MRCClassifier``: the scikit-learn estimator of 0-1 minimax risk classifiers.

A shell around the core: ``fit`` validates the data, prepares the problem (:func:`mrc_pyomo.problem.prepare`:
``Psi``, its rescaled columns, ``tau`` and ``lambda`` of eq. 2, the exact reduction), solves the MRC LP (eq. 4)
by a method of :mod:`mrc_pyomo.methods` (MRC-CCG, ``method="ccg"``, through
:func:`mrc_pyomo.methods.pathwise.fit_steps`, the core of :func:`mrc_pyomo.mrc_path` too; the full LP,
``method="lp"``; MRC-SUB, ``method="subgradient"``) and sets the attributes of the result, mapped back to the
user's units (:mod:`mrc_pyomo.estimator.fitted`).  The rule is ``h(x) = argmax_y Psi(x).mu_y`` with
probabilities ``max(v_y - psi(x), 0)`` (:mod:`mrc_pyomo.estimator.rule`).

Every fit ends with a certified interval ``lower_ <= R* <= upper_`` (:mod:`mrc_pyomo.oracles.certificate`):
``upper_ = R(mu_)``, one exact pass of the primal oracle over the training samples in the user's units,
and ``lower_`` the Lagrangian bound of the fit's dual weights; neither is the LP solver's value.
``status_ == "converged"`` exactly when ``upper_ - lower_ <= eps_1``; any other stop with a larger gap raises a
scikit-learn ``ConvergenceWarning`` that gives the gap, and returns the best certified rule found.
"""

from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context

from ..display.progress import progress_display
from ..methods import get_method
from ..methods.deadline import Deadline, caller_time_left_out
from ..methods.pathwise import fit_steps, schedule, zero_rule_lambda0
from ..methods.result import finish
from .fitted import Fitted, commit, fit_warnings, fitted_attributes
from .fitting import plan_of, problem_of
from .parameters import PARAMETER_CONSTRAINTS, PARAMETERS, SolverCloneMixin, make_init, validate_parameters
from .rule import RuleMixin
from .steps import Steps, check_not_fitting, running_fit
from .warm import warm_start_of


class MRCClassifier(SolverCloneMixin, RuleMixin, ClassifierMixin, BaseEstimator):
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
        Regularisation: ``lambda = lambda0 * std(Phi)``; larger regularises more (scikit-learn's ``alpha``, the
        inverse of ``C``).
    continuation : bool, default=False
        MRC-CCG only: reach ``lambda0`` through larger values (:func:`mrc_pyomo.methods.pathwise.schedule`: up to
        three stages, each ``3x`` the next, below the value at which ``mu = 0`` is optimal), each stage
        warm-started from the one before (:mod:`mrc_pyomo.methods.pathwise`).  ``upper_``, ``lower_`` and
        ``status_`` are always those at ``lambda0``; every stage's rule is a candidate for ``mu_``, so a fit
        stopped by ``time_limit`` returns the best rule seen.  ``history_`` has a ``lambda0`` column and
        ``n_iter_`` counts the masters of all stages.  Use it where the loop at ``lambda0`` churns without a
        useful rule; it is off by default because the cases the loop certifies directly take longer through the
        stages (docs/benchmarks.md, "The library's choices", "Continuation").
    fit_intercept : bool, default=True
        Prepend the constant feature 1 to ``Psi``.
    method : {"ccg", "lp", "subgradient", "fom", "pdhg"} or another registered name, default="ccg"
        A method of the registry (:mod:`mrc_pyomo.methods.registry`): any name registered with
        :func:`~mrc_pyomo.methods.registry.register_method` is valid, also one registered after this estimator was
        made (``examples/new_method.py`` adds Kelley's cutting planes).  The built-in ones: ``"ccg"``, MRC-CCG
        (Algorithm 1); ``"lp"``, the full LP over all ``n (2^K - 1)`` rows (its primal or dual form by the simplex
        or the interior point method, chosen by size: :func:`mrc_pyomo.methods.full_lp.choose_method`);
        ``"subgradient"``, MRC-SUB, the accelerated subgradient method of the MRC literature
        (:mod:`mrc_pyomo.methods.subgradient`; the paper's baseline; ``max_iter`` subgradient steps, no LP,
        ``master_`` is None); the first-order methods (:mod:`mrc_pyomo.methods.first_order`): ``"fom"``,
        MRC-FOM, FISTA on the smoothed worst-case risk, and ``"pdhg"``, MRC-PDHG, a restarted primal-dual hybrid
        gradient on the LP's saddle form whose dual is a running lower bound (``max_iter`` iterations of one
        forward and one backward pass over the data, in memory, on Dask or on a GPU's arrays), then MRC-CCG from
        the rows they name active, for the certificate (``max_iter`` masters at most).
    first_order : "auto" or bool, default="auto"
        First-order phases before the loop, for a method that takes them (its registry entry's ``routed``:
        MRC-CCG), chosen by the problem's shape (:func:`mrc_pyomo.methods.route.route`): none where masters are
        cheap (few classes and columns, sparse text); MRC-PDHG's iterations for many classes and random Fourier
        features; FISTA's first seconds, then MRC-PDHG's iterations from FISTA's point, for images.  The loop
        starts from the master of PDHG's supports; every phase's rule is a candidate for ``mu_``, and with a
        ``time_limit`` too short for the masters, the iterations go on to the limit (:mod:`mrc_pyomo.methods.pathwise`).
        ``True``: the route's phases, or MRC-PDHG's where it has none; ``False``: none.  ``history_`` shows the
        phases (``phase == "first-order"``) and ``n_iter_`` counts their iterations with the masters;
        ``max_iter`` bounds each.  :func:`~mrc_pyomo.mrc_path` runs none (each stage starts from the one before;
        ``True`` is refused there).
    solver : str or Pyomo solver instance, default="highs"
        ``"highs"``: the built-in HiGHS backend, the master loaded in bulk from NumPy arrays.  Any other name is
        a Pyomo solver name (``pyomo.environ.SolverFactory``): a persistent interface (``"appsi_highs"``,
        ``"gurobi_persistent"``, ``"cplex_persistent"``, ...) is handed the master's Pyomo model once and then
        each change; any other solver (``"glpk"``, ``"cbc"``, ...) is handed the model at every solve.  An
        instance (``SolverFactory("glpk")``, its options set) is taken as its name is, with its options: the fit
        solves with a solver made like it and leaves the instance as it was (docs: "A solver instance").
    formulation : {"paper", "compact"}, another registered name, or Formulation, default="paper"
        The formulation of the master (:mod:`mrc_pyomo.formulations`): the paper's rows ``(i, C)``, or the
        compact form of ``(sample, class)`` pairs, a column ``u_iy >= 0`` each and one row per sample (``n (K +
        1)`` rows for the full LP instead of ``n (2^K - 1)``).  Both give the same ``R*`` and the same
        certificate.  MRC-CCG is faster in the paper's rows; the compact full LP (``method="lp"``) is the one
        for many classes and a few hundred samples (docs/architecture.rst, "The formulation seam").
    eps_1 : float, default=1e-3
        Target of the certified gap: the fit has converged when ``upper_ - lower_ <= eps_1``, so ``upper_``
        is then within ``eps_1`` of the minimax risk ``R*``.  ``0`` asks for the gap of round-off
        (:data:`mrc_pyomo.oracles.certificate.GAP_FLOOR`).  What scikit-learn calls ``tol`` (no alias: ``eps_1``
        is the paper's name), but a certified bound on the distance to the optimum, not a change between steps.
    eps_2 : float, default=1e-5
        Threshold on the dual (feature) violations of the regime ``"nm"``.
    n_max, m_max : int, default=400
        Rows and features added per iteration at most.
    max_iter : int or None, default=None
        Iterations of the generation loop at most (subgradient steps for ``method="subgradient"``, first-order
        iterations for ``method="fom"``); None: the method's default, 1,000, and 10,000 steps for MRC-SUB (MRCpy's,
        as in the paper's comparisons: its rule after 1,000 steps is still the trivial one on digits).
    regime : {"auto", "n", "nm"}, default="auto"
        MRC-CCG's regime, which each method's ``configure`` reads (MRC-FOM's certificate always runs in ``"n"``;
        MRC-SUB and the full LP take the whole problem; ``regime_`` says where a fit ran): ``"n"``: all features,
        rows added and removed; ``"nm"``: rows and features added.  ``"auto"`` uses ``"n"`` when ``K * D <=
        LARGE_M``, else the full LP when it has few rows (``regime_ = "full"``: MRC-CCG's registry entry then runs
        the full LP's steps, as ``method="lp"``; sparse text with few classes; :func:`~mrc_pyomo.mrc_path` keeps to
        the generation loop), else ``"nm"`` for sparse features and ``"n"`` for dense ones (random Fourier
        features, images: the certificate of ``"nm"`` cannot close while dense features lie outside ``J``);
        :func:`mrc_pyomo.methods.ccg.config.choose_regime` states the rule and its measurements.
    time_limit : float, optional
        Seconds the fit may take (None: no limit), its own seconds from its start: the validation of the data and
        the preparation of the problem count, the time spent at a step (in ``callback``, or between two ``next()``
        of :meth:`steps`) does not.  A fit has one :class:`~mrc_pyomo.methods.deadline.Deadline`, which every
        level asks for the time left (the stages, the first-order phase, the loop, each master's solve, which
        HiGHS stops at the limit; :func:`~mrc_pyomo.mrc_path`'s bounds all its stages): once the time is up no
        master or iteration starts, so a fit returns within the limit plus one solve and a few passes over the
        data, with ``status_ == "time_limit"`` and the best certified rule found.  The paper's small first master
        is solved whatever the time, so that a loop whose time is up before it still ends with a master's rule.
    solver_options : dict, optional
        Options passed to the solver (HiGHS option names on the default path); ``{"tee": True}`` shows the
        solver's own log, with any solver (HiGHS's ``output_flag``, Pyomo's ``tee``).
    random_state : int, RandomState or None
        Seeds the random Fourier features.
    verbose : int or bool, default=False
        What the fit shows while it runs (:mod:`mrc_pyomo.display.progress`): ``0`` / ``False`` nothing; ``1`` /
        ``True`` a live progress line on stderr (iteration, certified interval and gap, rows and features, elapsed
        time), drawn by tqdm in a terminal or a notebook; ``2`` the iteration log on stdout, within 100 columns;
        ``3`` the wide log, every column of it (the largest violations, the solver's seconds).  The solver's own
        log appears at no level, only when ``solver_options`` asks for it (``{"tee": True}``).
    callback : callable, optional
        Called after each master solve and check with a :class:`~mrc_pyomo.methods.ccg.record.IterationState` (the
        master and its Pyomo model, ``mu``, ``nu``, the duals, the rows and features added and removed, the
        violations, the rows and features chosen next); returning a true value stops the loop.  With
        ``method="fom"`` and in a first-order phase (``first_order``), called after each of its iterations with
        its history record (a dict).
    class_weight : dict, "balanced" or None, default=None
        Weights of the classes, ``{label: weight}`` (a label left out weighs 1; a label not in ``y`` is an error),
        or ``"balanced"``: ``n / (K n_k)`` (sums of ``sample_weight`` if given).  As in scikit-learn, they multiply
        ``sample_weight`` (:func:`~mrc_pyomo.estimator.fitting.class_sample_weight`), which enters ``tau`` and
        ``lambda`` (see :meth:`fit`); a class of weight 0 is left out of the fit.
    warm_start : bool, default=False
        A fit of an estimator fitted before, with the same classes and width of ``mu_``, starts from that fit (other
        classes or widths: ``ValueError``): its ``mu_`` a candidate for the new one and, for MRC-CCG, its master's
        rows and features in the first master (:mod:`mrc_pyomo.estimator.warm`); no first-order phase or
        continuation then.  The certificate is the new fit's own.  Other methods start from nothing given.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The sorted distinct labels; class ``k`` is ``classes_[k]`` (``K = n_classes``).
    n_features_in_ : int
        The number of columns of ``X`` seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        The column names of ``X`` when it was a data frame with string column names (scikit-learn's
        convention); absent otherwise.
    feature_map_ : transformer
        The fitted feature map: ``feature_map_.transform(X)`` is ``Psi(X)``, shape ``(n, D)``, the constant 1
        first with ``fit_intercept=True`` (:doc:`theory`, "The classifier").
    tau_, lambda_ : ndarray of shape (n_classes, D)
        The mean and confidence vectors of the uncertainty set (eq. 2): ``tau`` the (weighted) mean of
        ``Phi(x_i, y_i)`` over the training samples, ``lambda = lambda0 * s`` with ``s`` their standard
        deviation (population, ``ddof=0``).
    mu_ : ndarray of shape (n_classes, D)
        The rule's coefficients, in the user's units: class ``y`` scores ``v_y = Psi(x) . mu_[y]``.
    nu_ : float
        ``varphi(mu_) + 1`` (``varphi(mu) = max_i psi(x_i)``, eq. 9): the LP's ``nu`` at ``mu_``.
    objective_ : float
        The last master's optimal value ``R^k`` as the LP solver reported it (NaN where no master was
        solved): for inspection only; the certified values are ``lower_`` and ``upper_``.
    n_iter_ : int
        The iterations of the fit: the masters of MRC-CCG (and the iterations of a first-order phase before
        them), the steps of MRC-SUB, the iterations of MRC-FOM; 0 for ``method="lp"``.
    history_ : pandas.DataFrame
        One row per iteration (:doc:`tutorial`, "The iteration log", names each column): the master's value
        ``R_master``, the exact ``R_mu`` of its point, the certified ``lower`` and ``upper``, the largest
        primal and dual violations, the master's rows and features and those added and removed, the seconds
        of the oracles, the model's updates and the solver, the solver's own status, ``lambda0`` and
        ``phase``.
    master_ : RestrictedMaster or None
        The restricted master of the last iteration (:doc:`export`): its Pyomo model is ``master_.model``,
        ``master_.write(path)`` writes it as ``.lp`` or ``.mps``.  It is the LP in the rescaled columns: its
        ``mu_pos[y, j]`` and ``mu_neg[y, j]`` are ``mu1`` and ``mu2`` divided by ``column_scale_[j]``.  None
        for MRC-SUB (no LP) and for a full LP its time limit stopped.
    regime_ : str
        Where the fit ran: ``"n"`` (all features, rows generated), ``"nm"`` (rows and features generated) or
        ``"full"`` (the whole problem at once: the full LP, ``method="lp"`` or chosen by ``regime="auto"``, and
        MRC-SUB); MRC-FOM's certificate runs in ``"n"``.
    upper_, lower_ : float
        The certified interval ``lower_ <= R* <= upper_ = R(mu_)``.
    status_ : str
        ``"converged"`` exactly when ``upper_ - lower_ <= eps_1``, whatever the solver reported (its own status
        is the history's ``solver_status``); otherwise ``"max_iter"``, ``"time_limit"``, ``"callback"``,
        ``"stalled"`` (every solve optimal, but the solver's precision cannot narrow the gap further: the
        warning gives the gap) or ``"solver_error"`` (the solver failed on a later master; the history's last
        record says why).
    column_scale_ : ndarray of shape (D,)
        The internal scale ``d`` of the columns of ``Psi`` (:mod:`mrc_pyomo.problem.scaling`).
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

    __init__ = make_init(PARAMETERS)   # one attribute per parameter (mrc_pyomo.estimator.parameters)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def set_params(self, **params):
        """Set parameters (scikit-learn's ``set_params``); refused (``RuntimeError``) while a fit of the estimator
        runs or is paused (:meth:`steps`): the fit would end with the attributes of other parameters."""
        check_not_fitting(self, "setting its parameters")
        return super().set_params(**params)

    def _validate_params(self):
        """Check the parameters (:func:`mrc_pyomo.estimator.parameters.validate_parameters`)."""
        validate_parameters(self)

    # nested validation on: the parameters of a user's feature map (phi) are checked before it is fitted
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Learn the MRC from ``X`` (dense, scipy.sparse or a Dask array, shape ``(n, d)``) and labels ``y``:
        validate, prepare the problem (:func:`mrc_pyomo.problem.prepare`), solve it by the method, set the fitted
        attributes (:mod:`mrc_pyomo.estimator.fitted`) in one step.  Nothing is written into the estimator before
        the fit ends: a fit that raises (an error, a callback's exception, ``KeyboardInterrupt``) leaves it as it
        was.  A second fit of an estimator whose fit is running or paused (:meth:`steps`) is refused
        (``RuntimeError``).

        ``sample_weight`` (array of shape ``(n,)``, non-negative): the weights of the samples in ``tau`` and
        ``lambda`` (eq. 2: the weighted mean and standard deviation of ``Phi``), so that an integer weight is
        that many copies of the sample; a sample of weight 0 is not a training sample (it is left out, also of
        the maximum over the samples in ``R``).  The feature map's fit takes them where it can (the ``gamma="scale"``
        of random Fourier features; a transformer whose ``fit`` has ``sample_weight``)."""
        with running_fit(self):
            fitted = finish(self._fit_steps(X, y, sample_weight), self.callback)
        return commit(self, fitted)

    def steps(self, X, y, sample_weight=None):
        """Fit as :meth:`fit` does, one iteration at a time: an iterator (:class:`~mrc_pyomo.estimator.steps.Steps`)
        over the iterations, each an :class:`~mrc_pyomo.methods.ccg.record.IterationState` (a first-order phase's
        are its history records), so that a notebook shows one per cell (``state = next(steps)``).  The fit runs
        in the caller's thread, only inside ``next()``, and sets the fitted attributes when it ends; ``close()``,
        ``break`` out of a ``for`` loop over it or dropping it ends it as a callback's stop does (``status_ ==
        "callback"``).  While it is paused the estimator is as it was and another fit of it is refused; at the
        end of the program it is dropped.  ``callback``, if set, is called too (:mod:`mrc_pyomo.estimator.steps`)."""
        self._validate_params()   # now, and again when the fit starts (the parameters may change in between)
        return Steps(self, lambda: self._fit_steps(X, y, sample_weight, validate=True), self.callback)

    def _fit_steps(self, X, y, sample_weight, validate=False):
        """The work of :meth:`fit` as a generator of its iterations (:mod:`mrc_pyomo.methods.result`) that returns
        the finished fit, a :class:`~mrc_pyomo.estimator.fitted.Fitted` not yet written into the estimator (the
        parameters checked first if ``validate``): the data prepared and the method planned
        (:mod:`mrc_pyomo.estimator.fitting`), then the path at the core (:func:`mrc_pyomo.methods.pathwise.fit_steps`)
        at ``lambda0``, through the larger values of :func:`~mrc_pyomo.methods.pathwise.schedule` with
        ``continuation=True``, after the first-order phases where they pay, or (``warm_start``) from the previous
        fit (:mod:`mrc_pyomo.estimator.warm`); the whole within one
        :class:`~mrc_pyomo.methods.deadline.Deadline` of ``time_limit``, which leaves out the time spent at a step
        (a callback, a paused :meth:`steps`)."""
        if validate:
            self._validate_params()
        deadline = Deadline(self.time_limit)
        method = get_method(self.method)
        problem, inputs = problem_of(self, X, y, sample_weight, self.lambda0, method)
        config, phases = plan_of(self, method, problem)
        start, lambda0s = warm_start_of(self, problem, method, config), [self.lambda0]
        if start is None and self.continuation and method.warm_starts:
            lambda0s = schedule(self.lambda0, zero_rule_lambda0(problem))
        phases = () if start is not None else phases   # a warm fit starts from the previous one
        with progress_display(self.verbose, method, stages=len(lambda0s) > 1,
                              phases=tuple(phase.method for phase in phases)) as progress:
            steps = fit_steps(problem, lambda0s, method, config, deadline=deadline, log=progress, phases=phases,
                              start=start)
            result = yield from caller_time_left_out(steps, deadline)
            attributes, rule = fitted_attributes(problem, result, config.regime, self.eps_1)
            messages = fit_warnings(problem, attributes, rule, self, getattr(config, "max_iter", None))
            del problem   # not held once the attributes are made
            progress.close(*(attributes[name] for name in ("status_", "lower_", "upper_", "n_iter_")))
        return Fitted({**inputs, **attributes}, messages)
