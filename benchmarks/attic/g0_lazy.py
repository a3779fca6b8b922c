"""G0-lazy: the free-reserve relaxation with free cards played only when a sequence card
needs them (lazy), forced plays where the choice cannot matter. Exact DFS in Python,
dead_stock_order (the kernel's) at every node."""
import sys, time
import numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from solver.alhambra import kernel as K
from solver.driver import adapter_for, expand_dominance
from solver.variants import make_rules

RULES = {}
def setup(redeals, rules=None):
    rules = rules or make_rules("alhambra", {"redeals": redeals})
    ad = adapter_for(rules, expand_dominance(rules, ("all",)))
    RULES.update(cfg=ad.cfg, redeals=rules["redeals"], ranks=rules["ranks"], suits=rules["suits"],
                 first=rules["redeal_includes_first_deal"])
    return rules, ad

def tops(fnd, k):
    return int(fnd[k]), RULES["ranks"] - int(fnd[RULES["suits"] + k]) + 1          # up top rank, down top rank

def solve_lazy(W, T, F, fnd, k, budget, stats=None):
    """W waste bottom->top, T stock next-first (lists of card codes), F dict code->count of free
    cards, fnd int array[8], k redeals used. Returns ('won'|'lost'|'unknown', nodes)."""
    cfg = RULES["cfg"]; R = RULES["redeals"]
    NR = int(cfg[K.C_NRES]); piles = np.zeros((NR + 2, 110), np.int8); lens = np.zeros(NR + 2, np.int32)
    seen = set(); nodes = [0]
    fnd = fnd.copy()
    def dead():
        fl = [c for c, n in F.items() for _ in range(n)]
        piles[0, :len(fl)] = fl; lens[0] = len(fl)
        piles[NR, :len(W)] = W; lens[NR] = len(W)
        piles[NR + 1, :len(T)] = T[::-1]; lens[NR + 1] = len(T)
        return bool(K.stock_order_blocked(cfg, piles, lens, fnd, R - k))
    def in_seq(c):
        return W.count(c) + T.count(c)
    def home_options(x):
        """[(foundation, fills (list of codes), forced_ok)] for the waste top x."""
        suit, r = x // 13, x % 13 + 1
        s = int(cfg[K.C_SIDX0 + suit]); S = RULES["suits"]
        u, d = tops(fnd, s)
        out = []
        for f, lo, hi in ((s, u + 1, r - 1), (S + s, r + 1, d - 1)):
            if (f < S and r <= u) or (f >= S and r >= d):
                continue
            fills = [suit * 13 + m - 1 for m in range(lo, hi + 1)]
            if all(F.get(c, 0) > 0 for c in fills):
                out.append((f, fills, all(in_seq(c) == 0 for c in fills)))
        return out
    def play(x, f, fills):
        for c in fills: F[c] -= 1
        fnd[f] += len(fills) + 1
        W.pop()
    def unplay(x, f, fills):
        W.append(x); fnd[f] -= len(fills) + 1
        for c in fills: F[c] += 1
    def rec():
        nonlocal k
        if nodes[0] >= budget: return "unknown"
        nodes[0] += 1
        if not W and not T: return "won"
        key = (k, tuple(W), tuple(T), fnd.tobytes())
        if key in seen: return "lost"          # acyclic: a state seen and left is lost
        seen.add(key)
        if dead(): return "lost"
        moves = []
        if W:
            x = W[-1]
            opts = home_options(x)
            forced = [o for o in opts if o[2]] if (in_seq(x) == 1 and len(opts) == 1) else []
            moves = [("home",) + o for o in (forced or opts)]
            if forced: moves = moves[:1]
        if not (moves and moves[0][0] == "home" and moves[0][3] and in_seq(W[-1]) == 1 and len(moves) == 1):
            if T: moves.append(("deal",))
            elif W and k < R: moves.append(("redeal",))
        for m in moves:
            if m[0] == "home":
                x = W[-1]; play(x, m[1], m[2]); res = rec(); unplay(x, m[1], m[2])
            elif m[0] == "deal":
                W.append(T.pop(0)); res = rec(); T.insert(0, W.pop())
            else:
                oldW = W[:]; T[:] = W; W.clear(); k += 1
                if RULES['first']: W.append(T.pop(0))
                res = rec(); k -= 1; T.clear(); W[:] = oldW
            if res != "lost": return res
        return "lost"
    sys.setrecursionlimit(100000)
    return rec(), nodes[0], len(seen)

if __name__ == "__main__":
    from solver.engine import engine_for
    from solver.formats import pysolfc_deal
    from solver.alhambra.kernel import load_foundations
    redeals, budget = int(sys.argv[1]), int(sys.argv[2])
    rules, ad = setup(redeals)
    for game in [int(g) for g in sys.argv[3].split(",")]:
        pos = engine_for(rules).initial_position(pysolfc_deal(rules, game).layout)
        fnd = np.zeros(8, np.int32); load_foundations(rules, pos.foundations, fnd)
        F = {}
        for r in pos.reserves:
            for c in r: F[c] = F.get(c, 0) + 1
        t = time.time()
        res = solve_lazy(list(pos.waste[0]), list(pos.stock), F, fnd, 0, budget)
        print(f"G0-lazy redeals={redeals} game {game}: {res[0]} nodes {res[1]} states {res[2]} {time.time()-t:.1f}s", flush=True)
