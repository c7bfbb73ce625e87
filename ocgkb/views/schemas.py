"""The shape of each view's dict as JSON Schema, declared once.

The API's OpenAPI document describes every answer with these
(`components/schemas`), and tests/test_web_cache.py validates real answers
against them, so they cannot drift from what the views return. They name the
keys a client may rely on; a view may add keys without breaking a client.
"""

from __future__ import annotations

from ocgkb.query.honesty import REASONS

STR = {"type": "string"}
INT = {"type": "integer"}
NUM = {"type": "number"}
BOOL = {"type": "boolean"}


def obj(**fields: dict) -> dict:
    """An object with these keys, all present (their values may be null where said)."""
    return {"type": "object", "required": list(fields), "properties": fields}


def array(items: dict) -> dict:
    return {"type": "array", "items": items}


def maybe(schema: dict) -> dict:
    return {"anyOf": [schema, {"type": "null"}]}


def ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


NUMBERED = obj(number=STR, title=STR)
CONCEPT_NAME = obj(id=STR, name_zh=STR, name_en=STR)
STRINGS = array(STR)

SCHEMAS: dict[str, dict] = {
    "Error": obj(error=STR),
    "Hit": obj(
        id=STR,
        kind=STR,
        text=STR,
        source=obj(file=STR, doc=STR, line=INT, line_end=INT),
        section=maybe(STR),
        topic=maybe(STR),
        dates=STRINGS,
        cards=STRINGS,
        concepts=STRINGS,
        parent=maybe(STR),
        flags=STRINGS,
        citations=array(ref("Place")),
    ),
    # Where a passage, or a copy of the same ruling, stands: its document, topic,
    # file and line, dates, each official FAQ it cites, where an undated one comes from.
    "Place": obj(
        id=STR,
        doc=STR,
        document=STR,
        added=BOOL,
        topic=maybe(STR),
        file=STR,
        line=INT,
        line_end=INT,
        dates=STRINGS,
        faq=array(obj(date=maybe(STR), raw=maybe(STR), fid=maybe(INT), url=STR, source=STR)),
        source=maybe(STR),
    ),
    "Changes": obj(
        source=STR,
        old={"type": "object"},
        new={"type": "object"},
        since=maybe(STR),
        totals=obj(added=INT, removed=INT, changed=INT, faq_ids={"type": "object"}),
        added=array(ref("Ruling")),
        removed=array(ref("Ruling")),
        changed=array(ref("Ruling")),
        more=obj(added=INT, removed=INT, changed=INT),
    ),
    "Ruling": obj(fid=maybe(INT), date=maybe(STR), topic=STR, text=STR, url=maybe(STR)),
    "Plan": obj(words=STRINGS, expansions=STRINGS, concepts=STRINGS, cards=array({})),
    "Search": obj(
        query=STR,
        plan=ref("Plan"),
        hits=array(ref("Hit")),
        nothing_fits=BOOL,
        message=maybe(STR),
        notes=STRINGS,
    ),
    "Answer": obj(
        query=STR,
        plan=ref("Plan"),
        hits=array(
            {
                "allOf": [
                    ref("Hit"),
                    obj(
                        items=array(ref("Hit")),
                        examples=array(ref("Hit")),
                        rulings=array(ref("Hit")),
                        scenarios=array({}),
                    ),
                ]
            }
        ),
        nothing_fits=BOOL,
        reason=maybe({"enum": list(REASONS)}),
        message=maybe(STR),
        cards=array({}),
    ),
    "Card": {
        "oneOf": [
            obj(
                query=STR,
                matches=array(obj(name=STR, password=INT, names={"type": "object"}, card_type=STR)),
                confidence=STR,
                status={"type": ["object", "null"]},
                rulings=array(ref("Hit")),
            ),
            obj(query=STR, set=STR, count=INT, cards=array(obj(name=STR, password=INT))),
        ]
    },
    "Section": obj(
        number=STR,
        title=STR,
        breadcrumb=array(NUMBERED),
        passages=array(ref("Hit")),
        children=array(NUMBERED),
        concepts=array(CONCEPT_NAME),
        rulings=array(ref("Hit")),
        referred_by=array({}),
        scenarios=array({}),
    ),
    "Concept": obj(
        id=STR,
        name_zh=STR,
        name_en=STR,
        aliases=STRINGS,
        sections=STRINGS,
        definitions=array(ref("Hit")),
        related=array(CONCEPT_NAME),
        rulings=array(ref("Hit")),
    ),
    "Passage": obj(
        passage=ref("Hit"),
        breadcrumb=array(NUMBERED),
        parent=maybe(ref("Hit")),
        repeats=maybe(ref("Hit")),
        below=array(ref("Hit")),
        scenarios=array({}),
    ),
    "Scenario": obj(
        name=STR,
        title=STR,
        file=STR,
        status=STR,
        passed=BOOL,
        replays=STRINGS,
        log=STRINGS,
        state=maybe({"type": "object"}),
        known_cards=STRINGS,
    ),
    "Deck": obj(
        legal=BOOL,
        region=STR,
        region_name=STR,
        list_date=maybe(STR),
        counts=obj(main=INT, extra=INT, side=INT),
        problems=array(obj(rule=STR, cites=STRINGS, cards=array({}), message=STR)),
        cards={"type": "object"},
        warnings=STRINGS,
    ),
    "Reading": obj(
        text=STR,
        card_kind=maybe(STR),
        effects=array(
            obj(n=INT, label=STR, text=STR, kind=STR, conclusions=array(obj(about=STR, says=STR, cite=STR)))
        ),
        notes=STRINGS,
        sources={"type": "object"},
    ),
}
