"""When would each Alhambra reserve card come free in the first pass if a reserve top left
as soon as a same-suit rank neighbour (K-A wrap) were the waste top or had itself left?
Deals only, nothing played home (a probe for G0s / G0-tau, design memo section 1b).

    PYTHONPATH=. python benchmarks/attic/release_times.py 1-40

Prints per game: reserve cards released in the first pass, the median and the last deal
index of a release (0: the waste card of the layout, 63: the last stock card)."""
import statistics
import sys

import solver
from solver import cards


def neighbours(a: int, b: int) -> bool:
    if cards.suit(a) != cards.suit(b):
        return False
    d = abs(cards.rank(a) - cards.rank(b))
    return d in (1, 12)


def release_times(layout) -> list[tuple[int, int]]:
    """(card, deal index) for every reserve card released in the first pass, in order."""
    piles = [list(p) for p in layout.reserves]
    released: list[int] = []
    out = []
    for i, top in enumerate([layout.waste[0][-1], *layout.stock]):
        changed = True
        while changed:
            changed = False
            for p in piles:
                if p and (neighbours(p[-1], top) or any(neighbours(p[-1], y) for y in released)):
                    released.append(p.pop())
                    out.append((released[-1], i))
                    changed = True
    return out


if __name__ == "__main__":
    lo, hi = map(int, (sys.argv[1] if len(sys.argv) > 1 else "1-40").split("-"))
    for g in range(lo, hi + 1):
        ts = [t for _, t in release_times(solver.game("alhambra", g).layout)]
        print(g, len(ts), statistics.median_low(ts) if ts else None, max(ts, default=None))
