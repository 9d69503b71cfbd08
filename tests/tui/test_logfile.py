"""The log file rotates: however much is logged, it stays within its files and sizes."""

from __future__ import annotations

import logging

import tui.logfile as logfile


def test_the_log_rotates_into_a_fixed_number_of_bounded_files(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GAMENIGHT_HOME", str(tmp_path))
    monkeypatch.setattr(logfile, "MAX_BYTES", 4096)
    root = logging.getLogger()
    ours = [h for h in root.handlers if getattr(h, "_gamenight", False)]
    level = root.level
    for handler in ours:
        root.removeHandler(handler)
    try:
        path = logfile.setup_logging()
        for i in range(2000):
            logging.getLogger("gamenight.net").info("drop on a topic: message %d is malformed", i)
        files = sorted(p.name for p in path.parent.glob("gamenight.log*"))
        assert files == ["gamenight.log", "gamenight.log.1", "gamenight.log.2", "gamenight.log.3"]
        assert all(p.stat().st_size <= 4096 for p in path.parent.glob("gamenight.log*"))
        assert "message 1999 is malformed" in path.read_text()
    finally:
        for handler in [h for h in root.handlers if getattr(h, "_gamenight", False)]:
            root.removeHandler(handler)
            handler.close()
        for handler in ours:
            root.addHandler(handler)
        root.setLevel(level)


def test_two_processes_rotating_one_log_print_nothing_on_the_terminal(tmp_path) -> None:
    """A relay and a player on one machine (or the SSH door's sessions) share the log: when
    both rotate it at once, logging's own error report (a traceback) must not reach the
    terminal, and the files stay four, each bounded. Before: ~50 tracebacks on each stderr."""
    import os
    import subprocess
    import sys

    code = ("import logging, tui.logfile as lf; lf.MAX_BYTES = 4096; lf.setup_logging(); "
            "log = logging.getLogger('gamenight.net'); "
            "[log.info('drop on a topic: message %d is malformed %s', i, 'x' * 80) for i in range(4000)]")
    env = dict(os.environ, GAMENIGHT_HOME=str(tmp_path))
    writers = [subprocess.Popen([sys.executable, "-c", code], env=env, stderr=subprocess.PIPE, text=True)
               for _ in range(2)]
    errors = [writer.communicate(timeout=120)[1] for writer in writers]
    assert errors == ["", ""]
    files = sorted((tmp_path / "data").glob("gamenight.log*"))
    assert [p.name for p in files] == ["gamenight.log", "gamenight.log.1", "gamenight.log.2", "gamenight.log.3"]
    assert all(p.stat().st_size <= 2 * 4096 for p in files)
