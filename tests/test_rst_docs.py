"""Reading a rulings documentation in reST (sources/rst_docs.py) on the two small
editions written for the tests (tests/fixtures/rst/README.md), and on bad input."""

from __future__ import annotations

import os
import shutil

import pytest

from ocgkb.sources.rst_docs import MAX_FILE_BYTES, RulingsDocsError, read_docs

from conftest import EDITIONS


@pytest.fixture(scope="module")
def edition():
    return read_docs(EDITIONS / "edition_2025")


def by_id(edition, pid):
    return next(p for p in edition.passages if p.id == pid)


def test_the_project_name_and_title_come_from_conf_py_read_as_text(edition):
    assert (edition.name, edition.title) == ("mini-rules", "Mini Rules")


def test_files_are_read_in_the_table_of_contents_order_the_home_page_last(edition):
    assert edition.files == [
        "前言.rst",
        "chapters/p01_base.rst",
        "c01/基本用语.rst",
        "c02/卡片.rst",
        "index.rst",
    ]


def test_headings_make_the_topics_breadcrumbs(edition):
    sections = {s.number: s for s in edition.sections}
    assert sections["mini-rules/cost"].parent == "mini-rules/基本用语"
    assert by_id(edition, "mini-rules/cost/1").topic == "基本用语 › cost"
    # A heading's card links are read as the names they show.
    assert "mini-rules/「增殖的G」·「黑洞」" in sections


def test_a_line_block_is_statements_and_example_opens_the_first_ones_examples(edition):
    lead, second, example = (by_id(edition, f"mini-rules/cost/{n}") for n in (1, 2, 3))
    assert (lead.kind, lead.parent) == ("ruling", None)
    assert (second.kind, second.parent) == ("ruling", None)
    assert (example.kind, example.parent) == ("example", lead.id)
    assert example.text == "「增殖的G」作为cost丢弃手卡时，不当作因效果离开手卡。18/1/5"
    assert lead.line == 15 and example.line == 18 and example.file == "c01/基本用语.rst"


def test_a_dated_example_keeps_its_date_faq_id_and_address(edition):
    (citation,) = by_id(edition, "mini-rules/cost/3").citations
    assert citation["date"] == "2018-01-05" and citation["raw"] == "18/1/5" and citation["fid"] == 101
    assert "fid=101" in citation["url"] and citation["source"] == "faq"


def test_a_line_with_a_faq_and_a_wiki_date_cites_both(edition):
    faq, wiki = by_id(edition, "mini-rules/cost/5").citations
    assert (faq["fid"], faq["source"]) == (102, "faq")
    assert (wiki["date"], wiki["fid"], wiki["source"]) == ("2019-03-03", None, "wiki")


def test_a_cards_faq_page_has_no_faq_id(edition):
    (citation,) = by_id(edition, "mini-rules/『包含○○』/3").citations
    assert (citation["date"], citation["fid"], citation["source"]) == ("2017-03-24", None, "faq")


def test_an_undated_example_comes_from_mail_where_the_documentation_says_so(edition):
    undated = by_id(edition, "mini-rules/cost/4")
    assert undated.kind == "example" and undated.source_note == "mail"
    assert undated.citations == [{"date": None, "raw": None, "url": None, "fid": None, "source": "mail"}]


