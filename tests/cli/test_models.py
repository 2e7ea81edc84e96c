"""Saved models (:mod:`mrc_pyomo.cli.models`, :mod:`mrc_pyomo.cli.model_format`): data, not programs; a save is
one step, so an interrupted one leaves the file that was there; a model saved and loaded predicts as the fitted
one."""

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
        f.write(b"PK\x03\x04half a model")
        raise KeyboardInterrupt

    monkeypatch.setattr(models, "write_model", half_written)
    with pytest.raises(KeyboardInterrupt):
        models.save_model(MRCClassifier(lambda0=0.1).fit(X, y), path)
    assert path.read_bytes() == saved
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.pkl"]   # no temporary file left


def test_a_model_file_is_data_and_a_pickle_is_not_run(tmp_path):
    """A saved model is an archive of arrays that NumPy reads with allow_pickle=False; a pickle crafted to run code
    when loaded is refused unread, and runs only with trust_pickle=True."""
    X, y = random_problem(60, 4, 3, seed=1)
    path = models.save_model(MRCClassifier().fit(X, y), tmp_path / "m.model")
    with np.load(path, allow_pickle=False) as data:
        assert "manifest" in data.files and all(data[name].dtype != object for name in data.files)
    witness = tmp_path / "ran"

    class Payload:
        def __reduce__(self):
            return (open, (str(witness), "w"))

    crafted = tmp_path / "crafted.pkl"
    crafted.write_bytes(pickle.dumps(Payload()))
    with pytest.raises(models.CommandError, match="--trust-pickle"):
        models.load_model(crafted)
    assert not witness.exists()
    with pytest.raises(models.CommandError):
        models.load_model(crafted, trust_pickle=True)   # it runs (creates the file), then is no model
    assert witness.exists()


def test_a_fourier_pipeline_with_feature_names_round_trips(tmp_path):
    import pandas as pd
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    X, y = random_problem(80, 4, 3, seed=2)
    frame = pd.DataFrame(X, columns=["a", "b", "c", "d"])
    labels = np.array(["x", "y", "z"], dtype=object)[y]
    model = make_pipeline(StandardScaler(), MRCClassifier(phi="fourier", random_state=0)).fit(frame, labels)
    again = models.load_model(models.save_model(model, tmp_path / "m.model"))
    clf, back = model[-1], again[-1]
    assert np.array_equal(again.predict(frame), model.predict(frame))
    assert np.array_equal(again.predict_proba(frame), model.predict_proba(frame))
    assert list(again.feature_names_in_) == ["a", "b", "c", "d"] and back.status_ == clf.status_
    assert back.upper_ == clf.upper_ and back.lower_ == clf.lower_ and np.array_equal(back.mu_, clf.mu_)
    pd.testing.assert_frame_equal(back.history_, clf.history_, check_dtype=False)
    assert back.master_ is None and back.get_params()["lambda0"] == clf.lambda0


def test_a_model_the_format_cannot_hold_is_refused_with_its_reason(tmp_path):
    from sklearn.preprocessing import FunctionTransformer

    X, y = random_problem(40, 3, 2, seed=1)
    clf = MRCClassifier(phi=FunctionTransformer(np.tanh)).fit(X, y)
    with pytest.raises(models.CommandError, match="FunctionTransformer cannot be saved as data"):
        models.save_model(clf, tmp_path / "m.model")
    assert not list(tmp_path.iterdir())
