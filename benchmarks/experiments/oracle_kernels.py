"""The sorted prefixes of the oracles, timed: ``most_violated_subsets``, ``psi_values`` (the primal oracle's per-sample
values, every pass of every method) and MRC-PDHG's ``row_thresholds``, each against the two forms it had before.

    python -m benchmarks.experiments.oracle_kernels [--shapes N:K ...] [--repeats R]

For each shape, scores drawn at random (seed 0, a tenth of them rounded to one decimal, for ties) are given to the
library's function and to its earlier forms, written out below: before 79b691f, a stable ``argsort`` of the negated
scores, the scores taken along it and the subsets scattered back (``put_along_axis``), ``-sort(-scores)`` for the
values and the thresholds; from 79b691f to e97a7cc, every prefix mean at once (``cumsum`` along the rows of an
ascending sort read backwards, then ``max`` / ``argmax`` along them), where the library now sums a label at a time
over all rows (:func:`mrc_pyomo.oracles.primal.best_prefixes`).  Checks that all give the same numbers bit for bit,
then prints the best of ``--repeats`` timings of each, in milliseconds, and the ratio of each earlier form's to the
library's.  One core: run it with single-threaded BLAS.
"""

import argparse
import time

import numpy as np

from mrc_pyomo.methods.pdhg.saddle import row_thresholds
from mrc_pyomo.oracles.primal import largest_labels, most_violated_subsets, psi_values

#: (samples, labels): ten sections of text, all of mnist's training images, 50 and 100 classes, pulsar
SHAPES = ((30060, 10), (56000, 10), (8000, 50), (8000, 100), (12528, 2))


def earlier_subsets(scores):
    """``most_violated_subsets`` before 79b691f: a stable argsort, the prefix means along it, the subsets scattered."""
    n, K = scores.shape
    order = np.argsort(-scores, axis=1, kind="stable")
    means = (np.cumsum(np.take_along_axis(scores, order, axis=1), axis=1) - 1.0) / np.arange(1, K + 1)
    size = np.argmax(means, axis=1)
    subsets = np.empty((n, K), dtype=bool)
    np.put_along_axis(subsets, order, np.arange(K)[None, :] <= size[:, None], axis=1)
    return means[np.arange(n), size], subsets


def earlier_psi(scores):
    """``psi_values`` before 79b691f."""
    return np.max((np.cumsum(-np.sort(-scores, axis=1), axis=1) - 1.0) / np.arange(1, scores.shape[1] + 1), axis=1)


def earlier_thresholds(Z, steps):
    """``row_thresholds`` before 79b691f (its NumPy arrays through the standard's functions)."""
    ordered = -np.sort(-Z, axis=1)
    candidates = (np.cumsum(ordered, axis=1) - steps[:, None]) / np.arange(1, Z.shape[1] + 1, dtype=Z.dtype)
    kept = np.sum((ordered > candidates).astype(np.int64), axis=1)
    return np.take_along_axis(candidates, (np.maximum(kept, 1) - 1)[:, None], axis=1)[:, 0]


def prefix_means(scores, offset=1.0):
    """The prefix means of 79b691f to e97a7cc: ``(ordered, means)``, every ``(v_(1) + ... + v_(k) - offset) / k``."""
    ordered = np.sort(scores, axis=1)[:, ::-1]
    means = np.cumsum(ordered, axis=1)
    means -= offset
    means /= np.arange(1, scores.shape[1] + 1, dtype=means.dtype)
    return ordered, means


def prefix_subsets(scores):
    """``most_violated_subsets`` from 79b691f to e97a7cc."""
    ordered, means = prefix_means(scores)
    size = np.argmax(means, axis=1)
    return means[np.arange(scores.shape[0]), size], largest_labels(scores, ordered, size)


def prefix_psi(scores):
    """``psi_values`` from 79b691f to e97a7cc."""
    return prefix_means(scores)[1].max(axis=1)


def prefix_thresholds(Z, steps):
    """``row_thresholds`` from 79b691f to e97a7cc."""
    ordered, candidates = prefix_means(Z, steps[:, None])
    kept = np.count_nonzero(ordered > candidates, axis=1)
    return candidates[np.arange(Z.shape[0]), np.maximum(kept, 1) - 1]


def best_of(function, repeats, *args):
    """The least of ``repeats`` timings of ``function(*args)``, in milliseconds, after one call to warm up."""
    function(*args)
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        function(*args)
        times.append(time.perf_counter() - started)
    return 1e3 * min(times)


def same(a, b):
    """Whether two results (arrays, or tuples of arrays) are equal bit for bit."""
    if isinstance(a, tuple):
        return all(np.array_equal(x, y) for x, y in zip(a, b))
    return np.array_equal(a, b)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shapes", nargs="*", default=[f"{n}:{K}" for n, K in SHAPES])
    parser.add_argument("--repeats", type=int, default=20)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    print("| samples | labels | function | before 79b691f (ms) | to e97a7cc (ms) | now (ms) | ratio to the first | "
          "to the second |")
    print("| ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: |")
    for shape in args.shapes:
        n, K = (int(part) for part in shape.split(":"))
        scores = rng.normal(scale=0.3, size=(n, K))
        scores[::10] = np.round(scores[::10], 1)
        steps = rng.uniform(0.05, 3.0, n)
        for name, now, earlier, arguments in (
                ("most_violated_subsets", most_violated_subsets, (earlier_subsets, prefix_subsets), (scores,)),
                ("psi_values", psi_values, (earlier_psi, prefix_psi), (scores,)),
                ("row_thresholds", row_thresholds, (earlier_thresholds, prefix_thresholds), (scores, steps))):
            if not all(same(now(*arguments), form(*arguments)) for form in earlier):
                raise AssertionError(f"{name} on {n} x {K} differs from an earlier form")
            first, second = (best_of(form, args.repeats, *arguments) for form in earlier)
            new = best_of(now, args.repeats, *arguments)
            print(f"| {n} | {K} | {name} | {first:.2f} | {second:.2f} | {new:.2f} | "
                  f"{first / new:.2f} | {second / new:.2f} |")


if __name__ == "__main__":
    main()
