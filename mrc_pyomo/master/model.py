"""The restricted master ``P_{I,J}`` (paper, eq. 7) as a Pyomo model made of blocks: the one record of I and J.

The model ``m = MasterModel(...).pyomo`` is::

    m.features                     ordered Set of the pairs (class y, feature j) of J
    m.mu_pos[y, j], m.mu_neg[y, j]  mu1, mu2 >= 0 (mu = mu1 - mu2)
    m.nu                           free
    m.objective                    min -(tau - lambda)_J . mu1 + (tau + lambda)_J . mu2 + nu
    m.objective_floor              (optional) the same expression >= 0: valid since R* >= 0
    m.batch_<b>                    one Block per batch of items added together (b = 1, 2, ...), with
        .samples, .subsets         NumPy arrays: the items (i, C) of the batch still in I, in order
        .upper                     the right-hand sides of their LP rows (the formulation's, unless changed)
        .rows, .row                the Set of row names and the Constraint, e.g. with the paper's formulation
                                   row["x17", "C0_2"]: (1/|C|) sum_{y in C} Psi(x_i).(mu1 - mu2)_y - nu <= upper
        .columns, .u               (formulations with item columns) the Set of column names and u >= 0
    m.dual                         import Suffix: the duals of the last solve (<= 0 on the rows)

An item's LP rows and columns are the formulation's (:mod:`mrc_pyomo.formulations`): one row ``(i, C)`` in the
paper's, ``|P| + 1`` rows and ``|P|`` columns in the compact one.  ``I`` is the batches' items in the order added,
the LP rows and item columns theirs in that order; ``J`` is :attr:`MasterModel.features` (flat ids ``y * D + j``).

The Pyomo components are **materialised lazily** (:meth:`MasterModel.materialise`), as building them is costly:
the built-in HiGHS backend never builds them unless someone looks at the model; Pyomo's solvers build each batch
once, when first handed over, and again when features were added since.
"""

import numpy as np
import pyomo.environ as pyo
from pyomo.common.gc_manager import PauseGC
from pyomo.core.expr.numeric_expr import LinearExpression

from ..formulations import get_formulation
from ..formulations.paper import objective_coefficients


def _row_body(pos, neg, columns, values, others):
    """``sum_c values[c] (mu1 - mu2)[columns[c]] + sum (coefficient * variable)`` over ``others`` as a flat Pyomo
    LinearExpression; ``pos`` / ``neg``: the variables ``mu1`` / ``mu2`` of J by position, looked up once per build."""
    columns, values = columns.tolist(), values.tolist()
    return LinearExpression(constant=0.0, linear_coefs=values + [-v for v in values] + [c for c, _ in others],
                            linear_vars=[pos[c] for c in columns] + [neg[c] for c in columns] + [v for _, v in others])


def _set_upper(constraint, value):
    """``body <= value``; ``value = +inf`` relaxes the row: deactivated (no solver takes a row without bounds)."""
    if np.isinf(value):
        constraint.set_value((None, constraint.body, 1e300))
        constraint.deactivate()
    else:
        constraint.set_value((None, constraint.body, float(value)))
        constraint.activate()


def _taken(names, mask):
    """The names where ``mask`` is true."""
    return [name for name, keep in zip(names or [], mask) if keep]


