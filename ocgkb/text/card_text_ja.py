"""A Japanese card text's markers (text/card_text_markers.py reads with them):
①：…, 発動できる (optional) / 発動する (mandatory), …時 (when) / …場合 (if),
…を対象として (target), the cost in the clauses before the activation
(捨て, リリースし, 除外し, 墓地へ送り, 払い), このカード名の…１ターンに１度
(by card name) and １ターンに１度 (this card). Full-width digits read as ASCII."""

from __future__ import annotations

import re

from ocgkb.text.card_text import NUMBERS, WIDE_DIGITS
from ocgkb.text.card_text_markers import Markers, header_limit

ACTIVATE = re.compile(r"発動(できる|する)")
CARD_NAME_ONCE = re.compile(r"このカード名の[^。]*1ターンに1(?:度|回)")
ACTIVATIONS_ONCE = re.compile(r"このカード名のカードは1ターンに1枚しか発動できない")
ONCE_PER_DUEL = re.compile(r"^このカード名の[^。]*デュエル中に1度")
SUMMON_CONDITION = re.compile(
    r"通常召喚できない|特殊召喚できない|場合に特殊召喚できる(?:。|$)|特殊召喚する事ができない"
)


def split(text: str) -> tuple[list[tuple[int, str]], dict[int, str]]:
    """①②… keep their number, what stands before them is n = 0; an unnumbered
    text is one effect a sentence, numbered 1, 2 …; the header's limits apart."""
    text = text.translate(WIDE_DIGITS)
    header: dict[int, str] = {}
    body = []
    for sentence in (s.strip() for s in re.split(r"(?<=。)|\n", text) if s.strip()):
        limit = header_limit(sentence, CARD_NAME_ONCE, ACTIVATIONS_ONCE) if sentence[0] not in NUMBERS else {}
        if limit:
            header.update(limit)
        elif not ONCE_PER_DUEL.search(sentence):  # a limit per duel is no once-per-turn limit
            body.append(sentence)
    joined = "".join(body)
    if any(c in NUMBERS for c in joined):
        parts = [p.strip() for p in re.split(rf"(?=[{NUMBERS}][：:])", joined) if p.strip()]
        pieces = [(NUMBERS.index(p[0]) + 1, p[2:]) if p[0] in NUMBERS else (0, p) for p in parts]
        return pieces, header
    zero = [(0, s) for s in body if SUMMON_CONDITION.search(s)]
    return zero + list(enumerate((s for s in body if not SUMMON_CONDITION.search(s)), 1)), header


# Where a condition ends: a time, a phase or an event, before に or 、.
CONDITION_END = re.compile(r"(?:時|場合|際|フェイズ|ターン|ステップ|計算前|計算後)(?:に|、)")
COST = re.compile(r"(?:捨て|リリースし|除外し|送り|送っ|払い|払っ|取り除き|戻し|見せ)て?$")


def activation(body: str) -> tuple[str, str, bool] | None:
    """The stretch before 発動できる / 発動する: its condition, up to the last
    time or event (…時に, …場合、, …フェイズに), and the cost-and-target clauses after it."""
    head = body.split("。")[0]
    match = ACTIVATE.search(head)
    if not match:
        return None
    stretch = re.sub(r"^1ターンに1(?:度|回)、", "", head[: match.start()])
    ends = list(CONDITION_END.finditer(stretch))
    cut = ends[-1].end() if ends else 0
    return stretch[:cut].rstrip("、"), stretch[cut:], match.group(1) == "できる"


MARKERS = Markers(
    language="ja",
    split=split,
    activation=activation,
    clause=re.compile(r"[、，]"),
    when=re.compile(r"時に?$|時、?$"),
    if_=re.compile(r"場合に?$|場合、?$"),
    state=re.compile(r"(?:存在する|いない|ない|存在しない)場合に?$"),
    chain_response=re.compile(r"発動した時|発動した際|する際"),
    cost=COST,
    target=re.compile(r"を?対象(?:として|に)"),
    quick=re.compile(
        r"相手ターンでも発動できる|自分・相手ターン|相手ターン|相手の?(?:メイン|バトル)フェイズ|バトルフェイズ|"
        r"ダメージ計算(?:時|前)|ダメージステップ(?!開始時)"
    ),
    phase=re.compile(r"(?:スタンバイ|エンド)フェイズ|ダメージ計算後"),
    flip=re.compile(r"^リバース[：:]"),
    summon_condition=SUMMON_CONDITION,
    card_name_once=CARD_NAME_ONCE,
    this_card_once=re.compile(r"1ターンに1(?:度|回)"),
    card_words=re.compile(
        r"発動|効果|モンスター|カード|召喚|攻撃|守備|破壊|ターン|LP|墓地|除外|ドロー|ダメージ|対象|装備|フェイズ|リリース|魔法|罠"
    ),
    not_read=(
        "Japanese: read from its markers (①：, 発動できる / 発動する, 時 / 場合, 対象として, the cost "
        "before the activation: 捨て, リリースし, 除外し, 墓地へ送り, 払い); not read: old texts without "
        "発動, any later sentence's effect, and what the Chinese reading decides from words "
        "these markers do not carry."
    ),
    not_read_zh=(
        "日文：按其标记读（①：、発動できる / 発動する、時 / 場合、対象として，发动之前的 cost："
        "捨て、リリースし、除外し、墓地へ送り、払い）；未读：不写“発動”的旧文本、后续句子的效果，"
        "以及中文读法依据而这些标记不带的词。"
    ),
)
