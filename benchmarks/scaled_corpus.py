"""A knowledge base scaled to many more passages, grown the way a real corpus grows.

Joining halves of real passages (the first version of this benchmark) multiplies
every term's frequency by the same factor and never adds a word, so each real
term looks ~57 × commoner than it would in a real corpus of that size. Here each
extra *shard* is the real corpus re-lexicalised:

- Common words (in at least COMMON_SHARE of the passages: 效果, 发动, 怪兽) are kept,
  so their frequency grows with the corpus, as it would.
- Every other word is, per shard, either kept or swapped for one of a few invented
  alternatives (rare CJK Extension A characters, never in the texts). The number of
  alternatives follows Heaps' law (vocabulary ∝ corpus size ** HEAPS_BETA), so the
  vocabulary grows with the corpus and a rare term recurs only now and then.
- Text, bigrams, titles and curated questions are rewritten with the same swaps;
  cards, dates and concept tags are carried over or re-drawn; term counts, the
  segmentation vocabulary and the mean field lengths are recomputed.

A question's answer is still the real passage, so recall over the scaled base
says how ranking copes when common words are common and rare words are not unique.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

from ocgkb.build.write import refresh_term_counts
from ocgkb.store.database import KnowledgeBase
from ocgkb.text.tokenize import bigrams

COMMON_SHARE = 0.02
HEAPS_BETA = 0.55
INVENTED = [chr(c) for c in range(0x3400, 0x4DB6)]
FIELDS = "rowid, id, doc, file, kind, section, topic, line, line_end, text, search_text, parent, dup_of, flags, words, context, asked"


class Lexicon:
    """Which word stands for each real word in each shard."""

    def __init__(self, common: set[str], shards: int, seed: int) -> None:
        self.common = common
        self.alternatives = max(1, round(shards**HEAPS_BETA))
        self.rng = random.Random(seed)
        self.pool: dict[str, list[str]] = {}
        self.choice: dict[tuple[int, str], str] = {}

    def word(self, shard: int, term: str) -> str:
        if term in self.common or not term.strip():
            return term
        key = (shard, term)
        if key not in self.choice:
            pool = self.pool.get(term)
            if pool is None:
                pool = self.pool[term] = [term] + [self._invent(term) for _ in range(self.alternatives)]
            self.choice[key] = self.rng.choice(pool)
        return self.choice[key]

    def _invent(self, term: str) -> str:
        if term.isascii():
            return "".join(self.rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in term)
        return "".join(self.rng.choice(INVENTED) for _ in term)


def scaled_copy(kb: KnowledgeBase, target: Path, size: int, seed: int = 7) -> Path:
    """A copy of `kb` at `target` grown to `size` passages; returns `target`."""
    shutil.copy(kb.path, target)
    conn = sqlite3.connect(target)
    conn.row_factory = sqlite3.Row
    rows = [dict(r) for r in conn.execute(f"SELECT {FIELDS} FROM passages ORDER BY rowid")]
    n = len(rows)
    df = Counter(t for r in rows for t in set(r["words"].split()))
    common = {t for t, c in df.items() if c >= COMMON_SHARE * n}
    shards = max(0, math.ceil((size - n) / n))
    lexicon = Lexicon(common, shards, seed)
    rng = random.Random(seed)
    card_names = [r[0] for r in conn.execute("SELECT name FROM cards")]
    tags = _by_passage(conn, "SELECT passage_id, concept, how FROM passage_concepts")
    cards = _by_passage(conn, "SELECT passage_id, card, how FROM passage_cards")
    dates = _by_passage(conn, "SELECT passage_id, date, raw, card, position FROM dates")
    next_rowid = rows[-1]["rowid"] + 1
    added = 0
    vocabulary: Counter = Counter()
    for shard in range(1, shards + 1):
        new_passages, new_tags, new_cards, new_dates = [], [], [], []
        card_swap: dict[str, str] = {}
        for row in rows:
            if added >= size - n:
                break
            pid = _shard_id(shard, row["id"])
            new = _rewrite(row, shard, lexicon)
            new.update(
                rowid=next_rowid + added,
                id=pid,
                parent=_shard_id(shard, row["parent"]) if row["parent"] else None,
                dup_of=_shard_id(shard, row["dup_of"]) if row["dup_of"] else None,
            )
            new_passages.append(new)
            vocabulary.update(set(new["words"].split()) | {w for w in new["context"].split() if len(w) >= 2})
            new_tags += [(pid, *t) for t in tags.get(row["id"], [])]
            for card, how in cards.get(row["id"], []):
                if card not in card_swap:
                    card_swap[card] = (
                        card if rng.random() < 1 / (lexicon.alternatives + 1) else rng.choice(card_names)
                    )
                new_cards.append((pid, card_swap[card], how))
            for _, raw, card, position in dates.get(row["id"], []):
                date = f"{rng.randint(2000, 2026)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                new_dates.append((pid, date, raw, card_swap.get(card, card), position))
            added += 1
        _insert(conn, new_passages, new_tags, new_cards, new_dates)
    _refresh_statistics(conn, vocabulary)
    conn.commit()
    conn.close()
    return target


def _shard_id(shard: int, pid: str) -> str:
    return f"synthetic/{shard}/{pid}"


def _rewrite(row: dict, shard: int, lexicon: Lexicon) -> dict:
    """The passage in shard `shard`'s words: fields re-lexicalised, bigrams recomputed."""
    swap = {t: lexicon.word(shard, t) for t in set(row["words"].split()) | set(row["context"].split())}
    swap.update({t: lexicon.word(shard, t) for t in (row["asked"] or "").split()})
    text = row["search_text"]
    for term in sorted((t for t, s in swap.items() if s != t), key=len, reverse=True):
        text = text.replace(term, swap[term])
    new = dict(row)
    new["search_text"] = new["text"] = text
    new["words"] = " ".join(swap.get(t, t) for t in row["words"].split())
    new["context"] = " ".join(swap.get(t, t) for t in row["context"].split())
    new["asked"] = " ".join(swap.get(t, t) for t in (row["asked"] or "").split())
    new["grams"] = " ".join(bigrams(text))
    return new


