"""The algerian family: reference rules engine (rules.py) and numba kernel."""
