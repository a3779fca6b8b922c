import pytest

from solver.variants import CATALOGUE, RulesError, get_variant, make_rules, parse_rule_assignments


def test_catalogue_has_every_variant_of_rules_part_i2():
    keys = {v.key for v in CATALOGUE}
    assert keys == {"alhambra", "granada", "reinforcements", "terrace", "queen-of-italy-pysolfc",
                    "generals-patience", "blondes-and-brunettes", "falling-star", "redheads", "algerian"}
    assert {v.key: v.pysolfc_id for v in CATALOGUE}["granada"] == 465
    assert get_variant("queen-of-italy").key == "terrace"


def test_defaults_follow_part_i():
    assert make_rules("alhambra")["empty_waste_accepts_any"] is False
    assert make_rules("granada")["empty_waste_accepts_any"] is True
    assert make_rules("reinforcements")["reserve_size"] == 12
    qoi = make_rules("queen-of-italy-pysolfc")
    assert (qoi["gap_rule"], qoi["found_takeback"]) == ("any_available", True)
    assert make_rules("generals-patience")["found_build"] == "SS"
    assert make_rules("redheads")["gap_rule"] == "auto_reserve_first"
    alg = make_rules("algerian")
    assert (alg["layout"], alg["tableau_wrap"], alg["foundation_to_tableau"]) == ("A", True, False)


def test_pysolfc_profiles():
    assert make_rules("alhambra", profile="pysolfc")["empty_waste_accepts_any"] is True
    alg = make_rules("algerian", profile="pysolfc")
    assert alg["empty_reserve_as_cell"] == "from_anywhere" and alg["foundation_to_tableau"] is True
    with pytest.raises(RulesError, match="no profile"):
        make_rules("redheads", profile="pysolfc")


def test_overrides_and_their_errors():
    r = make_rules("alhambra", parse_rule_assignments(["redeals=1", "empty_waste_accepts_any=yes"]))
    assert r["redeals"] == 1 and r["empty_waste_accepts_any"] is True
    with pytest.raises(RulesError, match="unknown rule option 'redeal'.*did you mean 'redeals'"):
        make_rules("alhambra", {"redeal": 1})
    with pytest.raises(RulesError, match="valid: A, B, C"):
        make_rules("algerian", {"layout": "D"})
    with pytest.raises(RulesError, match="valid: true, false"):
        make_rules("terrace", {"found_takeback": "maybe"})
    with pytest.raises(RulesError, match="from 0 to 1"):
        make_rules("terrace", {"redeals": 2})
    with pytest.raises(RulesError, match="name=value"):
        parse_rule_assignments(["redeals"])


def test_unknown_variant_suggests():
    with pytest.raises(RulesError, match="did you mean algerian"):
        get_variant("algerain")


def test_layout_c_defaults_reserves_of_four():
    assert make_rules("algerian", {"layout": "C"})["reserve_size"] == 4
    assert make_rules("algerian", {"layout": "C", "reserve_size": 5})["reserve_size"] == 5


def test_rules_hash_and_describe():
    a, b = make_rules("alhambra"), make_rules("alhambra", {"redeals": 1})
    assert a.hash() != b.hash() and a.hash() == make_rules("alhambra").hash()
    assert b.describe() == "alhambra redeals=1"
