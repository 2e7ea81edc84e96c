"""``method="lp"``: the full MRC LP (paper, eq. 4) over all ``n (2^K - 1)`` rows and ``K D`` features.

The reference the generation loop is checked against, and the direct method at moderate size, certified like
every fit: ``upper = R(mu)`` of the best rule on the segment from ``0`` to the LP's ``mu``, ``lower`` its duals'
Lagrangian bound (:mod:`mrc_pyomo.oracles.certificate`).

**Which LP HiGHS is given.**  The primal LP (eq. P) has ``R = n (2^K - 1)`` rows, ``2m + 1`` columns
(``m = K D``) and ``2 nnz(F) + R`` nonzeros; its dual (eq. D)::

    max -b.alpha   s.t.   tau - lambda <= F^T alpha <= tau + lambda,   sum(alpha) = 1,   alpha >= 0

has ``m + 1`` rows, ``R`` columns, ``nnz(F) + R`` nonzeros and a basis of size ``m + 1``.  With HiGHS the full
LP is a :class:`~mrc_pyomo.master.RestrictedMaster` of every row and feature on the dual form's backend
(:class:`~mrc_pyomo.master.dual_lp.DualLPBackend`, never through Pyomo): ``clf.master_``, its Pyomo model the primal LP.

**Which algorithm** (:func:`choose_method`): interior point (IPX) with crossover on the dual LP when both ``K D >=
IPM_MIN_FEATURES`` and ``K nnz(Psi) >= IPM_MIN_SIZE``, else dual simplex.  ``K nnz(Psi)``, the entries of
``Phi(x_i, y)`` over every sample and class, is the LP's intrinsic size (the ``2^(K-1)`` factor of the subsets
weighs on both algorithms alike), and the simplex's disadvantage grows with it; with few features the dual LP's
basis of ``K D + 1`` rows costs the simplex nothing whatever ``n``.  Crossover returns a vertex, certified to
round-off, which ``eps_1 = 0`` needs.  When the primal LP has fewer rows (``n_rows < K D``: sparse text, whose
reduced LP, :mod:`mrc_pyomo.problem.reduction`, keeps about one row a sample), the dual's basis is the larger:
the primal LP is solved by the interior point method without crossover (``"primal_ipm"``), or, with two classes
and at least :data:`PDLP_MIN_ROWS` rows, by HiGHS's PDLP (``"primal_pdlp"``, restarted PDHG): there IPX's starting
basis and iterations grow faster than the rows (the common words' columns are dense), while on more classes PDLP's
iterations are the slower.  PDLP stops at the relative tolerance :func:`pdlp_tolerance`, a hundredth of ``eps_1``
(HiGHS's ``1e-7`` at the least): the certificate, not the solver's tolerances, says when the fit is done, and a
hundredth left its gap several times below ``eps_1`` in a fraction of the time to ``1e-7``; a gap still open is
solved again at ``1e-7``.  Stopped by the time limit, PDLP's last point is certified as any rule
(:func:`~mrc_pyomo.master.highs_setup.run_pdlp`).  The measurements: docs/benchmarks.md, "The
library's choices", "The full LP's form".

**If the certificate does not close** (a solve within HiGHS's feasibility tolerances ``1e-7`` can leave a gap),
the instance is re-solved (PDLP's first at ``1e-7``, :func:`tighten`), then once by the simplex at
:data:`~mrc_pyomo.master.REFINED_TOLERANCE`; then an open gap is ``"stalled"``.  Any other ``solver`` (a Pyomo
name, e.g. ``"glpk"``) solves the primal LP through Pyomo.
"""

import time
from dataclasses import dataclass

import numpy as np

from ..formulations import PaperFormulation, get_formulation
from ..master import BUILTIN_SOLVER, REFINED_TOLERANCE, MasterSolveError, MasterTimeLimit, RestrictedMaster
from ..master.dual_lp import DualLPBackend
from ..oracles.certificate import gap_tolerance, lower_bound
from ..oracles.incumbent import Incumbent, segment_tolerance
from ..oracles.segment import risk_on_segment
from .history import HISTORY_COLUMNS
from .deadline import deadline_of
from .registry import Method, register_method
from .result import FitResult, Status, status_of

