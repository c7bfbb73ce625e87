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
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ocgkb import BuildError, OntologyError, paths
from ocgkb.build.added_docs import edition_dates, edition_twins, read_editions, register_card_links
from ocgkb.build.card_index import CardAliases, CardIndex
from ocgkb.build.mentions import CardMentions, collect_mentions
from ocgkb.build.segments import RememberedSegmenter
from ocgkb.build.write import Built, write
from ocgkb.files import replaceable
from ocgkb.paths import Where
from ocgkb.sources import curated
from ocgkb.sources import manifest as sources
from ocgkb.sources.card_facts import read_card_facts
from ocgkb.sources.curated import read_mapping
from ocgkb.sources.dates import DATE, find_dates
from ocgkb.sources.inputs import fingerprint, stat_signature
from ocgkb.sources.limits import LimitList, read_limit_lists
from ocgkb.sources.model import ParsedDocument, Passage, Section
from ocgkb.sources.ontology import Ontology
from ocgkb.sources.rulebook import read_rulebook
from ocgkb.sources.topics import read_topics
from ocgkb.store.schema import (
    BELOW_RELATION,
    DEFINED_IN,
    IN_SECTION,
    PARENT_OF,
    PASSAGE_KINDS,
    REFERS_TO,
    RELATED_CONCEPT,
    REPLAYS,
    SCHEMA_VERSION,
)
from ocgkb.text.names import NameRules
from ocgkb.text.normalize import Normalizer, card_token, squash
from ocgkb.text.tokenize import STOPWORDS, Segmenter, bigrams, latin_words

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
    fallback_parents: list[str] = field(default_factory=list)  # passages whose parent no layout rule gave
    seconds: float = 0.0
    started: float = field(default_factory=time.perf_counter)

    def clock(self) -> None:
        """The time since the build started, as of now."""
        self.seconds = time.perf_counter() - self.started

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
            "fallback_parents": self.fallback_parents,
            "seconds": round(self.seconds, 3),
        }


BUILD_STEPS = ("read", "parse", "names", "concepts", "links", "duplicates", "index", "write")


def build(
    db_path: Where = None, data_dir: Where = None, kb_dir: Where = None, progress: Progress | None = None
) -> BuildReport:
    """Build the knowledge base into `db_path` and return the build report."""
    # Refused before the work, not after it: a device or FIFO is never replaced.
    db_path = replaceable(Path(db_path or paths.default_db_path()))
    data_dir = Path(data_dir or paths.data_dir())
    kb_dir = Path(kb_dir or paths.kb_dir())
    step = progress or (lambda name: None)
    report = BuildReport(db_path)

    step("read")
    scenarios = _read_scenarios(kb_dir)  # first: a broken one stops the build before the work
    inputs = _read_inputs(data_dir, kb_dir, report)
    step("parse")
    parsed: list[ParsedDocument] = [_parse(doc, inputs.texts[doc.name]) for doc in inputs.documents]
    _check_whole(parsed, inputs.documents)
    editions = read_editions()
    register_card_links(editions, inputs.card_index)
    parsed += [edition for _, edition in editions]
    passages, sections, search_text = _passages(parsed, inputs, report)
    inputs.synonyms["outside"] = _not_in_texts(inputs.synonyms["outside"], search_text.values())
    step("names")
    names = collect_mentions(passages, search_text, inputs.rules, inputs.card_index, inputs.normalize)
    _report_cards(names, report)
    dates = _collect_dates(passages, names, inputs.card_index)
    step("concepts")
    titles = {s.number: s.title for s in sections}
    concept_rows = _tag_concepts(passages, search_text, titles, inputs.ontology, inputs.normalize)
    untagged = len({p.id for p in passages} - {row["passage_id"] for row in concept_rows})
    if untagged:
        report.notes.append(f"{untagged} passages name no concept of the ontology (etiquette, card anatomy…)")
    step("links")
    links = _links(parsed, passages, inputs.ontology, inputs.normalize, report)
    _check_replays(scenarios, {p.id for p in passages}, report)
    links += _scenario_links(scenarios, {p.id for p in passages})
    step("duplicates")
    seeds = {doc.name for doc in inputs.documents}
    dup_of = _twins(passages, search_text, inputs.normalize, seeds, report)
    step("index")
    fts_rows, vocabulary = _index(passages, search_text, titles, names, inputs, kb_dir, seeds, report)
    report.counts = _counts(passages, sections, names, dates, inputs.ontology, concept_rows, links)
    step("write")
    built = Built(
        inputs.documents, inputs.texts, sections, passages, search_text, dup_of, names, inputs.card_index,
        dates, inputs.ontology, concept_rows, links, fts_rows, vocabulary, inputs.normalize,
        fingerprint(data_dir, kb_dir, SCHEMA_VERSION), inputs.synonyms, scenarios, report,
        inputs.limit_lists, stat_signature(data_dir, kb_dir, SCHEMA_VERSION), editions,
        sorted(inputs.rules.not_cards),
    )  # fmt: skip
    _write_in_place(db_path, built)
    report.clock()
    return report


