"""Benchmark cases: real data from ../shared/data and a synthetic many-class problem.

Each case is a function ``(quick) -> (X, y, params)``: the data (before the 80/20 split) and the
MRCClassifier parameters shared by the methods (feature map, lambda0, random_state).
"""

import os
from pathlib import Path

import numpy as np
import pandas as pd

DATA_DIR = Path(os.environ.get("MRC_DATA_DIR", Path(__file__).resolve().parents[1].parent / "shared" / "data"))


def _read(name, nrows=None):
    path = DATA_DIR / f"{name}.csv.gz"
    if not path.exists():
        raise FileNotFoundError(f"benchmark data {path} not found (set MRC_DATA_DIR)")
    return pd.read_csv(path, nrows=nrows)


def _tabular(name, quick, n_quick, fourier):
    df = _read(name)
    if quick and len(df) > n_quick:
        df = df.sample(n=n_quick, random_state=0)
    X = df.drop(columns="label").to_numpy(dtype=float)
    std = X.std(axis=0)
    X = (X - X.mean(axis=0)) / np.where(std > 0, std, 1.0)
    phi = {"phi": "fourier", "random_state": 0} if fourier else {"phi": "linear"}
    return X, df["label"].to_numpy(), phi


def pulsar(quick):
    return _tabular("pulsar", quick, 3000, fourier=True)


def dry_bean(quick):
    return _tabular("dry_bean", quick, 2000, fourier=True)


def satellite(quick):
    return _tabular("satellite", quick, 2000, fourier=False)


def optdigits(quick):
    return _tabular("optdigits", quick, 2000, fourier=False)


def mnist(quick):
    df = _read("mnist", nrows=5000 if quick else None)
    X = df.drop(columns="label").to_numpy(dtype=float) / 255.0
    return X, df["label"].to_numpy(), {"phi": "linear"}


def tweets(quick):
    """Android against the rest, TF-IDF of words and word pairs: sparse, > 10^5 columns (all samples)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    df = _read("tweets")
    if quick:
        df = df.sample(n=4000, random_state=0)
    text_column = [c for c in df.columns if c != "label"][0]
    X = TfidfVectorizer(ngram_range=(1, 2), min_df=1, sublinear_tf=True).fit_transform(df[text_column].fillna(""))
    y = np.where(df["label"].astype(str).str.contains("Android"), "android", "other")
    return X.tocsr(), y, {"phi": "linear"}


def many_classes(quick, n_classes=None, n_samples=None):
    """Gaussian classes in 20 dimensions with overlapping means: K up to 100.

    The speed case has 100 classes (20 in quick mode) and 200 samples per class; with ``n_classes`` given
    (the scaling experiment) the number of samples is fixed, 10 000 (2 500 in quick mode), so that only
    K varies.
    """
    K = n_classes or (20 if quick else 100)
    if n_samples is None:
        n_samples = (2500 if quick else 10000) if n_classes else (100 * K if quick else 200 * K)
    n = n_samples
    rng = np.random.default_rng(K)
    means = rng.normal(scale=2.0, size=(K, 20))
    y = rng.integers(0, K, n)
    X = means[y] + rng.normal(size=(n, 20))
    return X, y, {"phi": "linear"}


CASES = {
    "pulsar_rff": pulsar, "dry_bean_rff": dry_bean, "satellite": satellite, "optdigits": optdigits,
    "mnist": mnist, "tweets": tweets, "many_classes": many_classes,
}
