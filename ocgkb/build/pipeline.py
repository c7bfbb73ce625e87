"""Building the knowledge base: parse every source, link, index, write atomically.

The database is written beside its final place and renamed into it, so an
interrupted or failed build leaves the previous knowledge base as it was.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ocgkb import BuildError, OntologyError
from ocgkb import paths
from ocgkb.sources import manifest as sources
from ocgkb.sources.card_facts import read_card_facts
from ocgkb.build.card_index import CardAliases, CardIndex
from ocgkb.sources.curated import read_mapping
from ocgkb.sources.dates import find_dates, has_wiki_source
from ocgkb.build.mentions import CardMentions, collect_mentions
from ocgkb.sources.model import KINDS, ParsedDocument, Passage, Section
from ocgkb.text.name_forms import bare_form, latin_form, name_grams
from ocgkb.text.names import NameRules, card_token
from ocgkb.text.normalize import Normalizer, load_repairs, squash
from ocgkb.sources.ontology import Ontology
from ocgkb.sources.rulebook import read_rulebook
from ocgkb.text.tokenize import STOPWORDS, Segmenter, bigrams, latin_words
from ocgkb.sources.topics import read_topics

SCHEMA_VERSION = sources.SCHEMA_VERSION
Progress = Callable[[str], None]


@dataclass
class BuildReport:
    db_path: Path
    counts: dict[str, int] = field(default_factory=dict)
    duplicates: list[str] = field(default_factory=list)
    unresolved: list[str] = field(default_factory=list)
    damaged: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    unlinked: list[str] = field(default_factory=list)  # real cards the texts name without a password
    not_cards: list[str] = field(default_factory=list)  # in 「」, but neither a card nor an archetype
    seconds: float = 0.0

    def as_dict(self) -> dict:
        return {
            "db_path": str(self.db_path),
            "counts": self.counts,
            "duplicates": self.duplicates,
            "unresolved": self.unresolved,
            "damaged": self.damaged,
            "notes": self.notes,
            "unlinked_cards": self.unlinked,
            "not_cards": self.not_cards,
            "seconds": round(self.seconds, 3),
        }


BUILD_STEPS = ("read", "parse", "names", "concepts", "links", "duplicates", "index", "write")


def build(
    db_path: Path | None = None,
    data_dir: Path | None = None,
    kb_dir: Path | None = None,
    progress: Progress | None = None,
) -> BuildReport:
    """Build the knowledge base into `db_path` and return the build report."""
    started = time.perf_counter()
    db_path = Path(db_path or paths.default_db_path())
    data_dir = Path(data_dir or paths.data_dir())
    kb_dir = Path(kb_dir or paths.kb_dir())
    step = progress or (lambda name: None)
    report = BuildReport(db_path)

    step("read")
    documents = sources.read_manifest(data_dir)
    texts = {doc.name: doc.read() for doc in documents}
    for doc in documents:
        actual = sources.sha256_bytes(texts[doc.name].encode("utf-8"))
        if doc.sha256_expected and actual != doc.sha256_expected:
            report.notes.append(f"{doc.file} differs from the copy recorded in the manifest")
    normalize = Normalizer(load_repairs(kb_dir))
    ontology = Ontology.load(kb_dir, normalize)
    concept_terms = [t for c in ontology.concepts.values() for t in c.terms]
    rules = NameRules.load(kb_dir, concept_terms)
    synonyms = load_synonyms(kb_dir, normalize)
    card_index = CardIndex(
        read_card_facts(sources.card_facts_path(data_dir)), normalize, CardAliases.load(kb_dir)
    )

    step("parse")
    parsed = [_parse(doc, texts[doc.name]) for doc in documents]
    _check_whole(parsed, documents)
    for doc in parsed:
        for note in doc.notes:
            (report.duplicates if note.startswith("duplicate dropped") else report.notes).append(note)
    passages = [p for doc in parsed for p in doc.passages]
    sections = [s for doc in parsed for s in doc.sections]
    search_text = {p.id: normalize(p.text) for p in passages}
    for doc in documents:
        repaired = normalize.repaired_count(texts[doc.name])
        if repaired:
            report.damaged.append(f"{doc.file}: {repaired} corrupted characters repaired in the search form")
    for p in passages:
        if p.flags:
            report.damaged.append(f"{p.id} ({p.doc}:{p.line}): {', '.join(p.flags)}")

    step("names")
    names = collect_mentions(passages, search_text, rules, card_index, normalize)
    _report_cards(names, report)
    dates = _collect_dates(passages, names, card_index)

    step("concepts")
    titles = {s.number: s.title for s in sections}
    concept_rows = _tag_concepts(passages, search_text, titles, ontology, normalize)
    untagged = len({p.id for p in passages} - {row["passage_id"] for row in concept_rows})
    if untagged:
        report.notes.append(f"{untagged} passages name no concept of the ontology (etiquette, card anatomy…)")

    step("links")
    links = _links(parsed, passages, ontology, normalize, report)

    scenarios = _read_scenarios(kb_dir, {p.id for p in passages}, report)
    links += [
        {"src": f"scenario:{sc['name']}", "dst": f"passage:{pid}", "relation": "replays"}
        for sc in scenarios
        for pid in json.loads(sc["replays"])
        if pid in {p.id for p in passages}
    ]

    step("duplicates")
    repaired = {p.id for p in passages if normalize.repaired_count(p.text)}
    dup_of = _near_duplicates(passages, search_text, repaired)
    if dup_of:
        report.duplicates.append(
            f"{len(dup_of)} passages are near-twins of another and merged into it in search"
        )

    step("index")
    segmenter = Segmenter([*concept_terms, *names.cards])
    cards_of: dict[str, list[str]] = defaultdict(list)
    for pid, name, _ in names.mentions:
        cards_of[pid].append(card_token(squash(normalize(name))))
    asked = load_questions(kb_dir, {p.id for p in passages}, report)
    fts_rows, vocabulary = _index_rows(passages, search_text, titles, segmenter, normalize, cards_of, asked)

    report.counts = _counts(passages, sections, names, dates, ontology, concept_rows, links)
    report.seconds = time.perf_counter() - started

    step("write")
    tmp = db_path.with_name(f"{db_path.name}.building-{os.getpid()}")
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot write the knowledge base to {db_path}: {exc.strerror}") from None
    paths.remove_dead_builds(db_path)
    try:
        _write(
            tmp,
            documents=documents,
            texts=texts,
            sections=sections,
            passages=passages,
            search_text=search_text,
            dup_of=dup_of,
            names=names,
            card_index=card_index,
            dates=dates,
            concepts=ontology,
            concept_rows=concept_rows,
            links=links,
            fts_rows=fts_rows,
            vocabulary=vocabulary,
            normalize=normalize,
            fingerprint=sources.fingerprint(data_dir, kb_dir, SCHEMA_VERSION),
            synonyms=synonyms,
            scenarios=scenarios,
            report=report,
        )
        os.replace(tmp, db_path)
    except (OSError, sqlite3.Error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise BuildError(f"cannot write the knowledge base to {db_path}: {reason}") from None
    finally:
        with contextlib.suppress(OSError):  # clean-up must never hide why the build failed
            tmp.unlink(missing_ok=True)

    report.seconds = time.perf_counter() - started
    return report


def _check_whole(parsed: list[ParsedDocument], documents: list[sources.SourceDocument]) -> None:
    """A build that would drop a whole document fails and keeps the old knowledge base."""
    for doc, source in zip(parsed, documents, strict=True):
        if not doc.passages:
            raise BuildError(f"{source.file}: no passage could be read (is the file empty?); nothing rebuilt")
        numbered = [s for s in doc.sections if s.number != "0"]  # 0 holds the text before section 1
        if source.parser == "rulebook" and not numbered:
            raise BuildError(f"{source.file}: no numbered section could be read; nothing rebuilt")
        if source.parser == "rulings" and not any(p.kind == "ruling" for p in doc.passages):
            raise BuildError(f"{source.file}: no ruling could be read; nothing rebuilt")


def _parse(doc: sources.SourceDocument, text: str) -> ParsedDocument:
    if doc.parser == "rulebook":
        return read_rulebook(text, doc.name, doc.file, doc.title)
    kind = "ruling" if doc.parser == "rulings" else "paragraph"
    return read_topics(text, doc.name, doc.file, doc.title, kind, doc.headings)


def _collect_dates(passages: list[Passage], names: CardMentions, index: CardIndex) -> list[dict]:
    """Every date of every passage, with the card whose statement it closes."""
    rows = []
    for p in passages:
        for position, mention in enumerate(find_dates(p.text)):
            cards = (names.name_of(written, index) for written in mention.names)
            rows.append(
                {
                    "passage_id": p.id,
                    "date": mention.iso,
                    "raw": mention.raw,
                    "card": next((c for c in cards if c), None),
                    "position": position,
                }
            )
    return rows


def _report_cards(names: CardMentions, report: BuildReport) -> None:
    """How many of the texts' cards are linked to the card facts, and why the rest are not."""
    linked = sum(1 for pw in names.cards.values() if pw is not None)
    total = len(names.cards)
    report.notes.append(
        f"{linked} of {total} cards the texts name are linked to a password ({linked / max(total, 1):.1%})"
    )
    for name, reason in sorted(names.unlinked.items()):
        report.unlinked.append(f"{name}: {reason}")
    for written, count in sorted(names.not_cards.items()):
        report.not_cards.append(f"「{written}」 ×{count}")


