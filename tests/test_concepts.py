"""The ontology: at least 40 concepts, each tagging passages, cross-linked."""

import json

import pytest
import yaml

from ocgkb.sources.ontology import Ontology
from ocgkb.text.normalize import Normalizer

from conftest import KB, passage_at

REQUIRED = [
    "cost",
    "target",
    "non_targeting",
    "continuous_targeting",
    "miss_timing",
    "trigger_effect",
    "quick_effect",
    "spell_speed",
    "chain",
    "chain_link",
    "priority",
    "damage_step",
    "replay",
    "negation_of_activation",
    "negation_of_effect",
    "tribute",
    "discard",
    "send_to_gy",
    "banish",
    "destroy",
    "token",
    "xyz_material",
    "pendulum",
    "once_per_turn",
    "hard_once_per_turn",
    "mandatory_effect",
    "optional_effect",
    "activation",
    "application",
    "atk_def_modification",
    "battle_damage",
    "effect_damage",
    "lp_loss",
    "win_condition",
    "control",
    "owner",
]


def test_the_ontology_has_the_required_concepts():
    ontology = Ontology.load(KB)
    assert len(ontology.concepts) >= 40
    missing = [cid for cid in REQUIRED if cid not in ontology.concepts]
    assert not missing
    for concept in ontology.concepts.values():
        assert concept.zh and concept.en, concept.id


def test_every_concept_tags_at_least_one_passage(db):
    counts = dict(
        db.execute("SELECT concept, count(*) FROM passage_concepts WHERE how = 'text' GROUP BY concept")
    )
    concepts = [r[0] for r in db.execute("SELECT id FROM concepts")]
    assert len(concepts) >= 40
    assert [cid for cid in concepts if not counts.get(cid)] == []


def test_cost_reaches_the_clause_that_cost_is_never_refunded(db):
    row = db.execute(
        """SELECT p.id FROM passage_concepts pc JOIN passages p ON p.id = pc.passage_id
           WHERE pc.concept = 'cost' AND p.text LIKE '%支付的cost也不能取回%'"""
    ).fetchone()
    assert row["id"] == "4.2.2/2"


def test_damage_step_timings_are_concepts_defined_by_their_sections(db):
    linked = {
        r[0]
        for r in db.execute(
            "SELECT dst FROM links WHERE src = 'concept:damage_step' AND relation = 'defined_in'"
        )
    }
    assert "section:6.3.4.3" in linked


def test_a_concepts_sections_and_relations_are_stored_once_as_links(db, kb):
    from ocgkb.views.concept import concept_view

    columns = {r["name"] for r in db.execute("PRAGMA table_info(concepts)")}
    assert not columns & {"sections", "related"}
    view = concept_view(kb, "damage_step")
    assert "6.3.4.3" in view["sections"]
    related = {r["id"] for r in concept_view(kb, "activation")["related"]}
    assert "cost" in related


def test_the_stored_ontology_is_read_once_and_finds_what_the_curated_one_finds(kb):
    from ocgkb.sources.ontology import Ontology
    from ocgkb.store import concepts

    ontology = concepts.ontology(kb)
    assert ontology is concepts.ontology(kb)
    curated = Ontology.load(KB, kb.normalize)
    assert sorted(ontology.concepts) == sorted(curated.concepts)
    text = kb.normalize("伤害步骤中发动的效果支付cost后不能取回")
    assert ontology.named(text) == curated.named(text) and ontology.named(text)


def test_related_concepts_are_linked_both_ways_in_the_store(db):
    related = {
        (r[0], r[1]) for r in db.execute("SELECT src, dst FROM links WHERE relation = 'related_concept'")
    }
    assert ("concept:cost", "concept:activation") in related
    assert ("concept:activation", "concept:cost") in related
    assert all((dst, src) in related for src, dst in related), sorted(
        (src, dst) for src, dst in related if (dst, src) not in related
    )


@pytest.mark.parametrize(
    "name, cid",
    [
        ("miss-timing", "miss_timing"),
        ("卡时点", "miss_timing"),
        ("Cost", "cost"),
        ("卷回", "replay"),
        ("祭品", "tribute"),
    ],
)
def test_concepts_are_found_by_any_name(name, cid):
    assert Ontology.load(KB).lookup(name).id == cid