@dataclass
class _Inputs:
    documents: list[sources.SourceDocument]
    texts: dict[str, str]
    normalize: Normalizer
    ontology: Ontology
    concept_terms: list[str]
    rules: NameRules
    synonyms: dict
    card_index: CardIndex
    limit_lists: list[LimitList]


def _read_inputs(data_dir: Path, kb_dir: Path, report: BuildReport) -> _Inputs:
    """The documents, the card facts, the limit lists and every curated file."""
    documents = sources.read_manifest(data_dir)
    texts = {doc.name: doc.read() for doc in documents}
    for doc in documents:
        actual = sources.sha256_bytes(texts[doc.name].encode("utf-8"))
        if doc.sha256_expected and actual != doc.sha256_expected:
            report.notes.append(f"{doc.file} differs from the copy recorded in the manifest")
    normalize = Normalizer(curated.repairs(kb_dir))
    ontology = Ontology.load(kb_dir, normalize)
    concept_terms = [t for c in ontology.concepts.values() for t in c.terms]
    card_index = CardIndex(
        read_card_facts(sources.card_facts_path(data_dir)), normalize, CardAliases.load(kb_dir)
    )
    limits_path = sources.limit_lists_path(data_dir)
    return _Inputs(
        documents, texts, normalize, ontology, concept_terms,
        curated.name_rules(kb_dir, concept_terms).with_card_terms(card_index.link),
        load_synonyms(kb_dir, normalize), card_index, read_limit_lists(limits_path) if limits_path else [],
    )  # fmt: skip


def _passages(
    parsed: list[ParsedDocument], inputs: _Inputs, report: BuildReport
) -> tuple[list[Passage], list[Section], dict[str, str]]:
    """Every passage and section, each passage in search form; what is damaged is reported."""
    for doc in parsed:
        for note in doc.notes:
            (report.duplicates if note.startswith("duplicate dropped") else report.notes).append(note)
        report.fallback_parents += doc.fallbacks
    passages = [p for doc in parsed for p in doc.passages]
    sections = [s for doc in parsed for s in doc.sections]
    search_text = {p.id: inputs.normalize(p.text) for p in passages}
    for doc in inputs.documents:
        repaired = inputs.normalize.repaired_count(inputs.texts[doc.name])
        if repaired:
            report.damaged.append(f"{doc.file}: {repaired} corrupted characters repaired in the search form")
    report.damaged += [f"{p.id} ({p.doc}:{p.line}): {', '.join(p.flags)}" for p in passages if p.flags]
    return passages, sections, search_text


def _scenario_links(scenarios: list[dict], passage_ids: set[str]) -> list[dict]:
    return [
        {"src": f"scenario:{sc['name']}", "dst": f"passage:{pid}", "relation": REPLAYS}
        for sc in scenarios
        for pid in json.loads(sc["replays"])
        if pid in passage_ids
    ]


