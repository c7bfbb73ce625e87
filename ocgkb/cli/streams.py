"""Standard output and error that never end a command with a traceback: an
encoding that cannot hold the text (PYTHONIOENCODING=latin-1) gets '?' for what
it lacks, and an output that cannot be written (a full disk, /dev/full) is one
line on standard error."""

from __future__ import annotations

import atexit
import errno
import os
import sys
from typing import NoReturn


def tolerate_encoding() -> None:
    """Print what the streams' encoding can hold and replace the rest: cheaper
    than a UnicodeEncodeError on the first Chinese character."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            try:
                reconfigure(errors="replace")
            except (ValueError, OSError):  # a stream already detached or closed: leave it
                pass


# What a write to a full disk, a quota, a vanished terminal or a closed pipe says.
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE})


def _from_output(exc: OSError) -> bool:
    """Whether the error came from writing standard output: a file error names its
    file; a write to a stream that failed does not, and may fail again on a flush."""
    if exc.filename is not None:
        return False
    if exc.errno in _WRITE_ERRORS:
        return True
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        return True
    return False


class _Discard:
    """Standard output after it failed: what is still buffered is dropped, so the
    interpreter's flush at exit does not print a second error."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def fail(exc: OSError) -> None:
    """Say in one line on standard error why a command could not finish and exit 1
    (a closed pipe exits quietly, as `ocgkb … | head` should)."""
    broken = _from_output(exc)
    if broken:
        sys.stdout = _Discard(sys.stdout)
    if exc.errno == errno.EPIPE:
        sys.exit(1)
    where = "cannot write to standard output" if broken else exc.filename and _short(str(exc.filename))
    message = f"Error: {where}: {exc.strerror or exc}" if where else f"Error: {exc.strerror or exc}"
    try:
        print(message, file=sys.stderr, flush=True)
    except (OSError, ValueError):  # standard error is gone too: the exit code says it
        pass
    sys.exit(1)


def _short(text: str) -> str:
    """A file name for one line: a 5,000-character name is cut."""
    return text if len(text) <= 200 else f"{text[:100]}…{text[-60:]} ({len(text):,} characters)"


def exit_now(code: int | str | None) -> NoReturn:
    """End the command without tearing the interpreter down: freeing, one by one,
    the objects a question read from the knowledge base costs more than the
    question (15 ms of 110); the system frees them at once. The streams are
    flushed and the exit handlers run first, so nothing written is lost, and a
    stream that cannot be flushed ends as any failed write does."""
    if isinstance(code, str):  # sys.exit("message"): the message, then 1
        print(code, file=sys.stderr)
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError as exc:
        fail(exc)
    except ValueError:  # a stream already closed: the usual exit says what it can
        sys.exit(code)
    atexit._run_exitfuncs()
    os._exit(code or 0)
