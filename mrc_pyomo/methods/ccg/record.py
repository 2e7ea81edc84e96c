"""What a ``callback`` sees of MRC-CCG's iterations, one per master (:class:`IterationState`); the record it holds is
:mod:`mrc_pyomo.methods.history`'s."""

from dataclasses import dataclass

import numpy as np

from ...master import RestrictedMaster
from ...oracles.primal import primal_violations
from . import readable
from .check import Check

@dataclass
class IterationState:
    """What a ``callback`` sees after master ``k`` is solved and checked.

    ``rows_added`` / ``rows_removed`` (pairs ``(samples, subsets)``) and ``features_added`` are the changes that made
    this master, ``removed_violations`` the removed rows' violations at the master that removed them; ``next_rows``,
    ``next_features`` and ``next_removed`` (a mask over the master's rows) what the loop applies next if it goes on.
    ``master`` and ``model`` (its Pyomo model, built on first access on the default path, with this solution loaded) are
    this iteration's only while the loop waits at it: the loop changes the same master, so a state kept after its step
    refuses them (``RuntimeError``); the rest stays valid.  Readable (:mod:`~mrc_pyomo.methods.ccg.readable`):
    ``repr(state)`` is one line, :meth:`describe` and :meth:`next_changes` tables of the changes, :meth:`summary` a
    dict, and a notebook an HTML table."""

    iteration: int
    live_master: RestrictedMaster
    solution: object
    check: Check
    record: dict
    rows_added: tuple
    rows_removed: tuple
    features_added: np.ndarray
    data: object = None
    blocked: np.ndarray = None
    problem: object = None
    removed_violations: np.ndarray = None

    def __repr__(self):
        return readable.state_line(self)

    def _repr_html_(self):
        return readable.state_html(self)

    def describe(self):
        """The changes that made this master, a ``pandas.DataFrame`` with one line per change and its violation
        (:func:`~mrc_pyomo.methods.ccg.readable.changes_table`, whose columns the module docstring describes)."""
        return readable.changes_table(self)

    def next_changes(self):
        """What the oracles chose at this master for the next one, as :meth:`describe` lays it out, each with the
        violation that chose it (:func:`~mrc_pyomo.methods.ccg.readable.next_changes_table`)."""
        return readable.next_changes_table(self)

    def summary(self):
        """This step as a dict: size, ``R^k``, the certified interval, the changes' counts, the most violated row and
        feature (:func:`~mrc_pyomo.methods.ccg.readable.summary`; one more pass over the samples)."""
        return readable.summary(self)

    @property
    def master(self):
        """The restricted master of this iteration, while the loop waits at it (class docstring)."""
        if self.live_master.solution is not self.solution:
            raise RuntimeError(f"the master of iteration {self.iteration} has changed since: the loop went on with "
                               f"the same master object, so this state no longer shows its iteration's master; "
                               f"keep what you need while the loop waits at the state (state.master.write(path), "
                               f"state.record, state.mu)")
        return self.live_master

    model = property(lambda self: self.master.model)
    mu = property(lambda self: self.solution.mu)
    nu = property(lambda self: self.solution.nu)
    alpha = property(lambda self: self.solution.alpha)
    lower = property(lambda self: self.check.lower)
    upper = property(lambda self: self.check.best.risk)

    @property
    def primal_violations(self):
        """``psi(x_i) + 1 - nu`` for every sample: one more pass over the data (the loop keeps only the largest)."""
        return primal_violations(self.data, self.mu, self.nu, self.blocked)

    dual_violations = property(lambda self: self.check.dual_violations)

    @property
    def next_rows(self):
        samples, subsets = self.check.new_samples, self.check.new_subsets
        if self.record.get("features_only") and len(self.check.new_features):   # features first: no rows now
            return samples[:0], subsets[:0]
        return samples, subsets

    next_features = property(lambda self: self.check.new_features)
    next_removed = property(lambda self: self.check.remove)
