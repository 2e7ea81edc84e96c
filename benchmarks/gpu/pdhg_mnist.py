"""MRC-PDHG's phase on a GPU through CuPy (the array API seam), on all of mnist (56,000 training images): the
first 30 iterations on the GPU against NumPy's on the host (to 1e-9), then short runs of the tuning's variants
(the primal weight times 0.1 ... 10, PDLP's weight updates, no reflection), then the default for ``seconds``:
iterations per second, the best exact R and the certified lower end at 5, 10, 30, 60, 120 s.  Run on a machine
with CuPy::

    MRC_DATA_DIR=<folder of mnist.csv.gz> python -m benchmarks.gpu.pdhg_mnist [seconds] [out.json] [sweep seconds]
"""

import json
import sys
import time
from dataclasses import replace

import numpy as np
from sklearn.model_selection import train_test_split

from benchmarks.harness.cases import CASES
from mrc_pyomo.data import ArraySource
from mrc_pyomo.methods.deadline import Deadline
from mrc_pyomo.methods.pdhg import PDHGConfig
from mrc_pyomo.methods.pdhg import iterations as pdhg_iterations
from mrc_pyomo.methods.result import finish
from mrc_pyomo.problem import prepare


def on_device(problem, cupy):
    """The problem with its data as one CuPy array on the GPU (dense: mnist's linear features)."""
    return replace(problem, data=ArraySource(cupy.asarray(np.asarray(problem.data.array))))


def agreement(problem, cupy, iterations=30):
    """The largest differences of ``R``, the lower end and ``mu`` over the first iterations, GPU against host."""
    config = PDHGConfig(max_iter=iterations, eps_1=0.0)
    host, host_history, _ = finish(pdhg_iterations(problem, config))
    device, device_history, _ = finish(pdhg_iterations(on_device(problem, cupy), config))
    return {"R": max(abs(a["R_mu"] - b["R_mu"]) for a, b in zip(host_history, device_history)),
            "lower": max(abs(a["lower"] - b["lower"]) for a, b in zip(host_history, device_history)),
            "mu": float(np.abs(np.asarray(device.mu) - host.mu).max())}


def timed(gpu, cupy, seconds, **settings):
    """One run of the phase for ``seconds`` with ``settings``: its speed and its ends at the marks."""
    cupy.cuda.Device().synchronize()
    start = time.perf_counter()
    best, history, status = finish(pdhg_iterations(gpu, PDHGConfig(window=10**9, bound_every=10, **settings),
                                  deadline=Deadline(seconds)))
    elapsed = time.perf_counter() - start
    times = np.array([r["seconds_elapsed"] for r in history])
    return {"settings": settings, "iterations": len(history), "iterations_per_second": len(history) / elapsed,
            "status": status, "upper": best.risk, "lower": best.lower,
            "at": {s: (float(np.min([r["upper"] for r, t in zip(history, times) if t <= s])),
                       float(np.max([r["lower"] for r, t in zip(history, times) if t <= s])))
                   for s in (5, 10, 20, 30, 60, 120, 240) if s <= seconds and (times <= s).any()}}


def main(seconds=60.0, out=None, sweep=20.0):
    import cupy
    X, y, params = CASES["mnist"](False)
    X, _, y, _ = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
    problem = prepare(X, y, **params)
    small = prepare(X[:4000], y[:4000], **params)
    report = {"n": problem.n_samples, "agreement_4000": agreement(small, cupy), "runs": []}
    gpu = on_device(problem, cupy)
    finish(pdhg_iterations(gpu, PDHGConfig(max_iter=5)))   # compile the kernels
    variants = [{}, {"weight_scale": 0.1}, {"weight_scale": 0.3}, {"weight_scale": 3.0}, {"weight_scale": 10.0},
                {"weight_smoothing": 0.5}, {"reflection": 0.0}]
    for settings in variants if sweep > 0 else []:
        report["runs"].append(timed(gpu, cupy, sweep, **settings))
        print(json.dumps(report["runs"][-1]), flush=True)
    report["runs"].append(timed(gpu, cupy, seconds))
    print(json.dumps(report, indent=1))
    if out:
        with open(out, "w") as file:
            json.dump(report, file, indent=1)


if __name__ == "__main__":
    arguments = sys.argv[1:]
    main(float(arguments[0]) if arguments else 60.0, arguments[1] if len(arguments) > 1 else None,
         float(arguments[2]) if len(arguments) > 2 else 20.0)
