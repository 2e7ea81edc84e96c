"""``MRCClassifier``: the scikit-learn estimator of 0-1 minimax risk classifiers.

``fit`` prepares the problem (:func:`mrc_pyomo.problem.prepare`: ``Psi``, ``tau`` and ``lambda`` of eq. 2), solves the
MRC LP (eq. 4) by a method of :mod:`mrc_pyomo.methods` (MRC-CCG through :func:`mrc_pyomo.methods.pathwise.fit_steps`, as
:func:`mrc_pyomo.mrc_path` does) and sets the attributes in the user's units (:mod:`mrc_pyomo.estimator.fitted`), among
them the rule (:mod:`mrc_pyomo.estimator.rule`) and its certified interval ``lower_ <= R* <= upper_``
(:mod:`mrc_pyomo.oracles.certificate`), neither bound the LP solver's value; a gap above ``eps_1`` raises a
``ConvergenceWarning``.
"""

from functools import partial

from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context

from ..display.progress import progress_display
from ..methods import get_method
from ..methods.deadline import Deadline, caller_time_left_out
from ..methods.pathwise import fit_steps
from ..methods.result import finish
from .callbacks import FitCallbacks, FitTasks, end_root, watched
from .fitted import Fitted, FittedStateMixin, commit, fit_warnings, fitted_attributes, iteration_attributes
from .fitting import plan_of, problem_of
from .parameters import (API_PAGE, PARAMETER_CONSTRAINTS, PARAMETERS, DocLinkMixin, SolverCloneMixin, make_init,
                         settings_of, validate_parameters)
from .rule import RuleMixin
from .steps import Steps, check_not_fitting, running_fit
from .warm import warm_start_of


