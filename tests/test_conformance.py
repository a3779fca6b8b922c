"""The kernel contract (``solver.kernels``) on every registered family: what a new
family's kernel must pass with no test of its own (pgx's ``api_test`` idea). The per-family
tests run the same checks with more deals and with each dominance rule."""

import inspect
import random
from pathlib import Path

import pytest

from solver import jit
from solver.dispatch import Kernel
from solver.kernels import (FAMILIES, UnsupportedVariant, dominance_flags, dominance_rules, family,
                            hooks_module, kernel_module)
from solver.miniature import random_miniature_deal
from solver.adapter import adapter_for, expand_dominance
from solver.variants import CATALOGUE, make_rules
from tests.support.kernel_checks import cross_check, incremental_hash_holds, moves_agree

# Every variant of every family.
SOLVED = [v.key for v in CATALOGUE]
NJIT = {"gen_moves": ["cfg", "state", "moves", "start", "last"],
        "make_move": ["cfg", "state", "keys", "m"],
        "undo_move": ["cfg", "state", "keys", "m", "info"],
        "is_won": ["cfg", "state"],
        "move_class": ["cfg", "m"],
        "beam_score": ["cfg", "state", "weights"]}
PY = {"make_cfg": ["rules", "safe_flags"], "n_piles": ["rules"], "acyclic": ["rules"],
      "load_position": ["rules", "pos", "state"], "to_moves": ["rules", "m", "info"],
      "memo_slots": ["cfg", "nodes"], "relaxation_moves": ["cfg", "nodes"],
      "relaxation_lost": ["cfg", "state", "cap", "retry"], "root_verdict": ["cfg", "rules", "pos", "seconds", "reach"],
      "win_plan": ["cfg", "nodes"]}


def test_every_catalogue_family_is_registered():
    assert {v.family for v in CATALOGUE} == set(FAMILIES)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_kernel_module_has_the_contract(name):
    for fn, params in NJIT.items():
        assert list(inspect.signature(getattr(kernel_module(name), fn).py_func).parameters) == params, (name, fn)
    k = hooks_module(name)
    for fn, params in PY.items():
        assert list(inspect.signature(getattr(k, fn)).parameters) == params, (name, fn)
    flags = [getattr(k, r.flag_name()) for r in family(name).dominance] + ([k.STREAMLINER] if k.STREAMLINER else [])
    assert all(f > 0 and f & (f - 1) == 0 for f in flags), flags          # single bits
    assert len(set(flags)) == len(flags)                                   # distinct


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_kernel_sources_are_in_the_cache_key(name):
    """Every Python file of the family's folder, the kernel's among them, keys the cache."""
    pkg = Path(jit.__file__).parent
    folder = Path(kernel_module(name).__file__).parent
    files = sorted(str(f.relative_to(pkg)) for f in folder.glob("*.py"))
    assert str(Path(kernel_module(name).__file__).relative_to(pkg)) in files
    assert set(files) <= set(jit.KERNEL_SOURCES)


def test_unknown_family_and_rule_are_errors():
    with pytest.raises(UnsupportedVariant, match="unknown family"):
        family("spider")
    with pytest.raises(UnsupportedVariant, match="unknown family"):
        Kernel("spider")
    with pytest.raises(UnsupportedVariant, match="unknown dominance rule"):
        dominance_flags(make_rules("algerian"), ("met_foundation",))


@pytest.mark.parametrize("variant", SOLVED)
def test_dominance_all_is_what_the_rules_allow(variant):
    """``all`` takes every rule the rules allow, but those it leaves out by ``all_needs``
    (allowed when named); a rule the rules refuse is refused when named."""
    rules = make_rules(variant)
    allowed = expand_dominance(rules, ("all",))
    for name, rule in dominance_rules(rules.family).items():
        assert (name in allowed) == rule.in_all(rules)
        assert rule.in_all(rules) <= (rule.refusal(rules) is None)
        if rule.refusal(rules) is not None:
            with pytest.raises(UnsupportedVariant, match="needs"):
                adapter_for(rules, (name,))
        elif name not in allowed:
            adapter_for(rules, allowed + (name,))
    adapter_for(rules, allowed)


@pytest.mark.parametrize("variant", SOLVED)
def test_moves_equal_the_reference_engine(variant):
    assert moves_agree(variant, seed=91, games=8, steps=40) > 100


@pytest.mark.parametrize("variant", SOLVED)
def test_hash_and_undo_with_every_rule(variant):
    rng = random.Random(92)
    made = 0
    for _ in range(10):
        deal = random_miniature_deal(variant, rng, vary=True)
        made += incremental_hash_holds(deal, steps=100, dominance=expand_dominance(deal.rules, ("all",)))
    assert made > 100


@pytest.mark.parametrize("variant", SOLVED)
def test_verdicts_equal_the_oracle(variant):
    counts = cross_check(variant, 60, seed=93, small=True, max_states=6_000)
    assert counts["won"] + counts["lost"] >= 40, counts
