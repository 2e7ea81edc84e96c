"""``method="lp"``: the full MRC LP (paper, eq. 5) over all ``n (2^K - 1)`` rows and ``K D`` features.

It is the reference the generation loop is checked against, for small problems.  It is built through the
same :class:`~mrc_pyomo.master.RestrictedMaster` (so it can be inspected and exported the same way), in
blocks of samples, and certified like every other fit (:mod:`mrc_pyomo.certificate`): ``upper = R(mu)`` of the
best of the LP's ``mu`` and ``0`` (and of the segment between them), ``lower`` the Lagrangian bound of its duals.
"""

import time

import numpy as np
import scipy.sparse as sp

from .ccg import Best, FitResult, gap_tolerance
from .certificate import lower_bound
from .initialization import all_subsets
from .master import RestrictedMaster
from .primal_oracle import risk_on_segment

MAX_ROWS = 2_000_000
MAX_NONZEROS = 100_000_000


def full_lp_size(Psi, n_classes):
    """``(rows, nonzeros)`` of the full LP: ``n (2^K - 1)`` rows, ``2 nnz(Psi) K 2^(K-1) + rows`` entries."""
    n = Psi.shape[0]
    nnz = Psi.nnz if sp.issparse(Psi) else np.count_nonzero(Psi)
    rows = n * (2**n_classes - 1)
    return rows, 2 * nnz * n_classes * 2 ** (n_classes - 1) + rows


def solve_full_lp(Psi, tau, lam, solver="appsi_highs", solver_options=None, block_size=2000):
    """Solve the full LP; return ``(master, solution, seconds_update, seconds_solve)``.

    Raises ``ValueError`` when the LP is beyond :data:`MAX_ROWS` rows or :data:`MAX_NONZEROS` nonzeros.
    """
    n_classes, n_features = tau.shape
    rows, nonzeros = full_lp_size(Psi, n_classes)
    if rows > MAX_ROWS or nonzeros > MAX_NONZEROS:
        raise ValueError(
            f"the full LP would have {rows:,} rows and {nonzeros:,} nonzeros (limits {MAX_ROWS:,} and "
            f"{MAX_NONZEROS:,}): use method='ccg'")
    start = time.perf_counter()
    master = RestrictedMaster(Psi, tau, lam, solver=solver, solver_options=solver_options)
    master.add_features(np.arange(n_classes * n_features))
    subsets = all_subsets(n_classes)
    for first in range(0, Psi.shape[0], block_size):
        samples = np.arange(first, min(first + block_size, Psi.shape[0]))
        master.add_rows(np.repeat(samples, len(subsets)), np.tile(subsets, (len(samples), 1)))
    seconds_update = time.perf_counter() - start
    start = time.perf_counter()
    solution = master.solve()
    return master, solution, seconds_update, time.perf_counter() - start


def fit_full_lp(Psi, tau, lam, eps_1=1e-3, solver="appsi_highs", solver_options=None):
    """Solve the full LP and certify its answer: a :class:`~mrc_pyomo.ccg.FitResult` (no history).

    The status is ``"converged"`` when the certified gap is at most ``max(eps_1, GAP_FLOOR)``, else
    ``"solver_error"``: the solver's "optimal" is not taken on trust.
    """
    master, solution, _, _ = solve_full_lp(Psi, tau, lam, solver=solver, solver_options=solver_options)
    best = Best.evaluate(Psi, np.zeros_like(tau), tau, lam)
    mu, value = risk_on_segment(Psi, best.mu, solution.mu, tau, lam)
    if value < best.risk:
        best = Best.evaluate(Psi, mu, tau, lam)
    lower = lower_bound(master.points, master.samples, master.subsets, solution.alpha, tau, lam, rho=best.risk)
    status = "converged" if best.risk - lower <= gap_tolerance(eps_1) else "solver_error"
    return FitResult(master=master, mu=best.mu, objective=solution.objective, lower=lower,
                     upper=best.risk, status=status, history=[])