def _twins(
    passages: list[Passage], search_text: dict[str, str], normalize: Normalizer, seeds: set[str], report
) -> dict[str, str]:
    """The seeds' near-twins across documents, then the added passages that repeat
    a seed's or their own edition's (build/added_docs.py), each → the one shown."""
    own = [p for p in passages if p.doc in seeds]
    dup_of = _near_duplicates(own, search_text, _damage(own, normalize))
    if dup_of:
        report.duplicates.append(
            f"{len(dup_of)} passages are near-twins of another and merged into it in search"
        )
    repeats = edition_twins(passages, search_text, seeds)
    if repeats:
        doc_of = {p.id: p.doc for p in passages}
        shared = sum(1 for twin in repeats.values() if doc_of[twin] in seeds)
        report.duplicates.append(
            f"{len(repeats)} passages of added documentations repeat another ({shared} a seed's):"
            " one passage, cited in each place"
        )
    dup_of.update({pid: dup_of.get(twin, twin) for pid, twin in repeats.items()})
    return dup_of


def _index(passages, search_text, titles, names: CardMentions, inputs: _Inputs, kb_dir: Path, seeds, report):
    """The indexed fields of every passage, and the segmentation vocabulary.

    The seeds are cut with the concept terms and the cards they name as words; an
    added documentation with those and the cards it names. So adding one neither
    changes how the seeds are cut nor makes their remembered cut useless."""
    ids_of: dict[str, set[str]] = defaultdict(set)
    for p in passages:
        ids_of[p.doc].add(p.id)
    cards_of: dict[str, list[str]] = defaultdict(list)
    for pid, name, _ in names.mentions:
        cards_of[pid].append(card_token(squash(inputs.normalize(name))))
    # The cards the seeds name, as the seeds write them: what the seeds' cut depends on.
    seed_cards = names.names_in({pid for doc in seeds for pid in ids_of[doc]})
    segmenters = {
        doc: RememberedSegmenter(
            Segmenter([*inputs.concept_terms, *seed_cards, *names.names_in(ids)]), name=doc
        )
        for doc, ids in ids_of.items()
        if doc not in seeds
    }
    seed_segmenter = RememberedSegmenter(Segmenter([*inputs.concept_terms, *seed_cards]))
    for doc in seeds:
        segmenters[doc] = seed_segmenter
    asked = load_questions(kb_dir, {p.id for p in passages}, report)
    indexed = _index_rows(passages, search_text, titles, segmenters, inputs.normalize, cards_of, asked)
    for segmenter in {id(s): s for s in segmenters.values()}.values():
        segmenter.save()
    return indexed


def _write_in_place(db_path: Path, built: Built) -> None:
    """Written beside and renamed in: a failed or interrupted build leaves the
    previous knowledge base as it was."""
    tmp = db_path.with_name(f"{db_path.name}.building-{os.getpid()}")
    try:
        db_path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BuildError(f"cannot write the knowledge base to {db_path}: {exc.strerror}") from None
    paths.remove_dead_builds(db_path)
    try:
        write(tmp, built)
        os.replace(tmp, replaceable(db_path))  # checked again: the build took seconds
    except (OSError, sqlite3.Error) as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise BuildError(f"cannot write the knowledge base to {db_path}: {reason}") from None
    finally:
        with contextlib.suppress(OSError):  # clean-up must never hide why the build failed
            tmp.unlink(missing_ok=True)


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
    return read_topics(text, doc.name, doc.file, doc.title, kind, doc.headings, doc.layout)


def _collect_dates(passages: list[Passage], names: CardMentions, index: CardIndex) -> list[dict]:
    """Every date of every passage, with the card whose statement it closes."""
    rows = []
    for p in passages:
        if p.file is not None:  # an added documentation's: its dated links say its dates
            rows += edition_dates(p, lambda written: names.name_of(written, index))
            continue
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
                    {"src": f"section:{s.parent}", "dst": f"section:{s.number}", "relation": PARENT_OF}
                )
    for p in passages:
        if p.section:
            rows.append({"src": f"passage:{p.id}", "dst": f"section:{p.section}", "relation": IN_SECTION})
        if p.parent:
            rows.append(
                {
                    "src": f"passage:{p.id}",
                    "dst": f"passage:{p.parent}",
                    "relation": BELOW_RELATION.get(p.kind, "part_of"),
                }
            )
    rows += _reference_links(parsed, passages, ontology, normalize, report)
    for concept in ontology.concepts.values():
        for other in concept.related:
            rows.append(
                {"src": f"concept:{concept.id}", "dst": f"concept:{other}", "relation": RELATED_CONCEPT}
            )
        for number in concept.sections:
            if number in known_sections:
                rows.append(
                    {"src": f"concept:{concept.id}", "dst": f"section:{number}", "relation": DEFINED_IN}
                )
            else:
                report.unresolved.append(f"concept {concept.id}: section {number} does not exist")
    return rows


