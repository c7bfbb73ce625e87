"""What a build reads, seen from outside: the list of input files, their stat
signature (checked by every command's start) and their fingerprint (hashed only
when the signature changed). Kept apart from the manifest's reader so that a
command's start loads neither its document model nor a hash library."""

from __future__ import annotations

import os

from ocgkb.paths import StrPath, plain


def _listed(folder: StrPath, suffix: str = "", files_only: bool = False) -> list[str]:
    """The paths in a folder ending in `suffix`, in name order, the folder spelled
    alike whether a command or the build names it (os.scandir and strings: no
    pathlib on a command's start-up path)."""
    try:
        with os.scandir(folder) as entries:
            names = [e.name for e in entries if e.name.endswith(suffix) and (not files_only or e.is_file())]
    except (FileNotFoundError, NotADirectoryError):
        return []
    base = plain(folder)
    return [os.path.join(base, name) for name in sorted(names)]


def input_files(data_dir: StrPath, kb_dir: StrPath) -> list[str]:
    """Every file a build reads: the corpus folder, the curated files and the
    rulings documentations the user added (each one's source.json names the hash
    of every file kept, and changes.json what its last update changed)."""
    from ocgkb.paths import sources_dir

    files = _listed(data_dir, files_only=True)
    # Every curated file, found by listing kb/: a new one is an input without being declared.
    files += _listed(kb_dir, ".yaml", files_only=True)
    for folder in ("scenarios", "questions"):
        files += _listed(os.path.join(kb_dir, folder), ".yaml")
    for source in _listed(sources_dir()):
        if not os.path.basename(source).startswith("."):  # a copy being written or removed
            files += [os.path.join(source, name) for name in ("source.json", "changes.json")]
    return files


def fingerprint(data_dir: StrPath, kb_dir: StrPath, schema_version: str) -> str:
    """One hash over everything a build reads; a change in any of it means rebuild.
    It hashes bytes and parses nothing."""
    import hashlib  # OpenSSL's load is a tenth of a query's start-up; only this and builds hash

    digest = hashlib.sha256(schema_version.encode())
    for path in input_files(data_dir, kb_dir):
        digest.update(os.path.basename(path).encode())
        try:
            with open(path, "rb") as handle:
                digest.update(hashlib.sha256(handle.read()).digest())
        except OSError:
            digest.update(b"<missing>")
    return digest.hexdigest()


def stat_signature(data_dir: StrPath, kb_dir: StrPath, schema_version: str) -> str:
    """What the files a build reads look like from outside (name, size, modification
    time): while it is unchanged, so is the fingerprint, and no byte need be hashed.
    A file touched but not changed only costs the full check. Kept as plain text
    (a few kilobytes), so that a command's start loads no hash library."""
    parts = [schema_version]
    for path in input_files(data_dir, kb_dir):
        try:
            stat = os.stat(path)
            parts.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
        except OSError:
            parts.append(f"{path}\0<missing>")
    return "\n".join(parts)
