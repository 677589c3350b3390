"""Text for the sandbox web, written for this project: word lists and sentence templates that a
seeded `random.Random` combines into titles, paragraphs, comments, names and times.

Tax text uses the vocabulary a tax crawl looks for; the other subjects (sports, culture,
technology, stock markets …) share everyday words with it, and markets share company words,
so relevance is not a matter of one keyword.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

REGIONS = ["北京市", "上海市", "广东省", "浙江省", "江苏省", "四川省", "湖北省", "山东省", "福建省", "河南省", "深圳市", "天津市"]  # fmt: skip

TAX_SUBJECTS = ["税务局", "税务机关", "国家税务总局", "稽查局", "财政部", "海关", "纳税人", "一般纳税人", "小规模纳税人", "个体工商户", "企业", "扣缴义务人", "税务师"]  # fmt: skip
TAX_TERMS = ["增值税", "印花税", "个人所得税", "企业所得税", "消费税", "出口退税", "增值税专用发票", "电子发票", "税收优惠", "纳税申报", "汇算清缴", "专项附加扣除", "加计扣除", "土地增值税", "房产税", "契税", "环境保护税", "纳税信用等级", "金税四期", "税收征管"]  # fmt: skip
TAX_JUDGEMENTS = ["偷税", "逃避缴纳税款", "虚开增值税专用发票", "骗取出口退税", "税务稽查", "行政处罚", "罚款", "滞纳金", "追缴税款", "补缴税款", "移送公安机关", "典型案例", "曝光"]  # fmt: skip
COMPANIES = ["某贸易有限公司", "某科技股份有限公司", "某建筑工程公司", "某餐饮管理公司", "某电子商务公司", "某物流集团", "某房地产开发公司", "某医药连锁企业", "某网络主播", "某服装加工厂"]  # fmt: skip
AMOUNTS = ["12.6万元", "38万元", "105万元", "260万元", "1,380万元", "2.3亿元", "7,420万元", "56万元", "890万元"]  # fmt: skip

TAX_TITLES = [
    "{region}{subject}公布{n}起{judgement}{case}",
    "{term}新政解读：{aspect}",
    "{region}{company}{judgement}被查，{verb}{amount}",
    "关于{term}有关问题的公告",
    "{term}{aspect}，{subject}这样说",
    "{subject}提醒：{term}{deadline}前完成",
    "{region}推出{term}便民措施 {subject}办税更省心",
    "{n}问{n2}答带你了解{term}",
]  # fmt: skip
TAX_ASPECTS = ["政策要点一图读懂", "适用范围有哪些变化", "申报流程全解析", "常见问题答疑", "优惠如何享受", "征管新要求"]  # fmt: skip
TAX_SENTENCES = [
    "{region}{subject}近日通报，{company}通过{judgement_how}少缴{term}{amount}。",
    "经查，该公司在{year}年至{year2}年期间{judgement_how}，{subject}依法追缴税款、加收滞纳金并处罚款共计{amount}。",
    "{subject}表示，将持续加大对{judgement}等涉税违法行为的打击力度，维护公平公正的税收秩序。",
    "根据新规定，{subject}办理{term}时，可以通过电子税务局在线完成{procedure}。",
    "{term}政策自{year}年{month}月1日起施行，{subject}应当按规定办理{procedure}。",
    "专家提醒，{subject}应规范开具和使用发票，防范{term}方面的涉税风险。",
    "今年以来，{region}累计为{subject}办理{term}{amount}，惠及市场主体{n}万户。",
    "对于{judgement}的行为，税务机关将依据税收征收管理法予以{penalty}。",
    "{subject}如对{term}政策有疑问，可拨打12366纳税服务热线咨询。",
    "此次{term}调整主要涉及{aspect2}，对{subject}的影响总体可控。",
]  # fmt: skip
JUDGEMENT_HOW = ["隐匿销售收入", "虚开增值税专用发票", "虚假申报", "个人卡收款不申报", "虚构出口业务骗取出口退税", "两套账隐瞒收入"]  # fmt: skip
PROCEDURES = ["纳税申报", "发票领用", "退税申请", "汇算清缴", "税务登记变更", "减免税备案"]  # fmt: skip
PENALTIES = ["追缴税款并处罚款", "加收滞纳金", "行政处罚", "移送公安机关处理"]  # fmt: skip
ASPECTS2 = ["税率档次", "申报期限", "扣除标准", "适用范围", "征收方式", "发票管理"]  # fmt: skip

OTHER_SUBJECTS: dict[str, dict[str, list[str]]] = {
    "sports": {
        "titles": ["{team}主场{score}力克{team2} 继续领跑积分榜", "{player}梅开二度 {team}逆转取胜", "{event}落幕 {team}夺得冠军", "{team}官宣新帅 目标直指{event}"],
        "sentences": ["比赛第{n}分钟，{player}接队友传球破门，帮助{team}取得领先。", "{team}主教练在赛后发布会上表示，球队的防守还有提升空间。", "本场比赛吸引了{n}万名观众到场观战，现场气氛热烈。", "{team2}在下半场加强了进攻，但始终未能扳平比分。", "据悉，{player}本赛季已经打进{n}球，位列射手榜前列。", "下一轮比赛，{team}将客场挑战{team2}。"],
        "words": {"team": ["北京国安", "上海海港", "山东泰山", "成都蓉城", "广州队", "武汉三镇"], "team2": ["浙江队", "天津津门虎", "河南队", "长春亚泰", "深圳新鹏城"], "player": ["张稀哲", "武磊", "费南多", "韦世豪", "王钰栋"], "event": ["中超联赛", "足协杯", "亚冠联赛", "全运会"], "score": ["2比1", "3比0", "1比0", "4比2"]},
    },
    "culture": {
        "titles": ["电影《{film}》定档{month}月 {actor}领衔主演", "{actor}新剧开播 口碑两极", "{festival}开幕 {n}部作品入围", "《{film}》票房破{n}亿 观众热议结局"],
        "sentences": ["影片讲述了一个发生在{city}的温情故事，{actor}在片中饰演一名普通教师。", "导演透露，剧组在{city}拍摄了{n}个月，力求还原真实的生活场景。", "{festival}期间，观众可以在{city}的{n}家影院观看入围影片。", "不少网友表示，{actor}的表演细腻动人，令人印象深刻。", "该剧改编自同名小说，原著曾获得多项文学奖项。", "主创团队表示，希望作品能够引发观众对家庭与亲情的思考。"],
        "words": {"film": ["山河故人", "春天的约定", "长河落日", "远方的灯火", "城南旧事新编"], "actor": ["刘晓丽", "陈伟", "赵敏", "王一凡", "孙悦"], "festival": ["上海国际电影节", "北京国际电影节", "金鸡百花电影节"], "city": ["重庆", "西安", "厦门", "青岛", "苏州"]},
    },
    "technology": {
        "titles": ["{brand}发布新一代{product} 续航提升{n}成", "{brand}{product}评测：{verdict}", "国产{product}出货量同比增长{n}%", "{brand}开发者大会召开 {tech}成焦点"],
        "sentences": ["新款{product}搭载自研芯片，性能较上一代提升约{n}%。", "{brand}表示，{tech}将逐步应用到更多产品线中。", "业内人士认为，{tech}的普及将改变人们的出行和生活方式。", "发布会上，{brand}还展示了多款智能穿戴设备。", "该{product}起售价为{n}999元，将于下月正式开售。", "有分析指出，{product}市场竞争日趋激烈，价格战难以避免。"],
        "words": {"brand": ["华芯", "星辰科技", "云帆", "极光电子", "青禾智能"], "product": ["手机", "平板电脑", "笔记本电脑", "智能手表", "新能源汽车"], "tech": ["人工智能大模型", "卫星通信", "固态电池", "折叠屏", "自动驾驶"], "verdict": ["轻薄与性能兼得", "影像能力大幅提升", "性价比突出"]},
    },
    "markets": {
        "titles": ["沪指{move}{pct}% {sector}板块{action}", "{company2}发布年报 净利润同比增长{n}%", "{sector}概念股{action} 机构看好后市", "A股三大指数{move} 成交额超{n}千亿元"],
        "sentences": ["截至收盘，沪指{move}{pct}%，深证成指和创业板指同步{move}。", "{sector}板块表现活跃，多只个股涨停。", "{company2}公告称，公司上半年实现营业收入{n}亿元，同比增长明显。", "分析人士认为，市场情绪有所回暖，投资者可关注业绩确定性较强的企业。", "北向资金今日净买入{n}亿元，连续多个交易日净流入。", "公司管理层表示，将继续加大研发投入，提升核心竞争力。"],
        "words": {"move": ["上涨", "下跌", "微涨", "收跌"], "pct": ["0.58", "1.21", "0.33", "2.06"], "sector": ["半导体", "新能源", "医药", "白酒", "银行"], "action": ["集体走强", "震荡调整", "领涨两市", "午后拉升"], "company2": ["某银行", "某光伏企业", "某白酒龙头", "某券商"]},
    },
    "travel": {
        "titles": ["{city}{season}旅游升温 {spot}游客量创新高", "{city}推出{n}条精品旅游线路", "{spot}{season}限流 游客需提前预约", "假期出游指南：{city}必去的{n}个地方"],
        "sentences": ["{season}到来，{city}的{spot}迎来了大批游客。", "景区负责人介绍，今年假期日均接待游客{n}万人次。", "为了保障游客安全，{spot}实行分时段预约入园。", "不少游客表示，{city}的美食和风景都让人流连忘返。", "当地文旅部门推出了多项惠民措施，部分景区门票半价。", "气象部门提醒，近期{city}昼夜温差较大，出行注意添衣保暖。"],
        "words": {"city": ["杭州", "桂林", "大理", "哈尔滨", "三亚", "张家界"], "spot": ["西湖", "漓江", "洱海", "冰雪大世界", "天涯海角", "天门山"], "season": ["春季", "暑期", "国庆", "冬季"]},
    },
}  # fmt: skip
OTHER_TOPICS = tuple(OTHER_SUBJECTS)

NICKNAMES = ["老会计", "税务小白", "财务张姐", "路人甲", "阳光男孩", "江南烟雨", "追风少年", "小王同学", "深蓝", "学习使我快乐", "打工人", "夜猫子", "一只鱼", "清风徐来", "老李", "开心果", "月亮代表我的心", "会计小刘", "创业者老陈", "吃瓜群众"]  # fmt: skip
TAX_COMMENTS = [
    "支持严厉打击{judgement}，维护公平的营商环境！",
    "请问小规模纳税人{term}怎么申报？有没有详细的操作指南？",
    "这个政策对我们小企业来说确实是利好，{term}能省不少。",
    "{company}这么大的金额，早就该查了。",
    "希望税务部门多出这样的解读，通俗易懂。",
    "我们公司去年也做了{term}，流程比以前简单多了。",
    "依法纳税是每个公民的义务，{judgement}迟早要被查。",
    "有没有懂的朋友说一下，{term}和以前相比到底变了什么？",
    "转发给财务同事学习一下。",
    "12366打了好几次才打通，建议增加人手。",
]  # fmt: skip
GENERAL_COMMENTS = ["说得很有道理，赞一个！", "楼上说得对。", "看完了，感觉还行吧。", "这个消息是真的吗？", "期待后续报道。", "第一次评论，支持一下。", "写得不错，收藏了。", "不太认同作者的观点。", "现场去看过，确实很精彩。", "有同样感受的请举手。"]  # fmt: skip
REVIEW_TEXTS = ["质量很好，和描述一致，物流也快。", "用了一周，感觉不错，性价比高。", "包装有点简陋，但东西没问题。", "客服态度很好，耐心解答问题。", "颜色比图片稍深，整体满意。", "第二次购买了，一如既往的好。", "尺寸偏小，建议买大一号。"]  # fmt: skip
PRODUCTS = ["无线蓝牙耳机", "保温杯", "双肩背包", "机械键盘", "空气炸锅", "纯棉T恤", "护眼台灯", "电动牙刷", "收纳箱", "运动水壶", "手机支架", "加湿器"]  # fmt: skip


class Writer:
    """Deterministic text from a seeded RNG; every method draws from `self.rng` only."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def pick(self, items):
        return self.rng.choice(items)

    def _fill(self, template: str, words: dict[str, list[str]] | None = None) -> str:
        rng = self.rng
        year = rng.randint(2019, 2025)
        values = {
            "region": self.pick(REGIONS),
            "subject": self.pick(TAX_SUBJECTS),
            "term": self.pick(TAX_TERMS),
            "judgement": self.pick(TAX_JUDGEMENTS),
            "judgement_how": self.pick(JUDGEMENT_HOW),
            "company": self.pick(COMPANIES),
            "amount": self.pick(AMOUNTS),
            "aspect": self.pick(TAX_ASPECTS),
            "aspect2": self.pick(ASPECTS2),
            "procedure": self.pick(PROCEDURES),
            "penalty": self.pick(PENALTIES),
            "case": self.pick(["典型案例", "案件", "违法案件"]),
            "verb": self.pick(["被追缴", "被罚", "补缴"]),
            "deadline": self.pick(["6月30日", "5月31日", "3月31日", "年底"]),
            "year": str(year),
            "year2": str(year + rng.randint(1, 2)),
            "month": str(rng.randint(1, 12)),
            "n": str(rng.randint(2, 30)),
            "n2": str(rng.randint(3, 40)),
        }
        for key, options in (words or {}).items():
            values[key] = self.pick(options)
        return template.format(**values)

    def tax_title(self) -> str:
        return self._fill(self.pick(TAX_TITLES))

    def tax_paragraphs(self, count: int) -> list[str]:
        return [
            "".join(self._fill(self.pick(TAX_SENTENCES)) for _ in range(self.rng.randint(2, 4)))
            for _ in range(count)
        ]

    def other_title(self, subject: str) -> str:
        spec = OTHER_SUBJECTS[subject]
        return self._fill(self.pick(spec["titles"]), spec["words"])

    def other_paragraphs(self, subject: str, count: int) -> list[str]:
        spec = OTHER_SUBJECTS[subject]
        return [
            "".join(
                self._fill(self.pick(spec["sentences"]), spec["words"])
                for _ in range(self.rng.randint(2, 4))
            )
            for _ in range(count)
        ]

    def nickname(self) -> str:
        name = self.pick(NICKNAMES)
        return name if self.rng.random() < 0.6 else f"{name}{self.rng.randint(1, 999)}"

    def comment(self, on_tax: bool) -> str:
        if on_tax and self.rng.random() < 0.7:
            return self._fill(self.pick(TAX_COMMENTS))
        return self.pick(GENERAL_COMMENTS)

    def review(self) -> str:
        return self.pick(REVIEW_TEXTS)

    def product(self) -> str:
        return self.pick(PRODUCTS)

    def time_after(self, start: datetime, max_hours: int) -> datetime:
        return start + timedelta(minutes=self.rng.randint(5, max_hours * 60))


def format_time(when: datetime, style: str) -> str:
    """A time as sites write it: 'iso' 2026-03-01 08:05, 'zh' 2026年3月1日 08:05, 'slash'."""
    if style == "zh":
        return f"{when.year}年{when.month}月{when.day}日 {when:%H:%M}"
    if style == "slash":
        return f"{when:%Y/%m/%d %H:%M}"
    return f"{when:%Y-%m-%d %H:%M}"