def _tag_concepts(
    passages: list[Passage],
    search_text: dict[str, str],
    titles: dict[str, str],
    ontology: Ontology,
    normalize: Normalizer,
) -> list[dict]:
    """A passage is about a concept its text names (`text`), or that its section
    title names or whose defining sections hold it (`context`)."""
    defined_in: dict[str, set[str]] = defaultdict(set)
    for concept in ontology.concepts.values():
        for number in concept.sections:
            defined_in[number].add(concept.id)
    title_tags = {number: set(ontology.tag(normalize(title))) for number, title in titles.items()}
    rows = []
    tagged: dict[str, set[str]] = {}
    for p in passages:
        in_text = set(ontology.tag(search_text[p.id]))
        in_context = set()
        if p.section:
            in_context = title_tags.get(p.section, set()) | defined_in.get(p.section, set())
        if not in_text and not in_context and p.parent:
            # An example or note that names no concept is about what its ruling is about.
            in_context = tagged.get(p.parent, set())
        tagged[p.id] = in_text | in_context
        for cid in sorted(in_text | in_context):
            rows.append({"passage_id": p.id, "concept": cid, "how": "text" if cid in in_text else "context"})
    return rows


def _links(
    parsed: list[ParsedDocument],
    passages: list[Passage],
    ontology: Ontology,
    normalize: Normalizer,
    report: BuildReport,
) -> list[dict]:
    rows: list[dict] = []
    known_sections = {s.number for doc in parsed for s in doc.sections}
    for doc in parsed:
        for s in doc.sections:
            if s.parent:
                rows.append(
                    {"src": f"section:{s.parent}", "dst": f"section:{s.number}", "relation": "parent_of"}
                )
    relation_of = {"example": "illustrates", "subitem": "part_of", "note": "annotates"}
    for p in passages:
        if p.section:
            rows.append({"src": f"passage:{p.id}", "dst": f"section:{p.section}", "relation": "in_section"})
        if p.parent:
            rows.append(
                {
                    "src": f"passage:{p.id}",
                    "dst": f"passage:{p.parent}",
                    "relation": relation_of.get(p.kind, "part_of"),
                }
            )
    # 详见X / 见X: a topic or section titled X (in the same document first), else a concept named X.
    by_title: dict[tuple[str, str], str] = {}
    for doc in parsed:
        for s in doc.sections:
            by_title.setdefault((doc.name, squash(normalize(s.title))), s.number)
    documents = [doc.name for doc in parsed]
    for p in passages:
        for target in p.refs:
            key = squash(normalize(target))
            keys = [key, re.sub(r"类$", "", key)]
            number = next(
                (by_title[(d, k)] for d in [p.doc, *documents] for k in keys if (d, k) in by_title), None
            )
            concept = ontology.lookup(target)
            if number:
                rows.append({"src": f"passage:{p.id}", "dst": f"section:{number}", "relation": "refers_to"})
            elif concept:
                rows.append(
                    {"src": f"passage:{p.id}", "dst": f"concept:{concept.id}", "relation": "refers_to"}
                )
            elif "详见" in p.text or p.doc == "rulings":
                report.unresolved.append(f"{p.id} ({p.doc}:{p.line}): 见{target}")
    for concept in ontology.concepts.values():
        for other in concept.related:
            rows.append(
                {"src": f"concept:{concept.id}", "dst": f"concept:{other}", "relation": "related_concept"}
            )
        for number in concept.sections:
            if number in known_sections:
                rows.append(
                    {"src": f"concept:{concept.id}", "dst": f"section:{number}", "relation": "defined_in"}
                )
            else:
                report.unresolved.append(f"concept {concept.id}: section {number} does not exist")
    return rows


