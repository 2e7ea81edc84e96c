"""The random Fourier features on scikit-learn's RBFSampler against the hand-written map they replaced.

    python -m benchmarks.experiments.fourier_map

The previous map computed ``cos(X W + b)`` with ``W ~ N(0, 2 gamma)`` of shape ``(d, 400)`` then
``b ~ U[0, 2 pi)`` drawn in that order from ``check_random_state(seed)``; it is recomputed here from the same
draws.  Per input: the transform time of each (best of 5) and the largest difference of their values.
"""

import time

import numpy as np
import scipy.sparse as sp
from sklearn.utils import check_random_state

from mrc_pyomo.feature_maps import RandomFourierFeatures


def best(f, repeats=5):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def previous_map(X, gamma, n_components, seed):
    """The hand-written map: the draws, and ``transform`` as a function (CSR output for CSR input, as before)."""
    rng = check_random_state(seed)
    W = rng.normal(scale=np.sqrt(2.0 * gamma), size=(X.shape[1], n_components))
    b = rng.uniform(0.0, 2.0 * np.pi, size=n_components)

    def transform(Z):
        waves = np.cos(np.asarray(Z @ W) + b)
        return sp.csr_matrix(waves) if sp.issparse(Z) else waves
    return transform


def main():
    rng = np.random.default_rng(0)
    inputs = [("dense 50000 x 50", rng.normal(size=(50000, 50))),
              ("dense 20000 x 500", rng.normal(size=(20000, 500))),
              ("CSR 20000 x 5000, 1%", sp.random(20000, 5000, density=0.01, format="csr", random_state=0))]
    for name, X in inputs:
        new = RandomFourierFeatures(n_components=400, include_original=False, random_state=0).fit(X)
        old = previous_map(X, new.gamma_, 400, 0)
        a, b = (z.toarray() if sp.issparse(z) else z for z in (old(X), new.transform(X)))
        print(f"{name}: previous map {best(lambda: old(X)):.3f} s, RBFSampler-based "
              f"{best(lambda: new.transform(X)):.3f} s, max |difference| {np.abs(a - b).max():.1e}", flush=True)


if __name__ == "__main__":
    main()