class MRCClassifier(FitCallbacks, FittedStateMixin, DocLinkMixin, SolverCloneMixin, RuleMixin, ClassifierMixin,
                    BaseEstimator):
    """Minimax risk classifier with the 0-1 loss, learned by constraint and column generation.

    Standardise raw features: ``R``, the rule and its certificate are invariant under a positive rescaling of a column
    of ``X``, not under a shift of it, which the regularised intercept pays for; ``make_pipeline(StandardScaler(),
    MRCClassifier())`` centres and scales in a way ``predict`` repeats (``examples/standardize.py``).

    Parameters
    ----------
    phi : {"linear", "fourier"} or transformer, default="linear"
        Feature map ``Psi``: identity, random Fourier features appended to the data (400,
        :class:`~mrc_pyomo.feature_maps.RandomFourierFeatures`), or a transformer (cloned).
    lambda0 : float, default=0.01
        Regularisation: ``lambda = lambda0 * std(Phi)``; larger regularises more (scikit-learn's ``alpha``).
    continuation : bool, default=False
        MRC-CCG only: reach ``lambda0`` through up to three larger values, each stage warm-started from the one before
        (:func:`mrc_pyomo.methods.plan.schedule`); the attributes are those at ``lambda0``, every stage's rule a
        candidate for ``mu_``, ``history_`` has a ``lambda0`` column.  Off by default: the cases the loop certifies
        directly take longer through the stages (docs/benchmarks.md, "The library's choices", "Continuation").  Where
        the plan runs first-order phases, they bring the loop near ``lambda0`` instead: no larger stage runs.
    fit_intercept : bool, default=True
        Prepend the constant feature 1 to ``Psi``.
    method : {"ccg", "lp", "subgradient", "fom", "pdhg"} or another registered name, default="ccg"
        Any name in the registry (:mod:`mrc_pyomo.methods.registry`), also one registered after the estimator was made
        (:func:`~mrc_pyomo.methods.registry.register_method`, ``examples/new_method.py``).  Built in: ``"ccg"``, MRC-CCG
        (Algorithm 1); ``"lp"``, the full LP over all ``n (2^K - 1)`` rows
        (:func:`mrc_pyomo.methods.full_lp.choose_method`); ``"subgradient"``, MRC-SUB, the paper's baseline
        (:mod:`mrc_pyomo.methods.subgradient`; no LP, ``master_`` is None); ``"fom"``, MRC-FOM, FISTA on the smoothed
        worst-case risk, and ``"pdhg"``, MRC-PDHG, a restarted primal-dual hybrid gradient on the LP's saddle form
        (:mod:`mrc_pyomo.methods.first_order`), each then certified by MRC-CCG from the rows it names active.
    first_order : "auto" or bool, default="auto"
        First-order phases before the loop of a method that takes them (MRC-CCG), planned by the problem's shape and the
        time limit (:mod:`mrc_pyomo.methods.plan`): none where masters are cheap, MRC-PDHG for many classes and random
        Fourier features, FISTA then MRC-PDHG for images, FISTA for sparse text with a time limit its full LP is not
        expected to meet or of more than two classes and a large LP (else its full LP); with a time limit the loop
        alone gives way to MRC-PDHG's iterations if, past a quarter of it, its checks still pick full blocks of
        ``n_max`` samples.  The loop starts from the master of a phase's rows, and every phase's rule is a candidate
        for ``mu_`` (:mod:`mrc_pyomo.methods.pathwise`).
        ``True``: the route's phases, or MRC-PDHG's where it has none; ``False``: none.  ``max_iter`` bounds each.
    solver : str or Pyomo solver instance, default="highs"
        ``"highs"``: the built-in HiGHS backend, the master loaded in bulk from NumPy arrays.  Any other name is a Pyomo
        solver (``pyomo.environ.SolverFactory``; a persistent interface such as ``"gurobi_persistent"`` is handed each
        change, any other the model at every solve).  An instance (``SolverFactory("glpk")``, its options set) stands
        for its name and options, and is left as it was (docs: "A solver instance").
    formulation : {"paper", "compact"}, another registered name, or Formulation, default="paper"
        The master's formulation (:mod:`mrc_pyomo.formulations`): the paper's rows ``(i, C)``, or the compact form, a
        column ``u_iy >= 0`` per (sample, class) pair and one row per sample; both give the same ``R*`` and certificate.
        MRC-CCG is faster in the paper's rows, the full LP (``method="lp"``) with many classes in the compact form
        (docs/architecture.rst, "The formulation seam").
    eps_1 : float, default=1e-3
        Target of the certified gap (scikit-learn's ``tol``): converged when ``upper_ - lower_ <= eps_1``, so ``upper_``
        is within ``eps_1`` of ``R*``; ``0`` asks for the gap of round-off
        (:data:`mrc_pyomo.oracles.certificate.GAP_FLOOR`).
    eps_2 : float, default=1e-5
        Threshold on the dual (feature) violations of the regime ``"nm"``.
    n_max : int, default=400
        Rows added per iteration at most.
    m_max : int, default=400
        Features added per iteration at most.
    max_iter : int or None, default=None
        Iterations at most: masters, MRC-SUB's steps, first-order iterations; None: 1,000, and 10,000 steps for MRC-SUB
        (MRCpy's, as in the paper's comparisons).  It bounds the whole fit, the stages of ``continuation`` together
        (they are one fit at ``lambda0``), where a path (:func:`~mrc_pyomo.mrc_path`, the folds of
        :class:`~mrc_pyomo.MRCClassifierCV`) gives each of its values its own, as ``LogisticRegressionCV`` each ``C``.
    regime : {"auto", "n", "nm"}, default="auto"
        MRC-CCG's regime: ``"n"``: all features, rows added and removed (kept, on sparse text of more than two
        classes: :func:`mrc_pyomo.methods.ccg.config.row_age`); ``"nm"``: rows and features added.  ``"auto"``:
        ``"n"`` when ``K * D <= LARGE_M``, else the full LP when its rows and nonzeros are within the full LP's limits
        (``regime_ = "full"``; not in :func:`~mrc_pyomo.mrc_path`, nor with a time limit it is not expected to meet,
        where sparse text takes FISTA's phase, then the loop of the regime ``"n"``), else ``"nm"`` for sparse features
        and ``"n"`` for dense ones
        (:func:`mrc_pyomo.methods.ccg.config.choose_regime` states the rule and its measurements).
    time_limit : float, optional
        Seconds the fit may take (None: no limit), the data's preparation included, the time spent at a step
        (``callback``, a paused :meth:`steps`) not.  Once its :class:`~mrc_pyomo.methods.deadline.Deadline` is up no
        master or iteration starts, so a fit returns within the limit plus one solve and a few passes over the data,
        with ``status_ == "time_limit"`` and the best certified rule found.
    solver_options : dict, optional
        Options passed to the solver (HiGHS option names by default); ``{"tee": True}`` shows the solver's own log.
    random_state : int, RandomState or None
        Seeds the random Fourier features.
    verbose : int or bool, default=False
        What the fit shows (:mod:`mrc_pyomo.display.progress`): ``0`` / ``False`` nothing; ``1`` / ``True`` a live
        progress line on stderr; ``2`` the iteration log on stdout; ``3`` the wide log, every column.
    callback : callable, optional
        Called after each master solve and check with a :class:`~mrc_pyomo.methods.ccg.record.IterationState`; a true
        return value stops the loop.  With ``method="fom"`` and in a first-order phase, called after each iteration with
        its history record (a dict).
    class_weight : dict, "balanced" or None, default=None
        ``{label: weight}`` (a label left out weighs 1) or ``"balanced"``: ``n / (K n_k)``; as in scikit-learn they
        multiply ``sample_weight`` (:func:`~mrc_pyomo.estimator.fitting.class_sample_weight`), and a class of weight 0
        is left out of the fit.
    warm_start : bool, default=False
        A fit of a fitted estimator (same classes and width of ``mu_``, else ``ValueError``) starts from it: its ``mu_``
        a candidate and, for MRC-CCG, its master's rows and features (:mod:`mrc_pyomo.estimator.warm`), with no
        first-order phase or continuation; the certificate is the new fit's own.

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        The sorted distinct labels; class ``k`` is ``classes_[k]`` (``K = n_classes``).
    n_features_in_ : int
        The number of columns of ``X`` seen in ``fit``.
    feature_names_in_ : ndarray of shape (n_features,)
        The column names of ``X`` when it was a data frame with string column names; absent otherwise.
    feature_map_ : transformer
        The fitted feature map: ``feature_map_.transform(X)`` is ``Psi(X)``, shape ``(n, D)``, the constant 1 first with
        ``fit_intercept=True`` (:doc:`theory`, "The classifier").
    tau_, lambda_ : ndarray of shape (n_classes, D)
        The mean and confidence vectors of the uncertainty set (eq. 2): ``tau`` the weighted mean of ``Phi(x_i, y_i)``
        over the training samples, ``lambda = lambda0 * s``, ``s`` their standard deviation (``ddof=0``).
    mu_ : ndarray of shape (n_classes, D)
        The rule's coefficients, in the user's units: class ``y`` scores ``v_y = Psi(x) . mu_[y]``.
    nu_ : float
        ``varphi(mu_) + 1`` (``varphi(mu) = max_i psi(x_i)``, eq. 9): the LP's ``nu`` at ``mu_``.
    objective_ : float
        The last master's optimal value ``R^k`` as the solver reported it (NaN without a master), not certified.
    n_iter_ : int
        Masters of MRC-CCG (with a first-order phase's iterations), steps of MRC-SUB, iterations of MRC-FOM.
    history_ : pandas.DataFrame
        One row per iteration (:doc:`tutorial`, "The iteration log", names each column): ``R_master``, ``R_mu``, the
        certified ``lower`` and ``upper``, violations, rows and features, seconds, ``lambda0``, ``phase``.
    master_ : RestrictedMaster or None
        The last iteration's restricted master (:doc:`export`; ``master_.model``, ``master_.write(path)``), in the
        rescaled columns: its ``mu_pos[y, j]`` and ``mu_neg[y, j]`` are ``mu1`` and ``mu2`` divided by
        ``column_scale_[j]``.  None for MRC-SUB and for a full LP its time limit stopped.
    regime_ : str
        Where the fit ran: ``"n"``, ``"nm"`` or ``"full"`` (the whole problem: the full LP, MRC-SUB).
    upper_, lower_ : float
        The certified interval ``lower_ <= R* <= upper_ = R(mu_)``.
    status_ : str
        ``"converged"`` exactly when ``upper_ - lower_ <= eps_1``, else ``"max_iter"``, ``"time_limit"``,
        ``"callback"``, ``"stalled"`` (the solver's precision cannot narrow the gap) or ``"solver_error"`` (see the
        history's last record).
    column_scale_ : ndarray of shape (D,)
        The internal scale ``d`` of the columns of ``Psi`` (:mod:`mrc_pyomo.problem.scaling`).
    coef_ : ndarray of shape (n_classes, n_features)
        The linear map only (``phi="linear"``): ``mu_`` without its intercept column, a read-only view; the class scores
        are ``X @ coef_.T + intercept_``.  With another ``phi`` the weights belong to ``Psi(x)``: ``coef_`` and
        ``intercept_`` raise ``AttributeError``.  A row per class for two classes too, not scikit-learn's ``(1,
        n_features)``: the MRC's rule is one vector per class, the one its certificate is about (``upper_ = R(mu_)``
        weighs each row by ``lambda_``, which their difference does not determine).  Its predictions depend on the
        difference alone (``decision_function`` is ``X @ (coef_[1] - coef_[0]) + intercept_[1] - intercept_[0]``, and
        ``predict_proba`` is unchanged by a vector added to both rows): ``coef_[1] - coef_[0]`` is the ``(1,
        n_features)`` row of scikit-learn's binary linear classifiers, its positive class ``classes_[1]``.
    intercept_ : ndarray of shape (n_classes,)
        The linear map only: ``mu_[:, 0]`` with ``fit_intercept=True``, zeros otherwise (read-only).
    """

    _parameter_constraints = PARAMETER_CONSTRAINTS
    _doc_link_template = API_PAGE + "#mrc_pyomo.{estimator_name}"   # documented under its public name (docs/api.rst)

    __init__ = make_init(PARAMETERS)   # one attribute per parameter (mrc_pyomo.estimator.parameters)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True
        return tags

    def set_params(self, **params):
        """Set the parameters as scikit-learn does; ``RuntimeError`` while a fit runs or is paused (:meth:`steps`)."""
        check_not_fitting(self, "setting its parameters")
        return super().set_params(**params)

    def _validate_params(self):
        """Check the parameters (:func:`mrc_pyomo.estimator.parameters.validate_parameters`)."""
        validate_parameters(self)

    # nested validation on: the parameters of a user's feature map (phi) are checked before it is fitted
    @_fit_context(prefer_skip_nested_validation=False)
    def fit(self, X, y, sample_weight=None):
        """Learn the MRC from ``X`` (dense, scipy.sparse or a Dask array, shape ``(n, d)``) and labels ``y``; the fitted
        attributes are set in one step at the end (:mod:`mrc_pyomo.estimator.fitted`), and a second fit while one runs
        or is paused (:meth:`steps`) raises ``RuntimeError``.

        ``sample_weight`` (shape ``(n,)``, non-negative): the weights in ``tau`` and ``lambda`` (eq. 2), an integer
        weight as that many copies; a sample of weight 0 is left out, also of ``R``'s maximum.  scikit-learn's
        callbacks (``set_callbacks``) see the fit's phases, stages and iterations
        (:mod:`mrc_pyomo.estimator.callbacks`)."""
        with running_fit(self):
            root = self._callback_root(X, y, sample_weight)
            fitted = finish(self._fit_steps(X, y, sample_weight, root=root), self.callback)
        commit(self, fitted)
        end_root(root, self, X, y, sample_weight)
        return self

    def steps(self, X, y, sample_weight=None):
        """Fit as :meth:`fit` does, one iteration at a time: a :class:`~mrc_pyomo.estimator.steps.Steps` iterator of
        :class:`~mrc_pyomo.methods.ccg.record.IterationState` (a first-order phase's history records) that runs the fit
        in the caller's thread, inside ``next()``; ``close()``, ``break`` or dropping it stops the fit as a callback
        does (:mod:`mrc_pyomo.estimator.steps`)."""
        self._validate_params()   # now, and again when the fit starts (the parameters may change in between)
        return Steps(self, lambda: self._fit_steps(X, y, sample_weight, validate=True), self.callback)

    def _fit_steps(self, X, y, sample_weight, validate=False, root=None):
        """The work of :meth:`fit` as a generator of its iterations (:mod:`mrc_pyomo.methods.result`) that returns a
        :class:`~mrc_pyomo.estimator.fitted.Fitted` (the parameters checked first if ``validate``): the problem prepared
        and the fit planned (:mod:`mrc_pyomo.estimator.fitting`, :mod:`mrc_pyomo.methods.plan`; from the previous fit
        with ``warm_start``, :mod:`mrc_pyomo.estimator.warm`), then the plan run by
        :func:`mrc_pyomo.methods.pathwise.fit_steps` within one :class:`~mrc_pyomo.methods.deadline.Deadline`; under
        the callbacks' ``root`` task, if any, its parts and iterations
        (:class:`~mrc_pyomo.estimator.callbacks.FitTasks`)."""
        if validate:
            self._validate_params()
        deadline = Deadline(self.time_limit)
        method = get_method(self.method)
        problem, inputs = problem_of(self, X, y, sample_weight, self.lambda0, method)
        start = warm_start_of(self, problem, method, method.configure(settings_of(self), problem))
        plan = plan_of(self, method, problem, start=start)   # a warm fit starts from the previous one
        phases = tuple(phase.method for phase in plan.phases + plan.fallback)
        with progress_display(self.verbose, method, stages=len(plan.stages) > 1, phases=phases) as progress:
            steps = fit_steps(problem, plan, deadline=deadline, log=progress)
            tasks = None if root is None else FitTasks(root, self, method, phases, X, y, sample_weight,
                                                       partial(iteration_attributes, problem, inputs))
            result = yield from watched(caller_time_left_out(steps, deadline), tasks)
            attributes, rule = fitted_attributes(problem, result, plan.config.regime, self.eps_1)
            messages = fit_warnings(problem, attributes, rule, self, getattr(plan.config, "max_iter", None))
            del problem, tasks   # not held once the attributes are made
            progress.close(*(attributes[name] for name in ("status_", "lower_", "upper_", "n_iter_")))
        return Fitted({**inputs, **attributes}, messages)
