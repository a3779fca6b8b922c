"""Sample states of the concrete redeals=1 search (plain order, all rules); project each onto
G0 (reserve and built cards free, original sequence cards kept in order); exact G0 search
with forced free-card / waste-top plays, budget B nodes."""
import sys, time, collections
import numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[2]))
from solver.alhambra import kernel as K
from solver.toolkit import kind_of, src_of, dst_of, PILE0, get_bits
from solver.engine import engine_for
from solver.formats import pysolfc_deal
from solver.driver import adapter_for, expand_dominance, kernel_state
from solver.dispatch import hash_state
from solver.state import new_state, zobrist_tables
from solver.variants import make_rules

game, N, EVERY, B = (int(x) for x in sys.argv[1:5])
rules = make_rules("alhambra", {"redeals": 1})
ad = adapter_for(rules, expand_dominance(rules, ("all",)))
cfg = ad.cfg
state, keys = kernel_state(ad, engine_for(rules).initial_position(pysolfc_deal(rules, game).layout))
piles, lens, fnd, scal, h = state
nres, w, st = 8, 8, 9
S0 = int(lens[st])
# G0 machinery
rd = {k: rules[k] for k in ("ranks", "suits", "waste_piles", "empty_waste_accepts_any", "redeals",
                            "redeal_includes_first_deal", "stop_at_third_exhaustion", "reinforce", "reinforce_timing")}
rd["reserves"] = 32
gcfg = K.make_cfg(rd, int(cfg[K.C_SAFE]))
gkeys = zobrist_tables(34, ad.maxh, ad.nf, ad.maxc)
gbuf = np.zeros(1 << 18, np.int32)
g = new_state(34, ad.maxh, ad.nf)
GW = PILE0 + 32
def g0_search(budget):
    gp, gl, gh = g.piles, g.lens, g.h
    def gen(start, last):
        n = K.gen_moves(gcfg, g, gbuf, start, last)
        ms = [int(m) for m in gbuf[start:start + n] if not (kind_of(int(m)) == K.K_CARD and dst_of(int(m)) == GW)]
        seq = list(gp[32, :gl[32]]) + list(gp[33, :gl[33]])
        for m in ms:
            if kind_of(m) == K.K_CARD and dst_of(m) < PILE0:
                p = src_of(m) - PILE0
                if seq.count(gp[p, gl[p] - 1]) <= (1 if p == 32 else 0):
                    ms = [m]; break
        gbuf[start:start + len(ms)] = ms
        return len(ms)
    seen = {(int(gh[0]), int(gh[1]))}; nodes = 0
    stack = [(0, gen(0, -1), 0, 0)]
    while nodes < budget:
        s, c, i, _ = stack[-1]
        if i < c:
            m = int(gbuf[s + i]); info = K.make_move(gcfg, g, gkeys, m); nodes += 1
            stack[-1] = (s, c, i + 1, info)
            if K.is_won(gcfg, g):
                res = "won"; break
            hh = (int(gh[0]), int(gh[1]))
            if hh in seen: K.undo_move(gcfg, g, gkeys, m, info); continue
            seen.add(hh); stack.append((s + c, gen(s + c, m), 0, 0))
        else:
            stack.pop()
            if not stack: return "lost", nodes
            s2, c2, i2, info2 = stack[-1]
            K.undo_move(gcfg, g, gkeys, int(gbuf[s2 + i2 - 1]), info2)
    else:
        res = "unknown"
    while len(stack) > 1:                      # undo back to the root
        stack.pop(); s2, c2, i2, info2 = stack[-1]
        K.undo_move(gcfg, g, gkeys, int(gbuf[s2 + i2 - 1]), info2)
    return res, nodes
def project():
    g.piles[:] = 0; g.lens[:] = 0
    free = [piles[r, i] for r in range(nres) for i in range(lens[r])] + [piles[w, i] for i in range(lens[w]) if orig[i] < 0]
    for j, c in enumerate(free): g.piles[j, 0] = c; g.lens[j] = 1
    keep = [piles[w, i] for i in range(lens[w]) if orig[i] >= 0]
    g.piles[32, :len(keep)] = keep; g.lens[32] = len(keep)
    g.piles[33, :lens[st]] = piles[st, :lens[st]]; g.lens[33] = lens[st]
    g.fnd[:] = fnd; g.scal[:] = scal
    hash_state(ad.kernel, gcfg, g, gkeys, g.h)
