"""Written pages, batch 16 (written after batches 1-15 were fixed, scored before its own
fixes): Chinese forums of custom themes and news comments: a parenting-forum-like thread (a
custom theme: floors with "楼主"/"2楼", a poster card with a member group, an active-members
box beside the posts), a ThePaper-like news comment list (the name, the time and the place
("浙江") on one line, a like count), an iFeng-like comment list ("5月12日 10:20" and the
place before it), a Xiaomi-community-like thread (cards: the name, "2天前", "来自 小米13"), and a
KDS-like thread (a table a post: "作者：X  发表于：2023-05-12 10:20:31")."""


def mama(items, active):
    floors = ["楼主", "2楼", "3楼"]
    posts = "".join(
        f"""<div class="floor-item" id="floor{i + 1}"><div class="floor-user"><a class="floor-avatar" href="/space/{600 + i}"><img src="/avatar/{i}.jpg"></a><p class="floor-name"><a href="/space/{600 + i}">{u}</a></p>
<p class="floor-group">{group}</p><p class="floor-baby">宝宝：{baby}</p></div><div class="floor-main"><div class="floor-head"><span class="floor-no">{floors[i]}</span><span class="floor-date">发表于 {t}</span><span class="floor-from">来自手机</span></div>
<div class="floor-text">{text}</div><div class="floor-ops"><a href="#">回复</a><a href="#">点赞</a><a href="#">举报</a></div></div></div>"""
        for i, (u, group, baby, t, text) in enumerate(items)
    )
    actives = "".join(
        f"""<li><a href="/space/{900 + j}"><img src="/avatar/a{j}.jpg"><span>{m}</span></a><em>{pts}积分</em></li>"""
        for j, (m, pts) in enumerate(active)
    )
    return f"""<html><head><title>宝宝六个月了还不会翻身正常吗？-育儿交流-某某妈妈网</title></head><body><div class="site-top"><a href="/">某某妈妈网</a><a href="/bbs/">论坛</a></div>
<div class="bbs-wrap"><div class="bbs-main"><h1 class="thread-title">宝宝六个月了还不会翻身正常吗？</h1><div class="floor-list">{posts}</div></div>
<div class="bbs-side"><div class="side-box"><h3>活跃妈妈</h3><ul class="active-list">{actives}</ul></div></div></div></body></html>"""


MAMA = [
    (
        "豆豆妈2022",
        "铜牌会员",
        "6个月",
        "2023-05-12 10:20",
        "宝宝六个月了，趴着能抬头，但是一直不会自己翻身，体检的时候医生也没说什么，有点担心。",
    ),
    (
        "二胎妈咪",
        "金牌会员",
        "3岁",
        "2023-05-12 11:02",
        "我家老大七个月才会翻，每个宝宝发育不一样，多让他趴着玩，拿玩具在旁边逗他。",
    ),
    (
        "小满妈",
        "新手上路",
        "5个月",
        "2023-05-13 09:15",
        "我们也是，五个月了还没翻过身，看了大家说的安心多了。",
    ),
]
MAMA_ACTIVE = [("糖糖妈", 2301), ("乐乐妈妈", 1988), ("一一的妈", 1765)]


def thepaper(items):
    divs = "".join(
        f"""<div class="comment_que"><div class="aqwleft"><div class="aqwright"><a href="/user_{700 + i}" target="_blank"><img src="/u/{i}.png" class="avatar"></a></div></div>
<div class="aqwright"><h3><a href="/user_{700 + i}" target="_blank">{u}</a><span>{t}</span><span class="ip">{place}</span></h3><div class="ansright_cont">{text}</div>
<div class="ansright_time"><a class="zan" href="javascript:;">{i * 13 + 4}</a><a class="reply" href="javascript:;">回复</a></div></div></div>"""
        for i, (u, t, place, text) in enumerate(items)
    )
    return f"""<html><head><title>多地发布高温预警 专家提醒注意防暑_澎湃新闻</title></head><body><div class="head_banner"><a href="/">澎湃新闻</a></div>
<div class="newscontent"><h1 class="news_title">多地发布高温预警 专家提醒注意防暑</h1><div class="news_about"><p>澎湃新闻记者 王某</p><p>2023-05-12 08:30 来源：澎湃新闻</p></div>
<div class="news_txt">{"受副热带高压影响，多地最高气温将超过三十七摄氏度，专家提醒市民减少午后外出，注意补充水分。" * 5}</div></div>
<div class="comment_list"><h2>评论（{len(items)}）</h2>{divs}</div></body></html>"""


THEPAPER = [
    ("夏天的风", "2023-05-12 09:02", "浙江", "今年热得太早了，五月就要开空调。"),
    ("老张看新闻", "2023-05-12 09:30", "上海", "户外工作的人最辛苦，希望单位能调整作息时间。"),
    ("清凉一夏", "2023-05-12 10:15", "广东", "多喝水，少吃冰的，肠胃受不了。"),
]