MAX_ROWS = 2_000_000
MAX_NONZEROS = 100_000_000
# the interior point method beats the simplex on the dual LP when K D and K nnz(Psi) reach both (module docstring)
IPM_MIN_FEATURES = 350
IPM_MIN_SIZE = 400_000
# two-class LPs of fewer rows than K D take PDLP from this many rows on (module docstring)
PDLP_MIN_ROWS = 20_000
FORMS = ("simplex", "ipm", "primal_ipm", "primal_pdlp")
# the forms solved on the primal LP (the master); the others on the dual LP
PRIMAL_FORMS = ("primal_ipm", "primal_pdlp")
#: PDLP stops at this share of ``eps_1`` as its relative tolerance (HiGHS's ``kkt_tolerance``, its default
#: :data:`KKT_TOLERANCE` the floor): its point then certifies within ``eps_1`` (module docstring)
PDLP_TOLERANCE_SHARE = 1e-2
#: HiGHS's default ``kkt_tolerance``
KKT_TOLERANCE = 1e-7
# HiGHS options of each form
FORM_OPTIONS = {
    "simplex": {"solver": "simplex", "simplex_strategy": 1},   # dual simplex
    "ipm": {"solver": "ipm", "run_crossover": "on"},
    "primal_ipm": {"solver": "ipm", "run_crossover": "off"},
    "primal_pdlp": {"solver": "pdlp"},
}


def choose_method(n_classes, n_features, psi_nonzeros, n_rows=None):
    """The LP HiGHS is given and its algorithm (module docstring), from ``K``, ``D = n_features``, ``nnz(Psi)``
    and the primal LP's rows ``n_rows`` (``None``: more than ``K D``): when ``n_rows < K D``, ``"primal_pdlp"``
    for two classes and ``n_rows >= PDLP_MIN_ROWS``, else ``"primal_ipm"``; otherwise ``"ipm"`` when ``K D >=
    IPM_MIN_FEATURES`` and ``K nnz(Psi) >= IPM_MIN_SIZE``, else ``"simplex"``."""
    m, size = n_classes * n_features, n_classes * psi_nonzeros
    if n_rows is not None and n_rows < m:
        return "primal_pdlp" if n_classes == 2 and n_rows >= PDLP_MIN_ROWS else "primal_ipm"
    return "ipm" if m >= IPM_MIN_FEATURES and size >= IPM_MIN_SIZE else "simplex"


def within_limits(size):
    """Whether a full LP of ``size``, ``(rows, nonzeros)``, is within :data:`MAX_ROWS` rows and :data:`MAX_NONZEROS`."""
    rows, nonzeros = size
    return rows <= MAX_ROWS and nonzeros <= MAX_NONZEROS


def check_size(problem, formulation="paper"):
    """Raise ``ValueError`` when the full LP of ``problem`` in ``formulation`` (its
    :meth:`~mrc_pyomo.problem.MRCProblem.full_lp_size`) is not :func:`within_limits`."""
    rows, nonzeros = problem.full_lp_size(formulation)
    if not within_limits((rows, nonzeros)):
        raise ValueError(
            f"the full LP would have {rows:,} rows and {nonzeros:,} nonzeros (limits {MAX_ROWS:,} and "
            f"{MAX_NONZEROS:,}): use method='ccg'")


def full_master(problem, solver, solver_options, block_size, backend=None, formulation="paper"):
    """The :class:`RestrictedMaster` of the full primal LP of ``problem`` (the reduced LP's with a reduction),
    rows added in sample blocks, on ``backend`` (None: ``solver``'s), in ``formulation``."""
    reduction = problem.reduction
    master = RestrictedMaster(problem.data, problem.tau, problem.lam, solver=solver, solver_options=solver_options,
                              backend=backend, formulation=formulation)
    features = np.arange(problem.n_classes * problem.n_features)
    master.add_features(features if reduction is None else features[~reduction.fixed.ravel()])
    n = master.n_samples
    for first in range(0, n, block_size):
        master.add_all_rows(np.arange(first, min(first + block_size, n)), reduction)
    return master


@dataclass(frozen=True)
class LPConfig:
    """The settings of the full LP: ``eps_1``, the certified gap below which it is ``"converged"``; ``solver``,
    ``solver_options`` and ``formulation``; ``form``, one of :data:`FORMS` (None: :func:`choose_method`'s); rows
    loaded ``block_size`` samples at a time.  It takes the whole problem at once (``regime == "full"``)."""

    eps_1: float = 1e-3
    solver: object = BUILTIN_SOLVER
    solver_options: dict = None
    formulation: object = "paper"
    form: str = None
    block_size: int = 2000
    regime = "full"


def configure(settings, problem):
    """The :class:`LPConfig` of the estimator's :class:`~mrc_pyomo.estimator.parameters.Settings`."""
    return LPConfig(eps_1=settings.eps_1, solver=settings.solver, solver_options=settings.solver_options,
                    formulation=settings.formulation)


