"""The formulation seam's own pieces (:mod:`mrc_pyomo.formulations.base`): :func:`label_counts` as Python integers;
:func:`item_keys`, one fixed-width key per (sample, label set) pair, equal exactly for equal pairs (any ``K``,
large sample ids) and usable with ``np.isin``; :class:`LPBlock`; :class:`Formulation` abstract, whose instances are
equal and hash alike by type, and a subclass that lacks a method of the seam cannot be made."""

import itertools

import numpy as np
import pytest
import scipy.sparse as sp

from mrc_pyomo.formulations.base import Formulation, LPBlock, item_keys, label_counts
from mrc_pyomo.oracles.rows import all_subsets


def test_label_counts_are_python_integers():
    counts = label_counts(np.array([3, 2, 3, 3, 1], dtype=np.int32))
    assert counts == {1: 1, 2: 1, 3: 3}
    assert all(type(k) is int and type(v) is int for k, v in counts.items())
    assert label_counts([]) == {}


@pytest.mark.parametrize("n_classes", [2, 5, 8, 9, 17])
def test_item_keys_are_equal_exactly_for_equal_pairs(n_classes):
    """Every pair of (sample, label set) among samples with large ids and random label sets: the keys are equal
    if and only if the pairs are; each key has ``8 + ceil(K / 8)`` bytes."""
    rng = np.random.default_rng(n_classes)
    samples = np.array([0, 1, 255, 256, 2 ** 40 + 3, 7])[rng.integers(0, 6, 40)]
    subsets = rng.random((40, n_classes)) < 0.5
    subsets[0] = False
    subsets[1] = True
    keys = item_keys(samples, subsets)
    assert keys.shape == (40,) and keys.dtype.itemsize == 8 + -(-n_classes // 8)
    for a, b in itertools.combinations(range(40), 2):
        same = samples[a] == samples[b] and np.array_equal(subsets[a], subsets[b])
        assert (keys[a] == keys[b]) == same


def test_item_keys_work_with_isin():
    subsets = all_subsets(3)
    held = item_keys(np.array([4, 4, 9]), subsets[[0, 6, 2]])
    asked = item_keys(np.array([4, 9, 9, 4, 5]), subsets[[6, 2, 0, 1, 0]])
    assert np.isin(asked, held).tolist() == [True, True, False, False, False]
    # the sample ids may come as any integer type, the label sets as 0/1
    assert np.array_equal(item_keys(np.array([4, 9], dtype=np.int32), subsets[[6, 2]].astype(int)),
                          item_keys(np.array([4, 9]), subsets[[6, 2]]))


def test_an_lp_block_holds_its_three_parts():
    mu = sp.csr_matrix(np.eye(2))
    block = LPBlock(mu=mu, nu=np.array([-1.0, -1.0]), columns=sp.csc_matrix((2, 0)))
    assert block.mu is mu and block.nu.tolist() == [-1.0, -1.0] and block.columns.shape == (2, 0)


class Minimal(Formulation):
    """A formulation of the seam's methods only, each the trivial answer."""

    name = "minimal"

    def shape(self, subsets):
        return np.ones(len(subsets), dtype=np.int64), np.zeros(len(subsets), dtype=np.int64)

    def upper(self, subsets):
        return np.zeros(len(subsets))

    def block(self, points, samples, subsets, features, n_features):
        return LPBlock(sp.csr_matrix((len(samples), len(features))), -np.ones(len(samples)),
                       sp.csc_matrix((len(samples), 0)))

    def names(self, samples, subsets, n_samples):
        return [], []

    def merge(self, samples, subsets, new_samples, new_subsets):
        return np.zeros(len(samples), dtype=bool), (new_samples, new_subsets)

    def covers(self, samples, subsets):
        return lambda ids, sets: np.zeros(len(ids), dtype=bool)

    def item_values(self, scores, subsets):
        return np.zeros(len(scores))

    def item_duals(self, subsets, row_duals):
        return row_duals

    def certificate_rows(self, samples, subsets, row_duals):
        return samples, subsets, row_duals

    def full_items(self, samples, n_classes, reduction=None):
        return samples, np.ones((len(samples), n_classes), dtype=bool)

    def full_lp_size(self, labels, n_classes, row_nonzeros):
        return len(labels), 0


class Other(Minimal):
    name = "other"


def test_the_seam_is_abstract_and_every_method_is_required():
    with pytest.raises(TypeError):
        Formulation()
    abstract = set(Formulation.__abstractmethods__)
    assert abstract == {"shape", "upper", "block", "names", "merge", "covers", "item_values", "item_duals",
                        "certificate_rows", "full_items", "full_lp_size"}
    for missing in abstract:
        lacking = type("Lacking", (Minimal,), {missing: Formulation.__dict__[missing]})
        with pytest.raises(TypeError, match=missing):
            lacking()
    assert Minimal().has_columns is False and Formulation.name is None


def test_formulations_are_equal_and_hash_alike_by_type():
    assert Minimal() == Minimal() and hash(Minimal()) == hash(Minimal())
    assert Minimal() != Other() and Other() != Minimal()
    assert len({Minimal(), Minimal(), Other()}) == 2
    assert repr(Minimal()) == "Minimal()" and repr(Other()) == "Other()"


def test_item_keys_of_strided_sample_ids():
    """Sample ids as ``np.nonzero`` returns them (strided views of one array) give the keys of their copies: a
    master's ``add_rows`` takes them as they come."""
    weights = np.array([[0.0, 1.0, 2.0], [3.0, 0.0, 0.0], [0.0, 0.0, 4.0]])
    samples, sizes = np.nonzero(weights)
    subsets = np.arange(3)[None, :] <= sizes[:, None]
    assert not samples.flags.c_contiguous or not sizes.flags.c_contiguous or samples.base is not None
    assert np.array_equal(item_keys(samples, subsets), item_keys(samples.copy(), subsets))
