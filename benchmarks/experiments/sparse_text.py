"""Sparse text at scale, the paper's second regime: Debian's package index (one-line descriptions and debtags), TF-IDF
of words and word pairs, 80% for training; the section "Sparse text" of docs/benchmarks.md.

    python -m benchmarks.experiments.sparse_text TASK [--n N] [--lambda0 L] [--fits SPEC ...] [--minimal] [--record]

``TASK``: ``python`` (the section ``python`` against the rest, two classes) or ``topK`` (the ``K`` largest sections,
e.g. ``top10``); ``--n``: the training documents drawn at random (seed 0) from the 80% (default: all); ``--lambda0``:
the fits' (default 0.01, the estimator's).  Each fit of
``--fits`` (``default``, ``lp``, ``pdhg``, ``fom``, ``loop`` for ``regime="n"`` without a phase, each optionally
``NAME@SECONDS`` for a time limit, default ``default lp``) runs in this process, one after the other (one core: run
it with single-threaded BLAS), and LinearSVC first, the baseline of the rule's test error.  Prints the size of the
reduced full LP (rows, nonzeros: :meth:`mrc_pyomo.problem.MRCProblem.full_lp_size`) and each fit's seconds, certified
interval, status, regime and test error, and its first-order phase (iterations, the second it ended) and masters;
``--minimal`` also solves the smallest master that
certifies of a certified fit cold (the final master without its rows of zero dual,
:func:`benchmarks.harness.run_case.minimal_solves`) and counts the samples its rows hold.  ``--record`` appends the
rows to ``benchmarks/results/experiments.jsonl`` (experiment ``sparse_text``; else ``benchmarks/runs/``).
"""

import argparse
import time
import warnings

import numpy as np

from benchmarks.data import read, require
from benchmarks.harness.environment import versions
from benchmarks.harness.record_files import append, measured, records_file
from mrc_pyomo import MRCClassifier
# names the library has had since 21e461d, so that a clone of that commit with these scripts copied in runs the fits
# of a pair's before side (docs/benchmarks.md, "Every regime at scale"); --minimal's cold solves need a newer library
from mrc_pyomo.methods.first_order import FIRST_ORDER
from mrc_pyomo.problem import prepare

#: the fits: name -> the estimator's parameters
FITS = {"default": {}, "lp": {"method": "lp"}, "pdhg": {"method": "pdhg"}, "fom": {"method": "fom"},
        "loop": {"regime": "n", "first_order": False}}


def task(name, n=None, seed=0):
    """``(X_train, y_train, X_test, y_test)`` of the task ``name`` (module docstring): TF-IDF of words and word pairs
    seen in two training documents at least, sublinear term frequencies, fitted on the training documents."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.model_selection import train_test_split
    frame = read("debian_packages")
    if name == "python":
        y = np.where(frame.label == "python", "python", "other")
    else:
        largest = frame.label.value_counts().index[:int(name.removeprefix("top"))]
        frame = frame[frame.label.isin(largest)]
        y = frame.label.to_numpy()
    text = frame.text.fillna("")
    train, test, y_train, y_test = train_test_split(text, y, train_size=0.8, random_state=seed, stratify=y)
    if n is not None and n < len(train):
        keep = np.sort(np.random.default_rng(seed).choice(len(train), n, replace=False))
        train, y_train = train.iloc[keep], y_train[keep]
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
    return vectorizer.fit_transform(train).tocsr(), y_train, vectorizer.transform(test).tocsr(), y_test


def phase_and_masters(history):
    """A fit's first-order phase and its loop from its ``history_``: ``phase_iterations``, ``phase_seconds`` (the
    fit's clock at the phase's last iteration; 0 without a phase) and ``masters`` (the loop's records)."""
    if "phase" not in history or not len(history):
        return {"phase_iterations": 0, "phase_seconds": 0.0, "masters": 0}
    phase = history[history.phase == FIRST_ORDER]
    return {"phase_iterations": len(phase),
            "phase_seconds": float(phase.seconds_elapsed.iloc[-1]) if len(phase) else 0.0,
            "masters": int(len(history) - len(phase))}


def fit(spec, X, y, X_test, y_test, minimal=False, lambda0=0.01):
    """The row of the fit ``spec`` (``NAME`` or ``NAME@SECONDS``) at ``lambda0``."""
    name, _, limit = spec.partition("@")
    clf = MRCClassifier(lambda0=lambda0, time_limit=float(limit) if limit else None, **FITS[name])
    started = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        clf.fit(X, y)
    seconds = time.perf_counter() - started
    row = {"fit": spec, "lambda0": lambda0, "seconds": seconds, "status": str(clf.status_), "regime": clf.regime_,
           "lower": float(clf.lower_), "upper": float(clf.upper_), "n_iter": int(clf.n_iter_),
           "test_error": float(np.mean(clf.predict(X_test) != y_test)), **phase_and_masters(clf.history_)}
    master = clf.master_
    if minimal and master is not None and master.solution is not None and clf.status_ == "converged":
        from benchmarks.harness.run_case import minimal_master, minimal_solves
        row.update(minimal_solves(master, seconds, time_limit=seconds))
        row["minimal_samples"] = int(len(np.unique(minimal_master(master).samples)))
    return row


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("task")
    parser.add_argument("--n", type=int)
    parser.add_argument("--lambda0", type=float, default=0.01)
    parser.add_argument("--fits", nargs="+", default=["default", "lp"])
    parser.add_argument("--minimal", action="store_true")
    parser.add_argument("--record", action="store_true")
    args = parser.parse_args(argv)
    require(["debian_packages"])
    from sklearn.svm import LinearSVC
    X, y, X_test, y_test = task(args.task, args.n)
    started = time.perf_counter()
    svc = LinearSVC().fit(X, y)
    base = {"experiment": "sparse_text", "task": args.task, "n": X.shape[0], "D": X.shape[1],
            "K": len(np.unique(y)), "nnz": int(X.nnz), "linear_svc_seconds": time.perf_counter() - started,
            "linear_svc_error": float(np.mean(svc.predict(X_test) != y_test))}
    base["full_lp_rows"], base["full_lp_nonzeros"] = (int(v) for v in prepare(X, y).full_lp_size())
    print(f"{args.task}: {X.shape[0]} documents x {X.shape[1]} columns, {base['K']} classes, full LP of "
          f"{base['full_lp_rows']} rows; LinearSVC "
          f"{base['linear_svc_seconds']:.2f} s, test error {base['linear_svc_error']:.4f}", flush=True)
    path, environment = records_file("experiments.jsonl", args.record), versions()
    for spec in args.fits:   # each row appended as its fit ends: a long run stopped keeps the fits it made
        row = {**base, **fit(spec, X, y, X_test, y_test, args.minimal, args.lambda0)}
        append(path, measured(row, environment))
        minimal = (f"; minimal master {row['minimal_rows']} rows ({row['minimal_samples']} documents) of "
                   f"{row['final_rows']}, cold {row['minimal_best_seconds']:.1f} s" if row.get("minimal_best_seconds")
                   else "")
        print(f"{spec:12s} {row['seconds']:8.1f} s  [{row['lower']:.6f}, {row['upper']:.6f}] {row['status']:10s} "
              f"regime {row['regime']:4s} test error {row['test_error']:.4f}; phase {row['phase_iterations']} "
              f"iterations to {row['phase_seconds']:.1f} s, {row['masters']} masters{minimal}", flush=True)


if __name__ == "__main__":
    main()