def _by_passage(conn: sqlite3.Connection, sql: str) -> dict[str, list[tuple]]:
    found: dict[str, list[tuple]] = {}
    for row in conn.execute(sql):
        found.setdefault(row[0], []).append(tuple(row[1:]))
    return found


def _insert(conn, passages: list[dict], tags: list[tuple], cards: list[tuple], dates: list[tuple]) -> None:
    columns = [c.strip() for c in FIELDS.split(",")] + ["grams"]
    conn.executemany(
        f"INSERT INTO passages({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})",
        [[p[c] for c in columns] for p in passages],
    )
    conn.executemany(
        # The shards are the seeds' passages, re-lexicalised: the seeds' family.
        "INSERT INTO seed_fts(rowid, words, grams, context, asked) VALUES (?, ?, ?, ?, ?)",
        [(p["rowid"], p["words"], p["grams"], p["context"], p["asked"]) for p in passages],
    )
    conn.executemany("INSERT INTO passage_concepts(passage_id, concept, how) VALUES (?, ?, ?)", tags)
    conn.executemany("INSERT INTO passage_cards(passage_id, card, how) VALUES (?, ?, ?)", cards)
    conn.executemany("INSERT INTO dates(passage_id, date, raw, card, position) VALUES (?, ?, ?, ?, ?)", dates)


def _refresh_statistics(conn: sqlite3.Connection, added_vocabulary: Counter) -> None:
    """Term counts, the segmentation vocabulary and the mean field lengths, as a
    build of the scaled corpus would have computed them."""
    refresh_term_counts(conn)
    for term, count in added_vocabulary.items():
        conn.execute(
            "INSERT INTO vocabulary(term, df) VALUES (?, ?) ON CONFLICT(term) DO UPDATE SET df = df + ?",
            (term, count, count),
        )
    average = {
        column: conn.execute(
            f"SELECT avg(length({column}) - length(replace({column}, ' ', '')) + ({column} != ''))"
            " FROM passages"
        ).fetchone()[0]
        or 1.0
        for column in ("words", "grams", "context", "asked")
    }
    families = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'families'").fetchone()[0])
    passages = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
    families["seed"] = {"passages": passages, "average_tokens": average}
    conn.execute("UPDATE meta SET value = ? WHERE key = 'families'", (json.dumps(families),))
    total = conn.execute("SELECT sum(df) FROM vocabulary").fetchone()[0]
    conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES ('vocabulary_total', ?)", (str(total),))


def synthetic_share(ids: list[str]) -> float:
    return sum(i.startswith("synthetic/") for i in ids) / max(len(ids), 1)