_MARKER = re.compile(r"^(?:[●•·]|例\s*[:：]|\d+\s*[.．、])\s*")


def _near_duplicates(
    passages: list[Passage], search_text: dict[str, str], repaired: set[str]
) -> dict[str, str]:
    """Passages that repeat one of another document (the phase guide inside the
    tournament text…): the later or weaker one points at the one to show.
    Ratio ≥ 96 on the search form without its bullet, for texts of 16 characters
    or more; within one document near-twins are distinct rules (额外卡组 / 副卡组
    each 至多15张) and are never merged."""
    from rapidfuzz import fuzz, process

    rank = {kind: i for i, kind in enumerate(KINDS)}
    # The copy to show: the stronger kind, then the undamaged text (the scraped
    # tournament text repeats the guide with corrupted characters), then the first.
    order = sorted(
        range(len(passages)), key=lambda i: (rank.get(passages[i].kind, 9), passages[i].id in repaired, i)
    )
    bodies = [_MARKER.sub("", squash(search_text[passages[i].id])) for i in order]
    dup_of: dict[str, str] = {}
    for a, body in enumerate(bodies):
        if len(body) < 16 or passages[order[a]].id in dup_of:
            continue
        for _, _, b in process.extract(body, bodies, scorer=fuzz.ratio, score_cutoff=96, limit=None):
            twin = passages[order[b]]
            if (
                b > a
                and len(bodies[b]) >= 16
                and twin.doc != passages[order[a]].doc
                and twin.id not in dup_of
            ):
                dup_of[passages[order[b]].id] = passages[order[a]].id
    return dup_of