def _reference_links(
    parsed: list[ParsedDocument], passages: list[Passage], ontology: Ontology, normalize: Normalizer, report
) -> list[dict]:
    """详见X / 见X / 参照“X”: a topic or section titled X (in the same document
    first), else a concept named X."""
    rows: list[dict] = []
    find_section = _section_finder(parsed, normalize)
    for p in passages:
        for target in p.refs:
            number = find_section(target, p.doc)
            concept = ontology.lookup(target)
            if number:
                rows.append({"src": f"passage:{p.id}", "dst": f"section:{number}", "relation": REFERS_TO})
            elif concept:
                rows.append({"src": f"passage:{p.id}", "dst": f"concept:{concept.id}", "relation": REFERS_TO})
            elif _EXPLICIT_REFERENCE.search(p.text) or p.doc == "rulings":
                report.unresolved.append(f"{p.id} ({p.doc}:{p.line}): 见{target}")
    return rows


# A reference that says it is one (the bare 见 of the wiki may be a plain verb).
_EXPLICIT_REFERENCE = re.compile(r"详见|参照|参见|参考")
# What a reference may leave out of the title it names: 怪物战斗规则 → 怪物的战斗规则.
_TITLE_PARTICLES = re.compile(r"[的之]")


def _section_finder(parsed: list[ParsedDocument], normalize: Normalizer) -> Callable[[str, str], str | None]:
    """Finds the section a reference names, in the referring document first: by
    its title as written, then without a trailing 类 (『得到』类), then without the
    particles 的/之 either side, then by a close likeness (ratio ≥ 85: one character in seven) of those."""
    from rapidfuzz import fuzz, process

    by_title: dict[tuple[str, str], str] = {}
    loose_titles: dict[str, dict[str, str]] = defaultdict(dict)  # doc → loose title → section
    for doc in parsed:
        for s in doc.sections:
            title = squash(normalize(s.title))
            by_title.setdefault((doc.name, title), s.number)
            loose_titles[doc.name].setdefault(_TITLE_PARTICLES.sub("", title), s.number)
    documents = [doc.name for doc in parsed]

    def find(target: str, doc: str) -> str | None:
        key = squash(normalize(target))
        keys = [key, re.sub(r"类$", "", key)]
        order = [doc, *documents]
        number = next((by_title[(d, k)] for d in order for k in keys if (d, k) in by_title), None)
        loose = _TITLE_PARTICLES.sub("", keys[-1])
        if number or len(loose) < 4:
            return number
        for d in order:
            if loose in loose_titles[d]:
                return loose_titles[d][loose]
        for d in order:
            best = process.extractOne(loose, list(loose_titles[d]), scorer=fuzz.ratio, score_cutoff=85)
            if best:
                return loose_titles[d][best[0]]
        return None

    return find


_MARKER = re.compile(r"^(?:[●•·]|例\s*[:：]|\d+\s*[.．、])\s*")


def _damage(passages: list[Passage], normalize: Normalizer) -> dict[str, tuple[bool, int, int]]:
    """How damaged each passage's text looks, least first: a damage flag, then how
    many of its characters are no standard simplified ones (the corruptions of
    kb/repairs.yaml, and variants such as 鬥 傷 壞 that only the search form folds),
    then how little punctuation it keeps (a scrape that lost its ，。 is the worse copy)."""
    chars = sorted({ch for p in passages for ch in p.text if _IDEOGRAPH.match(ch)})
    forms = normalize("\n".join(chars)).split("\n")  # one pass: no conversion spans a line break
    if len(forms) != len(chars):
        forms = [normalize(ch) for ch in chars]
    odd = {ch for ch, form in zip(chars, forms, strict=True) if form != ch}
    return {
        p.id: (
            bool(p.flags),
            sum(1 for ch in p.text if ch in odd),
            -sum(1 for ch in p.text if unicodedata.category(ch).startswith("P")),
        )
        for p in passages
    }


