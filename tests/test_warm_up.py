"""``warm_up(rules)`` compiles what a solve of those rules runs, so that a deal's seconds are
its own and not numba's (a batch warms up before its workers start)."""

import subprocess
import sys
import textwrap

import pytest

# Run in a fresh process: numba's dispatchers there hold only what this process compiled or
# loaded from the cache, so a function that warm_up left out shows as a new overload.
PROBE = textwrap.dedent('''
    import sys
    import numba
    import solver.driver as d
    from solver.adapter import expand_dominance
    from solver.formats import pysolfc_deal
    from solver.kernels import hooks_module
    from solver.variants import make_rules

    def overloads():
        out = {}
        for name, mod in list(sys.modules.items()):
            if name.startswith("solver"):
                for attr, obj in vars(mod).items():
                    if isinstance(obj, numba.core.dispatcher.Dispatcher):
                        out[f"{name}.{attr}"] = len(obj.overloads)
        return out

    variant, dominance = sys.argv[1], tuple(sys.argv[2:])
    rules = make_rules(variant)
    dominance = expand_dominance(rules, dominance)
    d.warm_up(rules, dominance)
    before = overloads()
    k = hooks_module(rules.family)
    full = k.win_plan
    # the plan's searches, each as small as it comes (size 1), and no model after them
    k.win_plan = lambda cfg, nodes: [(n, 1, noise, w) for n, _s, noise, w in full(cfg, d.DEFAULT_NODES)]
    k.root_verdict = lambda *a: None
    for game in (1, 2, 3):
        d.solve(pysolfc_deal(rules, game), d.Budget(nodes=3000), dominance)
    grew = {f: (before.get(f, 0), n) for f, n in overloads().items() if n != before.get(f, 0)}
    print(grew)
    sys.exit(1 if grew else 0)
''')


@pytest.mark.parametrize("variant, dominance", [("reinforcements", ("all",)), ("alhambra", ("all",)),
                                                ("terrace", ("all",)), ("algerian", ())])
def test_a_solve_after_warm_up_compiles_nothing(variant, dominance):
    r = subprocess.run([sys.executable, "-c", PROBE, variant, *dominance], capture_output=True, text=True,
                       timeout=900)
    assert r.returncode == 0, (r.stdout, r.stderr[-2000:])
