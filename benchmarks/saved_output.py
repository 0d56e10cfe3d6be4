"""Save what a benchmark prints to a file, so the docs can quote it.

Every benchmark takes ``--save FILE``: it prints as usual and, when it ends,
writes the same output to FILE (by convention ``benchmarks/results/NAME.txt``)
after a first line with the command that produced it. ``tests/test_docs.py``
checks that every table the docs quote from such a file is in it, so a figure
in the docs cannot go stale unseen: rerun the benchmark with ``--save`` and
copy the new lines into the docs.
"""

import atexit
import io
import sys
from pathlib import Path

SAVE_HELP = "also write the output to this file (benchmarks/results/NAME.txt)"


class _Tee(io.TextIOBase):
    """Writes to the real standard output and keeps a copy."""

    def __init__(self, stream):
        self.stream = stream
        self.copy = io.StringIO()

    def write(self, text):
        self.copy.write(text)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


def command_line() -> str:
    """This run's command, with paths shortened to their last part (no machine's paths)."""
    words = [Path(sys.argv[0]).as_posix().split("benchmarks/")[-1]]
    words += [Path(arg).name if arg.startswith("/") else arg for arg in sys.argv[1:]]
    return "python benchmarks/" + " ".join(words)


def save_output(path: Path | None) -> None:
    """From now on, copy standard output; write it to ``path`` at exit (nothing if None)."""
    if path is None:
        return
    tee = _Tee(sys.stdout)
    sys.stdout = tee

    def write() -> None:
        sys.stdout = tee.stream
        path.write_text(f"$ {command_line()}\n\n{tee.copy.getvalue()}", encoding="utf-8")

    atexit.register(write)
