"""
Linear features against random Fourier features on the data sets that ship with scikit-learn
============================================================================================

For each data set (standardised in a pipeline, 30% held out, stratified) and each feature map, the script fits
the MRC with the defaults and prints the certified worst-case error R* (``upper_``, certified within eps_1),
the training and test accuracy, the classes the rule never predicts on its training data, and the fit's
seconds, as a Markdown table (the one of the guide's page "Choosing a feature map").

    python examples/feature_maps.py [--fast]
"""

import argparse
import time
import warnings

from sklearn.datasets import load_breast_cancer, load_digits, load_iris, load_wine
from sklearn.model_selection import train_test_split
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from mrc_pyomo import MRCClassifier

DATASETS = {"iris": load_iris, "wine": load_wine, "breast_cancer": load_breast_cancer, "digits": load_digits}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--fast", action="store_true", help="iris and wine only")
    args = parser.parse_args()
    names = ["iris", "wine"] if args.fast else list(DATASETS)
    print("| data set | n x d, classes | feature map | R* (upper_) | training accuracy | test accuracy | "
          "classes never predicted | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for name in names:
        X, y = DATASETS[name](return_X_y=True)
        X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
        for phi in ("linear", "fourier"):
            model = make_pipeline(StandardScaler(), MRCClassifier(phi=phi, random_state=0))
            start = time.perf_counter()
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)   # the rule that leaves classes out: in the table
                model.fit(X_train, y_train)
            seconds = time.perf_counter() - start
            clf = model[-1]
            never = sorted(set(clf.classes_) - set(model.predict(X_train)))
            print(f"| {name} | {X_train.shape[0]} x {X.shape[1]}, {len(clf.classes_)} | {phi} | {clf.upper_:.4f} | "
                  f"{model.score(X_train, y_train):.3f} | {model.score(X_test, y_test):.3f} | "
                  f"{', '.join(map(str, never)) or 'none'} | {seconds:.1f} |", flush=True)


if __name__ == "__main__":
    main()
