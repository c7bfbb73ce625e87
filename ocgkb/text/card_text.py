"""A card's Chinese effect text read the way a judge reads it: its effects, and
for each its kind, spell speed, whether it is optional, its timing wording,
whether it can miss the timing, its condition, cost and target, its
once-per-turn limit, each conclusion with the passage of the rules it rests on.

Pure: the text in, plain dicts out. Both wordings are read alike: the official
one (此卡, 的情况下, 可以发动) and ygopro's (这张卡, 的场合, 才能发动).
"""

from __future__ import annotations

import re

# The passages each conclusion rests on, by stable passage id (a test checks
# every one exists in the built knowledge base).
CITES = {
    "parts": "rulings/文本的阅读方法/1",  # 002: limit, condition, cost, target, resolution
    "parts_example": "rulings/文本的阅读方法/3",  # 002: 银河旋风 split into its parts, 以…为对象
    "cost_written_before": "rulings/cost/5",  # 002: the cost is written before 发动
    "cost_all_before": "masterrule/115",  # 001: everything before 才能 is cost
    "ignition": "masterrule/105",
    "trigger": "masterrule/106",
    "optional": "masterrule/107",
    "quick": "masterrule/108",
    "flip": "guide/咒文速度/3",  # flip effects among spell speed 1
    "continuous": "4.2.1/3",  # 000: applies without a chain while face-up
    "activation": "4.2.1/2",  # 000: a spell or trap face-up on the field is its activation
    "other": "4.2.1.1/1",  # 000: a spell or trap's effect other than its activation
    "summon_condition": "5/4/sub1",  # 000: a summon condition is not an effect
    "chain_response": "rulings/时点/13",  # 002: …发动时 / …之际 must chain directly
    "when_misses": "masterrule/133",  # 001: any …时 can be missed
    "if_never_misses": "masterrule/134",  # 001: …的场合 starts a new chain
    "optional_when_misses": "3.2.2.1.1/5",  # 000: only an optional …时，可以 misses
    "damage_calculation": "6.3.4.3.3/2",  # 000: effects that say 伤害计算时 are activated then
    "damage_quick": "6.3.4.3.2/2/sub1",  # 000: before damage calculation, monsters' quick effects
    "after_damage": "6.3.4.3.4/2",  # 000: 伤害计算后 effects chain by priority, as triggers do
    "speed_1": "rulings/咒文速度/7",
    "speed_2": "rulings/咒文速度/14",
    "speed_3": "rulings/咒文速度/20",
    "once_card_name": "rulings/1回合1次/8",
    "once_this_card": "rulings/1回合1次/1",
}

# The card types that decide an activation's spell speed (000 §4, 002 咒文速度).
ACTIVATION_SPEED = {
    "normal_spell": 1,
    "ritual_spell": 1,
    "continuous_spell": 1,
    "field_spell": 1,
    "equip_spell": 1,
    "quick_play_spell": 2,
    "normal_trap": 2,
    "continuous_trap": 2,
    "counter_trap": 3,
}

