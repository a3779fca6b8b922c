"""Text rendering of layouts and positions for people."""

from __future__ import annotations

from solver import cards
from solver.layout import PHASE_CHOOSE_BASE, Layout

_GROUP_LABEL = {"reserves": ("Reserves", "r"), "tableau": ("Tableau", "t"), "waste": ("Waste", "w")}


def _row(p) -> str:
    return " ".join(cards.text(c) for c in p) if p else "(empty)"


def render_layout(layout: Layout, title: str = "", extra: str = "") -> str:
    """Piles bottom to top (the rightmost card is the top, the one that can move)."""
    lines = []
    if title:
        lines.append(title)
    if extra:
        lines.append(extra)
    fnd = "  ".join(f"f{i}:{_row(p[-1:]) if p else '--'}" + (f"({len(p)})" if len(p) > 1 else "")
                    for i, p in enumerate(layout.foundations))
    lines.append(f"Foundations (top card, count): {fnd}")
    for g in ("reserves", "tableau", "waste"):
        piles = getattr(layout, g)
        if not piles:
            continue
        label, letter = _GROUP_LABEL[g]
        lines.append(f"{label} (bottom -> top):")
        for i, p in enumerate(piles):
            lines.append(f"  {letter}{i}: {_row(p)}")
    lines.append(f"Stock ({len(layout.stock)} cards, dealing order, next card first):")
    lines.append("  " + (_row(layout.stock) if layout.stock else "(empty)"))
    if layout.phase == PHASE_CHOOSE_BASE:
        lines.append("Awaiting the base choice: move one of the tableau cards to a foundation; the next "
                     "stock cards then fill that pile, the empty piles and the waste.")
    return "\n".join(lines)
