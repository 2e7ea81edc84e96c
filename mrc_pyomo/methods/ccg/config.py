"""The settings of MRC-CCG (paper, Algorithm 1): :class:`CCGConfig` holds them all, and the rules that derive a setting
from the problem (:func:`choose_regime`, :func:`row_age`, :func:`simplex_budget`) state the measurements behind them.
Nothing here changes at run time: a variant of the loop is another config."""

from dataclasses import dataclass

import numpy as np

from .. import full_lp
from ...master.solver_backends import BUILTIN_SOLVER
from ...problem.initialization import MAX_CLASSES_ALL_SUBSETS


# "auto" picks the large n and m regime when the LP has more than this many features m = K * D, unless the full LP
# fits the full LP's limits (full_lp.MAX_ROWS, full_lp.MAX_NONZEROS): it is then solved directly (regime "full") ...
LARGE_M = 10_000
# ... or the feature map has more than this fraction of nonzeros (dense features): regime "n" (choose_regime)
SPARSE_DENSITY = 0.1
# the regime "nm" first runs FEAT alone on the initial rows for at most this many masters
INIT_FEATURE_ROUNDS = 3
# rows leave the master after this many consecutive over-satisfied masters when lambda0 = 0 (row_age)
UNREGULARISED_ROW_AGE = 3
# the masters' dual form (master_form) has a basis of K D + 1 rows: up to this many columns per sign its half of the
# primal's entries wins; with more (satellite + RFF: 2,622) its larger basis costs what the entries save
DUAL_FORM_COLUMNS = 2000
#: HiGHS's options for the certificate's masters after a first-order phase, in their primal form, under the user's
#: ``solver_options`` (:func:`certificate_options`): its simplex scales each row and column by a power of 2 near its
#: largest entry (``simplex_scale_strategy`` 4), not by HiGHS's default equilibration (2), under which its warm dual
#: simplex on masters of dense rows found bases possibly singular and reinverted them
CERTIFICATE_HIGHS_OPTIONS = {"simplex_scale_strategy": 4}


@dataclass(frozen=True)
class CCGConfig:
    """Every setting of MRC-CCG (Algorithm 1), as :class:`~mrc_pyomo.MRCClassifier` passes them.

    ``regime``: ``"n"`` (all features, rows added and removed), ``"nm"`` (rows and features added) or ``"full"`` (the
    full LP at once, :mod:`mrc_pyomo.methods.full_lp`); ``eps_1``: the certified gap at which the loop stops (and the
    rows' violation threshold); ``eps_2``: the features' dual violation threshold; ``n_max`` / ``m_max``: the rows /
    features added per iteration at most; ``max_iter``: masters at most (the time is the fit's
    :class:`~mrc_pyomo.methods.deadline.Deadline`'s); ``solver`` / ``solver_options``: the master's backend
    (:mod:`mrc_pyomo.master`); ``formulation``: ``"paper"`` or ``"compact"`` (:mod:`mrc_pyomo.formulations`);
    ``fit_intercept``: the first column of ``Psi`` is the constant 1; ``row_age``: in the regime ``"n"`` a row leaves
    the master after this many consecutive over-satisfied masters (1: at the first, as in the paper; None: never, for a
    first master that already holds nearly the final rows, and on sparse text of more than two classes:
    :func:`row_age`); ``form``: the form in which the built-in solver takes each master, ``"primal"`` (eq. 7,
    :class:`~mrc_pyomo.master.highs_backend.HighsBackend`) or ``"dual"`` (eq. 8, its dual LP kept warm,
    :class:`~mrc_pyomo.master.dual_lp.WarmDualBackend`; :func:`master_form`).

    Three settings serve experiments, off or at their measured values by default
    (``benchmarks/experiments/loop_variants.py``; docs/theory.rst): ``in_out`` (in-out separation, Ben-Ameur and Neto:
    rows separated at ``in_out * best + (1 - in_out) * (mu^k, nu^k)``; 0: at ``mu^k``) and ``stall_factor`` /
    ``stall_floor`` (:func:`simplex_budget`; ``stall_factor=None``: no budget).  ``shrink``: once the lower end has
    settled (it rose by less than ``eps_1`` at a master) with every violated sample picked, the master's rule shrunk
    onto its level is a candidate for the upper end (:func:`~mrc_pyomo.oracles.incumbent.shrunk_to_level`; False: only
    the master's rule; :func:`configure` turns it on for sparse text of more than two classes)."""

    regime: str = "n"
    fit_intercept: bool = True
    eps_1: float = 1e-3
    eps_2: float = 1e-5
    n_max: int = 400
    m_max: int = 400
    max_iter: int = 1000
    solver: str = "highs"
    solver_options: dict = None
    formulation: str = "paper"
    row_age: int = 1
    form: str = "primal"
    in_out: float = 0.0
    stall_factor: float = 3.0
    stall_floor: float = 1.0
    shrink: bool = False


