"""The data files of the command line: CSV with a header, or LIBSVM / svmlight, read and checked so that the first
empty, NaN or infinite value is reported with its line and column."""

import io
from pathlib import Path

import numpy as np

SVMLIGHT_SUFFIXES = {".svm", ".svmlight", ".libsvm"}

#: separators a CSV file read into a single column may have used instead (the hint of ``separator_hint``)
OTHER_SEPARATORS = {";": "';'", "\t": "'\\t'", ",": "','", "|": "'|'"}

class CommandError(Exception):
    """An error to report on one line."""


def plural(count, word, words=None):
    """``"1 class"``, ``"2 classes"``."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def plain_label(value):
    """A label as the user wrote it: ``1``, ``'yes'``, not ``np.int64(1)``."""
    return repr(value.item() if isinstance(value, np.generic) else value)


def _short(name, width=40):
    """A column name for a message: a header read into one column (the wrong --sep) is cut short."""
    name = str(name)
    return name if len(name) <= width else name[:width - 3] + "..."


def separator_hint(columns, sep):
    """The advice to pass another separator that the header of a CSV file read into one column holds, else ``""``."""
    if len(columns) != 1:
        return ""
    header = str(columns[0])
    for other, shown in OTHER_SEPARATORS.items():
        if other != sep and other in header:
            what = "a tab" if other == "\t" else shown
            return f" (its header contains {what}: pass --sep {shown})"
    return ""


def record_line(path, record, is_record):
    """The 1-based number of the line of ``path`` that holds record ``record`` (0-based; records: ``is_record``)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        seen = -1
        for number, line in enumerate(f, 1):
            if is_record(line):
                seen += 1
                if seen == record:
                    return number
    return None


def _csv_record(line):
    return bool(line.strip())   # pandas skips blank lines


def _svmlight_record(line):
    return bool(line.split("#", 1)[0].strip())   # comments and blank lines are not samples


def missing_labels(values):
    """Where labels are missing: NaN (an empty CSV cell), None or blank text."""
    import pandas as pd   # on use: the command's --help and --version do without it
    values = np.asarray(values)
    mask = np.asarray(pd.isna(values), dtype=bool)
    if values.dtype == object:
        mask |= np.array([isinstance(v, str) and not v.strip() for v in values], dtype=bool)
    return mask


def _not_finite_message(value):
    return f"not a finite number ({value})"


def check_finite_csv(path, X, y, hint, labels_checked=True):
    """Report the first empty, NaN or infinite value, or missing label, of a CSV file with its line and column."""
    bad = ~np.isfinite(X.to_numpy())
    feature_rows = np.flatnonzero(bad.any(axis=1))
    label_rows = np.flatnonzero(missing_labels(y)) if (labels_checked and y is not None) else np.array([], int)
    if not feature_rows.size and not label_rows.size:
        return
    if feature_rows.size and (not label_rows.size or feature_rows[0] <= label_rows[0]):
        row = int(feature_rows[0])
        column = int(np.argmax(bad[row]))
        where = f", column {X.columns[column]!r}: {_not_finite_message(X.iat[row, column])}"
    else:
        row = int(label_rows[0])
        where = ": the label is missing (an MRC needs every sample's label)"
    raise CommandError(f"{path}: line {record_line(path, row + 1, _csv_record)}{where}{hint}")


def check_finite_svmlight(path, X, y, labels_checked=True):
    """Report the first NaN or infinite value or label of an svmlight file with its line and feature index."""
    bad = np.flatnonzero(~np.isfinite(X.data))
    rows = [int(np.searchsorted(X.indptr, bad[0], side="right") - 1)] if bad.size else []
    if labels_checked and y is not None:
        rows += list(np.flatnonzero(missing_labels(y))[:1])
    if not rows:
        return
    row = min(rows)
    number = record_line(path, row, _svmlight_record)
    tokens = []
    if number is not None:
        with open(path, encoding="utf-8", errors="replace") as f:
            for _ in range(number):
                line = f.readline()
        tokens = line.split("#", 1)[0].split()
    if labels_checked and y is not None and missing_labels(y[row:row + 1])[0]:
        raise CommandError(f"{path}: line {number}: the label is not a number ({tokens[0] if tokens else y[row]})")
    for token in tokens[1:]:
        index, _, value = token.partition(":")
        try:
            value = float(value)
        except ValueError:
            continue
        if index != "qid" and not np.isfinite(value):
            raise CommandError(f"{path}: line {number}, feature {index}: {_not_finite_message(value)}")
    raise CommandError(f"{path}: line {number}: a value is not a finite number")


