"""
A new formulation of the master in one class: the paper's rows multiplied by ``|C|``
====================================================================================

A formulation says what LP rows and columns an item ``(i, C)`` of the master is, how the separation's rows
become items, and how the duals of its rows become weights on the paper's rows, which the one certificate
checks.  Here each row ``(i, C)`` is written with the integer multiples of ``Psi`` it has before the paper divides
by ``|C|``::

    sum_{y in C} Psi(x_i).(mu1 - mu2)_y - |C| nu <= 1 - |C|

The same LP, so the same ``R*``; its duals are the paper's divided by ``|C|``, so the certificate's weights are
``|C|`` times them.  Everything else (which rows an item enforces, merging, values) is the paper's.
"""

import numpy as np
import scipy.sparse as sp
from sklearn.datasets import load_wine
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier
from mrc_pyomo.formulations import PaperFormulation, register_formulation


@register_formulation
class ScaledRows(PaperFormulation):
    """The paper's rows ``(i, C)`` multiplied by ``|C|`` (see the module docstring)."""

    name = "scaled_rows"

    def upper(self, subsets):
        return 1.0 - subsets.sum(axis=1)

    def block(self, points, samples, subsets, features, n_features):
        lp = super().block(points, samples, subsets, features, n_features)
        size = subsets.sum(axis=1).astype(float)
        lp.mu, lp.nu = (sp.diags(size) @ lp.mu).tocsr(), -size
        return lp

    def item_duals(self, subsets, row_duals):
        return row_duals * subsets.sum(axis=1)

    def certificate_rows(self, samples, subsets, row_duals):
        return samples, subsets, self.item_duals(subsets, row_duals)


if __name__ == "__main__":
    X, y = load_wine(return_X_y=True)
    X = StandardScaler().fit_transform(X)
    for formulation in ("paper", "compact", "scaled_rows"):
        clf = MRCClassifier(formulation=formulation, eps_1=1e-6).fit(X, y)
        rows = clf.master_.pyomo_model.upper.size
        print(f"{formulation:>11}: R* in [{clf.lower_:.8f}, {clf.upper_:.8f}], {clf.n_iter_:2d} masters, final master "
              f"{clf.master_.n_rows} items, {rows} LP rows; predictions agree with the paper's: "
              f"{np.mean(clf.predict(X) == MRCClassifier(eps_1=1e-6).fit(X, y).predict(X)):.0%}")