def test_an_undated_example_says_so_where_the_documentation_does_not_say_why(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.rst").write_text("标题\n====\n\n| 规则。\n| 例：\n| 例子。\n", encoding="utf-8")
    example = read_docs(tmp_path).passages[-1]
    assert (example.kind, example.source_note) == ("example", "undated")


def test_numbered_and_indented_lines_are_sub_items_of_their_statement(edition):
    lead = by_id(edition, "mini-rules/卷回/1")
    for n in (2, 3, 4, 5):
        item = by_id(edition, f"mini-rules/卷回/{n}")
        assert (item.kind, item.parent) == ("subitem", lead.id)
    assert by_id(edition, "mini-rules/卷回/4").text.startswith("1. ")


def test_a_line_that_introduces_a_list_owns_its_items_and_their_examples(edition):
    intro = by_id(edition, "mini-rules/卷回/6")
    assert intro.text == "以下情况不发生卷回："
    first, example, second = (by_id(edition, f"mini-rules/卷回/{n}") for n in (7, 8, 9))
    assert (first.kind, first.parent) == ("subitem", intro.id)
    assert (second.kind, second.parent) == ("subitem", intro.id)
    assert (example.kind, example.parent) == ("example", first.id)


def test_an_admonition_is_a_note_on_the_statement_before_with_its_own_examples(edition):
    note, example = by_id(edition, "mini-rules/cost/6"), by_id(edition, "mini-rules/cost/7")
    assert (note.kind, note.parent) == ("note", "mini-rules/cost/1")
    assert (example.kind, example.parent) == ("example", note.id)
    tip = next(p for p in edition.passages if p.text == "伤害计算后也可以发动的效果另有记载。")
    assert (tip.kind, tip.parent) == ("note", "mini-rules/伤害步骤/4")  # the list item's statement


def test_a_sidebar_is_a_note_with_its_title(edition):
    title, line = by_id(edition, "mini-rules/伤害步骤/1"), by_id(edition, "mini-rules/伤害步骤/2")
    assert (title.kind, title.text) == ("note", "其他说法")
    assert (line.kind, line.text) == ("note", "也叫伤判步骤。")  # :strike: read as its text


def test_a_ref_link_crosses_files_to_the_labelled_heading_shown_by_its_title(edition):
    here = by_id(edition, "mini-rules/伤害步骤/3")
    there = by_id(edition, "mini-rules/『包含○○』/6")
    assert here.xrefs == there.xrefs == ["mini-rules/cost"]
    assert here.text.endswith("详见cost。") and there.text == "参见cost一节。"


def test_card_links_say_whether_a_name_is_a_card_or_a_search(edition):
    assert edition.card_links["增殖的G"] == "card"
    assert edition.card_links["测试用幻想龙"] == "card"
    assert edition.card_links["元素英雄"] == "search"


def test_a_table_is_its_title_with_a_row_under_it(edition):
    title = next(p for p in edition.passages if p.text == "咒文速度简表")
    rows = [p.text for p in edition.passages if p.parent == title.id]
    assert rows == ["效果 | 咒文速度", "诱发效果 | 1", "反击陷阱 | 3"]


def test_sphinx_roles_and_directives_are_read_not_refused(edition):
    # :strike: without a `.. role::` in c02, a toctree in index and chapters, tabularcolumns.
    assert any(p.text == "旧称通召的说法不再使用。" for p in edition.passages)
    assert edition.notes == []


def _docs(tmp_path, text: str | bytes, name: str = "a.rst"):
    docs = tmp_path / "docs"
    docs.mkdir(exist_ok=True)
    (docs / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return tmp_path


def test_a_link_inside_bold_is_read_as_its_name(tmp_path):
    path = _docs(tmp_path, "标题\n====\n\n| **Q. 「`黑洞`_」的效果如何处理？**\n")
    assert read_docs(path).passages[-1].text == "Q. 「黑洞」的效果如何处理？"


def test_a_link_that_is_not_http_is_no_citation(tmp_path):
    path = _docs(tmp_path, "标题\n====\n\n| 规则。\\ `17/3/24 <javascript:alert(1)>`__\n")
    assert read_docs(path).passages[-1].citations == []


def test_a_faq_linked_by_its_question_is_cited_without_a_date(tmp_path):
    url = "https://www.db.yugioh-card.com/yugiohdb/faq_search.action?ope=5&fid=77"
    path = _docs(tmp_path, f"标题\n====\n\n| 数据库\\ `这张卡能发动吗？ <{url}>`__\\ 说可以。\n")
    (citation,) = read_docs(path).passages[-1].citations
    assert (citation["date"], citation["fid"]) == (None, 77)


def test_a_file_that_is_not_utf8_is_refused_in_one_line(tmp_path):
    path = _docs(tmp_path, "标题\n====\n\n| 规则。\n".encode("gb18030"))
    with pytest.raises(RulingsDocsError, match=r"^a\.rst: not UTF-8 \(byte \d+ is 0x[0-9a-f]{2}\)$"):
        read_docs(path)


def test_a_rest_error_is_refused_naming_its_file_and_line(tmp_path):
    path = _docs(tmp_path, "标题\n====\n\n.. nosuchdirective:: x\n")
    with pytest.raises(
        RulingsDocsError, match=r"^a\.rst:4: Unknown directive type \"nosuchdirective\" \(a reST error\)$"
    ):
        read_docs(path)


def test_an_unknown_role_is_a_rest_error(tmp_path):
    path = _docs(tmp_path, "标题\n====\n\n| 见\\ :nosuchrole:`x`\\ 。\n")
    with pytest.raises(RulingsDocsError, match=r"a\.rst:4: .*nosuchrole.*\(a reST error\)"):
        read_docs(path)


def test_an_empty_folder_and_a_folder_without_rst_are_refused(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(RulingsDocsError, match="the folder is empty$"):
        read_docs(empty)
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("不是reST", encoding="utf-8")
    with pytest.raises(RulingsDocsError, match="no .rst file in it$"):
        read_docs(other)


def test_empty_rst_files_are_refused(tmp_path):
    with pytest.raises(RulingsDocsError, match="every .rst file is empty$"):
        read_docs(_docs(tmp_path, ""))


def test_a_file_of_50_mb_is_refused_before_it_is_read(tmp_path):
    path = _docs(tmp_path, "标题\n====\n\n| 规则。\n")
    with open(tmp_path / "docs" / "big.rst", "wb") as big:
        big.truncate(50 * 2**20)  # sparse: its size is what is checked, nothing is read
    assert 50 * 2**20 > MAX_FILE_BYTES
    with pytest.raises(
        RulingsDocsError, match=r"^big\.rst: 50 MB, over the 8 MB a documentation file may be$"
    ):
        read_docs(path)


def test_a_missing_path_and_a_file_that_is_not_rst_are_refused(tmp_path):
    with pytest.raises(RulingsDocsError, match="no such file or folder$"):
        read_docs(tmp_path / "gone")
    (tmp_path / "a.txt").write_text("x", encoding="utf-8")
    with pytest.raises(RulingsDocsError, match="not an .rst file"):
        read_docs(tmp_path / "a.txt")


def test_one_rst_file_is_a_documentation_of_its_own(tmp_path):
    source = EDITIONS / "edition_2025" / "docs" / "c02" / "卡片.rst"
    shutil.copy(source, tmp_path / "卡片.rst")
    edition = read_docs(tmp_path / "卡片.rst")
    assert edition.files == ["卡片.rst"] and edition.name == os.path.basename(tmp_path).lower()[:40]
    # Its card links have no targets here: kept as names, said in the notes.
    assert any(p.text.startswith("「效果遮蒙者」只能对应") for p in edition.passages)
    assert any("Unknown target name" in note for note in edition.notes)