# Words only a spell or trap card says of itself, and the card type they give when
# no card is named: a field spell's zone, an equip card's monster (a union monster,
# 当作装备卡使用, excepted), a trap that becomes a monster (a trap's speed either way).
TYPE_WORDS = (
    (re.compile(r"(?:这张卡|此卡)在场地区域存在"), "field_spell"),
    (re.compile(r"^(?![\s\S]*当作装备卡)[\s\S]*(?:装备怪兽|[只才]能(?:给[^。]*)?装备)"), "equip_spell"),
    (re.compile(r"(?:这张卡|此卡)发动后|也当作陷阱卡使用"), "normal_trap"),
)
# Full-width digits (１回合１次) read as the ASCII ones the patterns name.
WIDE_DIGITS = str.maketrans("０１２３４５６７８９", "0123456789")
# Words no card text is without: a text with none of them holds no effect.
CARD_WORDS = re.compile(
    r"发动|效果|怪兽|卡|召唤|攻击|守备|破坏|回合|基本分|墓地|除外|抽|伤害|对象|装备|阶段|解放|魔法|陷阱"
)
# A line of a card's layout, no effect: a pendulum scale (←4 【灵摆】 4→), a
# heading (【灵摆效果】, 【怪兽效果】), a name it also has by the rules (规则上也当作「X」使用),
# the card's own name pasted above its text (「X」), a ritual spell's monster (「X」的降临必需).
LAYOUT_LINE = re.compile(
    r"^[\s←→\d]*【[^】]*】[\s←→\d]*$|^[^。]*规则上[^。]*当作[^。]*使用。?$"
    r"|^\s*「[^」]*」\s*$|^[^。，]*降临必需。?$"
)
NUMBERS = "①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳"
ACTIVATE = re.compile(r"才可以发动|才能发动|可以发动|才能把这张卡发动|可以把这张卡发动")
# 可以以…为对象发动: the target said between 可以 and 发动.
TARGET_INSIDE = re.compile(r"(才能|可以)(以[^，。]*?(?:为|作为)对象)[，,]?发动")
# A mandatory effect: 发动 closing its clause with no 才能 / 可以 before it.
# The official wording's mandatory effect says 会发动 (002 文本的阅读方法).
MANDATORY = re.compile(r"(?<!才能)(?<!可以)(?<!这张卡)(?<!此卡)会?发动[。，]")
# An event condition: …时 (when) or …的场合 / 的情况下 (if), just before the
# comma, the activation or the resolution.
EVENT = re.compile(r"(时|的场合|的情况下|之际)(?=[，,]|才能|可以|会?发动|$)")
# A clause ending on its event: 对方把怪兽召唤的场合 (发动) is a trigger, not 把X发动.
EVENT_END = re.compile(r"(?:时|的场合|的情况下)$")
# "…存在的场合" and the like name a state the game is in, not an event.
STATE = re.compile(r"(?:存在|没有|只有|以下|以上|在墓地|在手卡|在场上|表示|不存在)$")
# What happens in an event's clause (召唤, 被破坏, 送去墓地 …); a clause with
# none of it names a state the game is in (…比对方多的场合).
HAPPENING = re.compile(
    r"被|成功|送去|送到|召唤|破坏|除外|加入|宣言|受到|给与|反转|离开|回到|抽|发动|丢弃|解放|选择|成为"
    r"|攻击|开始|结束|变更|变成|盖放|放置|移动|装备|战斗|回复|支付|返回|里侧|表侧|翻开|确认"
    r"|准备阶段|结束阶段"  # a phase comes: 自己的准备阶段时，…
)
# A limit said first: 1回合1次，…
ONCE_FIRST = re.compile(r"^(?:1|一)回合(?:1|一)次[，,]")
# An old text's event condition, without 发动: "此卡被破坏时，可以…".
OLD_EVENT = re.compile(r"^((?!只要)[^。，]*?(?:时|的场合|的情况下))[，,]")
# The card's own activation, said: 把这张卡发动, 将此卡发动, 这张卡的发动 (and
# for the Japanese and English readers: このカードの発動, when this card is activated).
OWN_ACTIVATION = re.compile(
    r"[把将](?:这张卡|此卡)发动|(?:这张卡|此卡)的发动|このカードの発動|このカードを発動|when this card is activated",
    re.IGNORECASE,
)
# 以…为对象 targets; so does the eighth period's 选择, never 选 alone (002 取对象);
# 以这张卡为对象的效果 speaks of another effect's target.
TARGET = re.compile(
    r"以[^，。]*?(?:为|作为)对象(?!的)|(?<!被)选择(?![^，。]*攻击对象)[^，。]*?(?=才能|可以|会?发动|[，,。]|$)"
)
# "Only" as the translations write it: the official 只能, and 仅可 / 仅能 / 只可 of
# community wordings (此卡名的效果1回合仅可使用1次).
ONLY = r"(?:只能|仅可|仅能|只可)"
# An old text names the card itself: 「X」的效果1回合只能使用1次.
# 1回合1次只能使用其中任意1个 says the same as 1回合只能使用1个.
CARD_NAME_ONCE = re.compile(
    rf"(?:这个卡名|此卡名)的[^。]*(?:1|每|一)回合(?:(?:1|一)次)?(?:{ONLY}|各能|只有)"
    rf"|^「[^」]+」的效果[^。]*(?:1|每|一)回合{ONLY}"
)
# A header limiting numbered effects of this card, not its name: ①②的效果1回合各能使用1次,
# 这张卡的①的效果1回合只能使用1次.
THIS_CARD_HEADER = re.compile(
    rf"^(?:这张卡|此卡)?的?[{NUMBERS}]+的效果[^。]*(?:1|每|一)回合(?:(?:1|一)次)?(?:{ONLY}|各能)"
)
# 这张卡反转的场合才能发动: a flip effect in the ygopro wording (反转： in the official one).
FLIPPED = re.compile(r"(?:这张卡|此卡)(?:被)?反转的(?:场合|情况下)")
# 这个卡名的卡在1回合只能发动1张: a limit on the card's activation alone (000 §5.1).
CARD_ACTIVATIONS_ONCE = re.compile(rf"(?:这个卡名|此卡名)的卡[^。]*(?:1|每|一)回合{ONLY}发动(?:1|一)张")
ACTIVATION_LIMIT = -1  # the key of that limit among the header's limits
THIS_CARD_ONCE = re.compile(
    rf"(?:1|每|一)回合(?:1|一)次|(?:这张卡|此卡)的[^。]*(?:1|每|一)回合{ONLY}|(?:1|每|一)回合只有(?:1|一)次"
)
# Both players' standby or end phase is a trigger's time (PHASE), not a quick effect's.
# An old text's limit said after the effect: 这个效果1回合只能使用1次.
ONCE_AFTER = re.compile(rf"(?:这个|此)效果(?:在)?(?:1|每|一)回合{ONLY}(?:使用)?(?:1|一)次")
QUICK = re.compile(
    r"诱发即时|对方回合也(?:能|可以|可)发动|自己[·・]对方回合|自己[·・]对方的(?!准备|结束)|双方回合"
)
# A time no ignition effect can use (the opponent's turn, the battle phase):
# an effect activated then, waiting on no event, is a quick effect.
QUICK_TIME = re.compile(r"对方回合|对方(?:的)?(?:主要|战斗)阶段|战斗阶段|伤害步骤(?!开始时)|伤害计算(?!后)")
# 伤害计算时 / 伤害计算前 name the time an effect is chosen to be activated, not
# an event: 000 §6.3.4.3.2–3 puts monsters' quick effects there.
DAMAGE_CALCULATION = re.compile(r"伤害计算(?:时|前)")
# The damage step's times the rule texts name (000 §6.3.4.3.2–4), and what each makes of an effect.
DAMAGE_TIMES = re.compile(r"伤害计算[时前后]")
DAMAGE_TIME_READINGS = {
    "伤害计算时": (
        "damage_calculation",
        "activated at damage calculation by choice: a quick effect's time",
        "伤害计算时由玩家选择发动：诱发即时效果的时机",
    ),
    "伤害计算前": (
        "damage_quick",
        "before damage calculation: a time for monsters' quick effects",
        "伤害计算前：怪兽的诱发即时效果的时机",
    ),
    "伤害计算后": (
        "after_damage",
        "after damage calculation: effects chained by priority, as triggers",
        "伤害计算后：按优先权组成连锁，如诱发效果",
    ),
}
# Each card type the reader knows, as a Chinese note names it.
CARD_KIND_ZH = {
    "monster": "怪兽卡",
    "normal_spell": "通常魔法",
    "ritual_spell": "仪式魔法",
    "continuous_spell": "永续魔法",
    "field_spell": "场地魔法",
    "equip_spell": "装备魔法",
    "quick_play_spell": "速攻魔法",
    "normal_trap": "通常陷阱",
    "continuous_trap": "永续陷阱",
    "counter_trap": "反击陷阱",
}
# Each effect kind as the Chinese rule texts name it, for a conclusion said in Chinese.
KIND_ZH = {
    "ignition": "起动效果",
    "quick": "诱发即时效果",
    "trigger": "诱发效果",
    "continuous": "永续效果",
    "flip": "反转效果",
    "activation": "卡的发动",
    "summon_condition": "召唤条件",
    "other": "发动以外的效果",
}
# A phase of one's own turn or a step an effect waits on: a trigger, neither
# 'when' nor 'if' (伤害计算后: 000 §6.3.4.3.4).
PHASE = re.compile(r"(?:准备|结束)阶段(?:[，,]|$)|伤害计算后")
# An old text's optional effect with no event: "1回合1次，可以…", "可以丢弃1张手卡，…".
# 可以 granting a permission (an extra summon, attacking, a substitute) is no activation.
OLD_OPTIONAL = re.compile(
    r"(?<!不)可以(?![^。]*?(?:通常召唤|上级召唤|作召唤|不用解放|攻击(?!力)|代替|作为[^。]*使用|当作(?!装备卡)|表示形式|从手卡发动))"
    r"(?!(?:从[^。，把将]*)?特殊召唤(?:（[^）]*）)?(?:。|$))"  # the card's own summon procedure: no activation
)
# A summon condition speaks of this card's own summoning; a lock on the player
# (这个回合自己不能特殊召唤) is not one.
# An extra deck monster's materials (「A」＋「B」, 调整＋调整以外的怪兽1只以上,
# 4星怪兽×2) belong with its summon condition: they are no effect.
SUMMON_CONDITION = re.compile(
    r"^(?:这张卡|此卡)(?:不能通常召唤|只能用|不能特殊召唤|必须用)|^不能通常召唤"
    r"|(?:^|。)(?:这张卡|此卡)[^。，]*不能特殊召唤(?:。|$)|降临(?:。|$)"
    r"|(?:才能|可以)(?:从[^。，把将]*)?特殊召唤(?:（[^）]*）)?(?:。|$)"
    r"|^(?![^。]*(?:发动|场合|时|才能|可以))[^。]*(?:[＋+][^。]*|×\d{1,2}|\d只以上)。?$"
)
# A limit by card name per duel (在决斗中只能使用1次) is no once-per-turn limit.
CARD_NAME_ONCE_PER_DUEL = re.compile(r"(?:这个卡名|此卡名)的[^。]*决斗中只能")
# A clause that is a cost: an action on one's own cards or life points.
COST_CLAUSE = re.compile(
    r"(?:把|将|支付|丢弃|解放|让)[^，]*?"
    r"(?:送去墓地|除外|解放|丢弃|基本分|回到[^，]*卡组(?:最上面|最下面)?|取除(?:\d+个)?|给对方观看|作为cost)$"
    r"|^(?:从[^，]*?)?(?:丢弃|解放|支付|取除)[^，]*$|超量素材取除$"
)
# A cost paid with the card itself: 把这张卡送去墓地, 将此卡除外, 这张卡解放.
SELF_COST = re.compile(r"(?:这张卡|此卡)[^，]{0,4}(?:送去墓地|除外|解放|回到)")
# Where a cost clause's words begin: a 从… stretch leads into its 把 or 丢弃.
COST_START = re.compile(r"从[^，把将]*?(?=把|将|丢弃|解放)|把|将|支付|丢弃|解放|^取除|让")
# A sentence of an unnumbered text that opens a new effect: it says how the
# effect applies (activation, 只要, 1回合1次, 反转), says another begins (此外,
# an old text's また) or opens on an event condition that does not refer back to
# what came before (那…, 这个效果…).
OPENS_EFFECT = re.compile(
    r"才能发动|可以发动|^只要|^1回合1次|^反转|^此外，|^可以|^(?!那|这个效果)[^。]{0,40}?(?:时|的场合|的情况下)，"
)


