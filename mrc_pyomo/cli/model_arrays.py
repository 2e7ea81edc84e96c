"""The arrays of a model file of :mod:`mrc_pyomo.cli.model_format`, checked as data and against the promises of a
fit for :func:`~mrc_pyomo.cli.model_checks.check_model`; and :class:`ModelFormatError`, the error of every check.

Beyond types and shapes: ``classes_`` sorted and distinct, the history's columns of one length, the feature names
distinct, and the rule ``mu_`` within its certificate's bound ``lambda_ . |mu_| <= upper_`` and small enough that
its class scores cannot overflow (:func:`check_rule`).
"""

import numpy as np

#: what an array of each NumPy dtype kind holds, for the messages
KINDS = {"b": "booleans", "i": "integers", "u": "integers", "f": "floats", "c": "complex numbers", "U": "strings",
         "S": "bytes", "V": "raw records", "M": "dates", "m": "time spans", "O": "Python objects"}
#: the largest ``|mu_|`` a file may hold.  A fit's ``mu_`` is an LP solution at unit column scale (solvers take
#: about 1e20 for infinite) divided by ``column_scale_``: only features of scale below 1e-130 would pass 1e150.
#: Below it, each product ``Psi_j(x) mu_[y, j]`` is below 1e300 for ``|Psi_j(x)| < 1e150``, so a class score, a
#: sum of D of them, stays finite (below 1.8e308) for D < 1e8.
MU_BOUND = 1e150
#: the relative slack of ``lambda_ . |mu_| <= upper_`` besides the rounding of the sum (:func:`check_rule`)
RULE_SLACK = 1e-9


class ModelFormatError(ValueError):
    """A model this format cannot hold, or a file that is not a valid model of it; its message is one line."""

    def __init__(self, message):
        super().__init__(" ".join(str(message).splitlines()))


def shown(value, width=60):
    """``repr(value)``, cut to ``width`` characters, for a message."""
    text = repr(value.item() if isinstance(value, np.generic) else value)
    return text if len(text) <= width else text[:width - 3] + "..."


def shaped(arrays, name, shape, why, kinds):
    """``arrays[name]`` if its dtype's kind is in ``kinds`` and its shape ``shape`` (``why`` says why); else
    :class:`ModelFormatError` naming what is wrong."""
    if name not in arrays:
        raise ModelFormatError(f"the array {name} is missing")
    values = arrays[name]
    if values.dtype.kind not in kinds:
        wanted = " or ".join(dict.fromkeys(KINDS[k] for k in kinds))
        raise ModelFormatError(f"the array {name} holds {KINDS.get(values.dtype.kind, values.dtype)}, not {wanted}")
    if values.shape != shape:
        raise ModelFormatError(f"the array {name} has shape {values.shape}, not {shape} ({why})")
    return values


def _entry_of(name, values, index):
    """``name[i, j] = value``: the entry ``index`` of the array ``values``, for a message."""
    return f"{name}[{', '.join(map(str, index))}] = {values[tuple(index)]}"


def not_finite(name, values):
    """:class:`ModelFormatError` naming the first entry of the float array ``values`` that is not finite, if any."""
    bad = np.argwhere(~np.isfinite(values))
    if len(bad):
        raise ModelFormatError(f"the array {name} is not finite: {_entry_of(name, values, bad[0])}")


def numbers(arrays, name, shape, why, sign=None):
    """``arrays[name]`` as float64 (written back) if it holds finite real numbers of shape ``shape``, with ``sign``
    positive (``">"``) or non-negative (``">="``)."""
    values = arrays[name] = shaped(arrays, name, shape, why, "iuf").astype(np.float64)
    not_finite(name, values)
    bad = np.argwhere(values <= 0 if sign == ">" else values < 0) if sign else ()
    if len(bad):
        raise ModelFormatError(f"the array {name} must be {'positive' if sign == '>' else 'non-negative'}: "
                               f"{_entry_of(name, values, bad[0])}")
    return values


