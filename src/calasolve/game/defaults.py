"""Defaults that the library and the command line share (a light import; the limits
are in :mod:`calasolve.game.limits`).

>>> from calasolve.game.limits import MAX_SAMPLES
>>> DEFAULT_THIRDS_SAMPLES <= DEFAULT_SAMPLES <= MAX_SAMPLES
True
"""

#: The bid advisor's cap on samples per contract (with ``fixed``: the samples).
DEFAULT_SAMPLES = 400
#: The 95% half-width wanted on the recommended contract's P(make).
DEFAULT_PRECISION = 0.05
#: Samples of each contract that also get their exact final thirds (the mean thirds' n; the default advice
#: takes those of the deals it plays out, :data:`DEFAULT_PLAYED_DEALS`).
DEFAULT_THIRDS_SAMPLES = 24
#: The solver's transposition table, in MiB (the command line's ``--tt-mb``, the API's ``tt_mb``;
#: as fast as 64 on the benchmark suites, half the memory).
DEFAULT_TT_MB = 32
#: The payoff goal search's memo per process, in MiB (``solve --objective payoff`` and the
#: advisor alike): the searches at the extremes are memo-bound, and the memo is calloc'ed,
#: so it costs memory only where a search touches it.
DEFAULT_GOAL_MB = 128
#: ``advise --play pimc|both``: deals played out per contract (1-12 s of CPU each, so a hand's five
#: contracts take 2-11 minutes of CPU on the advise suite), and the PIMC players' layouts per decision.
DEFAULT_PLAY_SAMPLES = 16
DEFAULT_PLAY_PIMC_SAMPLES = 10
#: The default advice's played side: deals played out per contract (paired with their double-dummy
#: judgement) and the contract-minded players' layouts per decision (docs/advisor.md, "Played odds (the default)").
DEFAULT_PLAYED_DEALS = 8
DEFAULT_PLAYED_LAYOUTS = 8
#: Deals played out per contract by the learned players (``--players learned``): enough for P(make) within
#: 6 points at 95% wherever it lies (Clopper-Pearson at n = 300 is at most 5.8 points wide each way).
DEFAULT_LEARNED_DEALS = 300
#: The default advice's double-dummy race's cap (``--play dd``: :data:`DEFAULT_SAMPLES`): the played interval is
#: as wide as the deals played out leave it, so samples past this narrow it little (docs/advisor.md).
DEFAULT_PLAYED_RACE_SAMPLES = 64
#: The ``sampled`` soloist's exchange: candidates weighed, and re-deals of the unseen cards each is tested on.
DEFAULT_CANDIDATES = 4
DEFAULT_REDEALS = 4
#: The advice from a seat's view (docs/seat.md): deals played per option (a call or an exchange, and a card, whose
#: options are more and whose answer is wanted sooner), the first of them that also get each card's double-dummy
#: value (a search of the whole rest of the deal each), and the exchange candidates valued.
DEFAULT_SEAT_LAYOUTS = 200
DEFAULT_CARD_LAYOUTS = 100
DEFAULT_DD_LAYOUTS = 32
DEFAULT_SEAT_CANDIDATES = 6
#: The tricks the learned players search at the end of each play-out: the learned player's own (a call's
#: play-outs, as the hand advice's: eight, measured stronger than six at about the cost six had before its
#: decisions moved into the core), and an exchange's, within its time (docs/experiments.md).
DEFAULT_ENDGAME = 8
DEFAULT_EXCHANGE_ENDGAME = 3
