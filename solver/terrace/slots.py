"""The Terrace family's configuration slots (``cfg`` after the shared ones of
``solver.toolkit``), move kind, scalar slots, gap rules and undo-record layout, shared by
its kernel and its hooks."""

from solver.toolkit import C_FAMILY0

(C_NTAB, C_WASTE, C_STOCK, C_FP0, C_FSS, C_TSS, C_GAP, C_AUTOFILL, C_TAKEBACK, C_REDEALS, C_NOBASE,
 C_CHOICES, C_R2T) = range(C_FAMILY0, C_FAMILY0 + 13)
CFG_LEN = C_FAMILY0 + 13

K_BASE = 3
S_REDEALS, S_CHOOSE, S_BASE = 0, 1, 2

GAP_RULES = {"auto_waste": 0, "auto_stock": 1, "any_available": 2, "auto_reserve_first": 3, "waste_only": 4}
G_AUTO_WASTE, G_AUTO_STOCK, G_ANY, G_RESERVE_FIRST, G_WASTE_ONLY = range(5)
FROM_WASTE, FROM_RESERVE, FROM_STOCK = 1, 2, 3          # where an automatic gap fill took its card

# Undo records: the player's action in bits 0..12 (a redeal: the cards turned over; the base
# choice: a bit per tableau pile its opening deal dealt to, and bit 12 for the waste), then
# from bit 13 the automatic actions: a bit per tableau pile filled (T <= 12), 2 bits per pile
# for where its card came from, a bit per pile for "the waste was refilled just before this
# fill", and one bit for "refilled after the last fill". Two refills never follow each other
# (a refill needs an empty waste and leaves it non-empty), and fills go to the lowest empty
# pile, so this fixes the order in which the actions happened.
AUTO = 13
A_SRC, A_REFILL_BEFORE, A_REFILL_LAST = 12, 36, 48
