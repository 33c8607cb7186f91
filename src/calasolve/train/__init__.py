"""Training the learned card player (docs/play.md, "The learned player"): self-play data from the
contract-minded PIMC players (:mod:`~calasolve.train.data`), the fit (:mod:`~calasolve.train.fit`, PyTorch:
the ``train`` extra), and the one seeded command that does both, ``python -m calasolve.train``.

Nothing here runs when calasolve plays: the fitted weights ship with the package
(:data:`calasolve.play.learned.WEIGHTS`) and the player needs numpy alone.
"""
