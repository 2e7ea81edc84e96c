"""Benchmark cases: real data from ../shared/data (or $MRC_DATA_DIR) and a synthetic many-class problem.

Each case is a function ``(quick) -> (X, y, params)``: the data (before the 80/20 split) and the
MRCClassifier parameters shared by the methods (feature map, lambda0, random_state).  :data:`DATA_SETS` says
which data sets of :mod:`benchmarks.data` each case reads, so that a command checks them all before it starts
(:func:`data_sets`, :func:`benchmarks.data.require`).
"""

import numpy as np

from benchmarks.data import load, read, standardise


def tabular(name, quick, n_quick, fourier):
    """The data set ``name`` of :mod:`benchmarks.data`, standardised (``n_quick`` samples drawn at random, seed 0,
    in quick mode), with linear features or 400 random Fourier features (``fourier``)."""
    X, y = load(name, n=n_quick if quick else None, seed=0)
    phi = {"phi": "fourier", "random_state": 0} if fourier else {"phi": "linear"}
    return X, y, phi


def pulsar(quick):
    return tabular("pulsar", quick, 3000, fourier=True)


def dry_bean(quick):
    return tabular("dry_bean", quick, 2000, fourier=True)


def satellite(quick):
    return tabular("satellite", quick, 2000, fourier=False)


def optdigits(quick):
    return tabular("optdigits", quick, 2000, fourier=False)


# The RFF cases' masters are dense (every Fourier feature is nonzero for every sample) and hold all the
# D = d + 401 features per class from the start, so their quick subsamples are smaller than the linear ones'.

def satellite_rff(quick):
    """The paper's setting: standardised features and 400 random Fourier features (D = 437 per class);
    500 samples in quick mode."""
    return tabular("satellite", quick, 500, fourier=True)


def optdigits_rff(quick):
    """The paper's setting: standardised features and 400 random Fourier features (D = 465 per class);
    300 samples in quick mode."""
    return tabular("optdigits", quick, 300, fourier=True)


def digits_rff(quick):
    """scikit-learn's digits (1797 8x8 images, 10 classes), standardised, with 400 random Fourier features;
    300 images in quick mode."""
    from sklearn.datasets import load_digits
    X, y = load_digits(return_X_y=True)
    if quick:
        keep = np.random.default_rng(0).choice(len(y), size=300, replace=False)
        X, y = X[keep], y[keep]
    return standardise(X), y, {"phi": "fourier", "random_state": 0}


def mnist(quick, nrows=None):
    df = read("mnist", nrows=nrows or (5000 if quick else None))
    X = df.drop(columns="label").to_numpy(dtype=float) / 255.0
    return X, df["label"].to_numpy(), {"phi": "linear"}


def mnist_8000(quick):
    """The first 8000 images of mnist (6400 for training; 1000 images in quick mode)."""
    return mnist(quick, nrows=1000 if quick else 8000)


def tweets(quick):
    """Android against the rest, TF-IDF of words and word pairs: sparse, > 10^5 columns (all samples)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    df = read("tweets")
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


def many_classes_50(quick):
    """50 of the many classes, 10 000 samples (8000 for training; 1500 in quick mode): the scaling
    experiment's K = 50 problem, as a speed case (the speed case ``many_classes`` has K = 100, n = 16 000)."""
    return many_classes(quick, n_classes=50, n_samples=1500 if quick else 10000)


def many_classes_26_rff(quick):
    """26 Gaussian classes in 16 dimensions with overlapping means, standardised, with 400 random Fourier
    features: dense features and many classes (``K D = 26 x 417 > 10,000``, the regime ``"nm"`` under
    ``regime="auto"``); 4000 samples (1000 in quick mode)."""
    n = 1000 if quick else 4000
    rng = np.random.default_rng(26)
    means = rng.normal(scale=1.5, size=(26, 16))
    y = rng.integers(0, 26, n)
    X = means[y] + rng.normal(size=(n, 16))
    return standardise(X), y, {"phi": "fourier", "random_state": 0}


def many_classes_26(quick):
    """26 Gaussian classes in 16 dimensions with means close together (scale 0.65), linear features: many
    classes, few features, a hard problem (R* near 0.8, R(0) = 25/26) on which MRC-FOM's first-order phase
    barely moves; 2500 samples (2000 for training; 1000 in quick mode)."""
    n = 1000 if quick else 2500
    rng = np.random.default_rng(26)
    means = rng.normal(scale=0.65, size=(26, 16))
    y = rng.integers(0, 26, n)
    X = means[y] + rng.normal(size=(n, 16))
    return X, y, {"phi": "linear"}


def dry_bean_3000(quick):
    """3,000 samples of dry bean (2,400 for training; 1,000 in quick mode), standardised, linear features: 7 classes
    and few columns, where the loop certifies in seconds."""
    return tabular("dry_bean", True, 1000 if quick else 3000, fourier=False)


def pulsar_4000(quick):
    """4,000 samples of pulsar (3,200 for training; 1,000 in quick mode), standardised, linear features: two classes
    of tabular data."""
    return tabular("pulsar", True, 1000 if quick else 4000, fourier=False)


def mnist_10000(quick):
    """The first 10,000 images of mnist (8,000 for training; 1,000 images in quick mode)."""
    return mnist(quick, nrows=1000 if quick else 10000)


def satellite_unregularised(quick):
    """satellite, standardised, linear, at ``lambda0 = 0``: the unregularised MRC (2000 samples in quick
    mode)."""
    X, y, params = satellite(quick)
    return X, y, {**params, "lambda0": 0.0}


CASES = {
    "pulsar_rff": pulsar, "dry_bean_rff": dry_bean, "satellite": satellite, "optdigits": optdigits,
    "satellite_rff": satellite_rff, "optdigits_rff": optdigits_rff, "digits_rff": digits_rff,
    "mnist": mnist, "mnist_8000": mnist_8000, "tweets": tweets, "many_classes": many_classes,
    "many_classes_50": many_classes_50, "many_classes_26": many_classes_26, "many_classes_26_rff": many_classes_26_rff,
    "satellite_unregularised": satellite_unregularised, "dry_bean_3000": dry_bean_3000, "pulsar_4000": pulsar_4000,
    "mnist_10000": mnist_10000,
}

# the data sets of benchmarks.data that each case reads; the cases not named here read none (they are generated,
# or come with scikit-learn)
DATA_SETS = {
    "pulsar_rff": ["pulsar"], "dry_bean_rff": ["dry_bean"], "satellite": ["satellite"], "optdigits": ["optdigits"],
    "satellite_rff": ["satellite"], "optdigits_rff": ["optdigits"], "mnist": ["mnist"], "mnist_8000": ["mnist"],
    "tweets": ["tweets"], "satellite_unregularised": ["satellite"], "dry_bean_3000": ["dry_bean"],
    "pulsar_4000": ["pulsar"], "mnist_10000": ["mnist"],
}


def data_sets(cases):
    """The data sets that ``cases`` read (:data:`DATA_SETS`), each once, in the order of the cases."""
    return list(dict.fromkeys(name for case in cases for name in DATA_SETS.get(case, [])))
