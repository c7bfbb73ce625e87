"""The corpus on disk: the manifest and reading each document (what a build reads,
seen from outside, is sources/inputs.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ocgkb import SourceError

MANIFEST = "manifest.yaml"
PARSERS = ("rulebook", "rulings", "article")


@dataclass(frozen=True)
class SourceDocument:
    file: str
    name: str
    parser: str
    title: str
    description: str
    headings: str
    layout: str  # how a line's place is read: indented, outline or paragraphs (sources/topics.py)
    sha256_expected: str
    path: Path

    def read(self) -> str:
        """The text, or a one-line SourceError naming the file."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            raise SourceError(f"source file missing: {self.path}") from None
        except OSError as exc:
            raise SourceError(f"source file unreadable: {self.path} ({exc.strerror})") from None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise SourceError(f"source file is not UTF-8: {self.path} (byte {exc.start})") from None


def _manifest(data_dir: Path) -> dict:
    """rulings_data/manifest.yaml's mapping; a one-line SourceError when it cannot be read."""
    from ocgkb import yamlio

    path = data_dir / MANIFEST
    try:
        data = yamlio.load(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SourceError(f"no corpus manifest at {path}") from None
    except (OSError, UnicodeDecodeError, yamlio.YAMLError) as exc:
        raise SourceError(f"corpus manifest unreadable: {path}: {str(exc).splitlines()[0]}") from None
    return data if isinstance(data, dict) else {}


def read_manifest(data_dir: Path) -> list[SourceDocument]:
    path = data_dir / MANIFEST
    data = _manifest(data_dir)
    entries = data.get("documents")
    if not isinstance(entries, list) or not entries:
        raise SourceError(f"corpus manifest {path} lists no documents")
    documents = []
    for entry in entries:
        if not isinstance(entry, dict) or not entry.get("file") or entry.get("parser") not in PARSERS:
            raise SourceError(f"corpus manifest {path}: bad entry {entry!r:.80}")
        documents.append(
            SourceDocument(
                file=str(entry["file"]),
                name=str(entry.get("name") or Path(entry["file"]).stem),
                parser=str(entry["parser"]),
                title=str(entry.get("title") or entry["file"]),
                description=str(entry.get("description") or ""),
                headings=str(entry.get("headings") or "blank-after"),
                layout=str(
                    entry.get("layout")
                    or ("indented" if entry.get("headings") in (None, "blank-after") else "paragraphs")
                ),
                sha256_expected=str(entry.get("sha256") or ""),
                path=data_dir / str(entry["file"]),
            )
        )
    return documents


def card_facts_path(data_dir: Path) -> Path:
    """The card facts file the manifest names (`cards: file:`)."""
    return _data_file(data_dir, "cards", "card facts")


def limit_lists_path(data_dir: Path) -> Path | None:
    """The Forbidden & Limited lists the manifest names (`limits: file:`), or None."""
    return _data_file(data_dir, "limits", "limit lists", required=False)


def _data_file(data_dir: Path, key: str, what: str, required: bool = True) -> Path | None:
    data = _manifest(data_dir)
    entry = data.get(key)
    if not isinstance(entry, dict) or not entry.get("file"):
        if not required:
            return None
        raise SourceError(f"corpus manifest {data_dir / MANIFEST} names no {what} ({key}: file:)")
    return data_dir / str(entry["file"])


def read_json_lines(path: Path, what: str) -> list:
    """The records of a JSON Lines file, plain or xz-compressed (`.jsonl.xz`); a
    missing or unreadable file is a one-line SourceError naming `what`."""
    import json
    import lzma

    try:
        raw = lzma.decompress(path.read_bytes()) if path.suffix == ".xz" else path.read_bytes()
        return [json.loads(line) for line in raw.decode("utf-8").splitlines() if line.strip()]
    except FileNotFoundError:
        raise SourceError(f"{what} missing: {path}") from None
    except (OSError, lzma.LZMAError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SourceError(f"{what} unreadable: {path} ({str(exc).splitlines()[0]})") from None


def sha256_bytes(data: bytes) -> str:
    import hashlib  # OpenSSL's load is a tenth of a query's start-up; only builds hash

    return hashlib.sha256(data).hexdigest()
