"""The benchmark data sets of ``../shared/data`` (or ``$MRC_DATA_DIR``), read one way for the benchmarks and the
tests: a CSV file per data set with a ``label`` column; features standardised (zero mean, unit variance; a
constant column left at 0).  The package itself never reads them, and a clone of the repository has none:
README.md, section "Benchmarks", says where they come from.  Every command of the benchmarks checks the data sets
it needs before it starts (:func:`require`), so that a missing file stops it at once, not after minutes of
failed runs."""

import os
import sys
from pathlib import Path

import numpy as np

DEFAULT_DATA_DIR = Path(__file__).resolve().parents[2] / "shared" / "data"   # ../shared/data beside the repository

# where each data set comes from (README.md, section "Benchmarks", says more): for the message of require()
ORIGINS = {
    "pulsar": "HTRU2 (UCI, CC BY 4.0)",
    "dry_bean": "Dry Bean (UCI, CC BY 4.0)",
    "satellite": "Statlog (Landsat Satellite) (UCI)",
    "optdigits": "Optical Recognition of Handwritten Digits (UCI)",
    "mnist": "MNIST, raw pixels 0..255, 70,000 images (e.g. OpenML mnist_784)",
    "tweets": "trump_tweets of the R package dslabs (columns text, label = source)",
    "debian_packages": "Debian bookworm's package index, main, amd64 (columns text: a package's one-line "
                       "description and its debtags, label: its section)",
}


def data_dir():
    """The folder of the data sets: ``$MRC_DATA_DIR``, else ``../shared/data`` beside the repository (read at each
    call, so that a caller that sets the variable is heard)."""
    return Path(os.environ.get("MRC_DATA_DIR", DEFAULT_DATA_DIR))


def path_of(name):
    """The file of the data set ``name``: ``NAME.csv.gz`` in :func:`data_dir`."""
    return data_dir() / f"{name}.csv.gz"


def missing(names):
    """The files of the data sets ``names`` that are not there, in the order given."""
    return [path_of(name) for name in dict.fromkeys(names) if not path_of(name).exists()]


def require(names):
    """Stop the command (exit status 2, a message on stderr) unless every data set of ``names`` is there.

    Called before a command starts anything, with the data sets of everything it plans to run, so that a clone
    without the data learns at once which files are missing, where they were looked for and how to get them,
    instead of a failed run per case, each recorded."""
    absent = missing(names)
    if not absent:
        return
    lines = [f"benchmark data missing in {data_dir()}:"]
    lines += [f"  {path.name}: {ORIGINS.get(path.name.removesuffix('.csv.gz'), 'see README.md')}" for path in absent]
    lines += ["Each file is NAME.csv.gz: a header row, the features, and the class in the last column 'label'.",
              "Put them in that folder, or set MRC_DATA_DIR to the folder that holds them",
              "(e.g. MRC_DATA_DIR=/path/to/data python -m benchmarks.harness.run --quick).",
              "Where they come from and how to build them: README.md, section \"Benchmarks\"."]
    print("\n".join(lines), file=sys.stderr)
    raise SystemExit(2)


def read(name, nrows=None):
    """The data set ``name`` as a DataFrame (its first ``nrows`` rows if given); FileNotFoundError if absent."""
    import pandas as pd   # here, so that require() answers without importing pandas
    path = path_of(name)
    if not path.exists():
        raise FileNotFoundError(f"benchmark data {path} not found (set MRC_DATA_DIR; README.md, \"Benchmarks\")")
    return pd.read_csv(path, nrows=nrows)


def standardise(X):
    """Columns of zero mean and unit variance (a constant column becomes 0)."""
    std = X.std(axis=0)
    return (X - X.mean(axis=0)) / np.where(std > 0, std, 1.0)


def load(name, n=None, seed=0):
    """``(X, y)`` of the data set ``name``, standardised; ``n`` samples drawn at random (seed ``seed``) if
    ``n`` is given and smaller than the data set."""
    df = read(name)
    if n is not None and n < len(df):
        df = df.sample(n=n, random_state=seed)
    return standardise(df.drop(columns="label").to_numpy(dtype=float)), df["label"].to_numpy()