def _index_rows(
    passages: list[Passage],
    search_text: dict[str, str],
    titles: dict[str, str],
    segmenter: Segmenter,
    normalize: Normalizer,
    cards_of: dict[str, list[str]],
    asked: dict[str, list[str]],
) -> tuple[list[dict], Counter]:
    """The four indexed fields of every passage, and the vocabulary with each
    word's document frequency. The words field also holds each card the passage
    names as one token, so a card name survives segmentation whole; the asked
    field holds the words of the curated questions the passage answers."""
    vocabulary: Counter = Counter()
    title_words: dict[str, list[str]] = {}
    rows = []
    for rowid, p in enumerate(passages, 1):
        text = search_text[p.id]
        words = segmenter.words(text) + [t for t in cards_of.get(p.id, []) if t]
        context_title = titles.get(p.section or "", "") if p.doc == "rulebook" else p.topic
        if context_title not in title_words:
            normal_title = normalize(context_title)
            title_words[context_title] = segmenter.words(normal_title) + bigrams(normal_title)
        context = title_words[context_title]
        # A passage's questions are read in one piece (a line each: no word or pair spans two).
        questions = normalize("\n".join(asked.get(p.id, [])))
        question_words = [w for w in segmenter.words(questions) if w not in STOPWORDS]
        vocabulary.update(set(words) | {w for w in context if len(w) >= 2} | set(question_words))
        # Their character pairs too: slang the vocabulary lacks (盖怪) still meets the same slang.
        question_words += bigrams(questions)
        rows.append(
            {
                "rowid": rowid,
                "words": " ".join(words),
                "grams": " ".join(bigrams(text) + latin_words(text)),
                "context": " ".join(context),
                "asked": " ".join(question_words),
            }
        )
    return rows, vocabulary