# An equip spell's restriction on what it equips, said of its activation.
EQUIP_ONLY = re.compile(r"(?:才能|只能|才可以|仅能)装备")
# A sentence about this card that does not refer back to an effect just read.
STATE_OF_THIS_CARD = re.compile(r"(?:这张卡|此卡)(?!的效果)(?![^。]*(?:那|这个效果|此时|因此|这些))")


def read_card_text(text: str, card_kind: str | None = None) -> dict:
    """The reading of a card's Chinese effect text: its effects, each with its
    conclusions and their citations, and notes on what the text cannot decide.
    A text with no word of a card's text in it has no effects."""
    if not CARD_WORDS.search(text):
        return finish_reading(text, card_kind, [], {}, "zh")
    guessed = None if card_kind else card_kind_from_text(text)
    card_kind = card_kind or guessed
    pieces, header_once = _split(text.strip().translate(WIDE_DIGITS))
    effects = [_read_effect(n, body, card_kind, header_once) for n, body in pieces]
    reading = finish_reading(text, card_kind, effects, header_once, "zh")
    if guessed:
        reading["notes"].insert(
            0,
            f"No card named: the text reads as a {guessed.replace('_', ' ')}'s; name the card (its name or password) to be sure.",
        )
        reading["notes_zh"].insert(
            0, f"没有指明卡片：按文本读作{CARD_KIND_ZH[guessed]}；给出卡名或密码以确认。"
        )
    return reading


