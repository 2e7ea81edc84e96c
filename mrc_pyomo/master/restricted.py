"""The restricted master ``P_{I,J}`` (paper, eq. 7) with its dual ``D_{I,J}`` (eq. 8): the interface the methods use
(:class:`~mrc_pyomo.master.interface.Master`).

A :class:`RestrictedMaster` is its Pyomo model of blocks (:class:`~mrc_pyomo.master.model.MasterModel`, the one
record of ``I`` and ``J``) and a backend (:class:`~mrc_pyomo.master.backend.Backend`) holding the solver's copy of
that LP, told of every change; the registry (:mod:`mrc_pyomo.master.solver_backends`) picks the backend by solver
name.  What an item of ``I`` is in the LP is the formulation's answer (:mod:`mrc_pyomo.formulations`): the master
and its backends deal only in the :class:`~mrc_pyomo.formulations.LPBlock` it returns.  On every backend
:attr:`RestrictedMaster.model` is the Pyomo model of the current master, with the last solution loaded: it can be
inspected, written (:meth:`RestrictedMaster.write`) or solved by any Pyomo solver.
"""

import numpy as np

from ..data import as_source
from ..formulations import DEFAULT_FORMULATION, get_formulation
from .export import write_pyomo_model
from .model import MasterModel
from .points import Points
from .pyomo_solve import solver_name
from .solver_backends import BUILTIN_SOLVER, backend_option, check_solver, make_backend, picklable_solver
from .solution import Changes, MasterSolution, MasterTimeLimit

