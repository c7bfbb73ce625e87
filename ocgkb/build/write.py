"""Writing the knowledge base: every table of the SQLite store from what the build
produced (`Built`), one function per group of tables."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ocgkb.build.added_docs import document_row
from ocgkb.build.card_forms import RememberedCardForms
from ocgkb.build.card_index import CardIndex
from ocgkb.build.mentions import CardMentions
from ocgkb.sources import manifest as sources
from ocgkb.sources.added import AddedSource, read_changes
from ocgkb.sources.dates import has_wiki_source
from ocgkb.sources.limits import LimitList
from ocgkb.sources.model import Edition, Passage, Section
from ocgkb.sources.ontology import Ontology
from ocgkb.store.schema import (
    CARD_COLUMNS,
    FAMILIES,
    FTS_FIELDS,
    PASSAGE_INDEX_COLUMNS,
    SCHEMA_VERSION,
    TABLES,
    create_fts,
    create_indexes,
    create_table,
    create_term_view,
    fts_table,
)
from ocgkb.text.name_forms import bare_form, latin_form, loose_form, name_grams
from ocgkb.text.normalize import Normalizer, traditional_characters

if TYPE_CHECKING:
    import sqlite_utils

    from ocgkb.build.pipeline import BuildReport


@dataclass
class Built:
    """Everything a build produced, ready to be written."""

    documents: list[sources.SourceDocument]
    texts: dict[str, str]
    sections: list[Section]
    passages: list[Passage]
    search_text: dict[str, str]
    dup_of: dict[str, str]
    names: CardMentions
    card_index: CardIndex
    dates: list[dict]
    ontology: Ontology
    concept_rows: list[dict]
    links: list[dict]
    fts_rows: list[dict]
    vocabulary: Counter
    normalize: Normalizer
    fingerprint: str
    synonyms: dict
    scenarios: list[dict]
    report: BuildReport
    limit_lists: list[LimitList] = field(default_factory=list)
    stat_signature: str = ""  # the inputs seen from outside: a cheap "nothing changed" (sources/inputs.py)
    editions: list[tuple[AddedSource, Edition]] = field(default_factory=list)  # the documentations added
    not_card_terms: list[str] = field(default_factory=list)  # kb/terms.yaml: what in 「」 is a term


def write(tmp: Path, built: Built) -> None:
    """The whole store into `tmp` (a fresh file: the caller renames it into place)."""
    import sqlite_utils

    tmp.unlink(missing_ok=True)
    db = sqlite_utils.Database(tmp)
    db.conn.execute("PRAGMA journal_mode=OFF")
    db.conn.execute("PRAGMA synchronous=OFF")
    for table in TABLES:
        db.conn.execute(create_table(table))
    for step in (
        _write_meta,
        _write_documents,
        _write_passages,
        _write_cards,
        _write_question_names,
        _write_general_use,
        _write_limits,
        _write_mentions,
        _write_concepts,
        _write_index,
    ):
        step(db, built)
    built.report.clock()  # the report the store keeps counts the write too
    db["meta"].insert(
        {"key": "report", "value": json.dumps(built.report.as_dict(), ensure_ascii=False)}, replace=True
    )
    db.conn.commit()
    # No VACUUM: the file is written once, fresh; compacting it costs 0.6 s for 3 % of its size.
    db.close()


def _write_meta(db: sqlite_utils.Database, built: Built) -> None:
    db["meta"].insert_all(
        [
            {"key": "schema_version", "value": SCHEMA_VERSION},
            {"key": "fingerprint", "value": built.fingerprint},
            {"key": "stat_signature", "value": built.stat_signature},
            {"key": "repairs", "value": json.dumps(built.normalize.repairs, ensure_ascii=False)},
            {"key": "traditional", "value": traditional_characters()},
            {"key": "synonyms", "value": json.dumps(built.synonyms, ensure_ascii=False)},
        ]
    )


def _write_documents(db: sqlite_utils.Database, built: Built) -> None:
    texts = built.texts
    db["documents"].insert_all(
        {
            "name": d.name,
            "file": d.file,
            "title": d.title,
            "description": d.description,
            "parser": d.parser,
            "sha256": sources.sha256_bytes(texts[d.name].encode("utf-8")),
            "lines": texts[d.name].count("\n") + 1,
            "kind": "seed",
        }
        for d in built.documents
    )
    db["documents"].insert_all(document_row(source, edition) for source, edition in built.editions)
    db["source_changes"].insert_all(
        {"source": source.name, "changes": json.dumps(changes, ensure_ascii=False)}
        for source, _ in built.editions
        if (changes := read_changes(source)) is not None
    )
    db["sections"].insert_all(
        (
            {"number": s.number, "title": s.title, "doc": s.doc, "parent": s.parent, "ord": i, "line": s.line}
            for i, s in enumerate(built.sections)
        )
    )


def _write_passages(db: sqlite_utils.Database, built: Built) -> None:
    files = {d.name: d.file for d in built.documents}
    fts_rows = built.fts_rows
    _insert(
        db,
        "passages",
        (
            {
                "rowid": i,
                "id": p.id,
                "doc": p.doc,
                "file": p.file or files[p.doc],
                "kind": p.kind,
                "section": p.section,
                "topic": p.topic,
                "line": p.line,
                "line_end": p.line_end,
                "text": p.text,
                "search_text": built.search_text[p.id],
                "parent": p.parent,
                "dup_of": built.dup_of.get(p.id),
                "flags": json.dumps(p.flags, ensure_ascii=False) if p.flags else None,
                "source_note": p.source_note
                or ("wiki" if p.doc == "rulings" and has_wiki_source(p.text) else None),
                "citations": json.dumps(p.citations, ensure_ascii=False) if p.citations else None,
                **{field: fts_rows[i - 1][field] for field in PASSAGE_INDEX_COLUMNS},
            }
            for i, p in enumerate(built.passages, 1)
        ),
    )
    _index(db, "passages")
    _insert(db, "dates", built.dates)
    _index(db, "dates")


def _write_cards(db: sqlite_utils.Database, built: Built) -> None:
    index = built.card_index
    cards = list(_card_rows(built.names, index))
    columns = list(CARD_COLUMNS)
    db.conn.executemany(
        f"INSERT INTO cards ({', '.join(f'[{c}]' for c in columns)}) VALUES ({', '.join('?' * len(columns))})",
        ([row.get(c) for c in columns] for row in cards),
    )
    _index(db, "cards")
    # 100k rows: a plain executemany, without sqlite-utils' per-value type checks.
    forms = RememberedCardForms()
    db.conn.executemany(
        "INSERT INTO card_names (form, card, how) VALUES (:form, :card, :how)",
        filter(None, _card_name_rows(cards, index, forms)),
    )
    _index(db, "card_names")
    # Which name forms hold each character (each letter triple for Latin forms):
    # a typo search reads only the forms that share enough of the query's.
    forms_of: dict[str, list[int]] = defaultdict(list)  # gram → its form ids, ascending
    for form_id, form, how in db.conn.execute("SELECT id, form, how FROM card_names ORDER BY id"):
        if how not in ("initials", "pinyin", "kana"):  # found whole: a typo there is rare
            for gram in name_grams(form):
                forms_of[gram].append(form_id)
    # In key order: appending to the index is 5× faster than inserting at random;
    # sorting the 11k grams, not the 400k pairs, saves a second, and one JSON list
    # of ids a gram, unpacked by SQLite, half the time of binding each pair.
    db.conn.executemany(
        "INSERT INTO card_grams SELECT ?, value FROM json_each(?)",
        ((gram, json.dumps(forms_of[gram])) for gram in sorted(forms_of)),
    )
    # Every Chinese character's reading, so a query can be compared by sound
    # (电器尾龙 → 电气尾龙) without loading pypinyin in the query process.
    db["char_pinyin"].insert_all({"char": c, "pinyin": p} for c, p in forms.readings().items())
    forms.save()


# The name forms a question is scanned for whole (ocgkb.query.named_cards).
QUESTION_NAME_HOWS = ("zh", "zh_official", "texts", "ja", "kana", "nickname")
MIN_QUESTION_NAME = 3  # characters of an unmentioned card's name, a nickname's two


SHORT_NICKNAME = 6  # an English nickname this short (Imperm, Evenly, MST) needs its capital


# A name the texts say as a word this many times more often than they name the card is a word.
WORD_NOT_CARD = 5


def _write_question_names(db: sqlite_utils.Database, built: Built) -> None:
    """Every card name a question may be scanned for, found whole: all forms of the
    cards the texts mention; of the others, the names no word of the texts or of
    jieba's dictionary, the ontology or the synonyms spell (副作用？ is a card,
    副作用 a word), and English names."""
    from ocgkb.text.tokenize import common_words

    forms, _ = built.ontology.stored_forms()
    terms = [*built.synonyms.get("synonyms", {}), *(f for names in forms.values() for f in names)]
    # Words, and the rule terms players say (灵摆区 is a term and a card's name).
    rule_terms = {loose_form(t) for t in [*terms, *built.not_card_terms]}
    words = set(common_words()) | set(built.vocabulary) | rule_terms
    marks = ",".join("?" * len(QUESTION_NAME_HOWS))
    rows = db.conn.execute(
        f"""SELECT n.form, n.card, n.how, c.mentions, c.name_en FROM card_names n JOIN cards c ON c.name = n.card
            WHERE n.how IN ({marks}, 'en') ORDER BY n.id""",
        QUESTION_NAME_HOWS,
    ).fetchall()

    # A name inside the name of a card the texts mention may mean that card
    # (黄金形态的隆隆隆石人 is 「隆隆隆石人-黄金形态」): not taken as another.
    inside_texts_cards = {
        form[i:j] for form, _, how, mentions, _ in rows if mentions and how != "en"
        for i in range(len(form)) for j in range(i + 2, len(form) + 1)
    }  # fmt: skip

    def kept(form: str, how: str, mentions: int) -> bool:
        if mentions:
            # A card the texts name whose name is a rule term (灵摆区 is Pendulum Area),
            # or a word they say far more often than they name the card (无效 is Muko,
            # 融合 Polymerization), is that card in a question only in 「」; 黑洞 stays Dark Hole.
            wordy = built.vocabulary.get(form, 0) > WORD_NOT_CARD * mentions
            return len(form) >= 2 and form not in rule_terms and not wordy
        short = len(form) < (2 if how == "nickname" else MIN_QUESTION_NAME)
        return not short and form not in words and form not in inside_texts_cards

    db.conn.executemany(
        "INSERT INTO question_names VALUES (?, ?, ?, ?, ?)",
        (
            (form, card, mentions, "en", int(len((name_en or "").split()) == 1))
            if how == "en"
            # An English nickname (Ash Blossom, Imperm): a short one may be a word or
            # an abbreviation, counted only when written with a capital, as one-word names.
            else (form, card, mentions, "en", 2 if len(form) <= SHORT_NICKNAME else 0)
            if form.isascii()
            else (form, card, mentions, "zh", 0)
            for form, card, how, mentions, name_en in rows
            if (how == "en" and len(form) >= 4)
            or (how == "nickname" and form.isascii() and len(form) >= 3)
            or (how != "en" and not form.isascii() and kept(form, how, mentions))
        ),
    )
    _index(db, "question_names")


def _write_general_use(db: sqlite_utils.Database, built: Built) -> None:
    """How often general Chinese uses each word of the texts (jieba's dictionary):
    天气 is common everywhere and rare in the rules, 连锁 the other way round; a
    question with no word of the rules' own is about something else."""
    from ocgkb.text.tokenize import common_words

    general = common_words()
    db.conn.executemany(
        "INSERT INTO general_use VALUES (?, ?)",
        sorted((t, general[t]) for t in built.vocabulary if general.get(t)),
    )
    db["meta"].insert({"key": "general_total", "value": str(sum(general.values()))})


def _write_limits(db: sqlite_utils.Database, built: Built) -> None:
    """The Forbidden & Limited lists: one row per list (`partial` when far shorter
    than its neighbours), one per card a list names, by the card's name here."""
    name_of = {}
    for name, password, alternates in db.conn.execute("SELECT name, password, alt_passwords FROM cards"):
        for pw in [password, *(int(a) for a in (alternates or "").split(",") if a)]:
            if pw is not None:
                name_of[pw] = name
    for lst in built.limit_lists:
        db.conn.execute(
            "INSERT INTO limit_lists VALUES (?, ?, ?, ?)",
            (lst.region, lst.effective, len(lst.limits), int(lst.partial)),
        )
        db.conn.executemany(
            "INSERT OR IGNORE INTO card_limits VALUES (?, ?, ?, ?, ?)",
            (
                (name_of.get(pw, str(pw)), lst.region, lst.effective, status, pw)
                for pw, status in sorted(lst.limits.items())
            ),
        )


def _write_mentions(db: sqlite_utils.Database, built: Built) -> None:
    names = built.names
    _insert(db, "passage_cards", ({"passage_id": p, "card": n, "how": h} for p, n, h in names.mentions))
    _index(db, "passage_cards")
    archetype_counts = Counter(name for _, name in names.archetype_mentions)
    db["archetypes"].insert_all(
        {"name": n, "mentions": archetype_counts[n]} for n in sorted(names.archetypes)
    )
    _insert(
        db, "passage_archetypes", ({"passage_id": p, "archetype": n} for p, n in names.archetype_mentions)
    )


def _write_concepts(db: sqlite_utils.Database, built: Built) -> None:
    ontology = built.ontology
    forms, keys = ontology.stored_forms()  # so a query process never normalises the ontology again
    db["concepts"].insert_all(
        {
            "id": c.id,
            "name_zh": c.name_zh,
            "name_en": c.name_en,
            "zh": json.dumps(c.zh, ensure_ascii=False),
            "en": json.dumps(c.en, ensure_ascii=False),
            "aliases": json.dumps(c.aliases, ensure_ascii=False),
            "forms": json.dumps(forms[c.id], ensure_ascii=False),
            "keys": json.dumps(keys[c.id], ensure_ascii=False),
            "not_in": json.dumps(ontology.not_in(c.id), ensure_ascii=False),
        }
        for c in ontology.concepts.values()
    )
    _insert(db, "passage_concepts", built.concept_rows)
    _index(db, "passage_concepts")
    db["scenarios"].insert_all(built.scenarios)
    _insert(db, "links", built.links)
    _index(db, "links")


def _write_index(db: sqlite_utils.Database, built: Built) -> None:
    family_of = {d.name: "seed" for d in built.documents}
    family_of.update({edition.name: "added" for _, edition in built.editions})
    fields = ", ".join(FTS_FIELDS)
    families = {}
    for family in FAMILIES:
        docs = [doc for doc, its in family_of.items() if its == family]
        rows = [
            row for p, row in zip(built.passages, built.fts_rows, strict=True) if family_of[p.doc] == family
        ]
        db.conn.execute(create_fts(family))
        marks = ", ".join("?" * len(docs))
        db.conn.execute(
            f"INSERT INTO {fts_table(family)}(rowid, {fields})"
            f" SELECT rowid, {fields} FROM passages WHERE doc IN ({marks})",
            docs,
        )
        # Merged into one segment: a question reads each term's postings in one piece (a quarter faster).
        db.conn.execute(f"INSERT INTO {fts_table(family)}({fts_table(family)}) VALUES ('optimize')")
        db.conn.execute(create_term_view(family))
        # BM25's length norm: the mean tokens per passage in each indexed field.
        average = {
            column: sum(len(row[column].split()) for row in rows) / max(len(rows), 1) for column in FTS_FIELDS
        }
        families[family] = {"passages": len(rows), "average_tokens": average}
    # How many passages hold each indexed term: the query leaves out the commonest.
    refresh_term_counts(db.conn)
    db["meta"].insert({"key": "families", "value": json.dumps(families)})
    vocabulary = built.vocabulary
    _insert(db, "vocabulary", ({"term": t, "df": n} for t, n in sorted(vocabulary.items())))
    db["meta"].insert({"key": "vocabulary_total", "value": str(sum(vocabulary.values()) or 1)})


def _card_rows(names: CardMentions, index: CardIndex):
    """One row per card: every card of the facts, and the real cards the texts name
    that the facts lack. A card the texts name keeps the texts' name; any other is
    named by its ygopro translation (two cards of one name get their password added)."""
    mention_counts = Counter(name for _, name, _ in names.mentions)
    text_name = {pw: name for name, pw in names.cards.items() if pw is not None}
    used = set(names.cards)
    rows = []
    for fact in index.facts.values():
        name = text_name.get(fact.password)
        if name is None:
            name = fact.display_name
            if name in used:
                name = f"{name} ({fact.password})"
            used.add(name)
        rows.append(_card_row(name, fact, mention_counts[name], names, index))
    for name, password in names.cards.items():
        if password is None:
            rows.append(_card_row(name, None, mention_counts[name], names, index))
    return sorted(rows, key=lambda r: r["name"])


def _card_row(name: str, fact, mentions: int, names: CardMentions, index: CardIndex) -> dict:
    row = fact.as_row() if fact else {"password": None}
    row["name_zh"] = row.pop("name_zh_ygopro", None)
    for key in ("atk", "def"):
        if row.get(key) is not None:
            row[key] = str(row[key])
    row.update(
        name=name,
        mentions=mentions,
        linked=names.how_linked.get(name) if mentions or name in names.cards else None,
        spellings=json.dumps(names.spellings.get(name, []), ensure_ascii=False),
        search_name=index.loose(name),
    )
    return row


def _card_name_rows(cards: list[dict], index: CardIndex, forms: RememberedCardForms):
    """Every form a person may type a card's name in, precomputed: the Chinese
    names (the texts', ygopro's, the official one), English, Japanese and its kana
    reading, pinyin and initials of the Chinese names, and players' nicknames."""
    # Cards the texts name get pypinyin's phrase-aware reading (重骑士 zhong);
    # the other 14k the first reading of each character, which is 30× faster.
    reading = forms.readings()
    by_password = {row["password"]: row["name"] for row in cards if row["password"] is not None}
    seen: set[tuple[str, str]] = set()

    def row(form: str, card: str, how: str):
        if form and (form, card) not in seen:
            seen.add((form, card))
            return {"form": form, "card": card, "how": how}
        return None

    def pinyin(text: str, phrases: bool) -> list[str]:
        if phrases:
            return forms.syllables(text)
        return [s for s in (reading.get(ch) or latin_form(ch) for ch in text) if s]

    for card in cards:
        name = card["name"]
        chinese = [("texts", s) for s in json.loads(card["spellings"])] + [
            ("zh", card.get("name_zh")),
            ("zh_official", card.get("name_zh_official")),
            ("zh", name),
        ]
        read: set[str] = set()  # a name written twice is this card's already: read once
        for how, text in chinese:
            if text and text not in read:
                read.add(text)
                yield row(index.loose(text), name, how)
                syllables = pinyin(bare_form(index.search_form(text)), phrases=card["mentions"] > 0)
                yield row("".join(syllables), name, "pinyin")
                if len(syllables) >= 2:
                    yield row("".join(s[0] for s in syllables), name, "initials")
        if card.get("name_en"):
            yield row(latin_form(card["name_en"]), name, "en")
        for how in ("name_ja", "name_ja_reading"):
            if card.get(how):
                yield row(index.loose(card[how]), name, "ja" if how == "name_ja" else "kana")
    for alias, password in index.aliases.aliases.items():
        fact = index.card(password)
        if fact and fact.password in by_password:
            yield row(index.loose(alias), by_password[fact.password], "texts")
    for nickname, password in index.aliases.nicknames.items():
        fact = index.card(password)
        if fact and fact.password in by_password:
            form = latin_form(nickname) if latin_form(nickname) == nickname.lower().replace(" ", "") else None
            yield row(form or index.loose(nickname), by_password[fact.password], "nickname")


def _insert(db: sqlite_utils.Database, table: str, rows: Iterable[dict]) -> None:
    """Rows into one of the schema's tables by a plain executemany: the large tables
    (passages, links, tags) without sqlite-utils' per-value checks, a second of a build."""
    columns = re.findall(r"(?:^|,)\s*(\w+) (?:TEXT|INTEGER)", TABLES[table])
    marks = ", ".join("?" * len(columns))
    db.conn.executemany(
        f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
        ([row.get(c) for c in columns] for row in rows),
    )


def _index(db: sqlite_utils.Database, table: str) -> None:
    """A table's indexes (schema.INDEXED), made once its rows are in."""
    for statement in create_indexes(table):
        db.conn.execute(statement)


def refresh_term_counts(conn) -> None:
    """A plain, indexed copy of how many passages of each family hold each term
    (the fts5vocab tables compute it on every read)."""
    conn.execute("DROP TABLE IF EXISTS term_counts")
    conn.execute(create_table("term_counts"))
    conn.execute(
        "INSERT INTO term_counts SELECT term, sum(seed), sum(added) FROM ("
        " SELECT term, doc AS seed, 0 AS added FROM seed_terms"
        " UNION ALL SELECT term, 0, doc FROM added_terms) GROUP BY term"
    )