def language_of(text: str) -> str:
    """'ja' for a text with kana, 'en' for one without CJK, 'zh' otherwise (the
    katakana middle dot ・ and long mark ー appear in Chinese texts too)."""
    if re.search(r"[\u3040-\u309f\u30a0-\u30fa]", text):
        return "ja"
    return "zh" if re.search(r"[\u4e00-\u9fff]", text) else "en"


def card_kind_from_text(text: str) -> str | None:
    """The card type only a spell or trap card's own words give (这张卡在场地区域存在,
    装备怪兽, 这张卡发动后), or None: the text alone does not decide."""
    return next((kind for words, kind in TYPE_WORDS if words.search(text)), None)


def finish_reading(
    text: str, card_kind: str | None, effects: list[dict], header_once: dict[int, str], language: str
) -> dict:
    """The reading from its effects, in any language: the card's own activation
    placed, the notes on what the text cannot decide and where the rule texts
    disagree, each effect's citations gathered."""
    if effects:
        _mark_activation(effects, card_kind, header_once)
    notes: list[str] = []
    notes_zh: list[str] = []  # the same notes, as a Chinese page says them
    if card_kind is None and any(e["kind"] not in ("summon_condition", "continuous") for e in effects):
        notes.append(
            "Without the card's type the text is read as a monster's: a spell or trap card's "
            "activation and its spell speed need the card's type: name the card (its name or password)."
        )
        notes_zh.append(
            "不知卡的种类，文本按怪兽卡读：魔法、陷阱卡的发动及其咒文速度取决于卡的种类，请给出卡名或密码。"
        )
    if any(e["_when_mandatory"] for e in effects):
        notes.append(
            f"001 ({CITES['when_misses']}) says any '…时' effect can miss the timing; 000 "
            f"§{CITES['optional_when_misses']} limits it to optional ones: the narrower, later statement "
            "is followed here."
        )
        notes_zh.append(
            f"001（{CITES['when_misses']}）说凡是“…时”的效果都会错过时点；000 §{CITES['optional_when_misses']} "
            "只限于任意发动的效果：此处从较窄、较新的说法。"
        )
    if any(e["cost"] and e["condition"] for e in effects):
        notes.append(
            f"001 ({CITES['cost_all_before']}) counts everything before 才能 as cost; 002 "
            f"({CITES['parts']}) splits it into condition, cost and target: the narrower, later "
            "statement is followed here."
        )
        notes_zh.append(
            f"001（{CITES['cost_all_before']}）把“才能”之前的全部算作 cost；002（{CITES['parts']}）"
            "将其分为发动条件、cost 和对象：此处从较窄、较新的说法。"
        )
    for effect in effects:
        del effect["_when_mandatory"]
        effect["cites"] = sorted({c["cite"] for c in effect["conclusions"]})
    reading = {"text": text, "card_kind": card_kind, "language": language, "effects": effects}
    return {**reading, "notes": notes, "notes_zh": notes_zh}


