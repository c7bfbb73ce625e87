"""The card facts: every card's password, its names in every language, its type
line and stats (rulings_data/card_facts.jsonl.xz, described in manifest.yaml).

Facts only. Alternate artworks (the same Konami id under two passwords) are one
card, kept under the lower password.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

from ocgkb import SourceError
from ocgkb.sources.manifest import read_json_lines

LANGUAGES = ("zh", "zh_official", "en", "ja")


@dataclass(frozen=True)
class CardFact:
    password: int
    konami_id: int | None = None
    name_zh_ygopro: str | None = None
    name_zh_official: str | None = None
    name_en: str | None = None
    name_ja: str | None = None
    name_ja_reading: str | None = None
    card_type: str | None = None
    type_line: str | None = None
    property_: str | None = None  # Normal, Quick-Play, Continuous… for spells and traps
    attribute: str | None = None
    level: int | None = None
    rank: int | None = None
    link_arrows: str | None = None
    pendulum_scale: int | None = None
    atk: int | str | None = None
    def_: int | str | None = None
    alt_passwords: tuple[int, ...] = ()

    @property
    def display_name(self) -> str:
        """The name to show for a card the texts never write: the translation the texts use first."""
        return self.name_zh_ygopro or self.name_zh_official or self.name_en or str(self.password)

    def names(self) -> dict[str, str | None]:
        return {
            "zh": self.name_zh_ygopro,
            "zh_official": self.name_zh_official,
            "en": self.name_en,
            "ja": self.name_ja,
            "ja_reading": self.name_ja_reading,
        }

    def as_row(self) -> dict:
        row = {name: getattr(self, name) for name in self.__dataclass_fields__}
        row["def"] = row.pop("def_")
        row["property"] = row.pop("property_")
        row["alt_passwords"] = ",".join(map(str, self.alt_passwords)) or None
        return row


def _fact(record: dict) -> CardFact:
    record = dict(record)
    record["def_"] = record.pop("def", None)
    record["property_"] = record.pop("property", None)
    if isinstance(record.get("link_arrows"), list):
        record["link_arrows"] = ",".join(record["link_arrows"])
    known = CardFact.__dataclass_fields__
    return CardFact(**{k: v for k, v in record.items() if k in known})


def read_card_facts(path: Path) -> list[CardFact]:
    """Every card of the facts file (`.jsonl` or `.jsonl.xz`), alternate artworks merged."""
    records = read_json_lines(path, "card facts")
    if not records or not all(isinstance(r, dict) and isinstance(r.get("password"), int) for r in records):
        raise SourceError(f"card facts malformed: {path} (every line needs an integer password)")
    # Alternate artworks share a Konami id: one card under the lower password,
    # each field taken from the first artwork that has it.
    groups: dict[object, list[dict]] = {}
    for record in sorted(records, key=lambda r: r["password"]):
        key = record.get("konami_id") or ("password", record["password"])
        groups.setdefault(key, []).append(record)
    facts = []
    for group in groups.values():
        merged: dict = {}
        for record in group:
            for key, value in record.items():
                merged.setdefault(key, value)
        fact = _fact(merged)
        if len(group) > 1:
            fact = CardFact(**{**asdict(fact), "alt_passwords": tuple(r["password"] for r in group[1:])})
        facts.append(fact)
    return sorted(facts, key=lambda f: f.password)