def ifeng(items):
    lis = "".join(
        f"""<div class="comment-item-1"><div class="user-1"><a href="/u/{u}"><img src="/u/{i}.png" class="face-1"></a></div><div class="box-1"><div class="info-1"><span class="name-1"><a href="/u/{u}">{u}</a></span><span class="location-1">{place}</span><span class="time-1">{t}</span></div>
<div class="text-1">{text}</div><div class="tool-1"><span class="up-1">{i * 7 + 3}</span><span class="reply-btn-1">回复</span></div></div></div>"""
        for i, (u, place, t, text) in enumerate(items)
    )
    return f"""<html><head><title>新能源车下乡活动启动_凤凰网</title></head><body><div class="nav"><a href="/">凤凰网</a><a href="/auto">汽车</a></div>
<div class="artical"><h1 class="topic">新能源车下乡活动启动</h1><div class="info"><span>2023年05月12日 07:45</span><span>来源：凤凰网汽车</span></div><div class="main_content"><p>{"多家车企推出下乡车型，价格在十万元以内，同时配套建设乡镇充电桩。" * 6}</p></div></div>
<div class="comment-1"><h3>网友评论</h3><div class="list-1">{lis}</div></div></body></html>"""


IFENG = [
    ("开电车的老王", "山东济南", "5月12日 10:20", "农村充电桩太少了，先把桩建起来再说。"),
    ("乡村教师", "河南", "5月12日 11:05", "十万以内的电车跑个县城足够了，比油车省钱。"),
    ("观望中", "四川成都", "5月13日 08:47", "冬天续航打折是硬伤，北方农村慎重。"),
]


def xiaomi(items):
    cards = "".join(
        f"""<div class="post-card"><div class="post-card-head"><a class="avatar" href="/user/{880 + i}"><img src="/u/{i}.png"></a><div class="head-info"><div class="name-line"><a class="nick" href="/user/{880 + i}">{u}</a><span class="level-badge">Lv.{lv}</span></div>
<div class="meta-line"><span>{age}</span><span class="device">来自 {device}</span></div></div></div><div class="post-card-body"><p>{text}</p></div>
<div class="post-card-foot"><span class="like">{i * 9 + 1}</span><span class="reply">回复</span></div></div>"""
        for i, (u, lv, age, device, text) in enumerate(items)
    )
    return f"""<html><head><title>升级新系统后续航怎么样？ - 小米社区</title></head><body><div class="top-bar"><a href="/">小米社区</a><a href="/forum">版块</a></div>
<div class="detail-wrap"><h1 class="detail-title">升级新系统后续航怎么样？</h1><div class="reply-list"><div class="reply-count">全部回复 {len(items)}</div>{cards}</div></div>
<div class="aside-wrap"><div class="hot-box"><h3>热门帖子</h3><ul><li><a href="/t/1">新机上手体验</a><span>2.3万浏览</span></li><li><a href="/t/2">拍照样张分享</a><span>1.1万浏览</span></li></ul></div></div></body></html>"""


XIAOMI = [
    ("米粉老刘", 6, "2天前", "小米13", "升级两天了，续航比之前好一点，待机掉电明显少了。"),
    ("数码小白", 3, "1天前", "Redmi K60", "我的感觉差不多，就是发热好了一些，玩游戏没那么烫了。"),
    ("夜猫子", 4, "5小时前", "小米12S", "建议升级完重启两次再观察，刚升级后台在优化会耗电。"),
]


def kds(items):
    tables = "".join(
        f"""<table class="post-table" width="100%" cellpadding="6"><tr class="post-head"><td class="post-author-line">作者：<a href="/user.asp?name={u}">{u}</a>&nbsp;&nbsp;发表于：{t}&nbsp;&nbsp;<span class="post-floor">{"楼主" if i == 0 else f"{i}楼"}</span></td>
<td class="post-tools" align="right"><a href="#">引用</a> | <a href="#">回复</a></td></tr><tr class="post-body"><td colspan="2"><div class="post-text">{text}</div></td></tr></table>"""
        for i, (u, t, text) in enumerate(items)
    )
    return f"""<html><head><title>城市停车难怎么解决？_猫眼看人_凯迪社区</title></head><body><div class="kds-top"><a href="/">凯迪社区</a> &gt; <a href="/list.asp?b=1">猫眼看人</a></div>
<div class="kds-main"><h2 class="kds-title">城市停车难怎么解决？</h2>{tables}</div><div class="kds-foot">凯迪网络 版权所有</div></body></html>"""


KDS = [
    (
        "老城居民",
        "2023-05-12 10:20:31",
        "小区是九十年代建的，车位只有住户的三分之一，每天晚上找车位要转半个小时。",
    ),
    (
        "规划师李工",
        "2023-05-12 11:02:47",
        "老小区可以利用周边学校和单位的停车场错时共享，晚上开放给居民。",
    ),
    ("骑车上班", "2023-05-13 09:15:08", "少开车多骑车，三公里以内的路程骑车比开车还快。"),
]