def _split(text: str) -> tuple[list[tuple[int, str]], dict[int, str]]:
    """The text's effects as (n, text), and the once-per-turn limits its header
    lines put on numbered effects (n → 'card_name'; 0 stands for every effect),
    a limit on 这个效果 inside a numbered effect on that effect alone."""
    sentences = [s for s in re.split(r"(?<=。)|\n", text) if s.strip() and not LAYOUT_LINE.match(s)]
    header_once: dict[int, str] = {}
    body = []
    current = 0  # the numbered effect being read: 这个卡名的这个效果… limits that one
    for sentence in sentences:
        current = NUMBERS.index(sentence.strip()[0]) + 1 if _numbered(sentence) else current
        if CARD_ACTIVATIONS_ONCE.search(sentence) and not _numbered(sentence):
            header_once[ACTIVATION_LIMIT] = "card_name"
        elif CARD_NAME_ONCE.search(sentence) and not _numbered(sentence):
            this_one = [current] if current and "这个效果" in sentence else [0]
            named = [NUMBERS.index(c) + 1 for c in sentence if c in NUMBERS] or this_one
            header_once.update(dict.fromkeys(named, "card_name"))
        elif THIS_CARD_HEADER.search(sentence.strip()) and not _numbered(sentence):
            header_once.update({NUMBERS.index(c) + 1: "this_card" for c in sentence if c in NUMBERS})
        elif not (CARD_NAME_ONCE_PER_DUEL.search(sentence) and not _numbered(sentence)):
            body.append(sentence.strip())
    joined = "".join(body)
    if any(c in NUMBERS for c in joined):
        return _split_numbered(joined), header_once
    return _split_unnumbered(body), header_once


def _numbered(sentence: str) -> bool:
    """Whether a sentence opens a numbered effect (①：…)."""
    return bool(re.match(rf"[{NUMBERS}][：:]", sentence.strip()))


def _split_numbered(text: str) -> list[tuple[int, str]]:
    """①②③… keep their number; what stands before the first is n = 0."""
    parts = re.split(rf"(?=[{NUMBERS}][：:])", text)
    pieces = []
    for part in filter(None, (p.strip() for p in parts)):
        if part[0] in NUMBERS:
            pieces.append((NUMBERS.index(part[0]) + 1, part[2:].strip()))
        else:
            pieces.extend((0, s) for s in _sentences_joined(part))
    return pieces


def _sentences_joined(text: str) -> list[str]:
    """An unnumbered stretch before ①: one part for its summon condition, one for the rest."""
    sentences = [s for s in re.split(r"(?<=。)", text) if s.strip()]
    summon = "".join(s for s in sentences if SUMMON_CONDITION.search(s))
    rest = "".join(s for s in sentences if not SUMMON_CONDITION.search(s))
    return [part for part in (summon, rest) if part]


def _split_unnumbered(sentences: list[str]) -> list[tuple[int, str]]:
    """A wholly unnumbered text: a summon condition and a sentence that says the
    card's own activation (把这张卡发动) are n = 0, the rest is cut where a
    sentence opens a new effect and numbered 1, 2 … in reading order."""
    opening = [s for s in sentences if SUMMON_CONDITION.search(s) or OWN_ACTIVATION.search(s)]
    pieces = [(0, "".join(s for s in opening if SUMMON_CONDITION.search(s)))]
    pieces += [(0, s) for s in opening if not SUMMON_CONDITION.search(s)]
    effects: list[str] = []
    for sentence in (s for s in sentences if s not in opening):
        if effects and not OPENS_EFFECT.search(sentence) and not _new_state(effects[-1], sentence):
            effects[-1] += sentence
        else:
            effects.append(sentence.removeprefix("此外，"))  # 此外 (また) only says another effect begins
    return [p for p in pieces if p[1]] + [(n, e) for n, e in enumerate(effects, 1)]


def _new_state(effect: str, sentence: str) -> bool:
    """Whether `sentence` states something of this card on its own (这张卡不能直接攻击)
    after an effect whose resolution is already said: an old text's next effect, not
    the rest of the last one (which follows its 发动。, or refers back to it: 那…)."""
    return not re.search(r"发动。$", effect) and bool(STATE_OF_THIS_CARD.match(sentence))


def _activation_stretch(body: str) -> tuple[str, str] | None:
    """The text before the activation (才能发动 / 可以发动, or a mandatory
    …发动) and its marker; None for an effect that is not activated."""
    head = body.split("。")[0] + "。"
    inside = TARGET_INSIDE.search(head)
    if inside:  # the stretch as if the target stood before 可以: condition, cost, then target
        return head[: inside.start()] + inside.group(2), inside.group(1)
    for pattern in (ACTIVATE, MANDATORY):
        match = pattern.search(head)
        # 对方不能把魔法卡发动: a lock forbidding an activation is no activation;
        # 每次自己把魔法卡发动，…: another card's activation, the event of a continuous effect.
        clause = head[: match.start()].split("，")[-1] if match else ""
        if pattern is MANDATORY and re.search(r"把|^每次|^每当", clause) and not EVENT_END.search(clause):
            continue
        if match and not re.search(r"不能|不可以|不会", clause):
            return head[: match.start()], match.group(0) if pattern is ACTIVATE else "发动"
    if SUMMON_CONDITION.search(head):  # a summon procedure (…可以从手卡特殊召唤) is not activated
        return None
    # An old text's event after its limit (1回合1次，…时，可以…): the event read past the
    # limit, the limit kept in the stretch.
    limit = ONCE_FIRST.match(head)
    limit_text = limit.group(0) if limit else ""
    unlimited = head[len(limit_text) :]
    old = OLD_EVENT.match(unlimited) if "代替" not in head else None  # a replacement is not activated
    if old:  # an old text: "…时，可以…" is optional, "…时，…" mandatory
        rest = unlimited[old.end() :]
        if rest.startswith("可以"):  # its cost may follow 可以: 可以把…除外，…
            return limit_text + _old_stretch(old.group(1), rest[2:]), "可以"
        if "可以" not in rest and not _is_event(old.group(1)):
            return None  # a state and what holds in it (没有…的场合，不能攻击): continuous
        return limit_text + old.group(1), "可以" if "可以" in rest else "发动"
    optional = OLD_OPTIONAL.search(head)
    if optional:  # an old optional effect with no event: what stands before 可以, and its cost
        return _old_stretch(head[: optional.start()], head[optional.end() :]), "可以"
    return None


