"""Advice from what one seat sees, for the decision it faces (docs/seat.md).

- :mod:`.bidding`: the bidding model, the chance of each call given a hand and the calls so far;
- :mod:`.layouts`: deals consistent with a :class:`~calasolve.types.view.View`, weighted by the
  bidding model's chance of the other seats' calls;
- :mod:`.decision`: the decision a view faces and its options;
- :mod:`.advice`: each option valued by playing the rest of the deal out on those layouts;
- :mod:`.views`: what a seat of a game in progress knows, as a view;
- :mod:`.agent`: the table agent, which bids, exchanges and plays by that advice.
"""