def _write(tmp: Path, **parts) -> None:
    import sqlite_utils

    tmp.unlink(missing_ok=True)
    db = sqlite_utils.Database(tmp)
    db.conn.execute("PRAGMA journal_mode=OFF")
    db.conn.execute("PRAGMA synchronous=OFF")
    report: BuildReport = parts["report"]
    texts: dict[str, str] = parts["texts"]
    normalize: Normalizer = parts["normalize"]

    db["meta"].insert_all(
        [
            {"key": "schema_version", "value": SCHEMA_VERSION},
            {"key": "fingerprint", "value": parts["fingerprint"]},
            {"key": "repairs", "value": json.dumps(normalize.repairs, ensure_ascii=False)},
            {"key": "synonyms", "value": json.dumps(parts["synonyms"], ensure_ascii=False)},
        ],
        pk="key",
    )
    db["documents"].insert_all(
        (
            {
                "name": d.name,
                "file": d.file,
                "title": d.title,
                "description": d.description,
                "parser": d.parser,
                "sha256": sources.sha256_bytes(texts[d.name].encode("utf-8")),
                "lines": texts[d.name].count("\n") + 1,
            }
            for d in parts["documents"]
        ),
        pk="name",
    )
    sections: list[Section] = parts["sections"]
    db["sections"].insert_all(
        (
            {"number": s.number, "title": s.title, "doc": s.doc, "parent": s.parent, "ord": i, "line": s.line}
            for i, s in enumerate(sections)
        ),
        pk="number",
    )
    passages: list[Passage] = parts["passages"]
    fts_rows: list[dict] = parts["fts_rows"]
    files = {d.name: d.file for d in parts["documents"]}
    db["passages"].insert_all(
        (
            {
                "rowid": i,
                "id": p.id,
                "doc": p.doc,
                "file": files[p.doc],
                "kind": p.kind,
                "section": p.section,
                "topic": p.topic,
                "line": p.line,
                "line_end": p.line_end,
                "text": p.text,
                "search_text": parts["search_text"][p.id],
                "parent": p.parent,
                "dup_of": parts["dup_of"].get(p.id),
                "flags": json.dumps(p.flags, ensure_ascii=False) if p.flags else None,
                "source_note": "wiki" if p.doc == "rulings" and has_wiki_source(p.text) else None,
                "words": fts_rows[i - 1]["words"],
                "grams": fts_rows[i - 1]["grams"],
                "context": fts_rows[i - 1]["context"],
                "asked": fts_rows[i - 1]["asked"],
            }
            for i, p in enumerate(passages, 1)
        ),
        pk="rowid",
        columns={"dup_of": str, "parent": str, "flags": str, "source_note": str, "section": str},
    )
    db["passages"].create_index(["id"], unique=True)
    db["dates"].insert_all(parts["dates"], columns={"card": str})
    db["dates"].create_index(["passage_id"])
    db["dates"].create_index(["date"])

    names: CardMentions = parts["names"]
    index: CardIndex = parts["card_index"]
    cards = list(_card_rows(names, index))
    db["cards"].create(_CARD_COLUMNS, pk="name")
    columns = list(_CARD_COLUMNS)
    db.conn.executemany(
        f"INSERT INTO cards ({', '.join(f'[{c}]' for c in columns)}) VALUES ({', '.join('?' * len(columns))})",
        ([row.get(c) for c in columns] for row in cards),
    )
    db["cards"].create_index(["password"])
    # 100k rows: a plain executemany, without sqlite-utils' per-value type checks.
    db.conn.execute("CREATE TABLE card_names (id INTEGER PRIMARY KEY, form TEXT, card TEXT, how TEXT)")
    db.conn.executemany(
        "INSERT INTO card_names (form, card, how) VALUES (:form, :card, :how)",
        filter(None, _card_name_rows(cards, index)),
    )
    db["card_names"].create_index(["form"])
    db["card_names"].create_index(["card"])
    # The names of the cards the texts discuss, in one piece: every question is
    # scanned for them, and a process reads this once instead of joining 100k rows.
    texts_forms = db.conn.execute(
        """SELECT n.form, n.card FROM card_names n JOIN cards c ON c.name = n.card
           WHERE c.mentions > 0 AND n.how NOT IN ('pinyin', 'initials', 'kana', 'en')
           ORDER BY c.mentions DESC, n.card, n.form"""
    ).fetchall()
    english = db.conn.execute(
        "SELECT name, name_en FROM cards WHERE mentions > 0 AND name_en IS NOT NULL ORDER BY name"
    ).fetchall()
    chinese: dict[str, str] = {}
    for form, card in texts_forms:
        if not form.isascii():
            chinese.setdefault(form, card)
    english_words = [[" ".join(re.findall(r"[a-z0-9]+", name.lower())), card] for card, name in english]
    english_words += [[form, card] for form, card in texts_forms if form.isascii() and len(form) >= 3]
    db["meta"].insert(
        {
            "key": "question_card_forms",
            "value": json.dumps({"chinese": chinese, "english": english_words}, ensure_ascii=False),
        }
    )
    # Which name forms hold each character (each letter triple for Latin forms):
    # a typo search reads only the forms that share enough of the query's.
    db.conn.execute(
        "CREATE TABLE card_grams (gram TEXT, form_id INTEGER, PRIMARY KEY (gram, form_id)) WITHOUT ROWID"
    )
    grams = sorted(  # in key order: appending to the index is 5× faster than inserting at random
        (gram, form_id)
        for form_id, form, how in db.conn.execute("SELECT id, form, how FROM card_names").fetchall()
        if how not in ("initials", "pinyin", "kana")  # found whole: a typo there is rare
        for gram in name_grams(form)
    )
    db.conn.executemany("INSERT INTO card_grams VALUES (?, ?)", grams)
    db["char_pinyin"].insert_all(_char_pinyin_rows(), pk="char")
    db["passage_cards"].insert_all(
        ({"passage_id": pid, "card": name, "how": how} for pid, name, how in names.mentions)
    )
    db["passage_cards"].create_index(["card"])
    db["passage_cards"].create_index(["passage_id"])
    archetype_counts = Counter(name for _, name in names.archetype_mentions)
    db["archetypes"].insert_all(
        ({"name": n, "mentions": archetype_counts[n]} for n in sorted(names.archetypes)), pk="name"
    )
    db["passage_archetypes"].insert_all(
        ({"passage_id": pid, "archetype": name} for pid, name in names.archetype_mentions)
    )

    ontology: Ontology = parts["concepts"]
    forms, keys = ontology.stored_forms()  # so a query process never normalises the ontology again
    db["concepts"].insert_all(
        (
            {
                "id": c.id,
                "name_zh": c.name_zh,
                "name_en": c.name_en,
                "zh": json.dumps(c.zh, ensure_ascii=False),
                "en": json.dumps(c.en, ensure_ascii=False),
                "aliases": json.dumps(c.aliases, ensure_ascii=False),
                "related": json.dumps(c.related),
                "sections": json.dumps(c.sections),
                "forms": json.dumps(forms[c.id], ensure_ascii=False),
                "keys": json.dumps(keys[c.id], ensure_ascii=False),
            }
            for c in ontology.concepts.values()
        ),
        pk="id",
    )
    db["passage_concepts"].insert_all(parts["concept_rows"])
    db["passage_concepts"].create_index(["concept"])
    db["passage_concepts"].create_index(["passage_id"])
    db["scenarios"].insert_all(
        parts["scenarios"], pk="name", columns={"name": str, "file": str, "title": str, "replays": str}
    )
    db["links"].insert_all(parts["links"])
    db["links"].create_index(["src"])
    db["links"].create_index(["dst"])

    # The index reads its three fields from the passages table (external content),
    # so ranking reads them from a plain table and the text is stored once.
    db.conn.execute(
        "CREATE VIRTUAL TABLE passage_fts USING fts5(words, grams, context, asked, content='passages',"
        " content_rowid='rowid', tokenize='unicode61 remove_diacritics 0')"
    )
    db.conn.execute("INSERT INTO passage_fts(passage_fts) VALUES ('rebuild')")
    # How many passages hold each indexed term: the query leaves out the commonest.
    db.conn.execute("CREATE VIRTUAL TABLE passage_terms USING fts5vocab(passage_fts, 'row')")
    refresh_term_counts(db.conn)
    average = {
        column: sum(len(row[column].split()) for row in fts_rows) / max(len(fts_rows), 1)
        for column in ("words", "grams", "context", "asked")
    }
    db["meta"].insert({"key": "average_tokens", "value": json.dumps(average)})
    vocabulary: Counter = parts["vocabulary"]
    db["vocabulary"].insert_all(({"term": t, "df": n} for t, n in sorted(vocabulary.items())), pk="term")
    db["meta"].insert({"key": "vocabulary_total", "value": str(sum(vocabulary.values()) or 1)})
    db["meta"].insert(
        {"key": "report", "value": json.dumps(report.as_dict(), ensure_ascii=False)}, replace=True
    )
    db.conn.commit()
    # No VACUUM: the file is written once, fresh; compacting it costs 0.6 s for 3 % of its size.
    db.close()


