"""What the methods need from a restricted master: the :class:`Master` protocol, which
:class:`~mrc_pyomo.master.RestrictedMaster` implements (Coluna's idea: the loop is written against a small interface
to the master, not against a solver).  A solve returns a :class:`~mrc_pyomo.master.solution.MasterSolution` or raises
:class:`~mrc_pyomo.master.MasterSolveError` (:class:`~mrc_pyomo.master.MasterTimeLimit` at the time limit); an update
returns its :class:`~mrc_pyomo.master.solution.Changes`.  The solver is the backend's (:mod:`mrc_pyomo.master.backend`).
"""

from typing import Protocol, runtime_checkable


@runtime_checkable
class Master(Protocol):
    """A restricted master ``P_{I,J}`` (paper, eq. 7) as the methods use it.

    **Its record**: ``samples`` and ``subsets`` (the ``n_rows`` items of ``I``), ``features`` (``J``, flat ids),
    ``n_samples`` (ids from ``n_samples`` on are the class centroids), ``capabilities``, ``solution`` (the last
    solve's, None after a change) and ``solver_status``.

    **The oracles' access**: ``points`` (rows of ``Psi``), ``certificate_rows`` (the duals as weights on the paper's
    rows ``(i, C)``), ``covered`` (what the items enforce already), ``item_values`` (each item's value at ``mu``).

    **Changes and solves**: ``add_rows``, ``add_features``, ``add_all_rows`` (the full LP's), ``update`` (the loop's
    step, returning ``Changes``), ``solve`` (returning a ``MasterSolution``), ``refine`` (the next solve from
    scratch), ``large_change`` (no useful basis), ``set_solver_option``, ``with_costs`` (another ``lambda0``) and
    ``compact`` (keep only the data its rows use)."""

    samples: object
    subsets: object
    features: object
    n_rows: int
    n_samples: int
    capabilities: object
    solution: object
    solver_status: object

    def points(self, ids, columns=None): ...

    def certificate_rows(self, solution=None): ...

    def covered(self): ...

    def item_values(self, mu): ...

    def add_rows(self, samples, subsets): ...

    def add_features(self, features): ...

    def add_all_rows(self, samples, reduction=None): ...

    def update(self, remove, samples, subsets, features): ...

    def solve(self, time_limit=None, budget=None): ...

    def refine(self): ...

    def large_change(self): ...

    def set_solver_option(self, name, value): ...

    def with_costs(self, tau, lam): ...

    def compact(self): ...