def check_rule(mu, lam, upper):
    """The rule ``mu`` (finite, float64) against its certificate ``lambda_ . |mu_| <= upper_``, which every fit keeps
    (``R(mu) = 1 - tau.mu + varphi(mu) + lambda.|mu|`` and ``varphi(mu) >= tau.mu - 1``, so ``R(mu) >=
    lambda.|mu|``); and every ``|mu_|``, where ``lambda_ == 0`` too, below :data:`MU_BOUND`: no score overflows."""
    with np.errstate(over="ignore"):
        terms = lam * np.abs(mu)
        total = float(np.sum(terms))
    # the sum of n rounded products, as NumPy adds them, is within (n + 1) eps of its exact value, relatively
    rounding = (terms.size + 1) * float(np.finfo(np.float64).eps) * total
    if not np.isfinite(total) or total - rounding > upper + RULE_SLACK * max(1.0, upper):
        largest = np.unravel_index(np.argmax(terms), terms.shape)
        raise ModelFormatError(f"the array mu_ breaks its certificate: lambda_ . |mu_| = {total:.6g} is above upper_ "
                               f"= {upper:.6g} (every fit has upper_ >= R(mu_) >= lambda_ . |mu_|); its largest term "
                               f"is at {_entry_of('mu_', mu, largest)}")
    bad = np.argwhere(np.abs(mu) >= MU_BOUND)
    if len(bad):
        raise ModelFormatError(f"the array mu_ is too large for its class scores to be finite: "
                               f"{_entry_of('mu_', mu, bad[0])} (|mu_| must be below {MU_BOUND:g})")


def check_names(arrays, name, n):
    """The feature names ``arrays[name]``: ``n`` strings, distinct (a DataFrame's columns must be, to predict)."""
    first = {}
    for j, value in enumerate(shaped(arrays, name, (n,), f"one name per feature, {n}", "U").tolist()):
        if value in first:
            raise ModelFormatError(f"the array {name} names a feature twice: {name}[{j}] = {shown(value)} is "
                                   f"{name}[{first[value]}] (feature names must be distinct)")
        first[value] = j


def check_classes(arrays, as_objects):
    """``K``, the number of labels of ``classes_``: at least two, numbers or strings (as the file says), finite,
    sorted and distinct as ``np.unique`` gives them (``predict`` maps row ``k`` of ``mu_`` to ``classes_[k]``)."""
    classes = arrays.get("classes_")
    if classes is None or classes.ndim != 1 or len(classes) < 2:
        what = "missing" if classes is None else f"of shape {classes.shape}"
        raise ModelFormatError(f"the array classes_ is {what}, not a list of at least two labels")
    shaped(arrays, "classes_", classes.shape, "", "U" if as_objects else "biufU")
    if classes.dtype.kind == "f":
        not_finite("classes_", classes)
    unsorted = np.flatnonzero(~(classes[1:] > classes[:-1]))
    if len(unsorted):
        k = unsorted[0]
        raise ModelFormatError(f"the array classes_ is not sorted and distinct, as a fit gives it: classes_[{k}] = "
                               f"{shown(classes[k])} is followed by {shown(classes[k + 1])}")
    return len(classes)


def check_history(arrays, columns):
    """``history_``: one array ``history_{k}`` of numbers or strings per named column, all of one length."""
    lengths = set()
    for k, column in enumerate(columns):
        name, why = f"history_{k}", f"history column {shown(column)}: one value per iteration"
        if name in arrays and arrays[name].ndim != 1:
            raise ModelFormatError(f"the array {name} has shape {arrays[name].shape}, not 1-d ({why})")
        lengths.add(len(shaped(arrays, name, arrays.get(name, np.empty(0)).shape, why, "biufU")))
    if len(lengths) > 1:
        raise ModelFormatError(f"the history's columns have different lengths {sorted(lengths)}")
