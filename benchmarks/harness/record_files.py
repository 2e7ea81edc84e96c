"""The records files of the benchmarks: one JSON object per line, each appended whole (:func:`append`), read back
in the file's order (:func:`read`); :func:`run_key` is what makes two records the same run across files.  The
harness and the experiments write them, the report (:mod:`benchmarks.report`) and
:mod:`benchmarks.harness.compare` read them (``compare --import`` writes the paired runs' ``pairs.jsonl``).

Where they go (:func:`records_path`): ``benchmarks/runs/`` by default, which git ignores, so that a run never
dirties the working tree; the tracked ``benchmarks/results/`` (the records kept with the code, listed in its
README.md) only when asked, with ``--record``."""

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]   # the repository
RESULTS = ROOT / "benchmarks" / "results"    # tracked: written only when asked (--record)
RUNS = ROOT / "benchmarks" / "runs"          # ignored by git (.gitignore): the default


def records_path(name, record=False):
    """The records file ``name`` of a command: in ``benchmarks/results/`` (tracked) if ``record`` (its flag
    ``--record``), else in ``benchmarks/runs/`` (ignored by git).  Only the path: the caller makes the folder."""
    return (RESULTS if record else RUNS) / name


def records_file(name, record=False):
    """:func:`records_path`, its folder made: where a command appends its records."""
    path = records_path(name, record)
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def measured(record, environment):
    """``record`` with the ``environment`` it was measured in (:func:`benchmarks.harness.environment.versions`) and
    that environment's commit at the top level, as every record of ``experiments.jsonl`` carries them."""
    return {**record, "commit": environment["commit"], "versions": environment}


def append(path, record):
    """Append ``record`` to ``path`` as one JSON line, in a single write to a file opened in append mode: two
    runs of the harness writing into the same file side by side never mix their lines."""
    with open(path, "ab", buffering=0) as f:
        f.write((json.dumps(record) + "\n").encode())


def read(path):
    """Every record of a results file, in the file's order (oldest first: runs append)."""
    return [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]


def run_key(record):
    """What makes two runs comparable across benchmark runs: (case, method, experiment, n, K)."""
    return record["case"], record["method"], record.get("experiment", "speed"), record.get("n"), record.get("K")
