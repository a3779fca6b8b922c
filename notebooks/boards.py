"""Pictures of a board for the notebooks (matplotlib): each pile a row of cards, bottom card
first, the way `patience deal` prints it."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.patches import FancyBboxPatch

from solver import cards

SUITS = "♣♠♥♦"
RANKS = "A23456789TJQK"
STEP, WIDTH, HEIGHT = 0.42, 0.62, 0.8     # the offset between overlapping cards, a card's size


def _rows(pos, waste_shown: int) -> list[tuple[str, list[int], str]]:
    """(label, cards to draw, note) for every row of the picture."""
    rows = [("foundations", [p[-1] for p in pos.foundations if p],
             "heights " + " ".join(str(len(p)) for p in pos.foundations))]
    rows += [(f"r{i}", list(p), "") for i, p in enumerate(pos.reserves)]
    rows += [(f"t{i}", list(p), "") for i, p in enumerate(pos.tableau)]
    for i, p in enumerate(pos.waste):
        more = len(p) - waste_shown
        rows.append((f"w{i}", list(p[-waste_shown:]), f"+{more} below" if more > 0 else ""))
    rows.append(("stock", [], f"{len(pos.stock)} cards"))
    return rows


def _card(ax, x: float, y: float, c: int) -> None:
    red = cards.colour(c) == 1
    ax.add_patch(FancyBboxPatch((x, y), WIDTH, HEIGHT, boxstyle="round,pad=0.02,rounding_size=0.06",
                                facecolor="white", edgecolor="#555555", linewidth=0.8))
    ax.text(x + 0.05, y + HEIGHT - 0.08, RANKS[cards.rank(c) - 1] + SUITS[cards.suit(c)], ha="left", va="top",
            fontsize=8, color="#c0392b" if red else "black", family="DejaVu Sans")


def draw_board(pos, title: str = "", ax=None, waste_shown: int = 10):
    """Draw ``pos`` (a ``solver.engine.Position``); returns the axes."""
    rows = _rows(pos, waste_shown)
    longest = max([len(r[1]) for r in rows] + [8])
    if ax is None:
        _, ax = plt.subplots(figsize=(2.0 + 0.42 * longest, 0.42 * len(rows) + 0.6))
    for k, (label, row, note) in enumerate(rows):
        y = (len(rows) - 1 - k) * 1.0
        ax.text(-0.2, y + HEIGHT / 2, label, ha="right", va="center", fontsize=8)
        for i, c in enumerate(row):
            _card(ax, i * (WIDTH + 0.08 if label == "foundations" else STEP), y, c)
        if note:
            width = len(row) * (WIDTH + 0.08) if label == "foundations" else len(row) * STEP + WIDTH - STEP
            ax.text(max(width, 0) + 0.2, y + HEIGHT / 2, note, ha="left", va="center", fontsize=7, color="#555555")
    ax.set_xlim(-2.0, STEP * longest + 3.5)
    ax.set_ylim(-0.3, len(rows))
    ax.set_axis_off()
    if title:
        ax.set_title(title, fontsize=10, loc="left")
    return ax
