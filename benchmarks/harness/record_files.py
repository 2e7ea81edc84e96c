"""The records files of ``benchmarks/results/``: one JSON object per line, each appended whole (:func:`append`),
read back in the file's order (:func:`read`); :func:`run_key` is what makes two records the same run across
files.  The harness writes them, the report (:mod:`benchmarks.report`) and :mod:`benchmarks.harness.compare`
read them."""

import json
from pathlib import Path


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
