"""kb/questions: the questions each passage answers, reviewed like the ontology."""

from __future__ import annotations

import yaml

from conftest import KB


def curated() -> dict[str, list[str]]:
    asked: dict[str, list[str]] = {}
    for path in sorted((KB / "questions").glob("*.yaml")):
        for pid, questions in yaml.safe_load(path.read_text(encoding="utf-8")).items():
            asked.setdefault(str(pid), []).extend(questions)
    return asked


def test_every_curated_question_names_an_existing_passage(db, kb):
    asked = curated()
    assert len(asked) >= 1000
    ids = {r[0] for r in db.execute("SELECT id FROM passages")}
    assert set(asked) <= ids, sorted(set(asked) - ids)[:5]
    assert not [u for u in kb.report()["unresolved"] if u.startswith("questions/")]


def test_curated_questions_come_in_both_languages():
    asked = curated()
    english = [q for qs in asked.values() for q in qs if q.isascii()]
    chinese = [q for qs in asked.values() for q in qs if not q.isascii()]
    assert len(english) >= 1000 and len(chinese) >= 2000


def test_the_questions_are_indexed_with_their_passage(db):
    row = db.execute("SELECT asked FROM passages WHERE id = '4.2.2/4'").fetchone()
    assert row["asked"] and "cost" in row["asked"].split()


# Similarity (rapidfuzz ratio over letters and digits) at which a curated question
# counts as a copy of an evaluation question: at 90 rewordings of one or two
# characters passed.
COPY_RATIO = 85


def evaluation_questions() -> list[tuple[str, str, str]]:
    """(file, id, question) of every question set in benchmarks/questions/ and the dev set."""
    import json

    from conftest import ROOT

    files = [
        *sorted((ROOT / "benchmarks" / "questions").glob("*.jsonl")),
        ROOT.parent / "shared/eval/dev_questions.jsonl",
    ]
    return [
        (path.name, str(row.get("id")), row["q"])
        for path in files
        if path.is_file()
        for row in map(json.loads, filter(str.strip, path.read_text(encoding="utf-8").splitlines()))
        if "q" in row
    ]


def test_no_curated_question_repeats_an_evaluation_question():
    """The question sets in benchmarks/ (and the dev set) measure retrieval; a
    curated question that repeats one of them would measure nothing. A failure
    names the evaluation question by file and id and the curated one by passage,
    never their text: the blind sets are read by their totals only."""
    import re

    from rapidfuzz import fuzz, process

    def squashed(text: str) -> str:
        return re.sub(r"[\s\W_]+", "", text.lower())

    owners = [pid for pid, questions in curated().items() for _ in questions]
    forms = [squashed(q) for questions in curated().values() for q in questions]
    asked = evaluation_questions()
    assert len(asked) >= 800
    repeats = []
    for file, qid, question in asked:
        match = process.extractOne(squashed(question), forms, scorer=fuzz.ratio, score_cutoff=COPY_RATIO)
        if match:
            repeats.append(f"{file}:{qid} ~ curated for {owners[match[2]]}")
    assert not repeats, f"{len(repeats)} copies: {repeats}"
