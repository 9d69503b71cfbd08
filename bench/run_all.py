"""Run every benchmark once with short settings and print their figures (`make bench`).

Each benchmark is its own script (see README "Measured figures"); this just runs them in turn.
The network benchmarks start their own brokers on 127.0.0.1.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUICK_ARGS = {
    "_speed.py": ["3"],
    "_bots.py": ["200"],
}


def main() -> int:
    failed = 0
    for script in sorted(HERE.glob("*.py")):
        if script.name in ("run_all.py",) or script.name.startswith("_"):
            continue
        args = next((a for suffix, a in QUICK_ARGS.items() if script.name.endswith(suffix)), [])
        print(f"== {script.name} {' '.join(args)}", flush=True)
        done = subprocess.run([sys.executable, str(script), *args], cwd=HERE.parent)
        failed += done.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
