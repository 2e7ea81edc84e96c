"""``mrc-pyomo demo`` (``python -m mrc_pyomo`` with no command): an MRC fitted by constraint and column generation
on scikit-learn's digits data set, with its iteration log, its certified worst-case error and where the time went."""

import time


def fit_digits(solver="highs", eps_1=1e-3, wide=False):
    """Fit and print (the command's description: :data:`mrc_pyomo.cli.help.DEMO_HELP`)."""
    from sklearn.datasets import load_digits
    from sklearn.model_selection import train_test_split
    from sklearn.preprocessing import StandardScaler

    from .. import MRCClassifier
    from ..display.log import time_split

    X, y = load_digits(return_X_y=True)
    X_train, X_test, y_train, y_test = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    scaler = StandardScaler().fit(X_train)
    X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    print(f"digits: {X_train.shape[0]} training samples, {X_train.shape[1]} features, 10 classes")
    print("R^k is the master's value, R(mu^k) the exact worst-case error of its rule on all training samples, "
          "[lower, upper] the certified interval around R*")

    start = time.perf_counter()
    clf = MRCClassifier(solver=solver, eps_1=eps_1, verbose=3 if wide else 2).fit(X_train, y_train)
    seconds = time.perf_counter() - start

    print(f"\nminimax risk R* in [{clf.lower_:.6f}, {clf.upper_:.6f}] (certified in NumPy)")
    print(f"the rule's worst-case error probability R(mu) = {clf.upper_:.6f}")
    print(f"test error = {1 - clf.score(X_test, y_test):.4f}")
    print(f"fit: {seconds:.2f} s, {clf.n_iter_} iterations; {time_split(clf.history_)}")
