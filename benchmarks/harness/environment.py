"""The environment a benchmark ran in, stored with each of its records: the machine, Python, the versions of
the runtime dependencies (those of ``constraints.txt`` when installed with it) and the commit measured."""

import importlib.metadata
import os
import platform
import subprocess
from pathlib import Path

#: the distributions whose versions a record keeps: the runtime dependencies of pyproject.toml and the package
PACKAGES = ("mrc_pyomo", "numpy", "scipy", "pandas", "pyomo", "highspy", "scikit-learn", "tqdm")


def versions():
    """``{distribution: version}`` for :data:`PACKAGES` (None for one not installed), with ``python``,
    ``platform``, ``cores`` and ``commit`` (the repository's HEAD, with ``+changes`` if the tree differs from it
    other than in the records and reports the harness writes)."""
    out = {"python": platform.python_version(), "platform": platform.platform(), "cores": os.cpu_count()}
    for name in PACKAGES:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            out[name] = None
    out["commit"] = _commit()
    return out


def _commit():
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root, capture_output=True, text=True,
                              check=True).stdout.strip()
        # the records and reports a run writes into the tree are not changes to what it measures
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                ":!benchmarks/results", ":!docs/benchmarks.md", ":!docs/benchmarks_quick.md",
                                ":!docs/img"], cwd=root, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+changes" if dirty else "")


def describe(record_versions):
    """One line for a report: the machine and the versions a record ran with."""
    v = record_versions
    return (f"{v['platform']}, {v['cores']} cores, Python {v['python']}, NumPy {v['numpy']}, SciPy {v['scipy']}, "
            f"pandas {v['pandas']}, scikit-learn {v['scikit-learn']}, Pyomo {v['pyomo']}, HiGHS (highspy) "
            f"{v['highspy']}, tqdm {v['tqdm']}, mrc_pyomo at {v['commit']}")