def _old_stretch(before: str, after: str) -> str:
    """An old text's stretch before its activation: what stands before 可以, and
    the first clause after it when that clause is a cost and more follows
    (可以把手卡1张丢弃，… reads as 001 §115 reads 才能: the cost comes first)."""
    before = before.rstrip("，,")
    first, comma, rest = after.partition("，")
    first = first.removeprefix("通过")
    if first.startswith("选择"):  # the eighth period's target, named after 可以
        first = first.split("。")[0]
    if (comma and rest and COST_CLAUSE.search(first)) or first.startswith("选择"):
        return f"{before}，{first}" if before else first
    return before


def _read_effect(n: int, body: str, card_kind: str | None, header_once: dict[int, str]) -> dict:
    """One effect's reading, before the card's activation is placed."""
    stretch = _activation_stretch(body)
    before = stretch[0] if stretch else body.split("。")[0]
    limit = CARD_NAME_ONCE.search(before) or THIS_CARD_ONCE.search(before)
    head = before[limit.end() :] if limit else before
    # What is left of the limit's own words (…使用1次，) is no part of the condition.
    head = re.sub(r"^[^，]*?使用1次[，,]?|^[，,]", "", head) if limit else head
    # A flip effect names its target in its own sentence (反转：以…为对象，…).
    flip = body.startswith("反转") and TARGET.search(body.split("。")[0])
    target = TARGET.search(head) if stretch else flip or None
    # The target may stand before or after the cost: the rest is condition and cost.
    rest = head[: target.start()] + head[target.end() :] if target else head
    condition, cost = _condition_and_cost(rest) if stretch else (None, None)
    event = _last_event(condition)
    wording, chain_response = _wording(condition, event)
    found = {
        "kind": _kind(body, stretch, event, card_kind, chain_response),
        "condition": condition,
        "cost": cost,
        "target": target.group(0) if target else None,
        "once_per_turn": header_once.get(n) or header_once.get(0) or _once(before, body),
        "optional": _optional(stretch, body),
        "trigger_wording": wording,
        "limit": limit and limit.group(0),
    }
    return build_effect(n, body, found, card_kind, chain_response)


def build_effect(n: int, body: str, found: dict, card_kind: str | None, chain_response: bool) -> dict:
    """An effect's reading from what a reader found in its text (kind,
    condition, cost, target, once_per_turn, optional, trigger_wording and the
    limit's words), with its parts marked and each conclusion cited."""
    effect = {
        "n": n,
        "label": NUMBERS[n - 1] if 0 < n <= len(NUMBERS) else f"({n})" if n else "·",
        "text": body,
        **{key: found[key] for key in ("kind", "condition", "cost", "target", "once_per_turn", "optional")},
        "targets": bool(found["target"]),
        "trigger_wording": found["trigger_wording"],
    }
    marked = (("limit", found["limit"]), ("condition", effect["condition"]), ("cost", effect["cost"]))
    effect["parts"] = _parts(body, (*marked, ("target", effect["target"])))
    effect["conclusions"] = []
    _conclude(effect, card_kind, chain_response)
    return effect


def _parts(body: str, marked: tuple[tuple[str, str | None], ...]) -> list[list[str]]:
    """The effect's text cut into [role, text] pieces in reading order: its
    once-per-turn limit, condition, cost and target where it has them, the
    rest plain 'text'."""
    found = sorted((body.find(piece), role, piece) for role, piece in marked if piece and piece in body)
    parts, cursor = [], 0
    for at, role, piece in found:
        if at < cursor:  # overlapping an earlier part: left unmarked
            continue
        if at > cursor:
            parts.append(["text", body[cursor:at]])
        parts.append([role, piece])
        cursor = at + len(piece)
    if cursor < len(body):
        parts.append(["text", body[cursor:]])
    return parts


def _last_event(condition: str | None) -> re.Match | None:
    """The event the effect waits on: the last one its condition names (a
    condition may first say where the card is: 这张卡在墓地存在的场合，…时).
    A clause with no happening in it (…比对方多的场合) is a state, not an event."""
    text = condition or ""
    events = [e for e in EVENT.finditer(text) if _is_event(text[: e.start()])]
    return events[-1] if events else None


def _is_event(before: str) -> bool:
    """Whether the clause ending here names something that happens."""
    clause = re.split(r"[，,]", before)[-1]
    if STATE.search(before) or DAMAGE_CALCULATION.search(before[-4:] + "时"):
        return False
    return bool(HAPPENING.search(clause))