_CARD_COLUMNS = {
    "name": str,
    "password": int,
    "konami_id": int,
    "name_zh": str,
    "name_zh_official": str,
    "name_en": str,
    "name_ja": str,
    "name_ja_reading": str,
    "card_type": str,
    "type_line": str,
    "property": str,
    "attribute": str,
    "level": int,
    "rank": int,
    "link_arrows": str,
    "pendulum_scale": int,
    "atk": str,
    "def": str,
    "alt_passwords": str,
    "mentions": int,
    "linked": str,
    "spellings": str,
    "search_name": str,
    "pinyin": str,
    "initials": str,
}


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


def _card_name_rows(cards: list[dict], index: CardIndex):
    """Every form a person may type a card's name in, precomputed: the Chinese
    names (the texts', ygopro's, the official one), English, Japanese and its kana
    reading, pinyin and initials of the Chinese names, and players' nicknames."""
    from pypinyin import Style, lazy_pinyin

    # Cards the texts name get pypinyin's phrase-aware reading (重骑士 zhong);
    # the other 14k the first reading of each character, which is 30× faster.
    reading = {row["char"]: row["pinyin"] for row in _char_pinyin_rows()}
    by_password = {row["password"]: row["name"] for row in cards if row["password"] is not None}
    seen: set[tuple[str, str]] = set()

    def row(form: str, card: str, how: str):
        if form and (form, card) not in seen:
            seen.add((form, card))
            return {"form": form, "card": card, "how": how}
        return None

    def pinyin(text: str, phrases: bool) -> list[str]:
        if phrases:
            return [s for s in map(latin_form, lazy_pinyin(text, style=Style.NORMAL, errors="default")) if s]
        return [s for s in (reading.get(ch) or latin_form(ch) for ch in text) if s]

    for card in cards:
        name = card["name"]
        chinese = [("texts", s) for s in json.loads(card["spellings"])] + [
            ("zh", card.get("name_zh")),
            ("zh_official", card.get("name_zh_official")),
            ("zh", name),
        ]
        for how, text in chinese:
            if text:
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


