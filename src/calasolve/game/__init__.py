"""The game itself, the bottom layer: cards and their notation as tokens, the rules and their
variants, the play state and scoring, the exchange's rules, dealing the unseen cards, the
auction, match ledgers, argument limits, shared defaults and the error types.

Pure Python (plus numpy for dealing); imports nothing else of calasolve, and every other
layer may import it.
"""
