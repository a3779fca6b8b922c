"""Algerian Patience, all in this folder: ``family.py`` declares it, ``layout.py`` deals
it, ``rules.py`` is its reference engine, ``kernel.py`` its numba kernel with ``hooks.py``
the contract's Python half, ``slots.py`` and ``flags.py`` (each rule's proof) beside them."""
