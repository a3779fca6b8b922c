"""The Alhambra family (Alhambra, Granada, The Reinforcements), all in this folder:
``family.py`` declares it (options, defaults, dominance rules, miniature shapes),
``layout.py`` deals it, ``rules.py`` is its reference engine, ``kernel.py`` its numba
kernel with ``hooks.py`` the contract's Python half, ``slots.py`` and ``flags.py`` (each
rule's proof) beside them; the prunes and proofs of loss each in a module of their own
(``stock_order.py``, ``relaxed.py``, ``projection.py``, ``late_refills.py``,
``schedule/``), and the searches for wins' plan (``beam_order.py``)."""
