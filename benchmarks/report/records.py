"""The records of ``benchmarks/results/*.jsonl`` for the report: the newest record of each run, one run's record
among them, the previous run's, and the measures the report takes from them (a run keyed as the harness keys
it: :mod:`benchmarks.harness.record_files`)."""

import numpy as np

from benchmarks.harness.environment import describe
from benchmarks.harness.record_files import read, run_key

PREVIOUS_RUN_BEFORE = "2026-11-22"   # records timestamped before this day are the previous run: the "today"
FINISHED = ("converged", "optimal")   # statuses of a run that reached its goal (MRC-CCG, MRC-LP)


def experiment_records(path, experiment):
    """The records of ``experiment`` in the file ``path`` (``experiments.jsonl``), in its order; none without it."""
    try:
        return [r for r in read(path) if r.get("experiment") == experiment]
    except FileNotFoundError:
        return []


def newest(records):
    """The newest record of each run: (experiment, case, method, fraction, and K in the experiment scaling_K)."""
    latest = {}
    for r in records:
        key = (r.get("experiment", "speed"), r["case"], r["method"], r.get("fraction") or 1.0, r.get("K")
               if r.get("experiment") == "scaling_K" else None,
               r.get("time_limit") if r.get("experiment") == "anytime" else None)
        latest[key] = r
    return list(latest.values())


def find(latest, case, method, experiment="speed"):
    """The newest record of (case, method, experiment) among ``latest`` (the output of :func:`newest`), or None."""
    for r in latest:
        if r["case"] == case and r["method"] == method and r.get("experiment", "speed") == experiment:
            return r
    return None


def usable(record):
    return record is not None and "error" not in record


def is_previous(record):
    """Whether a record belongs to the previous run: timestamped before :data:`PREVIOUS_RUN_BEFORE` (a record
    without a timestamp, not written by :mod:`benchmarks.harness.run`, counts as a new one)."""
    return record.get("timestamp", PREVIOUS_RUN_BEFORE) < PREVIOUS_RUN_BEFORE


def previous_record(records, record):
    """The newest record of the previous run with the same :func:`run_key` as ``record`` (errors left out)."""
    old = [r for r in records if is_previous(r) and "error" not in r and run_key(r) == run_key(record)]
    return old[-1] if old else None


def run_environment(records):
    """The machine and versions the records ran with (stored in each record since issue 16; older records have
    none), as a line; several environments are each listed."""
    seen = list(dict.fromkeys(describe(r["versions"]) for r in records if r.get("versions")))
    if not seen:
        return "not recorded (records made before versions were stored)"
    return "; ".join(seen)


def certified(record):
    """The certified gap ``R - lower`` (R* lies in [lower, R]); None for records without a lower bound."""
    return None if record.get("lower") is None else record["R"] - record["lower"]


def slope(x, y):
    x, y = np.log(np.asarray(x, float)), np.log(np.asarray(y, float))
    return float(np.polyfit(x, y, 1)[0])


def time_to_reach(trace, target):
    """First time at which a (time, R) trace is at or below ``target``; None if never."""
    for t, r in trace or []:
        if r <= target + 1e-12:
            return t
    return None


def master_steps(record):
    """Seconds between successive masters of a record's trace (each solve with its check and update)."""
    times = [0.0] + [t for t, _ in record.get("trace") or []]
    return [b - a for a, b in zip(times, times[1:])]


def reference(latest, case, records=()):
    """The reference R* of ``case``: the interval [lower, R] of its newest "reference" record (MRC-CCG at
    eps_1 = 1e-4 without a time limit), or None.  When it converged, R* is within 1e-4 of ``lower``.

    Without one, the newest speed record among ``records`` (all of them, not only the newest of each run) of
    MRC-CCG at eps_1 = 1e-4 that converged without a time limit serves (mnist's, 4,086 s, is older than the
    reference runs); if it predates stored lower ends, its convergence certified ``R - R* <= eps_1 = 1e-4``, so
    its interval is ``[R - 1e-4, R]`` (marked ``lower_from_eps_1``)."""
    r = find(latest, case, "ccg_precise", "reference")
    if usable(r) and r.get("lower") is not None:
        return r
    runs = [r for r in records if r["case"] == case and r["method"] == "ccg_precise" and usable(r)
            and r.get("experiment", "speed") == "speed" and r.get("status") == "converged"
            and r.get("time_limit") is None]
    if not runs:
        return None
    r = dict(runs[-1])
    if r.get("lower") is None:
        r.update(lower=r["R"] - 1e-4, lower_from_eps_1=True)
    return r


def anytime_records(latest, case, method="ccg"):
    """The anytime records of ``case`` by ``method`` (default: the default fit) with a time limit, by increasing
    time limit."""
    runs = [r for r in latest if r["case"] == case and r.get("experiment") == "anytime" and usable(r)
            and r["method"] == method]
    return sorted(runs, key=lambda r: r.get("time_limit") or 0.0)