def _condition_and_cost(head: str) -> tuple[str | None, str | None]:
    """002's split of the stretch before the activation: the trailing actions on
    one's own cards or life points are the cost, what precedes them the condition."""
    clauses = [c for c in re.split(r"[，,]", head) if c]
    cost: list[str] = []
    while clauses and COST_CLAUSE.search(clauses[-1]):
        clause = clauses.pop()
        words = COST_START.search(clause)  # none in "这张卡1个超量素材取除"
        start = words.start() if words else 0
        cost.insert(0, clause[start:])
        if start:
            clauses.append(clause[:start])
            break
    condition = "，".join(clauses).strip() or None
    return condition, "，".join(cost) or None


def _kind(body: str, stretch, event, card_kind: str | None, chain_response: bool) -> str:
    """The effect's kind from its markers."""
    if SUMMON_CONDITION.search(body) and not stretch:
        return "summon_condition"
    if body.startswith("反转") or "反转：" in body or FLIPPED.search(stretch[0] if stretch else ""):
        return "flip"
    if card_kind not in (None, "monster"):
        return "other" if stretch else "continuous"
    if not stretch:
        return "continuous"
    if QUICK.search(body) or chain_response:
        return "quick"
    if event:
        return "trigger"
    if QUICK_TIME.search(stretch[0]):
        return "quick"
    return "trigger" if PHASE.search(stretch[0]) else "ignition"


def _chain_response(condition: str, event) -> bool:
    """…发动时 / …之际: a timing met only by chaining directly (002 时点)."""
    return event.group(1) == "之际" or condition[: event.start()].endswith("发动")


def _once(before: str, body: str) -> str:
    """The effect's own once-per-turn limit: before its activation, or said
    after its resolution (这个效果1回合只能使用1次)."""
    if CARD_NAME_ONCE.search(before):
        return "card_name"
    return "this_card" if THIS_CARD_ONCE.search(before) or ONCE_AFTER.search(body) else "none"


def _optional(stretch: tuple[str, str] | None, body: str) -> bool | None:
    """True for 才能发动 / 可以发动 / 可以; False for a mandatory effect (…发动
    without them, or a flip effect, activated, that does not say 可以); None
    for an effect that is not activated."""
    if stretch:
        return stretch[1] != "发动"
    return "可以" in body.split("。")[0] if body.startswith("反转") else None


def _wording(condition: str | None, event) -> tuple[str | None, bool]:
    """'when' for …时, 'if' for …的场合 / 的情况下; a chain-response timing is neither."""
    if not event:
        return None, False
    if _chain_response(condition, event):
        return None, True
    return ("when" if event.group(1) == "时" else "if"), False


def _conclude(effect: dict, card_kind: str | None, chain_response: bool) -> None:
    """Each conclusion of the effect as one line, in English and in Chinese
    (`says`, `says_zh`), with the passage it rests on."""

    def say(about: str, says: str, says_zh: str, cite: str) -> None:
        effect["conclusions"].append({"about": about, "says": says, "says_zh": says_zh, "cite": CITES[cite]})

    kind = effect["kind"]
    effect["spell_speed"] = _speed(kind, card_kind)
    say("kind", f"kind: {kind}", f"种类：{KIND_ZH[kind]}", kind)
    battle = DAMAGE_TIME_READINGS.get(_damage_time(effect, kind))
    if battle:
        say("kind", battle[1], battle[2], battle[0])
    if effect["spell_speed"]:
        speed = effect["spell_speed"]
        say("spell_speed", f"spell speed {speed}", f"咒文速度 {speed}", f"speed_{speed}")
    if effect["optional"] is True:
        say("optional", "optional (才能 / 可以 / できる / You can)", "任意发动（才能 / 可以）", "optional")
    elif effect["optional"] is False:
        say("optional", "mandatory: no 才能 / 可以", "强制发动：没有才能 / 可以", "optional")
    effect["can_miss_timing"] = _misses(effect, chain_response, say)
    effect["_when_mandatory"] = effect["trigger_wording"] == "when" and effect["optional"] is False
    if effect["condition"]:
        say("condition", f"condition: {effect['condition']}", f"发动条件：{effect['condition']}", "parts")
    if effect["cost"]:
        say("cost", f"cost: {effect['cost']}", f"cost：{effect['cost']}", "cost_written_before")
    if effect["targets"]:
        say("targets", f"targets: {effect['target']}", f"取对象：{effect['target']}", "parts_example")
    once = effect["once_per_turn"]
    if once == "card_name":
        say(
            "once_per_turn",
            "once per turn by card name, for the player",
            "同名卡每回合限制（对玩家）",
            "once_card_name",
        )
    elif once == "this_card":
        say("once_per_turn", "once per turn for this card itself", "这张卡自身每回合限制", "once_this_card")


def _damage_time(effect: dict, kind: str) -> str | None:
    """The damage step's time a quick effect or trigger names, if any."""
    battle = DAMAGE_TIMES.search(effect["condition"] or "") if kind in ("quick", "trigger") else None
    return battle.group(0) if battle else None


