"""Which files ocgkb may replace and how it reads one it was handed.

Running as root, a build that renames its file over `/dev/null` turns the device
into a 28 MB file, and reading `/dev/zero` whole never ends. So a path ocgkb
replaces must be missing, a regular file, or a symlink to one (the target is what
gets written, the link stays); and a file it reads is stat-ed first, refused when
it is not a regular file, and read no further than its limit.
"""

from __future__ import annotations

import errno
import os
import stat
from typing import TypeVar

from ocgkb import OcgkbError
from ocgkb.paths import StrPath

P = TypeVar("P", bound=StrPath)

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class UnsafePathError(OcgkbError):
    """A path ocgkb will not write or read: not a regular file, a symlink loop, a name too long."""


def kind_of(mode: int) -> str:
    """What a file is, in words, for a message."""
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _stat(path: StrPath) -> os.stat_result | None:
    """The stat of what `path` names, through symlinks; None when nothing is there."""
    try:
        return os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UnsafePathError(f"{short_path(path)}: a symlink loop; refusing to write it") from None
        raise UnsafePathError(f"{short_path(path)}: {exc.strerror}") from None


def short_path(path: StrPath) -> str:
    """A path for a one-line message: a 5,000-character name is cut."""
    text = str(path)
    return text if len(text) <= 200 else f"{text[:100]}…{text[-60:]} ({len(text):,} characters)"


def replaceable(path: P) -> P:
    """The file to write for `path`: itself when missing or a regular file, the
    target of a symlink (followed to its end), as the same kind of path (a
    command's str, the build's Path). Anything else, a device, a FIFO, a
    directory or a symlink loop, is refused before a byte is written."""
    info = _stat(path)
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise UnsafePathError(
            f"{short_path(path)} is {kind_of(info.st_mode)}, not a regular file; refusing to write there"
        )
    if os.path.islink(path):
        return type(path)(os.path.realpath(path))
    return path


def is_file(path: StrPath) -> bool:
    """Whether a regular file is at `path`, as pathlib's is_file says it: missing is
    False, but a name too long is an error (os.path.isfile says False to all)."""
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except OSError as exc:
        if exc.errno in (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP):
            return False
        raise


def owner_may_write(path: StrPath, info: os.stat_result) -> bool:
    """Whether the user may write an existing file. Root passes every access check,
    so for root the mode bits decide: a 0444 file is read-only for everyone."""
    if os.geteuid() == 0:
        return bool(info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    return os.access(path, os.W_OK)


def read_at_most(path: StrPath, limit: int) -> bytes:
    """A regular file's bytes, at most `limit + 1` of them (more means too big).
    A FIFO, a device or a folder is refused from its stat, never opened to wait."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode):
        raise UnsafePathError(f"{short_path(path)} is {kind_of(info.st_mode)}, not a regular file")
    # O_NONBLOCK: should a FIFO be swapped in after the stat, opening it does not wait.
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(handle).st_mode):
            raise UnsafePathError(f"{short_path(path)} is not a regular file")
        chunks, left = [], limit + 1
        while left > 0 and (chunk := os.read(handle, min(left, 1 << 16))):
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(handle)
