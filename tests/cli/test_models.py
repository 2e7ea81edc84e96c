"""Saved models (:mod:`mrc_pyomo.cli.models`): a save is one step, so an interrupted one leaves the file that was
there; a model saved and loaded predicts as the fitted one."""

import pickle

import numpy as np
import pytest

from helpers import random_problem
from mrc_pyomo import MRCClassifier
from mrc_pyomo.cli import models


def test_a_saved_model_loads_and_predicts_the_same(tmp_path):
    X, y = random_problem(60, 4, 3, seed=1)
    clf = MRCClassifier().fit(X, y)
    path = models.save_model(clf, tmp_path / "m.pkl")
    assert np.array_equal(models.load_model(path).predict(X), clf.predict(X))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.pkl"]


def test_an_interrupted_save_leaves_the_previous_file(tmp_path, monkeypatch):
    X, y = random_problem(60, 4, 3, seed=1)
    path = models.save_model(MRCClassifier().fit(X, y), tmp_path / "m.pkl")
    saved = path.read_bytes()

    def half_written(model, f):
        f.write(b"\x80\x04half a model")
        raise KeyboardInterrupt

    monkeypatch.setattr(pickle, "dump", half_written)
    with pytest.raises(KeyboardInterrupt):
        models.save_model(MRCClassifier(lambda0=0.1).fit(X, y), path)
    assert path.read_bytes() == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.pkl"]   # no temporary file left
