"""The core package works without the extra calasolve[env]: nothing but the adapters imports
PettingZoo or pyspiel, and the environment, its agents, the arena and the command run without them."""

from __future__ import annotations

import subprocess
import sys
import textwrap

#: A child Python in which pettingzoo, gymnasium and pyspiel cannot be imported.
WITHOUT_EXTRA = textwrap.dedent("""
    import sys
    class Refuse:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("pettingzoo", "gymnasium", "pyspiel", "open_spiel"):
                raise ImportError(f"no {name} here")
            return None
    sys.meta_path.insert(0, Refuse())
""")


def run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", WITHOUT_EXTRA + textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=300)


def test_the_environment_runs_without_the_extra() -> None:
    done = run("""
        import calasolve
        from calasolve.env import actions, agents, arena, game, observe
        from calasolve.cli import main
        results = list(arena.arena(arena.random_deals(1, 1), ("heuristic", "random"), seed=1))
        assert len(results) == 1
        assert not {"pettingzoo", "pyspiel", "gymnasium"} & set(sys.modules)
        try:
            import calasolve.env.pettingzoo
        except ImportError as err:
            print("refused:", err)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refused: no ")  # the adapter alone needs the extra


def test_importing_calasolve_imports_no_adapter() -> None:
    done = subprocess.run([sys.executable, "-c", "import sys, calasolve, calasolve.env, calasolve.cli; "
                           "print(sorted(m for m in sys.modules if m.startswith(('calasolve.env', 'pettingzoo', 'pyspiel'))))"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "['calasolve.env']", done.stdout + done.stderr