def choose_regime(n_classes, n_features, full_lp_size=None, density=0.0):
    """The regime of ``regime="auto"``: ``"n"`` when ``m = K D <= LARGE_M``; else ``"full"`` when the full LP's
    ``(rows, nonzeros)`` (``full_lp_size``; None: unknown, taken as more) are within the full LP's limits
    (:func:`mrc_pyomo.methods.full_lp.within_limits`); else ``"nm"`` when the features are sparse (``density``, the
    fraction of nonzeros of ``Psi``, at most :data:`SPARSE_DENSITY`) and ``"n"`` when they are dense.

    The full LP (:mod:`mrc_pyomo.methods.full_lp`) certifies sparse text far sooner than the regime ``"nm"``: the
    smallest master that certifies holds most of its rows, many samples of text pinned by their rare words (measured:
    docs/benchmarks.md, "Sparse text"); it is far slower with few features ("The library's choices", "The regime of
    regime='auto'").  Column generation pays when a feature is nonzero on few samples; with dense features every
    feature outside ``J`` has a dual violation on the rows of ``I``, and the certificate of the regime ``"nm"``
    (docs/theory.rst, "The certified interval") stays near 0 until ``J`` holds nearly all."""
    if n_classes * n_features <= LARGE_M:
        return "n"
    if full_lp_size is not None and full_lp.within_limits(full_lp_size):
        return "full"
    return "nm" if sparse_text(n_classes, n_features, density) else "n"


def sparse_text(n_classes, n_features, density):
    """Whether a problem of ``K = n_classes``, ``D = n_features`` and ``density`` (the fraction of nonzeros of
    ``Psi``) is sparse text to the rules of the loop: more than :data:`LARGE_M` features ``m = K D``, at most
    :data:`SPARSE_DENSITY` of them nonzero (:func:`choose_regime`'s ``"full"`` or ``"nm"``, :func:`row_age`)."""
    return n_classes * n_features > LARGE_M and density <= SPARSE_DENSITY


def multi_class_text(problem):
    """Whether ``problem`` is :func:`sparse_text` of more than two classes: where the loop keeps its rows
    (:func:`row_age`) and shrinks its rules (:func:`configure`), and where a large full LP gives way to FISTA's phase
    (:func:`~mrc_pyomo.methods.plan.takes_full_lp`)."""
    return problem.n_classes > 2 and sparse_text(problem.n_classes, problem.n_features, feature_density(problem))


def feature_density(problem):
    """The fraction of nonzero entries of the problem's ``Psi`` (:attr:`~mrc_pyomo.problem.MRCProblem.nonzeros`)."""
    size = problem.n_samples * problem.n_features
    return problem.nonzeros / size if size else 0.0


def problem_regime(problem, regime="auto", formulation="paper"):
    """``regime`` on ``problem``: as given, or for ``"auto"`` :func:`choose_regime`'s answer from the problem's size,
    the rows of its full LP (:meth:`~mrc_pyomo.problem.MRCProblem.full_lp_size`) and its features' density."""
    if regime != "auto":
        return regime
    return choose_regime(problem.n_classes, problem.n_features, problem.full_lp_size(formulation),
                         feature_density(problem))


def master_form(problem, regime, solver, formulation):
    """The :class:`CCGConfig` ``form`` of the masters of a loop in ``regime`` on ``problem`` by ``solver`` in
    ``formulation``: ``"dual"`` where the built-in solver takes the paper's rows in the regime ``"n"`` (its features
    fixed), the master has no row ``objective >= 0`` (at most
    :data:`~mrc_pyomo.problem.initialization.MAX_CLASSES_ALL_SUBSETS` classes) and at most :data:`DUAL_FORM_COLUMNS`
    columns per sign ``K D``; else ``"primal"``.  The dual LP (eq. 8) holds half the primal's entries (no ``mu1`` /
    ``mu2`` pair), and the loop's changes keep its basis primal feasible
    (:class:`~mrc_pyomo.master.dual_lp.WarmDualBackend`): on pulsar at the paper's size, whose masters of dense random
    Fourier features are the fit's time, the solver's seconds fell by a quarter (measured: docs/benchmarks.md, "The
    library's choices", "The masters' form")."""
    dual = (solver == BUILTIN_SOLVER and formulation == "paper" and regime == "n"
            and problem.n_classes <= MAX_CLASSES_ALL_SUBSETS
            and problem.n_classes * problem.n_features <= DUAL_FORM_COLUMNS)
    return "dual" if dual else "primal"