def _misses(effect: dict, chain_response: bool, say) -> bool | None:
    """001's and 000's miss-timing rule: only an optional 'when' trigger (or a
    card whose activation waits on a 'when' event) can miss the timing."""
    about = "can_miss_timing"
    if chain_response:
        say(
            about,
            "a chain-response timing (…发动时 / …之际): chained directly or not at all",
            "连锁对应的时点（…发动时 / …之际）：只能直接连锁发动",
            "chain_response",
        )
        return None
    wording = effect["trigger_wording"]
    if effect["kind"] == "flip" and wording != "when":
        # 反转： and 反转的场合 say no 'when' (…时): only a 'when' effect can miss (001).
        say(
            about,
            "cannot miss the timing: a flip effect, not worded 'when' (…时)",
            "不会错过时点：反转效果，没有“…时”的记述",
            "if_never_misses" if wording == "if" else "when_misses",
        )
        return False
    # A spell or trap's effect other than its activation waits on its event as a trigger does.
    if effect["kind"] not in ("trigger", "activation", "other") or wording is None:
        return None
    if wording == "if":
        say(
            about,
            "cannot miss the timing: an 'if' (…的场合) effect",
            "不会错过时点：“…的场合”的效果",
            "if_never_misses",
        )
        return False
    if not effect["optional"]:
        said = ("cannot miss the timing: a mandatory 'when' trigger", "不会错过时点：强制发动的“…时”诱发效果")
    elif effect["kind"] != "activation":
        said = ("can miss the timing: an optional 'when' trigger", "会错过时点：任意发动的“…时”诱发效果")
    else:
        said = (
            "can miss the timing: an activation that waits on a 'when' event",
            "会错过时点：等待“…时”事件的发动",
        )
    say(about, *said, "optional_when_misses")
    return bool(effect["optional"])


def _speed(kind: str, card_kind: str | None) -> int | None:
    """The spell speed of an activated effect (002 咒文速度); None for one not activated."""
    if kind in ("ignition", "trigger", "flip"):
        return 1
    if kind == "quick":
        return 2
    if kind == "activation":
        return ACTIVATION_SPEED.get(card_kind or "")
    if kind == "other" and card_kind:
        return 2 if card_kind.endswith("trap") else 1
    return None


def _mark_activation(effects: list[dict], card_kind: str | None, header_once: dict[int, str]) -> None:
    """A spell or trap card's own activation: the first effect that says so
    (把这张卡发动, 这张卡的发动), else the first that can be, as
    `_is_the_activation` decides, not used from the graveyard or banishment;
    failing both, an activation with no effect of its own (n = 0)."""
    if card_kind in (None, "monster"):
        return
    for effect in effects:
        elsewhere = re.search(r"墓地的这张卡|这张卡在墓地|除外的这张卡|墓地的此卡|此卡在墓地", effect["text"])
        says_so = OWN_ACTIVATION.search(effect["text"])
        if not elsewhere and (says_so or _is_the_activation(effect, card_kind)):
            effect["kind"], effect["optional"] = "activation", True
            effect["once_per_turn"] = header_once.get(ACTIVATION_LIMIT, effect["once_per_turn"])
            effect["conclusions"].clear()
            event = _last_event(effect["condition"])
            chain_response = bool(event) and _chain_response(effect["condition"], event)
            _conclude(effect, card_kind, chain_response)
            return
    effects.insert(0, _bare_activation(card_kind, header_once))


def _bare_activation(card_kind: str, header_once: dict[int, str]) -> dict:
    """000 §4.2.1: a spell or trap placed face-up on the field is always
    activated. A card whose text names no activated effect for it (a continuous,
    field or equip spell of continuous effects alone) still has its activation:
    n = 0, with no effect of its own, its limit the card's (发动1张)."""
    effect = _read_effect(0, "", card_kind, header_once)
    effect["kind"], effect["optional"] = "activation", True
    effect["once_per_turn"] = header_once.get(ACTIVATION_LIMIT, "none")
    effect["conclusions"].clear()
    _conclude(effect, card_kind, False)
    effect["conclusions"][0].update(
        says="kind: activation (the card's own, with no effect of its own)",
        says_zh="种类：卡的发动（没有效果）",
    )
    return effect


def _is_the_activation(effect: dict, card_kind: str) -> bool:
    """Whether an effect is the card's activation by its card type: a normal,
    quick-play or ritual spell's or a normal or counter trap's first effect is;
    a continuous trap's first activated effect that is not once per turn (its
    later effects are); an equip spell's unnumbered "…才能装备" (whom it equips);
    a continuous or field spell's only by its words."""
    if card_kind == "equip_spell":  # 「X」怪兽才能装备: whom its activation may equip
        return effect["n"] == 0 and bool(EQUIP_ONLY.search(effect["text"]))
    if card_kind in ("continuous_spell", "field_spell"):
        return False
    if card_kind == "continuous_trap":
        # Nor one that pays with the card itself (把这张卡送去墓地): it is on the field already.
        pays_itself = SELF_COST.search(effect["cost"] or "")
        return effect["kind"] == "other" and effect["once_per_turn"] == "none" and not pays_itself
    return effect["kind"] in ("other", "continuous")
