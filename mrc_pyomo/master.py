"""The restricted master ``P_{I,J}`` (paper, eq. 9) and its dual ``D_{I,J}`` (eq. 10).

A :class:`RestrictedMaster` holds the current rows ``I`` (sample id, label subset) and features ``J`` (flat ids
``y * D + j``) as arrays, and receives blocks of rows and features to add or remove.  It is solved

* by default (``solver="appsi_highs"``) through a persistent HiGHS instance loaded in bulk from those arrays
  (:mod:`mrc_pyomo.highs_bulk`), warm-started from the previous basis;
* with any other Pyomo solver name through a persistent Pyomo model, updated incrementally and handed to
  ``pyomo.environ.SolverFactory(solver)``.

In both cases :attr:`RestrictedMaster.model` is the Pyomo model of the current master (built lazily on the
default path, from the same coefficient blocks), with the last solution's values and duals loaded: it can
be inspected, written with :meth:`write`, or solved by any Pyomo solver.
"""

import time
from dataclasses import dataclass

import numpy as np
import pyomo.environ as pyo
import scipy.sparse as sp

from . import formulation
from .highs_bulk import HighsMaster, check_options

BULK_HIGHS_SOLVERS = ("appsi_highs",)
# HiGHS's feasibility tolerances after refine() (its defaults are 1e-7)
REFINED_TOLERANCE = 1e-10
# Pyomo solver names that run HiGHS: their options are checked against HiGHS's own list
PYOMO_HIGHS_SOLVERS = ("highs",)


class MasterSolveError(RuntimeError):
    """The solver did not return an optimal solution of the restricted master."""


@dataclass
class MasterSolution:
    """Primal and dual solution of ``P_{I,J}``.

    ``mu`` has shape ``(K, D)`` (zero outside ``J``), ``alpha[r]`` is the dual value of the r-th row of ``I``
    (``alpha >= 0``, ``sum(alpha) = 1 - beta``), ``beta`` that of the ``objective >= 0`` row (0 without it) and
    ``objective`` is ``R^k``.
    """

    mu: np.ndarray
    nu: float
    alpha: np.ndarray
    beta: float
    objective: float


def check_solver(solver):
    """Raise a clear error if ``solver`` is not a usable Pyomo LP solver name."""
    if not isinstance(solver, str) or not solver:
        raise ValueError(f"solver must be a Pyomo solver name, got {solver!r}")
    if solver in BULK_HIGHS_SOLVERS:
        try:
            import highspy  # noqa: F401
        except ImportError as exc:
            raise RuntimeError(f"solver {solver!r} needs the package highspy: pip install highspy") from exc
        return
    opt = pyo.SolverFactory(solver)
    if type(opt).__name__ == "UnknownSolver":
        raise ValueError(f"unknown solver {solver!r}: not a Pyomo solver name (see pyomo help --solvers)")
    if not opt.available(exception_flag=False):
        raise RuntimeError(f"solver {solver!r} is known to Pyomo but not available on this machine "
                           "(is it installed and on the PATH, with a licence if it needs one?)")