_IDEOGRAPH = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0003134f]")


def _near_duplicates(
    passages: list[Passage], search_text: dict[str, str], damage: dict[str, tuple[bool, int, int]]
) -> dict[str, str]:
    """Passages that repeat one of another document (the phase guide inside the
    tournament text…): the later or weaker one points at the one to show.
    Ratio ≥ 96 on the search form without its bullet, for texts of 16 characters
    or more; within one document near-twins are distinct rules (额外卡组 / 副卡组
    each 至多15张) and are never merged."""
    from rapidfuzz import fuzz, process

    rank = {kind: i for i, kind in enumerate(PASSAGE_KINDS)}
    # The copy to show: the stronger kind, then the less damaged text (the scraped
    # tournament text repeats the guide with corrupted characters, the guide has
    # variants and lost punctuation), then the first.
    order = sorted(
        range(len(passages)), key=lambda i: (rank.get(passages[i].kind, 9), damage[passages[i].id], i)
    )
    bodies = [_MARKER.sub("", squash(search_text[passages[i].id])) for i in order]
    dup_of: dict[str, str] = {}
    for a, body in enumerate(bodies):
        if len(body) < 16 or passages[order[a]].id in dup_of:
            continue
        # Only the passages after this one may be its twins: comparing with the
        # others would be half of the work for nothing.
        later = bodies[a + 1 :]
        for _, _, offset in process.extract(body, later, scorer=fuzz.ratio, score_cutoff=96, limit=None):
            b = a + 1 + offset
            twin = passages[order[b]]
            if len(bodies[b]) >= 16 and twin.doc != passages[order[a]].doc and twin.id not in dup_of:
                dup_of[passages[order[b]].id] = passages[order[a]].id
    return dup_of


HEAD_LENGTH = 24  # a parent this short heads its children


def _index_rows(
    passages: list[Passage], search_text: dict[str, str], titles: dict[str, str],
    segmenters: dict[str, RememberedSegmenter], normalize: Normalizer, cards_of: dict[str, list[str]],
    asked: dict[str, list[str]],
) -> tuple[list[dict], Counter]:  # fmt: skip
    """The four indexed fields of every passage, and the vocabulary with each
    word's document frequency. The words field also holds each card the passage
    names as one token, so a card name survives segmentation whole; the asked
    field holds the words of the curated questions the passage answers."""
    vocabulary: Counter = Counter()
    title_words: dict[tuple[str, str], tuple[list[str], list[str]]] = {}
    # A short parent is a heading in the text's own layout (·洗牌 over its definition,
    # 咒文速度一览： over the speeds): it titles its children as a topic does.
    heads = {p.id: p.text for p in passages if len(p.text) <= HEAD_LENGTH}
    rows = []
    for rowid, p in enumerate(passages, 1):
        segmenter = segmenters[p.doc]
        # A ruling's date (17/3/24) says when, not what: its numbers are no words of it.
        text = DATE.sub(" ", search_text[p.id])
        words = segmenter.words(text) + [t for t in cards_of.get(p.id, []) if t]
        context_title = titles.get(p.section or "", "") if p.doc == "rulebook" else p.topic
        if p.parent in heads:
            context_title += " › " + heads[p.parent]
        if (p.doc, context_title) not in title_words:
            normal_title = normalize(context_title)
            title_words[(p.doc, context_title)] = (segmenter.words(normal_title), bigrams(normal_title))
        title_cut, title_grams = title_words[(p.doc, context_title)]
        context = title_cut + title_grams
        # A passage's questions are read in one piece (a line each: no word or pair spans two).
        lines = [normalize(q) for q in asked.get(p.id, [])]
        each = [segmenter.words(line) for line in lines]
        questions = "\n".join(lines)
        question_words = [w for w in _as_one_text(each, lines) if w not in STOPWORDS]
        # A title's character pairs are indexed, but they are no words: a question is
        # cut into the vocabulary's words, and 的效 would cut 的效果 wrongly.
        vocabulary.update(set(words) | {w for w in title_cut if len(w) >= 2} | set(question_words))
        # Their character pairs too: slang the vocabulary lacks (盖怪) still meets the same slang.
        question_words += bigrams(questions)
        rows.append(
            {
                "rowid": rowid,
                "words": " ".join(words),
                "grams": " ".join(bigrams(text) + latin_words(text)),
                "context": " ".join(context),
                "asked": " ".join(question_words),
                # Each curated question's own words, a line each: a question asked
                # is compared with each of them whole (ranking's nearest question).
                "asked_each": "\n".join(
                    " ".join(sorted({w for w in words if w not in STOPWORDS})) for words in each
                ),
            }
        )
    return rows, vocabulary


