"""Data beyond memory, measured: an MRC fitted on Dask from a data set on disk larger than the memory it may use.

    python -m benchmarks.experiments.dask_scale generate DIR [--gib 12] [--features 64] [--classes 4] [--chunk-rows R]
    python -m benchmarks.experiments.dask_scale fit DIR [--workers 2] [--memory-limit 1.5GiB] [--eps-1 1e-3]
    python -m benchmarks.experiments.dask_scale passes DIR [--workers 1 2 4]
    python -m benchmarks.experiments.dask_scale compare DIR [--workers 2]

Each record of ``fit``, ``passes`` and ``compare`` is printed and appended to ``--records`` (default
``benchmarks/runs/dask.jsonl``, ignored by git; with ``--record`` the tracked ``benchmarks/results/dask.jsonl``,
which the full report shows in its section "Data beyond memory").
``generate`` writes synthetic classes chunk by chunk (never the whole array in memory): ``x = m_y + noise``
with class means ``m_y`` drawn once, float64, to ``DIR/X.npy`` and the labels (int8) to ``DIR/y.npy``.
The fit reads ``X.npy`` with plain file reads per chunk (:class:`NpyRows`, not a memory map, whose pages
would count in the processes' resident memory) through ``dask.array.from_array``.  ``fit`` runs
``MRCClassifier`` on a ``distributed.LocalCluster`` of ``--workers`` processes and prints one JSON record:
data size, fit seconds, status, certified interval, masters, and the peak resident memory of the client and
all workers together (sampled every 0.2 s by psutil).  ``passes`` times one oracle pass (``varphi`` of a
random rule: every chunk read, mapped, scored) on clusters of 1, 2 and 4 worker processes.  ``compare`` fits a
data set that fits in memory twice, in memory (NumPy) and as a Dask array on a cluster of ``--workers``
processes, and records both times: when Dask pays.
"""

import argparse
import json
import threading
import time
from pathlib import Path

import numpy as np

from benchmarks.harness.environment import versions
from benchmarks.harness.record_files import records_path

RECORDS = records_path("dask.jsonl")   # the default: benchmarks/runs/, untracked


def emit(record, records):
    """Print ``record`` (with the versions of this environment) and append it to the file ``records``."""
    line = json.dumps({**record, "versions": versions()})
    print(line, flush=True)
    Path(records).parent.mkdir(parents=True, exist_ok=True)
    with open(records, "a") as f:
        f.write(line + "\n")


class NpyRows:
    """The rows of a 2-d ``.npy`` file read on demand with ``readinto`` (``shape``, ``dtype``, ``ndim`` and
    ``__getitem__`` of row slices, what ``dask.array.from_array`` needs; the library asks only for slices)."""

    def __init__(self, path):
        self.path = str(path)
        mapped = np.load(self.path, mmap_mode="r")   # for the header only: no page of data is touched
        self.shape, self.dtype, self.offset = mapped.shape, mapped.dtype, mapped.offset
        assert mapped.flags.c_contiguous and len(self.shape) == 2
        del mapped
        self.ndim = 2

    def __getitem__(self, key):
        rows, columns = key if isinstance(key, tuple) else (key, slice(None))
        start, stop, step = rows.indices(self.shape[0])
        out = np.empty((max(stop - start, 0), self.shape[1]), dtype=self.dtype)
        with open(self.path, "rb") as f:
            f.seek(self.offset + start * self.shape[1] * self.dtype.itemsize)
            f.readinto(memoryview(out).cast("B"))
        return out[::step, columns]


def generate(directory, gib, n_features, n_classes, chunk_rows, seed=0):
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    n = int(gib * 2**30 // (8 * n_features))
    rng = np.random.default_rng(seed)
    means = rng.normal(scale=0.25, size=(n_classes, n_features))   # means about 2.8 noise deviations apart
    X = np.lib.format.open_memmap(directory / "X.npy", mode="w+", dtype=np.float64, shape=(n, n_features))
    y = np.lib.format.open_memmap(directory / "y.npy", mode="w+", dtype=np.int8, shape=(n,))
    for start in range(0, n, chunk_rows):
        stop = min(start + chunk_rows, n)
        labels = rng.integers(n_classes, size=stop - start)
        X[start:stop] = means[labels] + rng.normal(size=(stop - start, n_features))
        y[start:stop] = labels
        X.flush()
    del X, y
    print(json.dumps({"samples": n, "features": n_features, "classes": n_classes,
                      "gib": (directory / "X.npy").stat().st_size / 2**30}))


def dask_input(directory, chunk_rows):
    import dask.array as da
    rows = NpyRows(Path(directory) / "X.npy")
    # fancy=True: Dask then hands each slice down to NpyRows (it reads those rows only); with fancy=False it
    # reads whole chunks and slices them in memory (dask 2026.8), so every fetch of the master's rows would
    # read every chunk it touches
    X = da.from_array(rows, chunks=(chunk_rows, rows.shape[1]), asarray=False)
    y = np.load(Path(directory) / "y.npy")
    return X, y


class PeakMemory:
    """The largest sum of the resident memory of this process and its children, sampled every 0.2 s."""

    def __init__(self):
        import psutil
        self.process, self.peak, self._stop = psutil.Process(), 0, threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        while not self._stop.wait(0.2):
            total = 0
            for p in [self.process] + self.process.children(recursive=True):
                try:
                    total += p.memory_info().rss
                except Exception:   # a process that ended meanwhile
                    pass
            self.peak = max(self.peak, total)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def cluster(workers, memory_limit):
    from distributed import Client, LocalCluster
    local = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, memory_limit=memory_limit,
                         dashboard_address=":0", silence_logs=40)
    return local, Client(local)


