import itertools
from pathlib import Path
import os

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

DATA_DIR = Path(os.environ.get("MRC_DATA_DIR", Path(__file__).resolve().parents[1].parent / "shared" / "data"))


def random_problem(n, d, n_classes, sparse=False, seed=0, density=0.4):
    """Labels with some signal in the features, so that the MRC is not trivial."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    y[:n_classes] = np.arange(n_classes)  # every class present
    centres = rng.normal(scale=1.5, size=(n_classes, d))
    X = centres[y] + rng.normal(size=(n, d))
    if sparse:
        X[rng.random(X.shape) > density] = 0.0
        X = sp.csr_matrix(X)
    return X, y


def all_subsets(n_classes):
    return [c for size in range(1, n_classes + 1) for c in itertools.combinations(range(n_classes), size)]


def explicit_F(Psi, n_classes):
    """Every row (i, C) of the full LP's F, by enumeration: shape (n (2^K - 1), K D), and b."""
    Psi = Psi.toarray() if sp.issparse(Psi) else Psi
    n, D = Psi.shape
    rows, b = [], []
    for i in range(n):
        for C in all_subsets(n_classes):
            row = np.zeros((n_classes, D))
            row[list(C)] = Psi[i] / len(C)
            rows.append(row.ravel())
            b.append(1.0 / len(C) - 1.0)
    return np.array(rows), np.array(b)


def load_dataset(name, n=None, seed=0):
    path = DATA_DIR / f"{name}.csv.gz"
    if not path.exists():
        pytest.skip(f"benchmark data {path} not available")
    df = pd.read_csv(path)
    if n is not None and n < len(df):
        df = df.sample(n=n, random_state=seed)
    X = df.drop(columns="label").to_numpy(dtype=float)
    X = (X - X.mean(axis=0)) / np.where(X.std(axis=0) > 0, X.std(axis=0), 1.0)
    return X, df["label"].to_numpy()
