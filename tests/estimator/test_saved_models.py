"""Models saved by version 0.1.0 (pickles of modules at the top of the package) load and predict as they did,
when trusted: through mrc_pyomo.cli.models.load_model(trust_pickle=True) and ``mrc-pyomo predict --trust-pickle``;
without the flag they are refused, unread.  A model of this layout round-trips through pickle."""

import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris

from mrc_pyomo import MRCClassifier
from mrc_pyomo.cli.models import MOVED_MODULES, load_model

DATA = Path(__file__).resolve().parent / "data"
OLD_MODEL = DATA / "model_0.1.0_e10840f.pkl"   # make_pipeline(StandardScaler(), MRCClassifier(phi="fourier",
# random_state=0)).fit(*load_iris(return_X_y=True)), pickled by the library at commit e10840f


def test_a_model_saved_by_0_1_0_loads_and_predicts_as_it_did():
    X, _ = load_iris(return_X_y=True)
    expected = np.load(DATA / "model_0.1.0_e10840f_expected.npz")
    model = load_model(OLD_MODEL, trust_pickle=True)
    clf = model[-1]
    assert isinstance(clf, MRCClassifier) and type(clf).__module__ == "mrc_pyomo.estimator.classifier"
    assert np.array_equal(model.predict(X), expected["pred"])
    np.testing.assert_allclose(model.predict_proba(X), expected["proba"], rtol=0, atol=1e-12)
    assert clf.upper_ == expected["upper"] and clf.lower_ == expected["lower"] and clf.status_ == "converged"
    np.testing.assert_array_equal(clf.mu_, expected["mu"])
    # its master, pickled with it, is a master of this layout: its model can be built and written
    assert clf.master_.n_rows > 0 and clf.master_.model.nconstraints() > 0


def test_a_bare_pickle_load_of_an_old_model_names_the_missing_module():
    with open(OLD_MODEL, "rb") as f, pytest.raises(ModuleNotFoundError, match="mrc_pyomo.classifier"):
        pickle.load(f)
    assert MOVED_MODULES["mrc_pyomo.classifier"] == "mrc_pyomo.estimator.classifier"


def test_the_command_line_predicts_with_an_old_model(tmp_path):
    X, y = load_iris(return_X_y=True)
    data = tmp_path / "iris.csv"
    pd.DataFrame(X, columns=[f"x{j}" for j in range(4)]).to_csv(data, index=False)
    refused = subprocess.run([sys.executable, "-m", "mrc_pyomo.cli.main", "predict", str(OLD_MODEL), str(data)],
                             capture_output=True, text=True, cwd=tmp_path)
    assert refused.returncode == 1 and "--trust-pickle" in refused.stderr and refused.stdout == ""
    out = subprocess.run([sys.executable, "-m", "mrc_pyomo.cli.main", "predict", str(OLD_MODEL), str(data),
                          "--trust-pickle"], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    predicted = pd.read_csv(pd.io.common.StringIO(out.stdout))["prediction"].to_numpy()
    assert np.array_equal(predicted, np.load(DATA / "model_0.1.0_e10840f_expected.npz")["pred"])


def test_a_model_of_this_layout_round_trips_through_pickle():
    X, y = load_iris(return_X_y=True)
    clf = MRCClassifier().fit(X, y)
    again = pickle.loads(pickle.dumps(clf))
    assert again.status_ == clf.status_ == "converged" and again.upper_ == clf.upper_
    assert np.array_equal(again.predict(X), clf.predict(X))