def test_a_malformed_ontology_is_a_clear_error(tmp_path):
    from ocgkb import OntologyError

    (tmp_path / "concepts.yaml").write_text("concepts: [unclosed", encoding="utf-8")
    with pytest.raises(OntologyError, match="concepts.yaml"):
        Ontology.load(tmp_path)
    (tmp_path / "concepts.yaml").write_text(
        yaml.safe_dump({"concepts": {"a": {"zh": ["甲"], "related": ["b"]}}}), encoding="utf-8"
    )
    with pytest.raises(OntologyError, match="unknown b"):
        Ontology.load(tmp_path)


def test_tags_ignore_quoted_card_text_and_what_is_said_not_to_happen(db):
    def tags(pid):
        return {r[0] for r in db.execute("SELECT concept FROM passage_concepts WHERE passage_id = ?", (pid,))}

    # 「妖精弓手」's own text in 『』 names LP and an attribute; the example is about its name.
    quoted = tags("3.1.2/3/ex1")
    assert "card_name" in quoted and not {"attribute", "life_points"} & quoted
    # 不进行伤害计算: no damage calculation happens, so the clause is not about its timing.
    assert "during_damage_calculation" not in tags("6.3.4.2/6")
    assert "damage_step" in tags("6.3.4.2/6")
    # A clause that does name the timing keeps it.
    assert "during_damage_calculation" in tags("6.3.4.3.3/4/ex1")


def test_the_attack_target_is_no_effects_target(db):
    """对象 only inside 攻击对象 (the monster attacked) does not tag `target`; the
    passages that say so are about the attack declaration."""
    for doc, line in (
        ("rulebook", 610),
        ("rulebook", 621),
        ("rulings", 511),
        ("guide", 3),
        ("tournament", 337),
    ):
        pid = passage_at(db, doc, line)["id"]
        tags = {r[0] for r in db.execute("SELECT concept FROM passage_concepts WHERE passage_id = ?", (pid,))}
        assert "target" not in tags and "attack_declaration" in tags, (doc, line)
    # An effect's target still is one (持续取对象's ruling, 002:292).
    pid = passage_at(db, "rulings", 292)["id"]
    assert db.execute(
        "SELECT 1 FROM passage_concepts WHERE passage_id = ? AND concept = 'target'", (pid,)
    ).fetchone()
    stored = db.execute("SELECT not_in FROM concepts WHERE id = 'target'").fetchone()[0]
    assert json.loads(stored) == ["攻击对象"]


def test_a_name_inside_a_word_the_concept_declares_not_in_does_not_tag(tmp_path):
    (tmp_path / "concepts.yaml").write_text(
        yaml.safe_dump(
            {
                "concepts": {
                    "target": {"zh": ["对象"], "not_in": ["攻击对象"]},
                    "attack": {"zh": ["攻击宣言"]},
                }
            },
            allow_unicode=True,
        ),
        encoding="utf-8",
    )
    ontology = Ontology.load(tmp_path)
    assert ontology.tag("选择攻击对象进行攻击宣言") == ["attack"]
    assert ontology.tag("以攻击对象的怪兽为对象发动") == ["target"]  # the second 对象 is an effect's
    assert ontology.tag("攻击对象") == [] and ontology.tag("对象") == ["target"]
    assert "target" not in ontology.named("攻击对象怎么选")
    # A built knowledge base keeps the exclusion: the query side reads the same.
    forms, keys = ontology.stored_forms()
    rows = [
        {
            "id": cid, "en": [], "zh": c.zh, "aliases": [], "related": [], "sections": [],
            "forms": forms[cid], "keys": keys[cid], "not_in": ontology.not_in(cid),
        }
        for cid, c in ontology.concepts.items()
    ]  # fmt: skip
    stored = Ontology.from_rows(rows, Normalizer())  # rows as the store's JSON reads them
    assert stored.tag("选择攻击对象") == [] and stored.tag("为对象") == ["target"]