def _read_scenarios(kb_dir: Path, passage_ids: set[str], report: BuildReport) -> list[dict]:
    """The replay scenarios of kb/scenarios/ and the passages they replay. A file
    that cannot be read is reported, not fatal: `ocgkb replay` names its fault."""
    import yaml

    rows = []
    for path in sorted((kb_dir / "scenarios").glob("*.yaml")):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
            title, replays = str(data["title"]), [str(r) for r in data.get("replays") or []]
        except (OSError, UnicodeDecodeError, yaml.YAMLError, TypeError, KeyError) as exc:
            report.notes.append(f"scenario {path.name} is not readable: {str(exc).splitlines()[0]}")
            continue
        for pid in replays:
            if pid not in passage_ids:
                report.unresolved.append(f"scenario {path.name}: replays unknown passage {pid}")
        rows.append(
            {
                "name": path.stem,
                "file": path.name,
                "title": title,
                "replays": json.dumps(replays, ensure_ascii=False),
            }
        )
    return rows


def refresh_term_counts(conn) -> None:
    """A plain, indexed copy of how many passages hold each term (the fts5vocab
    table computes it on every read)."""
    conn.execute("DROP TABLE IF EXISTS term_counts")
    conn.execute("CREATE TABLE term_counts (term TEXT PRIMARY KEY, doc INTEGER) WITHOUT ROWID")
    conn.execute("INSERT INTO term_counts SELECT term, doc FROM passage_terms")


