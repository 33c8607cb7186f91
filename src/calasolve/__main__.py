"""``python -m calasolve`` and the ``calasolve`` command: the command line, started so that even its
own import (a memory limit can stop it) ends as one line and exit status 2, never a traceback."""

import os
import sys


def run() -> None:
    """Import the command line and run it."""
    # numpy's BLAS has only small products here (the learned players' forward passes), which its thread pool
    # slows when the workers already fill the cores; without it numpy also loads under a tighter memory limit
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        from .cli import main
    except MemoryError:
        sys.stderr.write("calasolve: error: out of memory while starting\n")
        sys.exit(2)
    except ImportError as exc:  # a compiled module that cannot be mapped under the limit
        sys.stderr.write(f"calasolve: error: cannot load {exc.name or 'a module'} while starting\n")
        sys.exit(2)
    except KeyboardInterrupt:
        sys.stderr.write("calasolve: interrupted\n")
        sys.exit(130)
    main()


if __name__ == "__main__":
    run()
