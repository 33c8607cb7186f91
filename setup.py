"""Build of the C extension ``calasolve.search._core`` (metadata is in pyproject.toml).

The extension is ``src/calasolve/search/_core.pyx`` plus the solver core in
``csrc/*.c`` (plain C11, no Python.h).  Flags: ``-O3 -std=c11 -Wall
-Wextra`` (portable: no -march).  ``CALASOLVE_DEBUG=1`` builds ``-O0 -g``
with AddressSanitizer and UBSan instead (run Python with
``LD_PRELOAD=$(gcc -print-file-name=libasan.so)`` to load it);
``CALASOLVE_STATS=1`` adds the detailed search counters (-DCS_STATS).
"""

import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent.resolve()
CSRC = sorted(str(p.relative_to(HERE)) for p in (HERE / "csrc").glob("*.c") if p.name != "test_core.c")

debug = os.environ.get("CALASOLVE_DEBUG") == "1"
stats = os.environ.get("CALASOLVE_STATS") == "1"

if sys.platform == "win32":
    compile_args = ["/O2"] if not debug else ["/Od", "/Zi"]
    link_args: list[str] = []
elif debug:
    compile_args = ["-O0", "-g", "-std=c11", "-Wall", "-Wextra", "-fsanitize=address,undefined",
                    "-fno-omit-frame-pointer"]
    link_args = ["-fsanitize=address,undefined"]
else:
    compile_args = ["-O3", "-std=c11", "-Wall", "-Wextra"]
    link_args = []

macros = [("CS_STATS", "1")] if stats else []

ext = Extension(
    "calasolve.search._core",
    sources=["src/calasolve/search/_core.pyx", *CSRC],
    include_dirs=["csrc"],
    define_macros=macros,
    extra_compile_args=compile_args,
    extra_link_args=link_args,
    # Rebuild when a header of the core changes.
    depends=sorted(str(p.relative_to(HERE)) for p in (HERE / "csrc").glob("*.h")),
)

setup(
    ext_modules=cythonize([ext], compiler_directives={"language_level": "3"}),
)
