"""The benchmark data sets of ``../shared/data`` (or ``$MRC_DATA_DIR``), read one way for the benchmarks and the
tests: a CSV file per data set with a ``label`` column; features standardised (zero mean, unit variance; a
constant column left at 0).  The package itself never reads them."""

import os
from pathlib import Path

import numpy as np
import pandas as pd

DATA_DIR = Path(os.environ.get("MRC_DATA_DIR", Path(__file__).resolve().parents[1].parent / "shared" / "data"))


def read(name, nrows=None):
    """The data set ``name`` as a DataFrame (its first ``nrows`` rows if given); FileNotFoundError if absent."""
    path = DATA_DIR / f"{name}.csv.gz"
    if not path.exists():
        raise FileNotFoundError(f"benchmark data {path} not found (set MRC_DATA_DIR)")
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
