"""Calabresella as an imperfect-information game for game-AI research (docs/env.md).

The whole deal as one episode: chance deals the cards, the auction in every variant, the
exchange's decisions, the 12 tricks and the game points as returns.  :mod:`~calasolve.env.actions`
is the one discrete action space, :mod:`~calasolve.env.game` the state machine (pure Python,
legal actions, chance outcomes, returns), :mod:`~calasolve.env.observe` what each seat has seen
(strings and fixed-size tensors), :mod:`~calasolve.env.agents` the baseline agents (random,
heuristic, PIMC, a double-dummy cheater), :mod:`~calasolve.env.arena` duplicate matches
between them.  :mod:`~calasolve.env.pettingzoo` (a PettingZoo AEC environment) and
:mod:`~calasolve.env.openspiel` (the ``python_calabresella`` game of pyspiel) are thin adapters
that need the extra ``calasolve[env]``; nothing here imports them.

Imports :mod:`calasolve.advice` (the exchange policies and the advisor the agents use),
:mod:`calasolve.play` and everything below; below :mod:`calasolve.seat` (the advice from a seat's view), the board and the command line.
"""