def _char_pinyin_rows():
    """Every Chinese character's toneless reading, so a query can be compared by
    sound (电器尾龙 → 电气尾龙) without loading pypinyin in the query process."""
    import unicodedata

    from pypinyin.pinyin_dict import pinyin_dict

    for code in sorted(pinyin_dict):
        if 0x3400 <= code <= 0x9FFF:
            reading = pinyin_dict[code].split(",")[0]
            plain = "".join(c for c in unicodedata.normalize("NFD", reading) if not unicodedata.combining(c))
            yield {"char": chr(code), "pinyin": plain.replace("ü", "v").lower()}


def load_questions(kb_dir: Path, passage_ids: set[str], report: BuildReport) -> dict[str, list[str]]:
    """kb/questions/*.yaml: the questions each passage answers, as people ask them.
    A question naming a passage that does not exist is reported, not indexed."""
    asked: dict[str, list[str]] = {}
    for path in sorted((kb_dir / "questions").glob("*.yaml")):
        for pid, questions in read_mapping(path).items():
            if str(pid) not in passage_ids:
                report.unresolved.append(f"questions/{path.name}: no passage {pid}")
                continue
            if not isinstance(questions, list):
                raise OntologyError(f"{path}: {pid}: expected a list of questions")
            asked.setdefault(str(pid), []).extend(str(q) for q in questions if str(q).strip())
    return asked


def load_synonyms(kb_dir: Path, normalize: Normalizer) -> dict:
    """kb/synonyms.yaml in search form: `synonyms` (how people ask → the texts'
    words) and `ignore` (question words not worth searching); and kb/glossary.yaml:
    `glossary` (English game vocabulary → the texts' words, matched as whole words)."""
    from ocgkb.text.glossary import Glossary

    data = read_mapping(kb_dir / "synonyms.yaml", missing_ok=True)
    glossary = read_mapping(kb_dir / "glossary.yaml", missing_ok=True).get("glossary") or {}
    try:
        synonyms = {
            squash(normalize(str(k))): [str(t) for t in v or []]
            for k, v in (data.get("synonyms") or {}).items()
        }
        ignore = sorted(
            {squash(normalize(str(w))) for w in data.get("ignore") or []}
            | {str(w).lower() for w in data.get("ignore_english") or []}
        )
        english = {str(k).lower(): [str(t) for t in v or []] for k, v in glossary.items()}
        slang = {
            "verbs": {str(k): [str(t) for t in v or []] for k, v in (data.get("slang_verbs") or {}).items()},
            "before": [str(w) for w in data.get("slang_before") or []],
            "after": [str(w) for w in data.get("slang_after") or []],
        }
    except (AttributeError, TypeError) as exc:
        raise OntologyError(f"cannot read {kb_dir}/synonyms.yaml or glossary.yaml: {exc}") from exc
    # Stored read to use: the query side never lemmatizes the glossary's own keys.
    return {"synonyms": synonyms, "ignore": ignore, "glossary": Glossary(english).stored(), "slang": slang}


def _counts(passages, sections, names, dates, ontology, concept_rows, links) -> dict[str, int]:
    counts: dict[str, int] = dict(Counter(p.kind for p in passages))
    counts["passages"] = len(passages)
    counts["sections"] = sum(1 for s in sections if s.doc == "rulebook")
    counts["topics"] = sum(1 for s in sections if s.doc != "rulebook")
    counts["cards"] = len(names.cards)
    counts["cards linked"] = sum(1 for pw in names.cards.values() if pw is not None)
    counts["archetypes"] = len(names.archetypes)
    counts["dated rulings"] = len({row["passage_id"] for row in dates})
    counts["dates"] = len(dates)
    counts["concepts"] = len(ontology.concepts)
    counts["concept tags"] = len(concept_rows)
    counts["links"] = len(links)
    counts["scenarios"] = len({row["src"] for row in links if row["relation"] == "replays"})
    return counts