class MasterModel:
    """``P_{I,J}`` as a Pyomo model of blocks, changed batch by batch: ``n_samples`` and ``n_features`` are ``n``
    and ``D`` (sample ids ``>= n`` are centroids, named ``centroid<y>``), ``objective_floor`` adds the row
    ``objective >= 0``, ``formulation`` makes an item's LP rows and columns."""

    def __init__(self, n_samples, n_features, n_classes, objective_floor=False, formulation="paper"):
        self.n_samples, self.n_features, self.n_classes = n_samples, n_features, n_classes
        self.objective_floor = objective_floor
        self.formulation = get_formulation(formulation)
        self.features = np.zeros(0, dtype=np.int64)
        self.batches = []
        self._added = 0            # batches ever added: the next is m.batch_<added + 1>
        self._built_features = 0   # how many features of J have Pyomo variables (and are in the objective)
        self._rows = None          # cache of (samples, subsets) of I
        m = pyo.ConcreteModel(name="MRC restricted master P_IJ")
        m.features = pyo.Set(dimen=2, ordered=True, doc="(class index, feature index) pairs in J")
        m.mu_pos = pyo.Var(m.features, domain=pyo.NonNegativeReals, doc="mu1: positive part of mu")
        m.mu_neg = pyo.Var(m.features, domain=pyo.NonNegativeReals, doc="mu2: negative part of mu")
        m.nu = pyo.Var(domain=pyo.Reals, doc="nu = varphi(mu) + 1 at an optimum")
        m.objective = pyo.Objective(expr=m.nu, sense=pyo.minimize, doc="R: the worst-case error probability")
        if objective_floor:
            m.objective_floor = pyo.Constraint(expr=m.nu >= 0, doc="objective >= 0 (R* >= 0)")
        m.dual = pyo.Suffix(direction=pyo.Suffix.IMPORT)
        self.pyomo = m

    # -- the record of I and J -------------------------------------------------------------------------
    @property
    def samples(self):
        return self._concatenated()[0]

    @property
    def subsets(self):
        return self._concatenated()[1]

    def _concatenated(self):
        if self._rows is None:
            self._rows = (np.concatenate([np.zeros(0, dtype=np.int64)] + [b.samples for b in self.batches]),
                          np.concatenate([np.zeros((0, self.n_classes), dtype=bool)]
                                         + [b.subsets for b in self.batches]))
        return self._rows

    @property
    def n_rows(self):
        """The number of items of I."""
        return sum(len(b.samples) for b in self.batches)

    @property
    def upper(self):
        """The right-hand sides of the LP rows of I, in order."""
        return np.concatenate([np.zeros(0)] + [b.upper for b in self.batches])

    def lp_rows(self, mask):
        """The mask over the LP rows of I of the items where ``mask`` (over the items of I) is true."""
        return self._spread(mask, 0)

    def lp_columns(self, mask):
        """The mask over the item columns of I of the items where ``mask`` is true."""
        return self._spread(mask, 1)

    def _spread(self, mask, part):
        counts = np.concatenate([np.zeros(0, np.int64)] + [b.shape[part] for b in self.batches])
        return np.repeat(np.asarray(mask, dtype=bool), counts)

    def add_features(self, features):
        """Append flat feature ids to J (their variables are built by :meth:`materialise`)."""
        self.features = np.concatenate([self.features, np.asarray(features, dtype=np.int64)])

    def add_batch(self, samples, subsets):
        """Append the rows ``(samples[r], subsets[r])`` to I as a new block; return it."""
        self._added += 1
        block = pyo.Block(doc=f"rows added in batch {self._added}")
        self.pyomo.add_component(f"batch_{self._added}", block)
        block.samples, block.subsets = np.asarray(samples, dtype=np.int64), np.asarray(subsets, dtype=bool)
        block.upper = self.formulation.upper(block.subsets)
        block.shape = self.formulation.shape(block.subsets)   # LP rows and item columns of each item
        block.built_features = None   # None: its constraints are not built; else len(J) when they were
        block.row_names = block.column_names = None           # the names of the built rows and columns
        self.batches.append(block)
        self._rows = None
        return block

    def _by_batch(self, mask):
        """``(block, local mask)`` for each batch holding rows of I where ``mask`` (over the rows of I) is true."""
        mask = np.asarray(mask, dtype=bool)
        first = 0
        for block in list(self.batches):   # a copy: remove_rows deletes emptied batches on the way
            local = mask[first:first + len(block.samples)]
            first += len(block.samples)
            if local.any():
                yield block, local

    def remove_rows(self, mask):
        """Remove the items of I where ``mask`` is true, with their built rows and columns; empty batches go."""
        for block, local in self._by_batch(mask):
            rows, columns = np.repeat(local, block.shape[0]), np.repeat(local, block.shape[1])
            if block.built_features is not None:
                for key in _taken(block.row_names, rows):
                    del block.row[key]
                    block.rows.remove(key)
                for key in _taken(block.column_names, columns):
                    del block.u[key]
                    block.columns.remove(key)
                block.row_names = _taken(block.row_names, ~rows)
                block.column_names = _taken(block.column_names, ~columns)
            keep = ~local
            block.samples, block.subsets, block.upper = block.samples[keep], block.subsets[keep], block.upper[~rows]
            block.shape = (block.shape[0][keep], block.shape[1][keep])
            if not len(block.samples):
                self.batches.remove(block)
                self.pyomo.del_component(block)
        self._rows = None

    def set_row_upper(self, mask, upper):
        """Set the right-hand sides of the LP rows of the items where ``mask`` is true to ``upper`` (one value, or
        one per LP row); built rows keep their body (``+inf``: deactivated, so solvers and writers leave them out)."""
        mask = np.asarray(mask, dtype=bool)
        values = np.broadcast_to(np.asarray(upper, dtype=float), (int(self.lp_rows(mask).sum()),))
        taken = 0
        for block, local in self._by_batch(mask):
            rows = np.repeat(local, block.shape[0])
            new = values[taken:taken + int(rows.sum())]
            taken += len(new)
            block.upper = block.upper.copy()
            block.upper[rows] = new
            if block.built_features is not None:
                for key, value in zip(_taken(block.row_names, rows), new):
                    _set_upper(block.row[key], value)

    # -- the Pyomo components --------------------------------------------------------------------------
    def feature_keys(self, features=None):
        features = self.features if features is None else features
        return [(int(y), int(j)) for y, j in zip(*np.divmod(features, self.n_features))]

    def row_constraints(self, mask=None):
        """The built ConstraintData of the LP rows of I (of the items where ``mask`` is true), in order."""
        if mask is None:
            return [c for block in self.batches if block.built_features is not None for c in block.row.values()]
        return [block.row[key] for block, local in self._by_batch(mask) if block.built_features is not None
                for key in _taken(block.row_names, np.repeat(local, block.shape[0]))]

    def item_columns(self, mask=None):
        """The built variables ``u`` of the items of I (where ``mask`` is true), in order."""
        if mask is None:
            return [v for block in self.batches if block.column_names for v in block.u.values()]
        return [block.u[key] for block, local in self._by_batch(mask) if block.built_features is not None
                for key in _taken(block.column_names, np.repeat(local, block.shape[1]))]

    def stale_constraints(self):
        """Built constraints that :meth:`materialise` will rebuild (J grew since they were built)."""
        if self._built_features == len(self.features):
            return []
        stale = self.row_constraints()
        if self.objective_floor:
            stale.append(self.pyomo.objective_floor)
        return stale

    def materialise(self, block_fn, tau, lam):
        """Build the Pyomo components not built yet; return ``(new_variables, built_constraints)``.

        ``block_fn(samples, subsets, features)`` gives the LP block of those rows and features.  New features get
        their variables and the objective (and floor) is set again; batches are built, or rebuilt when J grew.
        ``built_constraints``, created or rewritten, must be handed to a persistent solver again."""
        with PauseGC():   # Python's cyclic collector, run every few hundred allocations, would triple the cost
            m = self.pyomo
            keys = self.feature_keys()
            new_variables, built = [], []
            if self._built_features < len(self.features):
                for key in keys[self._built_features:]:
                    m.features.add(key)
                    new_variables += [m.mu_pos[key], m.mu_neg[key]]
                coefs = np.concatenate([*objective_coefficients(tau, lam, self.features), [1.0]])
                expr = lambda: LinearExpression(  # noqa: E731
                    constant=0.0, linear_coefs=[float(c) for c in coefs],
                    linear_vars=[m.mu_pos[k] for k in keys] + [m.mu_neg[k] for k in keys] + [m.nu])
                m.objective.expr = expr()
                if self.objective_floor:
                    m.objective_floor.set_value(expr() >= 0)
                    built.append(m.objective_floor)
                self._built_features = len(self.features)
            pos, neg = [m.mu_pos[k] for k in keys], [m.mu_neg[k] for k in keys]
            for block in self.batches:
                if block.built_features == len(self.features):
                    continue
                lp = block_fn(block.samples, block.subsets, self.features)
                if block.built_features is None:
                    block.row_names, block.column_names = self.formulation.names(block.samples, block.subsets,
                                                                                 self.n_samples)
                    block.rows = pyo.Set(dimen=2, ordered=True, initialize=block.row_names, doc="the items' LP rows")
                    block.row = pyo.Constraint(block.rows, doc="the formulation's rows (mrc_pyomo.formulations)")
                    if block.column_names:
                        block.columns = pyo.Set(dimen=2, ordered=True, initialize=block.column_names,
                                                doc="the items' own columns")
                        block.u = pyo.Var(block.columns, domain=pyo.NonNegativeReals, doc="the items' columns u >= 0")
                        new_variables += list(block.u.values())
                u = [block.u[key] for key in block.column_names] if block.column_names else []
                mu, entries = lp.mu, lp.columns.tocsr()
                rhs = block.upper
                for r, key in enumerate(block.row_names):
                    lo, hi = mu.indptr[r], mu.indptr[r + 1]
                    own = slice(entries.indptr[r], entries.indptr[r + 1])
                    others = [(float(lp.nu[r]), m.nu)] if lp.nu[r] else []
                    others += [(float(v), u[c]) for c, v in zip(entries.indices[own], entries.data[own])]
                    # a relaxed row (upper +inf) is built deactivated, its bound shown as 1e300
                    body = _row_body(pos, neg, mu.indices[lo:hi], mu.data[lo:hi], others)
                    block.row[key] = body <= min(rhs[r], 1e300)
                    if np.isinf(rhs[r]):
                        block.row[key].deactivate()
                    built.append(block.row[key])
                block.built_features = len(self.features)
            return new_variables, built

    def load_solution(self, solution):
        """Load a :class:`~mrc_pyomo.master.restricted.MasterSolution` into the built model: values, and duals in
        Pyomo's sign (``-alpha`` on the rows, ``beta`` on the floor)."""
        m = self.pyomo
        mu = solution.mu.ravel()[self.features]
        for key, value in zip(self.feature_keys(), mu):
            m.mu_pos[key].value = max(value, 0.0)
            m.mu_neg[key].value = max(-value, 0.0)
        m.nu.value = solution.nu
        for variable, value in zip(self.item_columns(), solution.columns):
            variable.value = value
        m.dual.clear()
        for constraint, a in zip(self.row_constraints(), solution.row_duals):
            m.dual[constraint] = -a
        if self.objective_floor:
            m.dual[m.objective_floor] = solution.beta
