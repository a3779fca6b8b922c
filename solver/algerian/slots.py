"""Algerian Patience's configuration slots (``cfg`` after the shared ones of
``solver.toolkit``), shared by its kernel and its hooks."""

from solver.toolkit import C_FAMILY0

C_NRES, C_NTAB, C_WRAP, C_CELL, C_F2T, C_TRANSFER, C_STOCK = range(C_FAMILY0, C_FAMILY0 + 7)
CFG_LEN = C_FAMILY0 + 7

CELL_MODES = {"off": 0, "from_tableau": 1, "from_anywhere": 2}