def read_labels(path, n_samples):
    """The labels of ``path``, one a line (blank lines at the end ignored); a missing one an error naming its line."""
    import pandas as pd   # on use: the command's --help and --version do without it
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError as exc:
        raise CommandError(f"{path} is not a readable text file: {exc}") from exc
    while lines and not lines[-1].strip():
        lines.pop()
    if not lines:
        raise CommandError(f"{path} holds no labels")
    lines = [line if line.strip() else "" for line in lines]
    try:
        y = pd.read_csv(io.StringIO("\n".join(lines) + "\n"), header=None, skip_blank_lines=False).iloc[:, 0]
    except pd.errors.ParserError as exc:
        raise CommandError(f"{path} is not a file of one label a line: {exc}") from exc
    y = y.to_numpy()
    absent = np.flatnonzero(missing_labels(y))
    if absent.size:
        raise CommandError(f"{path}: line {absent[0] + 1}: the label is missing (an MRC needs every sample's label)")
    if len(y) != n_samples:
        raise CommandError(f"{path} has {len(y)} labels for {n_samples} samples")
    return y


def read_data(path, label=None, labels_file=None, fmt="auto", n_features=None, require_labels=True, sep=",",
              named=False):
    """``(X, y)`` from a CSV or svmlight file: ``X`` a DataFrame of the feature columns (the estimator records their
    names) or a sparse matrix, ``y`` None when there are no labels and none are required.  The first value that is
    not finite, or missing label, is reported with its line and column.  ``named``: the user named the label column
    (``--label``), so a CSV file without it is an error."""
    import pandas as pd   # on use: the command's --help and --version do without it
    path = Path(path)
    if not path.exists():
        raise CommandError(f"no such file: {path}")
    if labels_file is not None and not Path(labels_file).exists():
        raise CommandError(f"no such file: {labels_file}")
    if fmt == "auto":
        fmt = "svmlight" if path.suffix.lower() in SVMLIGHT_SUFFIXES else "csv"
    if fmt == "svmlight":
        from sklearn.datasets import load_svmlight_file
        try:
            X, y = load_svmlight_file(str(path), n_features=n_features)
        except ValueError as exc:
            raise CommandError(f"{path} is not a valid svmlight file: {exc}") from exc
        check_finite_svmlight(path, X, y, labels_checked=require_labels and labels_file is None)
        if np.all(np.isfinite(y)) and np.array_equal(y, np.round(y)):
            y = y.astype(np.int64)   # the format stores every label as a float: 1, not 1.0, for whole numbers
    else:
        sep = "\t" if sep in ("\\t", "tab") else sep
        try:
            df = pd.read_csv(path, sep=sep)
        except (pd.errors.ParserError, UnicodeDecodeError, pd.errors.EmptyDataError) as exc:
            raise CommandError(f"{path} is not a readable CSV file: {exc}") from exc
        hint = separator_hint(df.columns, sep)
        if not len(df):
            raise CommandError(f"{path} has a header but no samples{hint}")
        label = "label" if label is None else label
        y = None
        if label in df.columns:
            y = df[label].to_numpy()
            df = df.drop(columns=label)
        elif labels_file is None and (require_labels or named):
            advice = "name it with --label or give --labels" if require_labels else "the --label named"
            raise CommandError(f"{path} has no column {label!r} (columns: {', '.join(map(_short, df.columns[:10]))}"
                               f"{', ...' if len(df.columns) > 10 else ''}); {advice}{hint}")
        non_numeric = [c for c in df.columns if not pd.api.types.is_numeric_dtype(df[c])]
        if non_numeric:
            raise CommandError(f"{path}: non-numeric feature columns {[_short(c) for c in non_numeric[:5]]}{hint}")
        X = df.astype(float)
        check_finite_csv(path, X, y, hint, labels_checked=require_labels and labels_file is None)
    if labels_file is not None:
        y = read_labels(labels_file, X.shape[0])
    return X, y


def check_standardizable(X, path):
    """Raise :class:`CommandError` naming the columns of ``X`` too large for ``--standardize``: their variance
    overflows (``|x| > sqrt(max / n)``), which scikit-learn's scaler turns into NaN."""
    import pandas as pd   # on use: the command's --help and --version do without it
    n = max(X.shape[0], 1)
    values = X.to_numpy() if isinstance(X, pd.DataFrame) else X
    peak = np.asarray(abs(values).max(axis=0).todense() if hasattr(values, "todense") else abs(values).max(axis=0),
                      dtype=float).ravel()
    large = np.flatnonzero(peak > np.sqrt(np.finfo(float).max / n))
    if len(large):
        names = list(X.columns) if isinstance(X, pd.DataFrame) else [f"feature {j}" for j in range(X.shape[1])]
        listed = ", ".join(f"{_short(str(names[j]))} (up to {peak[j]:.3g})" for j in large[:5])
        them = "it" if len(large) == 1 else "them"
        raise CommandError(f"{path}: --standardize: {plural(len(large), 'column')} too large to standardise in "
                           f"floating point (the variance overflows): {listed}; rescale {them}")
