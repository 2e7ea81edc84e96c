"""
An MRC in a scikit-learn pipeline (scaling + random Fourier features) with a grid search over lambda0
=====================================================================================================

The MRC's certified worst-case error ``upper_`` is an upper bound on its error under every distribution of
the uncertainty set; a smaller lambda0 gives a tighter set and usually a smaller error.

    python examples/pipeline_grid_search.py [--fast]
"""

import argparse

from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier, RandomFourierFeatures


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fast", action="store_true")
    args = parser.parse_args()
    X, y = load_breast_cancer(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, random_state=0, stratify=y)
    n_components = 50 if args.fast else 400
    pipe = make_pipeline(
        StandardScaler(),
        MRCClassifier(phi=RandomFourierFeatures(n_components=n_components, random_state=0)))
    grid = {"mrcclassifier__lambda0": [0.01, 0.1] if args.fast else [0.001, 0.01, 0.1, 0.3]}
    search = GridSearchCV(pipe, grid, cv=3).fit(X_train, y_train)
    best = search.best_estimator_[-1]
    print(f"best lambda0 = {search.best_params_['mrcclassifier__lambda0']}, CV accuracy {search.best_score_:.4f}")
    print(f"test error {1 - search.score(X_test, y_test):.4f}, certified worst-case error {best.upper_:.4f}")


if __name__ == "__main__":
    main()