def certificate_options(config):
    """The solver options of the certificate's masters after a first-order phase under ``config`` (a
    :class:`CCGConfig`): on the built-in solver in the primal form, ``config.solver_options`` over
    :data:`CERTIFICATE_HIGHS_OPTIONS`; else ``config.solver_options`` as given.  After the phase's support, whose first
    master the interior point method solves, the warm dual simplex then spent less time on the same masters of many
    classes, of random Fourier features and of images.  The loop alone keeps HiGHS's equilibration: without it, the
    quick harness's random Fourier features of ten classes gained too, but its images of mnist took more masters, and
    no rule between them has been measured yet.  So does the dual form: its primal simplex gained little without it,
    and on a badly scaled master of a test ended without an optimum (measured: docs/benchmarks.md, "The library's
    choices", "The simplex's scaling")."""
    if config.solver != BUILTIN_SOLVER or config.form != "primal":
        return config.solver_options
    return {**CERTIFICATE_HIGHS_OPTIONS, **(config.solver_options or {})}


def simplex_budget(solve_seconds, config=None):
    """Seconds a warm-started simplex may take on the next master: ``config.stall_factor`` times the largest solve so
    far, at least ``config.stall_floor``; no budget for the first master.  Masters grow along the loop, so a warm
    simplex several times slower than that has stalled on a degenerate master, which the interior point method, whose
    time depends on the master's size and not on its degeneracy, solves from scratch instead (measured:
    docs/benchmarks.md, "The library's choices", "The simplex's stall budget")."""
    config = CCGConfig() if config is None else config
    if config.stall_factor is None or not len(solve_seconds):
        return None
    return max(config.stall_floor, config.stall_factor * float(np.max(solve_seconds)))


def row_age(lambda0, text=False):
    """The ``row_age`` of a fit at ``lambda0`` (:class:`CCGConfig`): 1 (the paper's rule) with regularisation,
    :data:`UNREGULARISED_ROW_AGE` without, None (rows never leave) on ``text`` (:func:`sparse_text` of more than two
    classes, as :func:`configure` passes it).  Without ``lambda.|mu|`` only the rows bound ``mu``, and removing a row
    at its first zero dual makes the loop a cutting-plane zigzag (every master drops the rows added just before); with
    regularisation the same ageing slowed every quick case.  On sparse text the tiny ``lambda_j`` of rare words leave
    the same zigzag: a master's ``mu`` leans on the rare words of the rows it holds, a row it drops comes back a few
    masters later, and ageing does not stop it; on two classes neither rule certified (measured: docs/benchmarks.md,
    "The library's choices", "Row ageing")."""
    if text:
        return None
    return UNREGULARISED_ROW_AGE if lambda0 == 0 else 1


def configure(settings, problem):
    """The :class:`CCGConfig` of the estimator's :class:`~mrc_pyomo.estimator.parameters.Settings` on ``problem``: the
    regime :func:`problem_regime` makes of the one asked for, the :func:`row_age` of its ``lambda0`` and shape (text of
    more than two classes keeps its rows), the masters' :func:`master_form`, and on that text ``shrink`` (elsewhere
    the masters' rules are not far above their level, and shrinking them cost quick cases up to a quarter of their
    time for no master saved: docs/benchmarks.md, "The library's choices", "The shrunk rule")."""
    text = multi_class_text(problem)
    regime = problem_regime(problem, settings.regime, settings.formulation)
    return CCGConfig(
        regime=regime, fit_intercept=settings.fit_intercept, eps_1=settings.eps_1, eps_2=settings.eps_2,
        n_max=settings.n_max, m_max=settings.m_max,
        max_iter=CCGConfig.max_iter if settings.max_iter is None else settings.max_iter, solver=settings.solver,
        solver_options=settings.solver_options, formulation=settings.formulation,
        row_age=row_age(settings.lambda0, text), shrink=text,
        form=master_form(problem, regime, settings.solver, settings.formulation))
