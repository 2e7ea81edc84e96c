"""The help of ``mrc-pyomo`` and ``python -m mrc_pyomo`` in plain text: its longer texts; :func:`plain_text`, which
takes reStructuredText's markup out of the texts from docstrings; :class:`PlainFormatter`, which fills the help a
paragraph at a time to the terminal's width.
"""

import argparse
import re
import textwrap

#: the end of ``mrc-pyomo --help``: examples, the data files, standardisation and the progress shown
EPILOG = """    mrc-pyomo fit data.csv --label class --standardize --save model.npz --history history.csv
    mrc-pyomo predict model.npz new.csv --output predictions.csv

Data: a CSV file with a header (the label column named by --label, default "label"; or labels in a
separate file with --labels, one a line; the separator set by --sep, default ","; '\\t' or tab for a tab)
or a LIBSVM / svmlight file (.svm, .svmlight, .libsvm or --format svmlight; read as a sparse matrix).
Every feature value must be a finite number and every label present: the first empty, NaN or infinite
value is reported with its line and column.  A model fitted on a CSV file knows its feature columns:
'predict' checks that the new file has the same columns in the same order.

Standardise (--standardize) features measured with a large offset relative to their spread (raw
measurements): the worst-case error R of an MRC is invariant under a positive rescaling of a feature
column, but not under a shift of it (examples/standardize.py: on scikit-learn's wine data, R = 0.311 and
test accuracy 0.944 raw, R = 0.248 and accuracy 1.000 standardised).  The saved model then standardises
the data it predicts (a scikit-learn Pipeline of a StandardScaler and the MRCClassifier); for sparse
(svmlight) data the features are scaled, not centred (centring would make them dense).

Progress: on a terminal a live line on stderr; otherwise (a pipe, a log file) the iteration log on stdout,
a line per master within 100 columns; with --wide-log the log with every column (122), on a terminal too;
nothing with --quiet.
"""
#: the commands and what each does
COMMANDS = {
    "demo": "fit an MRC on scikit-learn's digits data set, showing the iterations (python -m mrc_pyomo's default)",
    "fit": "learn an MRC from a data file and show the iterations",
    "predict": "predict with a saved model",
}
#: the description of ``mrc-pyomo demo``
DEMO_HELP = (
    "Fit an MRC by constraint and column generation on scikit-learn's digits data set (standardised, 80% for "
    "training): the iteration log (within 100 columns; --wide-log: every column), the certified worst-case error "
    "and where the time went.  The log's R(mu^k) is the exact worst-case error of the master's rule over all the "
    "training samples, R^k the master's value: both reach R* as the loop ends.")
#: the description of ``mrc-pyomo fit``
FIT_DESCRIPTION = (
    "Learn an MRC; shows its progress (on a terminal a live line on stderr, otherwise one line per iteration on "
    "stdout: the certified interval [lower, upper] and its gap, the master's value R^k, R(mu^k), the active rows "
    "and features, the rows and features added and removed; --wide-log adds the largest violations and the "
    "solver's seconds).  Standardise (--standardize) features with a large offset relative to their spread (raw "
    "measurements): R, the worst-case error, is invariant under a positive rescaling of a feature column but not "
    "under a shift of it; on scikit-learn's wine data the raw features give a test accuracy of 0.944, "
    "standardised 1.000.")
#: the help of ``mrc-pyomo fit --standardize``
STANDARDIZE_HELP = (
    "standardise the features (scikit-learn's StandardScaler: centred, scaled to unit variance) before the "
    "fit; the saved model applies the same standardisation in 'predict'.  Use it for features with a large "
    "offset relative to their spread (raw measurements): R, the worst-case error, is invariant under a "
    "positive rescaling of a feature column but not under a shift of it (wine data: test accuracy "
    "0.944 raw, 1.000 standardised).  Sparse (svmlight) data are scaled only, not centred "
    "(StandardScaler(with_mean=False)): centring would make them dense")

#: a role with its text: ``:func:`x```, ``:py:class:`x```, ``:math:`x```
_ROLE = re.compile(r":[\w-]+(?::[\w-]+)?:`([^`]*)`")
#: a target after the text of a role or a link: ``text <target>``
_TARGET = re.compile(r"^(.*?)\s*<[^<>]*>$", re.S)


def _role_text(match):
    """What a role shows: its text before a ``<target>``, or the last part of a ``~`` name, or the name."""
    body = match.group(1).lstrip("!")
    shown = _TARGET.match(body)
    if shown and shown.group(1):
        return shown.group(1)
    return body[1:].rsplit(".", 1)[-1] if body.startswith("~") else body


def plain_text(text):
    """``text`` (reStructuredText) as rendered: ``:func:`~a.b``` becomes ``b``, ````x```` and ```x``` become ``x``,
    ```text <url>`_`` becomes ``text``, ``**x**`` and ``*x*`` become ``x``, a ``::`` opening a literal block ``:``."""
    text = _ROLE.sub(_role_text, text)
    text = re.sub(r"``(.+?)``", r"\1", text, flags=re.S)
    text = re.sub(r"`([^`]+?)(?:\s*<[^<>`]+>)?`__?", r"\1", text)
    text = re.sub(r"`([^`]+)`", r"\1", text)
    text = re.sub(r"\*\*(\S(?:.*?\S)?)\*\*", r"\1", text)
    text = re.sub(r"(?<![\w*])\*(\S(?:[^*]*?\S)?)\*(?![\w*])", r"\1", text)
    text = re.sub(r"[ \t]+::$", "", text, flags=re.M)
    return re.sub(r"(\S)::$", r"\1:", text, flags=re.M)


class PlainFormatter(argparse.HelpFormatter):
    """argparse's help in plain text (:func:`plain_text`), filled a paragraph at a time; an indented paragraph (a
    command line, a literal block) is kept line for line."""

    def _fill_text(self, text, width, indent):
        paragraphs = re.split(r"\n[ \t]*\n", plain_text(textwrap.dedent(text)).strip("\n"))
        return "\n\n".join(textwrap.indent(paragraph, indent) if paragraph[:1].isspace()
                           else textwrap.fill(" ".join(paragraph.split()), width, initial_indent=indent,
                                              subsequent_indent=indent, break_on_hyphens=False)
                           for paragraph in paragraphs if paragraph.strip())

    def _split_lines(self, text, width):
        return super()._split_lines(plain_text(text), width)