def _as_one_text(each: list[list[str]], lines: list[str]) -> list[str]:
    """The words of lines cut as one text, from each line's own cut: jieba cuts at a
    line break, so the joined text's words are each line's Chinese words in turn,
    then the Latin words of them all (Segmenter.words: jieba's words, then
    latin_words). Each question is cut once, not twice."""
    latin = [len(latin_words(line)) for line in lines]
    chinese = [w for words, n in zip(each, latin, strict=True) for w in words[: len(words) - n]]
    return chinese + [w for words, n in zip(each, latin, strict=True) for w in words[len(words) - n :]]


def _read_scenarios(kb_dir: Path) -> list[dict]:
    """The replay scenarios of kb/scenarios/, read as `ocgkb replay` reads them
    (one reader, one set of limits). A malformed one is an OntologyError naming its
    file: the build fails rather than ship a scenario that cannot be replayed."""
    from ocgkb.engine.scenario import ScenarioError, read_scenario

    rows = []
    for path in sorted((kb_dir / "scenarios").glob("*.yaml")):
        try:
            scenario = read_scenario(path)
        except ScenarioError as exc:
            raise OntologyError(f"curated scenario {str(exc).splitlines()[0]}") from None
        rows.append(
            {
                "name": path.stem,
                "file": path.name,
                "title": scenario.title,
                "replays": json.dumps(scenario.replays, ensure_ascii=False),
            }
        )
    return rows


def _check_replays(scenarios: list[dict], passage_ids: set[str], report: BuildReport) -> None:
    for row in scenarios:
        for pid in json.loads(row["replays"]):
            if pid not in passage_ids:
                report.unresolved.append(f"scenario {row['file']}: replays unknown passage {pid}")


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


def _not_in_texts(phrases: list[str], texts) -> list[str]:
    """The out-of-scope phrases no passage says (a word the texts use is theirs)."""
    corpus = "\n".join(texts).lower()
    return [
        p for p in phrases if not (re.search(rf"\b{re.escape(p)}\b", corpus) if p.isascii() else p in corpus)
    ]


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
        english_ignored = {str(w).lower() for w in data.get("ignore_english") or []}
        # A question's English words are stemmed before they are compared (having → hav).
        ignore = sorted(
            {squash(normalize(str(w))) for w in data.get("ignore") or []}
            | english_ignored
            | {w for word in english_ignored for w in latin_words(word)}
        )
        english = {str(k).lower(): [str(t) for t in v or []] for k, v in glossary.items()}
        # Phrase lists matched by query.abstain.says_any: English as whole words, Chinese squashed.
        phrases = {
            name: sorted(
                {
                    " ".join(str(w).lower().split()) if str(w).isascii() else squash(normalize(str(w)))
                    for w in data.get(name) or []
                }
            )
            for name in ("outside", "card_text_asks", "referred_elsewhere")
        }
        slang = {
            "verbs": {str(k): [str(t) for t in v or []] for k, v in (data.get("slang_verbs") or {}).items()},
            "before": [str(w) for w in data.get("slang_before") or []],
            "after": [str(w) for w in data.get("slang_after") or []],
        }
    except (AttributeError, TypeError) as exc:
        raise OntologyError(f"cannot read {kb_dir}/synonyms.yaml or glossary.yaml: {exc}") from exc
    # Stored read to use: the query side never lemmatizes the glossary's own keys.
    return {
        "synonyms": synonyms,
        "ignore": ignore,
        "glossary": Glossary(english).stored(),
        "slang": slang,
        **phrases,
    }


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
    counts["scenarios"] = len({row["src"] for row in links if row["relation"] == REPLAYS})
    return counts
