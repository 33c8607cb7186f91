"""``python -m calasolve``: the same as the ``calasolve`` command."""

from .cli import main

if __name__ == "__main__":
    main()
