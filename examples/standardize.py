"""
Why to standardise: the worst-case error R is invariant under a positive rescaling of a feature column, not under a shift of it
===============================================================================================================================

``lambda = lambda0 * std`` and ``mu`` follow a column's scale, so multiplying a column by ``c > 0`` changes
neither ``R*`` nor the rule.  Adding a constant ``c`` to column ``j`` does change them: the same scores then
need every class's intercept moved by ``-c mu_yj``, and the intercept is regularised like every other
coefficient (its ``lambda`` is ``lambda0`` times the standard deviation of the class indicator), so an offset
large against the column's spread is paid for in ``R``.  Measurements with large offsets (wine: proline about
750, hue about 1) are best centred and scaled first, with scikit-learn's ``StandardScaler`` in a ``Pipeline``
so that ``predict`` applies the same map (``mrc-pyomo fit --standardize`` on the command line).

    python examples/standardize.py
"""

import numpy as np
from sklearn.datasets import load_wine
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier


def main():
    X, y = load_wine(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, random_state=0, stratify=y)

    raw = MRCClassifier().fit(X_train, y_train)
    scaled = MRCClassifier().fit(X_train * np.array([1e3] + [1.0] * 12), y_train)   # a column in other units
    standardised = make_pipeline(StandardScaler(), MRCClassifier()).fit(X_train, y_train)

    print("wine, 30% held out        R(mu) = certified worst-case error   test accuracy")
    print(f"raw features              {raw.upper_:.6f}                             {raw.score(X_test, y_test):.3f}")
    print(f"column 0 times 1000       {scaled.upper_:.6f}                             "
          f"{scaled.score(X_test * np.array([1e3] + [1.0] * 12), y_test):.3f}")
    print(f"standardised (Pipeline)   {standardised[-1].upper_:.6f}                             "
          f"{standardised.score(X_test, y_test):.3f}")


if __name__ == "__main__":
    main()
