"""Verdicts, node counts and states of a fixed set of deals, to show that a change which
should not change behaviour (a move of code, a split of a module) does not: run it on the
old tree and the new one and compare the two files line by line.

    PYTHONPATH=/path/to/old/tree python benchmarks/bench_identity.py > old.tsv
    PYTHONPATH=. python benchmarks/bench_identity.py > new.tsv
    diff old.tsv new.tsv && echo identical

The set: Alhambra 1-20, Algerian 1-100, Terrace 1-100 and The Reinforcements 1-10, at
200,000 nodes each with every dominance rule of ``all`` (the CLI's default). A line per
deal: variant, game, verdict, reason, proof, nodes, states, most cards home, the winning
line's length and its moves hashed. The time each took goes to standard error only, so
the two files differ only where behaviour does. ``--only VARIANT`` runs one variant.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time

NODES = 200_000
SET = (("alhambra", range(1, 21)), ("algerian", range(1, 101)), ("terrace", range(1, 101)),
       ("reinforcements", range(1, 11)))


def main() -> None:
    from solver.adapter import expand_dominance
    from solver.driver import Budget, solve, warm_up
    from solver.formats import pysolfc_deal
    from solver.variants import make_rules
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", help="one variant of the set")
    args = p.parse_args()
    for variant, games in SET:
        if args.only and variant != args.only:
            continue
        rules = make_rules(variant)
        dom = expand_dominance(rules, ("all",))
        warm_up(rules, dom)
        t = time.perf_counter()
        for g in games:
            res = solve(pysolfc_deal(rules, g), Budget(nodes=NODES), dom)
            line = " ".join(map(str, res.moves))
            digest = hashlib.sha256(line.encode()).hexdigest()[:12]
            print("\t".join(map(str, (variant, g, res.verdict, res.reason, res.proof, res.nodes, res.states,
                                      res.most_home, len(res.moves), digest))), flush=True)
        print(f"{variant}: {time.perf_counter() - t:.1f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
