"""The Alhambra family's configuration slots (``cfg`` after the shared ones of
``solver.toolkit``) and scalar slot, shared by its kernel and its relaxation."""

from solver.toolkit import C_FAMILY0

(C_NRES, C_NWASTE, C_STOCK, C_ANY, C_REDEALS, C_FIRSTDEAL, C_STOP3, C_REINF,
 C_REINF_IMM) = range(C_FAMILY0, C_FAMILY0 + 9)
CFG_LEN = C_FAMILY0 + 9

S_REDEALS = 0                     # scal slot: redeals used
