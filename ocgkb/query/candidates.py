"""What ranking needs of a passage (`Candidate`), read once per process: a built
knowledge base never changes under an open connection (kb.candidates)."""

from __future__ import annotations

from collections import Counter

from ocgkb.store.database import KnowledgeBase
from ocgkb.store.passages import hit_parts, passage_keys
from ocgkb.store.search_index import candidate_rows, concept_tags

# The documents that retell the rules (the Master Rule wiki, the tournament text,
# the phase/chain guide); the rulebook and the dated rulings state them.
LOOSE_DOCS = ("masterrule", "tournament", "guide")
# A short line ending in a colon introduces a list: the items answer, not it.
HEADING_LENGTH = 20
# The indexed fields scored, in the order of Candidate.fields.
SCORED_FIELDS = ("words", "grams", "context", "asked")


class Candidate:
    """What ranking needs of a passage. (A class with slots, neither a dataclass nor
    a NamedTuple: its class is made at every question's start, where those cost
    twenty times more, compiling code for the class and for each annotation.)"""

    __slots__ = ("id", "doc", "kind", "dup_of", "parent", "body", "fields", "concepts", "questions")

    def __init__(
        self,
        id: str,
        doc: str,
        kind: str,
        dup_of: str | None,
        parent: str | None,
        body: str,
        # (token counts, number of tokens) of the words, grams, context and asked fields
        fields: tuple[tuple[Counter, int], ...],
        concepts: dict[str, str],  # concept → how it is tagged ("text" or weaker)
        questions: tuple[frozenset[str], ...] = (),  # the words of each curated question it answers
    ) -> None:
        self.id, self.doc, self.kind, self.dup_of, self.parent = id, doc, kind, dup_of, parent
        self.body, self.fields, self.concepts, self.questions = body, fields, concepts, questions

    @property
    def loose(self) -> bool:
        """Text that repeats the rules in its own way (LOOSE_DOCS), not a rule itself."""
        return self.doc in LOOSE_DOCS and self.kind in ("paragraph", "subitem")

    @property
    def heading(self) -> bool:
        """A short line that only introduces a list (咒文速度1的例子：), not a rule."""
        return len(self.body) <= HEADING_LENGTH and self.body.rstrip().endswith((":", "："))

    @property
    def own_words(self) -> set[str]:
        """The words of its text and of the questions it answers."""
        return self.fields[0][0].keys() | self.fields[3][0].keys()


def candidates_by_id(kb: KnowledgeBase, rowids: list[int]) -> dict[str, Candidate]:
    """What scoring needs of these passages, by id, in the order given."""
    known = read_candidates(kb, rowids)
    return {known[rowid].id: known[rowid] for rowid in rowids if rowid in known}


def read_candidates(kb: KnowledgeBase, rowids: list[int]) -> dict[int, Candidate]:
    """Candidates by rowid: those not yet read in this process in two queries."""
    cache = kb.candidates
    missing = [r for r in rowids if r not in cache]
    if missing:
        rows = candidate_rows(kb, missing)
        tags = concept_tags(kb, [r["id"] for r in rows])
        for r in rows:
            fields = tuple(
                (Counter(tokens), len(tokens)) for tokens in ((r[f] or "").split() for f in SCORED_FIELDS)
            )
            cache[r["rowid"]] = Candidate(
                r["id"],
                r["doc"],
                r["kind"],
                r["dup_of"],
                r["parent"],
                r["search_text"],
                fields,
                tags.get(r["id"], {}),
                tuple(frozenset(line.split()) for line in (r["asked_each"] or "").splitlines() if line),
            )
    return {r: cache[r] for r in rowids if r in cache}


def warm(kb: KnowledgeBase) -> int:
    """Read what ranking needs of every passage now, as a long-running process (a
    server) would over its first questions; returns how many passages."""
    keys = passage_keys(kb)
    for start in range(0, len(keys), 5000):
        batch = keys[start : start + 5000]
        read_candidates(kb, [rowid for rowid, _ in batch])
        hit_parts(kb, [pid for _, pid in batch])
    return len(keys)
