"""The terrace family: reference rules engine (rules.py) and numba kernel."""