def fit(directory, workers, memory_limit, eps_1, chunk_rows, time_limit, records=RECORDS):
    from mrc_pyomo import MRCClassifier
    X, y = dask_input(directory, chunk_rows)
    local, client = cluster(workers, memory_limit)
    try:
        with PeakMemory() as memory:
            start = time.perf_counter()
            clf = MRCClassifier(eps_1=eps_1, time_limit=time_limit).fit(X, y)
            seconds = time.perf_counter() - start
    finally:
        client.close()
        local.close()
    h = clf.history_
    emit({"experiment": "dask_fit", "samples": int(X.shape[0]), "features": int(X.shape[1]),
                      "gib": X.nbytes / 2**30, "workers": workers, "memory_limit": memory_limit,
                      "seconds": seconds, "status": clf.status_, "lower": clf.lower_, "upper": clf.upper_,
                      "gap": clf.upper_ - clf.lower_, "masters": int(clf.n_iter_),
                      "seconds_oracle": float(h.seconds_oracle.sum()), "seconds_solve": float(h.seconds_solve.sum()),
          "peak_rss_gib": memory.peak / 2**30}, records)


def passes(directory, worker_counts, memory_limit, chunk_rows, records=RECORDS):
    from mrc_pyomo.data import as_source
    from mrc_pyomo.oracles.primal import varphi
    X, y = dask_input(directory, chunk_rows)
    mu = np.random.default_rng(1).normal(size=(int(y.max()) + 1, X.shape[1]))
    for workers in worker_counts:
        local, client = cluster(workers, memory_limit)
        try:
            source = as_source(X)
            varphi(source, mu)   # the first pass warms the workers (imports) and the page cache
            start = time.perf_counter()
            varphi(source, mu)
            seconds = time.perf_counter() - start
        finally:
            client.close()
            local.close()
        emit({"experiment": "dask_pass", "workers": workers, "gib": X.nbytes / 2**30, "seconds": seconds},
             records)


def compare(directory, workers, memory_limit, chunk_rows, records=RECORDS):
    from mrc_pyomo import MRCClassifier
    X, y = dask_input(directory, chunk_rows)
    start = time.perf_counter()
    in_memory = MRCClassifier().fit(np.load(Path(directory) / "X.npy"), y)
    memory_seconds = time.perf_counter() - start
    local, client = cluster(workers, memory_limit)
    try:
        start = time.perf_counter()
        on_dask = MRCClassifier().fit(X, y)
        dask_seconds = time.perf_counter() - start
    finally:
        client.close()
        local.close()
    emit({"experiment": "dask_vs_memory", "samples": int(X.shape[0]), "features": int(X.shape[1]),
          "gib": X.nbytes / 2**30, "workers": workers, "seconds_in_memory": memory_seconds,
          "seconds_dask": dask_seconds, "ratio": dask_seconds / memory_seconds, "masters": int(on_dask.n_iter_),
          "upper_difference": abs(on_dask.upper_ - in_memory.upper_)}, records)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("generate")
    g.add_argument("directory")
    g.add_argument("--gib", type=float, default=12.0)
    g.add_argument("--features", type=int, default=64)
    g.add_argument("--classes", type=int, default=4)
    g.add_argument("--chunk-rows", type=int, default=250_000)
    for name in ("fit", "passes", "compare"):
        p = sub.add_parser(name)
        p.add_argument("directory")
        p.add_argument("--memory-limit", default="1.5GiB")
        p.add_argument("--chunk-rows", type=int, default=250_000)
        p.add_argument("--records", type=Path, help="the records file (default: benchmarks/runs/dask.jsonl)")
        p.add_argument("--record", action="store_true",
                       help="append to the tracked benchmarks/results/dask.jsonl (default: benchmarks/runs/)")
    sub.choices["fit"].add_argument("--workers", type=int, default=2)
    sub.choices["fit"].add_argument("--eps-1", type=float, default=1e-3)
    sub.choices["fit"].add_argument("--time-limit", type=float, default=None)
    sub.choices["passes"].add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    sub.choices["compare"].add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    if args.command != "generate":
        args.records = args.records or records_path("dask.jsonl", args.record)
    if args.command == "generate":
        generate(args.directory, args.gib, args.features, args.classes, args.chunk_rows)
    elif args.command == "fit":
        fit(args.directory, args.workers, args.memory_limit, args.eps_1, args.chunk_rows, args.time_limit,
            args.records)
    elif args.command == "passes":
        passes(args.directory, args.workers, args.memory_limit, args.chunk_rows, args.records)
    else:
        compare(args.directory, args.workers, args.memory_limit, args.chunk_rows, args.records)


if __name__ == "__main__":
    main()
