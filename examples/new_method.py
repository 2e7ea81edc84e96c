"""
A new method in one file: Kelley's cutting planes, registered beside MRC-CCG without touching the library
=========================================================================================================

Kelley's method is constraint generation at its plainest: solve the master, add the single most violated row of
all samples (the deepest cut), never remove one.  It is what MRC-CCG becomes with ``n_max = 1`` and no row
ageing, and it shows why MRC-CCG adds rows in batches: it needs many more masters.  A method is a config
dataclass, a ``configure(settings, problem)`` that makes it from the estimator's parameters, and ``steps``, a
generator that yields each iteration's state, is sent whether to stop there, stops when its deadline expires or
its solver stops at the time left (``MasterTimeLimit``), and returns a ``FitResult`` whose ends are certified by
the library's oracles (``upper = R(mu)`` exact, ``lower`` the Lagrangian bound of the master's duals).  Registered under
a name, it is a valid ``MRCClassifier(method=...)``, with ``steps``, ``callback``, ``time_limit`` and ``verbose`` as
every method has them.

    python examples/new_method.py
"""

import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.datasets import load_wine
from sklearn.exceptions import ConvergenceWarning
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier
from mrc_pyomo.master import MasterSolveError, MasterTimeLimit
from mrc_pyomo.methods import Method, register_method
from mrc_pyomo.methods.ccg import initial_master
from mrc_pyomo.methods.deadline import deadline_of
from mrc_pyomo.methods.result import FitResult, Start, Status, reported
from mrc_pyomo.oracles.certificate import gap_tolerance, lower_bound
from mrc_pyomo.oracles.incumbent import Incumbent
from mrc_pyomo.oracles.primal import risk, separation


@dataclass(frozen=True)
class KelleyConfig:
    """Kelley's settings: the certified gap ``eps_1`` at which it stops, ``max_iter`` masters at most, the master's
    solver.  It keeps every feature in every master (``regime == "n"``)."""

    eps_1: float = 1e-3
    max_iter: int = 2000
    solver: str = "highs"
    solver_options: dict = None
    fit_intercept: bool = True
    formulation: str = "paper"
    regime = "n"


def configure(settings, problem):
    """The config of the estimator's parameters (``mrc_pyomo.estimator.parameters.Settings``)."""
    return KelleyConfig(eps_1=settings.eps_1, max_iter=settings.max_iter or KelleyConfig.max_iter,
                        solver=settings.solver, solver_options=settings.solver_options,
                        fit_intercept=settings.fit_intercept, formulation=settings.formulation)


def steps(problem, config=None, *, start=None, deadline=None, log=None):
    """Kelley's cutting planes on ``problem``: yields a record per master, returns the certified FitResult."""
    config, deadline, start = config or KelleyConfig(), deadline_of(deadline), start or Start()
    master = initial_master(problem, config)   # the class centroids' rows, every feature: a bounded first master
    best, lower, history, status = Incumbent.best_of(problem, ()), 0.0, [], Status.MAX_ITER
    for k in range(1, config.max_iter + 1):
        try:
            solution = master.solve(time_limit=deadline.remaining())
        except MasterSolveError as error:   # the solver's time limit (MasterTimeLimit), or a failure
            status = Status.TIME_LIMIT if isinstance(error, MasterTimeLimit) or deadline.expired() else \
                Status.SOLVER_ERROR
            break
        cut = separation(problem.data, solution.mu, solution.nu, 1, master.covered(), problem.blocked)
        value = risk(solution.mu, cut.varphi, problem.tau, problem.lam)   # R(mu^k), exact
        if value < best.risk:
            best = Incumbent(solution.mu, value, cut.varphi + 1.0)
        lower = max(lower, lower_bound(master.points, *master.certificate_rows(), problem.tau, problem.lam,
                                       rho=best.risk))
        history.append({"iteration": start.iterations_before + k, "lambda0": problem.lambda0,
                        "R_master": solution.objective, "R_mu": value, "lower": lower, "upper": best.risk,
                        "n_rows": master.n_rows, "seconds_elapsed": deadline.elapsed()})
        stop = yield from reported(history[-1], log, deadline)   # logged, yielded: a stop sent, or the time up
        if stop != Status.CALLBACK and best.risk - lower <= gap_tolerance(config.eps_1):
            stop = Status.CONVERGED
        if stop is not None:
            status = stop
            break
        master.add_rows(cut.samples, cut.subsets)   # the deepest cut, and nothing removed
    return FitResult(master=master, mu=best.mu, objective=history[-1]["R_master"] if history else np.nan,
                     lower=lower, upper=best.risk, status=status, history=history, columns=COLUMNS)


COLUMNS = ("iteration", "lambda0", "R_master", "R_mu", "lower", "upper", "n_rows", "seconds_elapsed")


register_method(Method(name="kelley", title="Kelley", configure=configure, steps=steps,
                       summary="Kelley's cutting planes: the single deepest cut per master, none removed",
                       columns=COLUMNS))

if __name__ == "__main__":
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    for method in ("ccg", "kelley"):
        clf = MRCClassifier(method=method).fit(X, y)
        print(f"{method:>6}: {clf.status_}, R* in [{clf.lower_:.6f}, {clf.upper_:.6f}] after {clf.n_iter_} masters")
    kelley = MRCClassifier(method="kelley")
    with warnings.catch_warnings():   # stopped early on purpose: its gap is open
        warnings.simplefilter("ignore", ConvergenceWarning)
        for state in kelley.steps(X, y):   # stepped, as every method is
            if state["iteration"] == 3:
                break
    print(f"stepped: {kelley.status_} after {kelley.n_iter_} masters, R(mu) = {kelley.upper_:.6f}")
    print(f"the same rule: {np.allclose(clf.predict(X), MRCClassifier(method='ccg').fit(X, y).predict(X))}")