class RestrictedMaster:
    """``P_{I,J}``: items ``I`` (pairs ``(sample, label set)``, the paper's rows ``(i, C)`` in its formulation)
    and features ``J`` of the MRC LP, added and removed in blocks.

    Parameters
    ----------
    Psi : ndarray, CSR matrix or DataSource, shape (n, D)
        Feature map of the training samples (:mod:`mrc_pyomo.data`: the master fetches the rows it holds).
    tau, lam : ndarray, shape (K, D)
        Mean and confidence vectors.
    centroids : ndarray, shape (K, D), optional
        Extra points whose rows may enter ``I``, with sample ids ``n, ..., n + K - 1``.
    objective_floor : bool
        Add the row ``objective >= 0`` (valid: ``R* >= 0``) that bounds the many-class initial master.
    solver, solver_options : str or Pyomo solver, dict
        ``"highs"`` (the built-in backend), any Pyomo LP solver name or instance, and the options passed to it.
    backend : Backend subclass, optional
        The backend to solve with instead of ``solver``'s in the registry (:mod:`mrc_pyomo.master.solver_backends`),
        e.g. the full LP's dual form (:class:`~mrc_pyomo.master.dual_lp.DualLPBackend`).
    formulation : str or Formulation
        What LP rows and columns an item is: ``"paper"`` (default) or ``"compact"`` (:mod:`mrc_pyomo.formulations`).
    """

    def __init__(self, Psi, tau, lam, centroids=None, objective_floor=False, solver=BUILTIN_SOLVER,
                 solver_options=None, backend=None, formulation=DEFAULT_FORMULATION):
        if backend is None:
            check_solver(solver)
        self.formulation = get_formulation(formulation)
        self.tau, self.lam = tau, lam
        self.n_classes, self.n_features = tau.shape
        self.points = Points(as_source(Psi), np.zeros((0, self.n_features)) if centroids is None else centroids)
        self.n_samples = self.points.n_samples
        self.objective_floor = objective_floor
        self.solver = solver
        self.solver_options = dict(solver_options or {})
        self.pyomo_model = MasterModel(self.n_samples, self.n_features, self.n_classes, objective_floor,
                                       self.formulation)
        self.backend = make_backend(solver, objective_floor, self.solver_options, backend)
        if self.formulation.has_columns and not self.capabilities.item_columns:
            raise ValueError(f"the backend {type(self.backend).__name__} cannot solve the formulation "
                             f"{self.formulation.name!r}: it has no columns of its own for items")
        self.solution = self.solver_status = None

    # -- the record of I and J ---------------------------------------------------------------------------
    samples = property(lambda self: self.pyomo_model.samples, doc="The sample id of each item of ``I``.")
    subsets = property(lambda self: self.pyomo_model.subsets, doc="The label subset of each item, ``(|I|, K)``.")
    features = property(lambda self: self.pyomo_model.features, doc="The flat ids ``y * D + j`` of ``J``.")

    def __repr__(self):
        value = "not solved" if self.solution is None else f"solved: R^k {self.solution.objective:.6g}"
        solver = repr(self.solver) if isinstance(self.solver, str) else f"SolverFactory({solver_name(self.solver)!r})"
        return (f"<RestrictedMaster: {self.n_rows} rows x {len(self.features)} features of {self.n_classes} classes "
                f"x {self.n_features} columns, {len(self.centroids)} centroids, solver {solver}, {value}>")

    @property
    def n_rows(self):
        """The number of items of ``I`` (of rows ``(i, C)`` in the paper's formulation)."""
        return self.pyomo_model.n_rows

    @property
    def capabilities(self):
        """What the backend can do (:class:`~mrc_pyomo.master.backend.Capabilities`)."""
        return self.backend.capabilities

    # -- data access (``points(ids, columns=None)``: rows of Psi, :class:`~mrc_pyomo.master.points.Points`) ----
    data = property(lambda self: self.points.data, doc="The data source of :attr:`points` (compacted: in memory).")
    centroids = property(lambda self: self.points.centroids, doc="The class centroids' rows of :attr:`points`.")

    def block(self, samples, subsets, features):
        """The formulation's :class:`~mrc_pyomo.formulations.LPBlock` of the given items over the given features (in
        the paper's formulation ``block.mu`` is ``F`` on the rows ``(samples[r], subsets[r])``)."""
        return self.formulation.block(self.points, samples, subsets, features, self.n_features)

    def certificate_rows(self, solution=None):
        """``(samples, subsets, alpha)``: the duals of ``solution`` (default: the last) on the paper's rows ``(i, C)``,
        for :mod:`mrc_pyomo.oracles.certificate` and FEAT
        (:meth:`~mrc_pyomo.formulations.Formulation.certificate_rows`)."""
        solution = self.solution if solution is None else solution
        return self.formulation.certificate_rows(self.samples, self.subsets, solution.row_duals)

    def covered(self):
        """What the items of ``I`` enforce already, for the separation to leave out (None for an empty ``I``;
        :meth:`~mrc_pyomo.formulations.Formulation.covers`)."""
        return self.formulation.covers(self.samples, self.subsets) if self.n_rows else None

    def item_values(self, mu):
        """Each item's value at ``mu`` (in the paper's formulation ``(1/|C|) sum_{y in C} Psi(x_i).mu_y``), to
        compare with ``nu - 1`` (:meth:`~mrc_pyomo.formulations.Formulation.item_values`)."""
        scores = self.points(self.samples) @ mu.T
        return self.formulation.item_values(np.asarray(scores), self.subsets)

    # -- updates ----------------------------------------------------------------------------------------
    def update(self, remove, samples, subsets, features):
        """One update of the loop: remove the items at ``remove``, add the items made of the rows ``(samples[r],
        subsets[r])`` (:meth:`~mrc_pyomo.formulations.Formulation.merge`) and the ``features``; return the
        :class:`~mrc_pyomo.master.solution.Changes`."""
        kept = np.flatnonzero(~remove)
        replaced, (new_samples, new_subsets) = self.formulation.merge(self.samples[kept], self.subsets[kept],
                                                                      samples, subsets)
        remove = remove.copy()
        remove[kept[replaced]] = True
        removed_samples, removed_subsets = self.samples[remove], self.subsets[remove]
        self.remove_rows(remove)
        self.add_items(new_samples, new_subsets)
        self.add_features(features)
        return Changes(new_samples, new_subsets, removed_samples, removed_subsets, np.asarray(features), remove)

    def add_features(self, features):
        """Add the features (flat ids) to ``J``: two columns each, with their entries in every row of ``I``."""
        features = np.asarray(features, dtype=np.int64)
        if not len(features):
            return
        self.pyomo_model.add_features(features)
        self.backend.features_added(self, features)
        self.solution = None

    def add_rows(self, samples, subsets):
        """Enforce the paper's rows ``(samples[r], subsets[r])``: add the formulation's items of them as one batch,
        removing those they replace (:meth:`~mrc_pyomo.formulations.Formulation.merge`); return how many were added."""
        samples = np.asarray(samples, dtype=np.int64)
        subsets = np.asarray(subsets, dtype=bool).reshape(len(samples), self.n_classes)
        replaced, items = self.formulation.merge(self.samples, self.subsets, samples, subsets)
        self.remove_rows(replaced)
        return self.add_items(*items)

    def add_all_rows(self, samples, reduction=None):
        """Add every row of ``samples`` that ``reduction`` keeps as one batch (the full LP's,
        :meth:`~mrc_pyomo.formulations.Formulation.full_items`); return how many items were added."""
        return self.add_rows(*self.formulation.full_items(np.asarray(samples), self.n_classes, reduction))

    def add_items(self, samples, subsets):
        """Add the items ``(samples[r], subsets[r])`` to ``I`` as one batch, unmerged; return how many."""
        if not len(samples):
            return 0
        block = self.pyomo_model.add_batch(samples, subsets)
        self.backend.rows_added(self, block)
        self.solution = None
        return len(samples)

    def remove_rows(self, mask):
        """Remove the items of ``I`` where ``mask`` is true; return how many."""
        mask = np.asarray(mask, dtype=bool)
        if not mask.any():
            return 0
        self.backend.removing_rows(self, mask)
        self.pyomo_model.remove_rows(mask)
        self.solution = None
        return int(mask.sum())

    def set_row_upper(self, mask, upper):
        """Set the right-hand sides of the LP rows of the items where ``mask`` is true to ``upper`` (one value or one
        per LP row; the paper's ``b_(i,C) = 1/|C| - 1`` until changed), for experiments (``upper=np.inf`` relaxes a
        row); the certificate keeps the LP's own ``b``, so ``lower_`` stays a valid bound."""
        mask = np.asarray(mask, dtype=bool)
        if not mask.any():
            return
        self.backend.row_bounds_changing(self, mask)
        self.pyomo_model.set_row_upper(mask, upper)
        self.backend.row_bounds_changed(self, mask)
        self.solution = None

    def with_costs(self, tau, lam):
        """The same ``P_{I,J}`` (rows, right-hand sides, features, fixed rows) with the costs of ``tau`` and ``lam``:
        a new master for another ``lambda0`` (:mod:`mrc_pyomo.methods.pathwise`), marked :meth:`large_change`
        (docs/theory.rst, "Regularisation paths")."""
        master = RestrictedMaster(self.data, tau, lam, centroids=self.centroids, objective_floor=self.objective_floor,
                                  solver=self.solver, solver_options=self.solver_options, backend=type(self.backend),
                                  formulation=self.formulation)
        master.add_features(self.features)
        master.add_rows(self.samples, self.subsets)
        master.large_change()
        return master

    def large_change(self):
        """The master is new or changed by a large fraction: its next solve does not start from the last basis (on
        HiGHS: the interior point method with crossover)."""
        self.backend.large_change()

    # -- solving ----------------------------------------------------------------------------------------
    def set_solver_option(self, name, value):
        """Set a solver option for the next solves (e.g. from a callback: a time limit for later masters)."""
        self.backend.set_option(*backend_option(self.solver, name, value))   # tee: the backend's log option
        self.solver_options[name] = value

    def refine(self):
        """Make the next solve start from scratch (on HiGHS, at tolerances 1e-10): a warm simplex can stop on a
        basis it calls optimal that the loop's certificate refutes; a cold solve usually does not."""
        self.backend.refine()
        self.solution = None

    def materialise(self):
        """Build the Pyomo components the model lacks (:meth:`MasterModel.materialise`)."""
        return self.pyomo_model.materialise(self.block, self.tau, self.lam)

    def solve(self, time_limit=None, budget=None):
        """Solve ``P_{I,J}``; return and store the :class:`MasterSolution`.  Raises :class:`MasterSolveError`.

        Where ``capabilities.limits_inside_solve``, ``time_limit`` (seconds) bounds this solve and ``budget`` the warm
        simplex (:meth:`~mrc_pyomo.master.highs_backend.HighsMaster.solve`); other backends ignore both.  At the time
        limit, the :class:`MasterTimeLimit` raised holds the solver's unfinished point, where it has one, as a
        :class:`MasterSolution` of this master (not stored: :attr:`solution` stays the last optimal one)."""
        try:
            solved = self.backend.solve(self, time_limit, budget)
        except MasterTimeLimit as error:
            if error.iterate is None:
                raise
            raise MasterTimeLimit(str(error), self.master_solution(error.iterate, dict(self.backend.seconds)),
                                  self) from error
        self.solver_status = solved.status
        self.solution = self.master_solution(solved, dict(self.backend.seconds))
        return self.solution

    def master_solution(self, solved, seconds):
        """The :class:`MasterSolution` of a backend's :class:`~mrc_pyomo.master.solution.BackendSolution`
        ``solved``, with the ``seconds`` of its solve."""
        mu = np.zeros(self.n_classes * self.n_features)
        mu[self.features] = solved.mu
        row_duals = np.asarray(solved.row_duals, dtype=float)
        return MasterSolution(mu=mu.reshape(self.n_classes, self.n_features), nu=float(solved.nu),
                              alpha=self.formulation.item_duals(self.subsets, row_duals), beta=float(solved.beta),
                              objective=float(solved.objective), row_duals=row_duals,
                              columns=np.asarray(solved.columns, dtype=float), seconds=seconds)

    # -- the Pyomo model --------------------------------------------------------------------------------
    @property
    def model(self):
        """The Pyomo model of the current master (built now if need be), with the last solution loaded."""
        self.materialise()
        if self.solution is not None and self.capabilities.bulk_loading:
            self.pyomo_model.load_solution(self.solution)
        return self.pyomo_model.pyomo

    def write(self, path, format=None, io_options=None):
        """Write the current master's Pyomo model to ``path`` (:func:`~mrc_pyomo.master.export.write_pyomo_model`);
        return ``path``."""
        return write_pyomo_model(self.model, path, format, io_options)

    # -- after fitting ----------------------------------------------------------------------------------
    def compact(self):
        """Keep only the rows of the data that ``I`` uses, in memory, not the data (nor a reference to a cluster's);
        sample ids, and so the model's names, are unchanged."""
        self.points = self.points.compacted(self.samples)
        return self

    def __getstate__(self):
        state = self.__dict__.copy()
        state.update(backend=type(self.backend), solver=picklable_solver(self.solver))   # made anew on loading
        return state

    def __setstate__(self, state):
        if "points" not in state:   # a master pickled by 0.1.0 kept its data, centroids and stored ids itself
            state["points"] = Points(state.pop("data"), state.pop("centroids"), state.pop("_stored_ids", None),
                                     state["n_samples"])
        self.__dict__.update(state)
        self.backend = make_backend(self.solver, self.objective_floor, self.solver_options, state["backend"])
        self.backend.load(self)