orig = [0]; saved = []
def apply(m, info, undo=False):
    k = kind_of(m)
    if k == K.K_DEAL:
        n = get_bits(info, K.DEAL_COUNT, 8)
        for j in range(n):
            if undo: orig.pop()
            else: orig.append(1)
        return
    if k == K.K_REDEAL: raise SystemExit("redeal reached")
    if dst_of(m) == PILE0 + w:
        if undo: orig.pop()
        else: orig.append(-1)
    elif src_of(m) == PILE0 + w:
        if undo: orig.append(saved.pop())
        else: saved.append(orig.pop())
buf = np.zeros(1 << 20, np.int32)
_m = int(K.encode(K.K_DEAL, 0, 0)); K.undo_move(cfg, state, keys, _m, K.make_move(cfg, state, keys, _m))
t = time.time()
stack = [(0, K.gen_moves(cfg, state, buf, 0, -1), 0, 0)]
seen = {(int(h[0]), int(h[1]))}; nodes = 0; new = 0
out = collections.defaultdict(collections.Counter); gn = collections.defaultdict(list)
project(); r0 = g0_search(B); print("root:", r0)
while stack and nodes < N:
    s, c, i, _ = stack[-1]
    if i < c:
        m = int(buf[s + i]); info = K.make_move(cfg, state, keys, m); nodes += 1
        stack[-1] = (s, c, i + 1, info)
        hh = (int(h[0]), int(h[1]))
        if hh in seen:
            K.undo_move(cfg, state, keys, m, info); continue
        apply(m, info); seen.add(hh); new += 1
        n = K.gen_moves(cfg, state, buf, s + c, m)
        if new % EVERY == 0 and lens[st] > 0:
            project(); res, gnodes = g0_search(B)
            b = int(lens[st]) // 8 * 8
            out[b][res + ("" if n else " (concrete leaf)")] += 1; gn[b].append(gnodes)
        stack.append((s + c, n, 0, 0))
    else:
        stack.pop()
        if stack:
            s2, c2, i2, info2 = stack[-1]
            m2 = int(buf[s2 + i2 - 1]); K.undo_move(cfg, state, keys, m2, info2); apply(m2, info2, undo=True)
print(f"game {game}: {nodes} concrete nodes, {time.time()-t:.1f}s; G0 budget {B}")
for b in sorted(out):
    print(f"  stock {b}-{b+7}: {dict(out[b])}  G0 nodes median {int(np.median(gn[b]))} max {max(gn[b])}")
# unwind the current path; G0 at ancestors
B2 = int(sys.argv[5]) if len(sys.argv) > 5 else B
last = -99
rows = []
while len(stack) > 1:
    stack.pop()
    s2, c2, i2, info2 = stack[-1]
    m2 = int(buf[s2 + i2 - 1]); K.undo_move(cfg, state, keys, m2, info2); apply(m2, info2, undo=True)
    if lens[st] >= last + 4 and len(rows) < int(sys.argv[6]):
        last = int(lens[st])
        if len(rows) >= int(sys.argv[7]):
            import g0_lazy as lazy; lazy.setup(1)
            F = {}
            for c in [piles[r, i] for r in range(nres) for i in range(lens[r])] + [piles[w, i] for i in range(lens[w]) if orig[i] < 0]:
                F[int(c)] = F.get(int(c), 0) + 1
            Wl = [int(piles[w, i]) for i in range(lens[w]) if orig[i] >= 0]
            Tl = [int(c) for c in piles[st, :lens[st]][::-1]]
            t2 = time.time(); rr = lazy.solve_lazy(Wl, Tl, F, fnd.copy(), int(scal[0]), B2)
            res, gnodes = rr[0] + " (lazy, %.1fs)" % (time.time() - t2), rr[1]
        else:
            res, gnodes = 'skip', 0
        rows.append((len(stack) - 1, int(lens[st]), int(lens[:nres].sum()), int(fnd.sum()), res, gnodes))
        if len(sys.argv) > 8 and int(lens[st]) == int(sys.argv[8]):
            from solver.state import KernelState
            from solver.search import run, CTRL_LEN, X_NODES, X_STORED, table_slots
            cs = KernelState(piles.copy(), lens.copy(), fnd.copy(), scal.copy(), h.copy(), np.zeros((3, 2), np.uint64))
            tt = np.zeros((table_slots(1 << 28), 2), np.uint64); fr = np.empty((100000, 4), np.int64)
            mv = np.empty(6400000, np.int32); ctrl = np.zeros(CTRL_LEN, np.int64); t1 = time.time()
            stt = run(ad.kernel, cfg, cs, keys, tt, fr, mv, ctrl, int(sys.argv[9]))
            print("concrete from stock", lens[st], "status", stt, "nodes", ctrl[X_NODES], "states", ctrl[X_STORED], "%.1fs" % (time.time() - t1))
for r in rows: print("  ancestor depth %d stock %d reserve %d home %d: G0 %s in %d nodes" % r)
