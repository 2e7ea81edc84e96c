"""How the library words a mistake (:mod:`mrc_pyomo.display.words`): the name meant by a misspelt one, in any
case, for a misspelt solver and a misspelt parameter alike."""

from mrc_pyomo.display.words import suggestion


def test_the_name_meant_is_the_closest_in_any_case_above_the_cutoff():
    assert suggestion("lamda0", ["lambda0", "eps_1", "n_max"], 0.7) == "lambda0"
    assert suggestion("HIGS", ["highs", "glpk", "cbc"], 0.75) == "highs"   # the name as it is spelt in names
    assert suggestion("appsi_Highs", ["appsi_highs", "highs"], 0.75) == "appsi_highs"
    assert suggestion("gurobi", ["highs", "glpk"], 0.75) is None
    assert suggestion("anything", [], 0.5) is None
