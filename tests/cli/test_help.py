"""The commands' help in plain text (:mod:`mrc_pyomo.cli.help`): :func:`plain_text` takes reStructuredText's markup
out of a docstring, and the help of ``mrc-pyomo``, of each of its commands and of ``python -m mrc_pyomo`` shows no
backtick and no role (``python -m mrc_pyomo --help`` showed ````upper_````), its paragraphs filled to the width
and its command lines kept as they are."""

import argparse
import subprocess
import sys

import pytest

from mrc_pyomo.cli.help import PlainFormatter, plain_text
from mrc_pyomo.cli.arguments import build_parser


@pytest.mark.parametrize("rest,plain", [
    ("``python -m mrc_pyomo``: fit", "python -m mrc_pyomo: fit"),
    ("the error ``upper_`` and :func:`~mrc_pyomo.methods.result.finish`", "the error upper_ and finish"),
    (":func:`mrc_pyomo.mrc_path <mrc_pyomo.estimator.path.mrc_path>` and :mod:`mrc_pyomo.cli`",
     "mrc_pyomo.mrc_path and mrc_pyomo.cli"),
    (":py:class:`!Deadline`, :math:`R(\\mu)` and :doc:`the guide <tutorial>`", "Deadline, R(\\mu) and the guide"),
    ("`the paper <https://example.org/paper>`_, `Kelley`_ and `interpreted`", "the paper, Kelley and interpreted"),
    ("**bold**, *emphasis*, 2 * 3 and K x lambda0s", "bold, emphasis, 2 * 3 and K x lambda0s"),
    ("as follows::\n\n    mrc-pyomo fit\n\nthen ::\n", "as follows:\n\n    mrc-pyomo fit\n\nthen\n"),
    ("no markup at all: R(mu) = 0.25, --sep '\\t'", "no markup at all: R(mu) = 0.25, --sep '\\t'"),
])
def test_plain_text_takes_the_markup_out(rest, plain):
    assert plain_text(rest) == plain


def test_the_formatter_fills_paragraphs_and_keeps_command_lines(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")   # argparse's width: the terminal's
    command = "    mrc-pyomo fit data.csv --label class --standardize --save model.npz --history history.csv"
    parser = argparse.ArgumentParser(prog="p", formatter_class=PlainFormatter, epilog=(
        "A paragraph with ``markup`` written\nacross short lines, " + "and words " * 12 + "\n\n" + command + "\n"))
    parser.add_argument("--x", help="the :class:`~mrc_pyomo.MRCClassifier`'s ``x``")
    text = parser.format_help()
    paragraph = text[text.index("A paragraph"):text.index(command)].strip()
    assert " ".join(paragraph.split()).startswith("A paragraph with markup written across short lines, and words")
    assert all(len(line) <= 60 for line in paragraph.splitlines()) and len(paragraph.splitlines()) > 2
    assert f"\n{command}\n" in text and "the MRCClassifier's x" in " ".join(text.split())


def _help(*args):
    result = subprocess.run([sys.executable, "-m", *args, "--help"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return result.stdout


@pytest.mark.parametrize("command", [("mrc_pyomo.cli.main",), ("mrc_pyomo.cli.main", "fit"),
                                     ("mrc_pyomo.cli.main", "predict"), ("mrc_pyomo",), ("mrc_pyomo", "demo")])
def test_every_help_is_plain_text(command):
    """No backtick and no ``:role:`` in any help (the texts from the modules' docstrings included); the
    command lines of ``mrc-pyomo --help``'s examples kept on their own lines."""
    text = _help(*command)
    assert "`" not in text and not any(role in text for role in (":func:", ":mod:", ":class:", ":doc:", ":math:"))
    if command == ("mrc_pyomo",):   # the command line, under the name it was called by, its commands named
        words = " ".join(text.split())
        assert text.startswith("usage: python -m mrc_pyomo") and "'mrc-pyomo' and 'python -m mrc_pyomo'" in words
        assert all(name in words for name in ("demo", "fit", "predict"))
    if command == ("mrc_pyomo", "demo"):
        assert "R(mu^k) is the exact worst-case error" in " ".join(text.split())
    if command == ("mrc_pyomo.cli.main",):
        assert "\n    mrc-pyomo fit data.csv --label class --standardize --save model.npz --history history.csv\n" in text


@pytest.mark.parametrize("args", [[], ["fit"], ["predict"]])
def test_the_help_is_plain_text_in_process(capsys, args):
    """The same through the parser of this process (a method registered since adds its summary to the help)."""
    with pytest.raises(SystemExit):
        build_parser().parse_args([*args, "--help"])
    text = capsys.readouterr().out
    assert "usage: mrc-pyomo" in text and "`" not in text