def pdlp_tolerance(eps_1, solver_options=None):
    """PDLP's relative tolerance (HiGHS's ``kkt_tolerance``) for a certified gap of ``eps_1``:
    :data:`PDLP_TOLERANCE_SHARE` of it, or None where that is not above HiGHS's own :data:`KKT_TOLERANCE` or the
    user's ``solver_options`` set it."""
    tolerance = PDLP_TOLERANCE_SHARE * eps_1
    return tolerance if tolerance > KKT_TOLERANCE and "kkt_tolerance" not in (solver_options or {}) else None


def default_form(problem, solver=BUILTIN_SOLVER, formulation="paper"):
    """The form :func:`solve_full_lp` solves the full LP of ``problem`` in when none is asked for: ``"pyomo"``
    through another ``solver``, ``"ipm"`` (on the primal LP) in a formulation other than the paper's, else
    :func:`choose_method`'s."""
    if solver != BUILTIN_SOLVER:
        return "pyomo"
    if type(get_formulation(formulation)) is not PaperFormulation:
        return "ipm"
    rows = problem.full_lp_size(formulation)[0]
    return choose_method(problem.n_classes, problem.n_features, problem.nonzeros, rows)


def solve_full_lp(problem, solver="highs", solver_options=None, block_size=2000, form=None, deadline=None,
                  formulation="paper", tolerance=None):
    """Solve the full LP of ``problem``; return ``(master, solution, seconds_update, seconds_solve)``.

    On HiGHS the LP is solved in ``form`` (None: :func:`default_form`'s), ``solver_options`` over the form's
    own; ``master.full_lp_method`` says which ran (``"pyomo"``: another solver).  A ``formulation`` other than the
    paper's is solved in its primal form (``form`` None: ``"ipm"``).  ``tolerance``: PDLP's (:func:`pdlp_tolerance`;
    None: HiGHS's).  ``deadline`` bounds the solve.  Raises
    ``ValueError`` beyond :func:`check_size`'s limits, :class:`~mrc_pyomo.master.MasterSolveError` without an
    optimal solution (:class:`~mrc_pyomo.master.MasterTimeLimit` at the time limit)."""
    check_size(problem, formulation)
    if form is not None and form not in FORMS:
        raise ValueError(f"form must be one of {FORMS} or None, got {form!r}")
    deadline = deadline_of(deadline)
    start = time.perf_counter()
    if solver != BUILTIN_SOLVER:
        form, options, backend = "pyomo", solver_options, None
    else:
        form = form or default_form(problem, solver, formulation)
        loosened = {"kkt_tolerance": tolerance} if form == "primal_pdlp" and tolerance is not None else {}
        options = {**FORM_OPTIONS[form], **loosened, **(solver_options or {})}
        dual = form not in PRIMAL_FORMS and type(get_formulation(formulation)) is PaperFormulation
        backend = DualLPBackend if dual else None   # the dual form is written for the paper's rows alone
    master = full_master(problem, solver, options, block_size, backend, formulation)
    master.full_lp_method = form
    seconds_update = time.perf_counter() - start
    tic = time.perf_counter()
    try:
        solution = master.solve(time_limit=deadline.remaining())
    except MasterSolveError as error:
        if form != "primal_pdlp" or isinstance(error, MasterTimeLimit):
            raise
        # PDLP ended short of its tolerances (its iteration limit, a numerical failure): the interior point method
        for name, value in {**FORM_OPTIONS["primal_ipm"], "kkt_tolerance": KKT_TOLERANCE}.items():
            if name not in (solver_options or {}):
                master.set_solver_option(name, value)
        master.full_lp_method = "primal_ipm"
        solution = master.solve(time_limit=deadline.remaining())
    return master, solution, seconds_update, time.perf_counter() - tic


def certify(problem, master, solution, eps_1=None):
    """``(best, lower)``: the best rule on the segment from ``0`` to the LP's ``mu`` (an
    :class:`~mrc_pyomo.oracles.incumbent.Incumbent`) and the duals' Lagrangian bound, their weights repaired where
    only the dual residuals keep it below ``upper`` less the gap of ``eps_1``
    (:func:`~mrc_pyomo.oracles.certificate.gap_tolerance`; :func:`~mrc_pyomo.oracles.certificate.lower_bound`'s
    ``target``; None: not repaired), as MRC-CCG's check does: a solver's tolerances leave such residuals."""
    best = Incumbent.evaluate(problem, np.zeros_like(problem.tau))
    mu, value = risk_on_segment(problem.data, best.mu, solution.mu, problem.tau, problem.lam, blocked=problem.blocked,
                                tolerance=segment_tolerance(eps_1))
    if value < best.risk:
        best = Incumbent.evaluate(problem, mu)
    target = None if eps_1 is None else best.risk - gap_tolerance(eps_1)
    lower = lower_bound(master.points, *master.certificate_rows(solution), problem.tau, problem.lam,
                        rho=problem.radius(best.risk), target=target)
    return best, lower


