"""Write the golden move counts (``*.perft``) from the reference engine.

    python tests/perft/generate.py            # every variant, the games and depths below

A count is the number of move sequences of each length from a deal's start (as python-chess
keeps perft counts): the reference engine is the judge, and every kernel must reproduce
the counts exactly (``tests/test_perft.py``). Regenerate only when a rule changes on
purpose, and say so in the commit.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from solver.formats import pysolfc_deal  # noqa: E402
from solver.variants import CATALOGUE, make_rules  # noqa: E402

from tests.support.kernel_checks import reference_perft  # noqa: E402

HERE = Path(__file__).resolve().parent
GAMES = (1, 2, 3)
MAX_SEQUENCES = 60_000         # the deepest depth whose count stays below this (cost)
MAX_DEPTH = 24


def counts_for(variant: str, game: int) -> list[int]:
    deal = pysolfc_deal(make_rules(variant), game)
    depth = 1
    best = reference_perft(deal, 1)
    while depth < MAX_DEPTH:
        more = reference_perft(deal, depth + 1)
        if more[-1] > MAX_SEQUENCES:
            break
        best, depth = more, depth + 1
    return best


def main() -> None:
    for variant in (v.key for v in CATALOGUE):
        t = time.perf_counter()
        lines = [f"# Golden move counts of {variant} (default rules): move sequences of each length",
                 "# from the start of PySolFC game N, by the reference engine (tests/perft/generate.py)."]
        for game in GAMES:
            lines.append("")
            lines.append(f"game {game}")
            for d, n in enumerate(counts_for(variant, game), start=1):
                lines.append(f"perft {d} {n}")
        (HERE / f"{variant}.perft").write_text("\n".join(lines) + "\n")
        print(f"{variant}: {time.perf_counter() - t:.1f} s", flush=True)


if __name__ == "__main__":
    main()
