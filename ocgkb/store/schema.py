"""The shape of the built database, said once: its version, the tables the writer
declares itself, the indexed fields by name, the link relations, the kinds of
passage with their labels, and how much a read returns at most.

The writer (build/), the readers (store/, query/, views/) and the front ends
(the command line's --help, the API's OpenAPI document) all take it from here.
It imports nothing of ocgkb, nor sqlite: `tests/test_architecture.py` holds it
at the lowest layer, so the sources (the fingerprint) and the build may read it.
"""

from __future__ import annotations

# A change to what is stored means every knowledge base is rebuilt (the version
# is part of the inputs' fingerprint). 21: a concept's defining sections and
# related concepts are read from `links` only, no longer copied into `concepts`.
SCHEMA_VERSION = "21"

# Each kind of passage with what it is called, in Chinese and English: the
# terminal shows both, a page the Chinese. In the order a judge trusts them (of two
# passages with the same text, the build shows the stronger kind).
KIND_NAMES: dict[str, tuple[str, str]] = {
    "clause": ("条款", "clause"),
    "subitem": ("细项", "sub-item"),
    "example": ("例", "example"),
    "ruling": ("裁定", "ruling"),
    "note": ("注", "note"),
    "paragraph": ("段落", "paragraph"),
}
PASSAGE_KINDS: tuple[str, ...] = tuple(KIND_NAMES)
# The kinds that hang under a clause or ruling (their `parent`), and the link each makes.
BELOW_RELATION = {"example": "illustrates", "subitem": "part_of", "note": "annotates"}
# Which passages say best what a concept is, when no section defines it.
DEFINING_ORDER = ("clause", "ruling", "subitem", "paragraph")

# The fields of the full-text index, by name, in the index's column order (BM25
# weights and `fields` tuples follow it). `asked_each` is stored beside them,
# one line per question a passage answers, but not indexed.
FTS_FIELDS = ("words", "grams", "context", "asked")
FTS_COLUMN = {name: i for i, name in enumerate(FTS_FIELDS)}
PASSAGE_INDEX_COLUMNS = (*FTS_FIELDS, "asked_each")

# The relations of the `links` table: src → dst, each a typed node id (`passage:ID`,
# `section:NUMBER`, `concept:ID`, `scenario:NAME`).
PARENT_OF = "parent_of"  # section → its sub-section
IN_SECTION = "in_section"  # passage → its section or topic
REFERS_TO = "refers_to"  # passage → a section or concept its text sends the reader to
RELATED_CONCEPT = "related_concept"  # concept → a concept the ontology names as related
DEFINED_IN = "defined_in"  # concept → a section that defines it
REPLAYS = "replays"  # scenario → a passage it plays out
LINK_RELATIONS = (
    PARENT_OF,
    IN_SECTION,
    *BELOW_RELATION.values(),
    REFERS_TO,
    RELATED_CONCEPT,
    DEFINED_IN,
    REPLAYS,
)

# How much a view returns at most, and by default: the command line's --limit,
# the API's `limit` and its OpenAPI document all read these.
MOST_HITS, DEFAULT_HITS = 40, 10  # what a search ranks
MOST_CLAUSES, DEFAULT_CLAUSES = 10, 5  # clauses an answer shows
MOST_CARD_PASSAGES, DEFAULT_CARD_PASSAGES = 200, 20  # passages a card's page lists

# The tables the writer declares itself (the others take the columns sqlite-utils
# infers from their rows). Plain executemany into these: 100k rows each, without
# sqlite-utils' per-value type checks.
CARD_COLUMNS: dict[str, type] = {
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
CARD_NAMES = "CREATE TABLE card_names (id INTEGER PRIMARY KEY, form TEXT, card TEXT, how TEXT)"
# Which name forms hold each character (each letter triple for Latin forms).
CARD_GRAMS = "CREATE TABLE card_grams (gram TEXT, form_id INTEGER, PRIMARY KEY (gram, form_id)) WITHOUT ROWID"
QUESTION_NAMES = (
    "CREATE TABLE question_names (form TEXT, card TEXT, mentions INTEGER, script TEXT, single INTEGER)"
)
GENERAL_USE = "CREATE TABLE general_use (term TEXT PRIMARY KEY, freq INTEGER) WITHOUT ROWID"
LIMIT_LISTS = (
    "CREATE TABLE limit_lists (region TEXT, effective TEXT, cards INTEGER, partial INTEGER,"
    " PRIMARY KEY (region, effective))"
)
CARD_LIMITS = (
    "CREATE TABLE card_limits (card TEXT, region TEXT, effective TEXT, status TEXT, password INTEGER,"
    " PRIMARY KEY (card, region, effective))"
)
# The index reads its fields from the passages table (external content), so
# ranking reads them from a plain table and the text is stored once.
PASSAGE_FTS = (
    f"CREATE VIRTUAL TABLE passage_fts USING fts5({', '.join(FTS_FIELDS)}, content='passages',"
    " content_rowid='rowid', tokenize='unicode61 remove_diacritics 0')"
)
PASSAGE_TERMS = "CREATE VIRTUAL TABLE passage_terms USING fts5vocab(passage_fts, 'row')"
TERM_COUNTS = "CREATE TABLE term_counts (term TEXT PRIMARY KEY, doc INTEGER) WITHOUT ROWID"
