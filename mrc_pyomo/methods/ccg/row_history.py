"""What MRC-CCG's loop remembers of its rows beyond the master (:class:`RowHistory`): row ageing, and the anti-cycling
rule that pins a row added back while the master's value has not risen since it left."""

from dataclasses import dataclass, field

import numpy as np

from ...formulations import item_keys

#: the rise of the master's value ``R^k``, relative to ``max(1, |R^k|)``, below which it has not progressed
CYCLE_TOLERANCE = 1e-9


@dataclass
class RowHistory:
    """What the loop remembers of its rows beyond the master.

    Per row of the master: for how many masters in a row it has been over-satisfied (``idle``, row ageing) and whether
    it is kept for good (``pinned``).  Per row this fit removed (``dropped``, by its key): the master's value ``R^k``
    when it was last removed, to count the rows added again (the churn) and to stop cycles.

    **Anti-cycling.**  Removing only over-satisfied rows keeps ``R^k`` non-decreasing (Theorem 1), but at equal values
    the loop can go round the same masters for ever (seen on the compact formulation at ``lambda0 = 0``).  A row added
    again while ``R^k`` has not risen (by :data:`CYCLE_TOLERANCE`) since its removal is pinned: never removed again.
    Each row can then leave once per value of ``R^k``; the values are non-decreasing, so the loop cannot cycle."""

    idle: np.ndarray
    pinned: np.ndarray = None
    dropped: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.pinned is None:
            self.pinned = np.zeros(len(self.idle), dtype=bool)

    def readded(self, rows):
        """How many of the rows ``(samples, subsets)`` this fit had removed before."""
        return sum(key.tobytes() in self.dropped for key in item_keys(*rows))

    def age(self, remove, row_age):
        """Count a master: ``remove`` (over-satisfied rows) ages its rows; the mask of those that leave now (none
        pinned; none for ``row_age=None``)."""
        self.idle = np.where(remove, self.idle + 1, 0)
        if row_age is None:
            return np.zeros(len(self.idle), dtype=bool)
        return (self.idle >= row_age) & ~self.pinned

    def updated(self, removed_mask, removed_rows, added_rows, value):
        """After a master of value ``value``, the master lost the rows at ``removed_mask`` (``removed_rows``: their
        pairs) and gained ``added_rows`` at its end: those removed before at a value not below ``value`` (less
        :data:`CYCLE_TOLERANCE`) come back pinned."""
        for key in item_keys(*removed_rows):
            self.dropped[key.tobytes()] = value
        floor = value - CYCLE_TOLERANCE * max(1.0, abs(value))
        cycled = np.array([self.dropped.get(key.tobytes(), -np.inf) >= floor for key in item_keys(*added_rows)],
                          dtype=bool)
        self.idle = np.concatenate([self.idle[~removed_mask], np.zeros(len(cycled), dtype=np.int64)])
        self.pinned = np.concatenate([self.pinned[~removed_mask], cycled])
