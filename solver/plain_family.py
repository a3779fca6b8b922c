"""The kernel contract's Python hooks (``solver.kernels``) for a family that has none of
the extras: no relaxation, no verdict from outside the search, no searches for wins and no
per-solve memo. A family without them imports these; one that has any defines its own."""

from __future__ import annotations


def relaxation_lost(cfg, state, cap: int, retry: bool) -> tuple[bool, int]:
    """A relaxation proving the position lost: none in this family."""
    return False, 0


def relaxation_moves(cfg, nodes: int) -> int:
    """Relaxed moves the root's relaxation may spend in a solve of ``nodes`` nodes: none in
    this family."""
    return 0


def root_verdict(cfg, rules, pos, seconds: float):
    """No verdict outside the search in this family: None."""
    return None


def win_plan(cfg, nodes: int) -> list:
    """No searches for wins after the search in this family: its searches decide or run out
    of nodes on deals no beam was measured to win."""
    return []


def memo_slots(cfg, nodes: int) -> int:
    """Rows of a per-solve memo (``state.memo``) for a solve of ``nodes`` nodes: none in
    this family."""
    return 0