def tighten(master, solver_options, deadline):
    """Re-solve once within ``deadline`` a master that PDLP solved to a loosened tolerance (:func:`pdlp_tolerance`),
    at HiGHS's own; a solution (its last point at the time limit), or ``None`` (another algorithm, or no point)."""
    if master.full_lp_method != "primal_pdlp":
        return None
    master.set_solver_option("kkt_tolerance", KKT_TOLERANCE)
    try:
        return master.solve(time_limit=deadline.remaining())
    except MasterTimeLimit as error:
        return error.iterate
    except MasterSolveError:
        return None


def refine(master, solver_options, deadline):
    """Re-solve once within ``deadline``, on HiGHS by the simplex at tolerances ``1e-10`` (unless the user's
    ``solver_options`` set them); a solution or ``None``."""
    if master.full_lp_method != "pyomo":
        for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
            if name not in (solver_options or {}):
                master.set_solver_option(name, REFINED_TOLERANCE)
        master.set_solver_option("solver", "simplex")
    master.refine()
    try:
        return master.solve(time_limit=deadline.remaining())
    except MasterSolveError:
        return None


def steps(problem, config=None, *, start=None, deadline=None, log=None):
    """The full LP of ``problem`` solved and certified, as a method's steps (a generator that yields nothing),
    returning a :class:`~mrc_pyomo.methods.result.FitResult` (no history); ``start`` and ``log`` are not used.
    ``"converged"`` when the certified gap is at most ``max(eps_1, GAP_FLOOR)``, after the re-solves of an open
    gap (:func:`tighten`, :func:`refine`; module docstring), else ``"stalled"``.  A solve stopped by ``deadline``, or
    an open gap past it, is ``"time_limit"`` (or ``"converged"`` if its point's certified gap is within ``eps_1``):
    PDLP's last point certified as any (:class:`~mrc_pyomo.master.MasterTimeLimit`'s ``iterate``), the other
    algorithms' ``mu = 0`` and ``[0, R(0)]`` (no point of theirs is the LP's before they end)."""
    yield from ()
    config, deadline = LPConfig() if config is None else config, deadline_of(deadline)
    tolerance, stopped = pdlp_tolerance(config.eps_1, config.solver_options), Status.STALLED
    resolves = (tighten, refine) if tolerance is not None else (refine,)
    try:
        master, solution, _, _ = solve_full_lp(problem, config.solver, config.solver_options, config.block_size,
                                               config.form, deadline, config.formulation, tolerance)
    except MasterTimeLimit as error:
        if error.iterate is None:
            best = Incumbent.evaluate(problem, np.zeros_like(problem.tau))
            return FitResult(master=None, mu=best.mu, objective=np.nan, lower=0.0, upper=best.risk,
                             status=Status.TIME_LIMIT, history=[], columns=tuple(HISTORY_COLUMNS))
        master, solution = error.master, error.iterate   # PDLP's last point, certified as any; no re-solve
        stopped, resolves = Status.TIME_LIMIT, ()
    best, lower = certify(problem, master, solution, config.eps_1)
    for resolve in resolves:
        if status_of(lower, best.risk, config.eps_1) is not None:
            break
        if deadline.expired():   # the gap open and no time left to re-solve: the deadline stopped the fit
            stopped = Status.TIME_LIMIT
            break
        refined = resolve(master, config.solver_options, deadline)
        if refined is not None:
            better, refined_lower = certify(problem, master, refined, config.eps_1)
            if better.risk - refined_lower < best.risk - lower:
                master.solution, solution, best, lower = refined, refined, better, refined_lower
    status = status_of(lower, best.risk, config.eps_1, stopped)
    return FitResult(master=master, mu=best.mu, objective=solution.objective, lower=lower, upper=best.risk,
                     status=status, history=[], columns=tuple(HISTORY_COLUMNS))


METHOD = register_method(Method(
    name="lp", title="full LP", configure=configure, steps=steps,
    summary="the full LP over all n (2^K - 1) rows, solved the fastest way HiGHS can", columns=tuple(HISTORY_COLUMNS)))