class RestrictedMaster:
    """``P_{I,J}``: rows ``I`` and features ``J`` of the MRC LP, added and removed in blocks.

    Parameters
    ----------
    Psi : ndarray or CSR matrix, shape (n, D)
        Feature map of the training samples.
    tau, lam : ndarray, shape (K, D)
        Mean and confidence vectors.
    centroids : ndarray, shape (K, D), optional
        Extra points whose rows may enter ``I``, with sample ids ``n, ..., n + K - 1``.
    objective_floor : bool
        Add the row ``objective >= 0`` (valid: ``R* >= 0``) that bounds the many-class initial master.
    solver : str
        ``"appsi_highs"`` (bulk HiGHS path) or any Pyomo LP solver name (general path).
    solver_options : dict, optional
        Options passed to the solver.
    """

    def __init__(self, Psi, tau, lam, centroids=None, objective_floor=False, solver="appsi_highs",
                 solver_options=None):
        check_solver(solver)
        self.Psi = Psi
        self.tau, self.lam = tau, lam
        self.n_classes, self.n_features = tau.shape
        self.n_samples = Psi.shape[0]
        self.centroids = np.zeros((0, self.n_features)) if centroids is None else np.asarray(centroids)
        self.objective_floor = objective_floor
        self.solver = solver
        self.solver_options = dict(solver_options or {})
        if solver in BULK_HIGHS_SOLVERS + PYOMO_HIGHS_SOLVERS:
            check_options(self.solver_options)
        self.features = np.zeros(0, dtype=np.int64)
        self.samples = np.zeros(0, dtype=np.int64)
        self.subsets = np.zeros((0, self.n_classes), dtype=bool)
        self._row_keys = set()
        self.solution = None
        self.solver_status = None
        self._highs = None
        self._stored_ids = None     # after compact(): the training ids whose rows Psi still holds
        self._model = None
        self._model_rows = {}       # row key -> True for rows present in the Pyomo model
        self._model_features = 0    # how many features of self.features the Pyomo model has
        if solver in BULK_HIGHS_SOLVERS:
            self._highs = self._new_highs()

    def _new_highs(self):
        """The HiGHS backend; its fixed row, if any, is ``objective >= 0`` as ``-objective <= 0``."""
        return HighsMaster([(-1.0, 0.0)] if self.objective_floor else [], self.solver_options)

    def _fixed_coefficients(self, features):
        """Coefficients of ``mu1`` and ``mu2`` of the features in the fixed rows, shape ``(fixed rows, q)`` each:
        ``(tau - lambda)`` and ``-(tau + lambda)`` in the row ``objective >= 0``."""
        t, l = self.tau.ravel()[features], self.lam.ravel()[features]
        rows = 1 if self.objective_floor else 0
        return np.tile(t - l, (rows, 1)), np.tile(-(t + l), (rows, 1))

    # -- data access ------------------------------------------------------------------------------------
    def points(self, ids, columns=None):
        """``Psi[ids][:, columns]`` where ids ``>= n`` are centroids (dense or CSR, following ``Psi``)."""
        ids = np.asarray(ids, dtype=np.int64)
        train = ids < self.n_samples
        local = ids[train]
        if self._stored_ids is not None:
            local = np.minimum(np.searchsorted(self._stored_ids, local), len(self._stored_ids) - 1)
            if not np.array_equal(self._stored_ids[local], ids[train]):
                raise ValueError("this compacted master only holds the samples of its rows")
        extra = self.centroids[ids[~train] - self.n_samples]
        if columns is not None:
            columns = np.asarray(columns, dtype=np.int64)
            extra = extra[:, columns]
        if sp.issparse(self.Psi):
            rows = self.Psi[local]
            rows = rows if columns is None else rows[:, columns]
            if train.all():
                return rows
            stacked = sp.vstack([rows, sp.csr_matrix(extra)], format="csr")
            return stacked[np.argsort(np.concatenate([np.flatnonzero(train), np.flatnonzero(~train)]))]
        rows = self.Psi[local] if columns is None else self.Psi[np.ix_(local, columns)]
        if train.all():
            return rows
        out = np.empty((len(ids), rows.shape[1]))
        out[train], out[~train] = rows, extra
        return out

    def block(self, samples, subsets, features):
        """``F`` restricted to the given rows and features (CSR)."""
        return formulation.constraint_block(self.points, samples, subsets, features, self.n_features)

    def row_keys(self, samples, subsets):
        return [(formulation.sample_label(int(i), self.n_samples), formulation.subset_label(c))
                for i, c in zip(samples, subsets)]

    @staticmethod
    def _pair_keys(samples, subsets):
        """Hashable keys of (sample, subset) pairs: the bytes of the sample id followed by the packed subset."""
        packed = np.concatenate([np.asarray(samples, dtype="<i8").view(np.uint8).reshape(-1, 8),
                                 np.packbits(subsets, axis=1)], axis=1)
        return np.ascontiguousarray(packed).view(f"V{packed.shape[1]}").ravel().tolist()

    def contains_rows(self, samples, subsets):
        """Mask: which (sample, subset) pairs are rows of ``I`` already (only samples of ``I`` are looked up)."""
        samples = np.asarray(samples, dtype=np.int64)
        found = np.zeros(len(samples), dtype=bool)
        maybe = np.flatnonzero(np.isin(samples, self.samples))
        found[maybe] = [key in self._row_keys for key in self._pair_keys(samples[maybe], subsets[maybe])]
        return found

    @property
    def bulk(self):
        """True on the default path (the master held in HiGHS, loaded in bulk)."""
        return self._highs is not None

    @property
    def n_rows(self):
        return len(self.samples)

    # -- updates ----------------------------------------------------------------------------------------
    def add_features(self, features):
        """Add the features (flat ids) to ``J``: two columns each, with their entries in every row of ``I``."""
        features = np.asarray(features, dtype=np.int64)
        if not len(features):
            return
        if self._highs is not None:
            self._highs_add_features(features, self.block(self.samples, self.subsets, features))
        self.features = np.concatenate([self.features, features])
        self.solution = None

    def _highs_add_features(self, features, block):
        cost_pos, cost_neg = formulation.objective_coefficients(self.tau, self.lam, features)
        self._highs.add_features(cost_pos, cost_neg, block, *self._fixed_coefficients(features))

    def add_rows(self, samples, subsets):
        """Add the rows ``(samples[r], subsets[r])`` to ``I`` (pairs already in ``I`` are skipped)."""
        samples = np.asarray(samples, dtype=np.int64)
        subsets = np.asarray(subsets, dtype=bool)
        keep, new_keys = [], set()
        for r, key in enumerate(self._pair_keys(samples, subsets)):
            if key not in self._row_keys and key not in new_keys:  # skip rows of I and repeats in the block
                new_keys.add(key)
                keep.append(r)
        samples, subsets = samples[keep], subsets[keep]
        if not len(samples):
            return 0
        if self._highs is not None:
            block = self.block(samples, subsets, self.features)
            self._highs.add_rows(block, formulation.right_hand_sides(subsets))
        self._row_keys.update(new_keys)
        self.samples = np.concatenate([self.samples, samples])
        self.subsets = np.concatenate([self.subsets, subsets])
        self.solution = None
        return len(samples)

    def remove_rows(self, mask):
        """Remove the rows of ``I`` where ``mask`` is true."""
        positions = np.flatnonzero(mask)
        if not len(positions):
            return 0
        if self._highs is not None:
            self._highs.delete_rows(positions)
        self._row_keys.difference_update(self._pair_keys(self.samples[positions], self.subsets[positions]))
        keep = np.ones(self.n_rows, dtype=bool)
        keep[positions] = False
        self.samples, self.subsets = self.samples[keep], self.subsets[keep]
        self.solution = None
        return len(positions)

    # -- solving ----------------------------------------------------------------------------------------
    def set_solver_option(self, name, value):
        """Set a solver option for the next solves (e.g. from a callback: a time limit for later masters)."""
        if self._highs is not None:
            self._highs.set_option(name, value)
        self.solver_options[name] = value

    def refine(self):
        """Forget the HiGHS backend's basis, so that the next solve starts from scratch.

        A warm-started simplex can stop on a basis it calls optimal that an exact check of the solution (the
        loop's certificate) refutes; a cold solve usually does not.  Pyomo solvers start from scratch anyway.
        """
        if self._highs is not None:
            self._highs.highs.clearSolver()
            for name in ("primal_feasibility_tolerance", "dual_feasibility_tolerance"):
                if name not in self.solver_options:
                    self._highs.set_option(name, REFINED_TOLERANCE)
        self.solution = None

    def solve(self, time_limit=None, budget=None):
        """Solve ``P_{I,J}``; return and store the :class:`MasterSolution`.  Raises :class:`MasterSolveError`.

        On the HiGHS backend, ``time_limit`` (seconds) bounds this solve (no limit is left on the master) and
        ``budget`` the warm-started simplex before the interior point method takes over
        (:meth:`~mrc_pyomo.highs_bulk.HighsMaster.solve`).
        """
        if self._highs is not None:
            status, objective, mu_pos, mu_neg, nu, alpha, fixed = self._highs.solve(time_limit, budget)
            self.solver_status = status
            if objective is None:
                raise MasterSolveError(
                    f"HiGHS did not solve the restricted master ({self.n_rows} rows, {len(self.features)} "
                    f"features) to optimality: model status '{status}'")
            beta = float(fixed[0]) if self.objective_floor else 0.0
        else:
            objective, mu_pos, mu_neg, nu, alpha, beta = self._solve_pyomo()
        mu = np.zeros(self.n_classes * self.n_features)
        mu[self.features] = mu_pos - mu_neg
        self.solution = MasterSolution(mu=mu.reshape(self.n_classes, self.n_features), nu=nu,
                                       alpha=np.asarray(alpha, dtype=float), beta=beta, objective=float(objective))
        return self.solution

    def _solve_pyomo(self):
        m = self._synced_model(load_solution=False)
        opt = pyo.SolverFactory(self.solver)
        for name, value in self.solver_options.items():
            opt.options[name] = value
        m.dual.clear()
        try:
            # loaded below, once the termination condition says there is an optimal solution
            results = opt.solve(m, load_solutions=False)
        except Exception as exc:  # solvers raise many types; the message is what matters
            raise MasterSolveError(f"solver {self.solver!r} failed on the restricted master: {exc}") from exc
        condition = results.solver.termination_condition
        self.solver_status = str(condition)
        if condition != pyo.TerminationCondition.optimal:
            raise MasterSolveError(f"solver {self.solver!r} did not solve the restricted master to optimality: "
                                   f"termination condition '{condition}'")
        m.solutions.load_from(results)
        keys = formulation.feature_keys(self.features, self.n_features)
        # a column without entries (an all-zero feature) may be left out of the solver's answer: it is 0
        mu_pos = np.array([m.mu_pos[k].value or 0.0 for k in keys])
        mu_neg = np.array([m.mu_neg[k].value or 0.0 for k in keys])
        alpha = []
        for key in self.row_keys(self.samples, self.subsets):
            value = m.dual.get(m.row[key])
            if value is None:
                raise MasterSolveError(f"solver {self.solver!r} returned no dual values for the master's rows")
            alpha.append(-value)  # <= rows of a minimisation: Pyomo's duals are <= 0
        # objective >= 0 is written as a >= row: its dual is >= 0
        beta = float(m.dual.get(m.objective_floor, 0.0)) if self.objective_floor else 0.0
        nu = m.nu.value or 0.0
        cost_pos, cost_neg = formulation.objective_coefficients(self.tau, self.lam, self.features)
        objective = float(cost_pos @ mu_pos + cost_neg @ mu_neg + nu)
        return objective, mu_pos, mu_neg, nu, alpha, beta

    # -- the Pyomo model --------------------------------------------------------------------------------
    @property
    def model(self):
        """The Pyomo model of the current master, with the last solution's values and duals loaded."""
        return self._synced_model(load_solution=True)

    def _synced_model(self, load_solution):
        if self._model is None:
            self._model = formulation.new_model(self.objective_floor)
        m = self._model
        keys = formulation.feature_keys(self.features, self.n_features)
        if self._model_features < len(self.features):
            formulation.add_features(m, keys[self._model_features:])
            formulation.set_objective(m, keys, self.tau.ravel()[self.features], self.lam.ravel()[self.features])
            # rows already in the model gain entries for the new features: rebuild them
            stale = [key for key in self._model_rows]
            self._model_rows = {}
            formulation.remove_rows(m, stale)
            self._model_features = len(self.features)
        current = self.row_keys(self.samples, self.subsets)
        current_set = set(current)
        formulation.remove_rows(m, [key for key in self._model_rows if key not in current_set])
        self._model_rows = {key: True for key in self._model_rows if key in current_set}
        missing = np.array([key not in self._model_rows for key in current], dtype=bool)
        if missing.any():
            block = self.block(self.samples[missing], self.subsets[missing], self.features)
            new_keys = [key for key, flag in zip(current, missing) if flag]
            formulation.set_rows(m, new_keys, block, keys, formulation.right_hand_sides(self.subsets[missing]))
            self._model_rows.update((key, True) for key in new_keys)
        if load_solution and self.solution is not None and self._highs is not None:
            self._load_solution(m, keys, current)
        return m

    def _load_solution(self, m, keys, row_keys):
        s = self.solution
        mu = s.mu.ravel()[self.features]
        for key, value in zip(keys, mu):
            m.mu_pos[key].value = max(value, 0.0)
            m.mu_neg[key].value = max(-value, 0.0)
        m.nu.value = s.nu
        m.dual.clear()
        for key, a in zip(row_keys, s.alpha):
            m.dual[m.row[key]] = -a
        if self.objective_floor:
            m.dual[m.objective_floor] = s.beta

    def write(self, path):
        """Write the current master to ``path`` (``.lp`` or ``.mps``), with readable symbolic names."""
        self.model.write(str(path), io_options={"symbolic_solver_labels": True})
        return path

    # -- after fitting ----------------------------------------------------------------------------------
    def compact(self):
        """Keep only the rows of ``Psi`` that ``I`` uses, so that a fitted estimator does not hold the data.

        Sample ids, and so the names in the model, are unchanged.
        """
        ids = self.samples[self.samples < self.n_samples]
        ids = np.unique(ids) if self._stored_ids is None else self._stored_ids[np.isin(self._stored_ids, ids)]
        self.Psi = self.points(ids)
        self._stored_ids = ids
        return self

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_highs"] = state["_highs"] is not None  # a highspy instance cannot be pickled: rebuilt on load
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        if self._highs:
            self._highs = self._new_highs()
            self._highs_add_features(self.features, sp.csr_matrix((0, len(self.features))))
            self._highs.add_rows(self.block(self.samples, self.subsets, self.features),
                                 formulation.right_hand_sides(self.subsets))
        else:
            self._highs = None
