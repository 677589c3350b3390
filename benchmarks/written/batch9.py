"""Written pages, batch 9 (written after batches 1-8 were fixed, scored before its own fixes):
a Douban-movie-like review list (name link, rating, time, a review title and a short text), a
JD-like product review list (the buyer's name as plain text beside an avatar, the time among
order details), a government message board ("留言人：", "留言时间：", a department's reply under
each message), a WeChat-like list of selected comments (nicknames, no times, the author's
reply under some), and a Sina-news-like comment list whose user line carries a place."""


def douban_reviews(items):
    divs = "".join(
        f"""<div data-cid="{800 + i}"><div class="main review-item" id="{800 + i}"><header class="main-hd"><a href="https://www.douban.example.test/people/{uid}/" class="avator"><img width="24" height="24" src="/u.jpg"></a>
<a href="https://www.douban.example.test/people/{uid}/" class="name">{u}</a><span class="allstar{stars}0 main-title-rating" title="{rt}"></span><span content="{t[:10]}" class="main-meta">{t}</span></header>
<div class="main-bd"><h2><a href="https://movie.douban.example.test/review/{800 + i}/">{title}</a></h2><div class="review-short" data-rid="{800 + i}"><div class="short-content">{text} ...&nbsp;(<a href="javascript:;" class="unfold">展开</a>)</div></div>
<div class="action"><a href="javascript:;" class="action-btn up"><span>{i * 31 + 5}</span></a><a href="javascript:;" class="action-btn down"><span>{i}</span></a><a href="https://movie.douban.example.test/review/{800 + i}/#comments" class="reply">{i * 4} 回应</a></div></div></div></div>"""
        for i, (u, uid, stars, rt, t, title, text) in enumerate(items)
    )
    return f"""<html><head><title>流浪地球2的影评 (3)</title></head><body><div id="db-global-nav"><a href="/">豆瓣</a> <a href="/movie">电影</a></div>
<div id="wrapper"><div id="content"><h1>流浪地球2的影评 · · · · · · (全部 3 条)</h1><div class="article"><div class="review-list">{divs}</div></div>
<div class="aside"><h2>电影信息</h2><p>导演: 郭帆</p><p>类型: 科幻 / 冒险 / 灾难</p><p>上映日期: 2023-01-22(中国大陆)</p></div></div></div></body></html>"""


DOUBAN_REVIEWS = [
    (
        "影迷老周",
        "zhou1",
        5,
        "力荐",
        "2023-01-23 01:12:09",
        "中国科幻的新高度",
        "特效和世界观都非常扎实，三个小时一点不觉得长，数字生命的线索尤其动人。",
    ),
    (
        "胶片控",
        "film2",
        4,
        "推荐",
        "2023-01-24 20:45:31",
        "比第一部更完整",
        "剧情比第一部更完整，人物也更立体，只是个别台词有点说教。",
    ),
    (
        "周末看电影",
        "wk3",
        3,
        "还行",
        "2023-01-26 15:02:44",
        "视觉满分，节奏一般",
        "视觉效果没得说，但是多条线交错，节奏偶尔拖沓。",
    ),
]


def jd(items):
    divs = "".join(
        f"""<div class="comment-item" data-guid="{9900 + i}"><div class="user-column"><div class="user-info"><img src="/jd/u{i}.jpg" width="25" height="25" alt="{u}" class="avatar">{u}</div><div class="user-level"><span class="comment-plus-icon">PLUS会员</span></div></div>
<div class="comment-column J-comment-column"><div class="comment-star star{stars}"></div><p class="comment-con">{text}</p><div class="comment-message"><div class="order-info"><span>颜色：{color}</span><span>尺码：{size}</span><span>{t}</span></div>
<div class="comment-op"><a class="J-report" href="javascript:;">举报</a><a class="J-nice" href="javascript:;"><i class="sprite-praise"></i>{i * 6 + 2}</a><a href="#" class="J-reply"><i class="sprite-comment"></i>{i}</a></div></div></div></div>"""
        for i, (u, stars, text, color, size, t) in enumerate(items)
    )
    return f"""<html><head><title>【京东】某品牌羽绒服 男款 - 商品评价</title></head><body><div id="shortcut"><a href="/">京东首页</a> <a href="/cart">购物车</a></div>
<div class="product-intro"><div class="sku-name">某品牌 男士连帽羽绒服 90%白鸭绒 冬季保暖外套</div><div class="summary-price"><span class="p-price">￥699.00</span></div></div>
<div id="comment"><div class="mc"><div class="comment-info"><div class="comment-percent"><strong class="percent-tit">好评度</strong><div class="percent-con">96<span>%</span></div></div></div><div class="comment-list">{divs}</div></div></div></body></html>"""


JD = [
    (
        "j***3",
        5,
        "衣服很暖和，东北零下二十度穿着完全没问题，做工也不错。",
        "黑色",
        "XL",
        "2023-12-03 19:22",
    ),
    (
        "快乐的小熊",
        4,
        "版型好看，就是袖子稍微有点长，整体满意，物流很快。",
        "深蓝",
        "L",
        "2023-12-05 08:41",
    ),
    (
        "z***a",
        5,
        "第二次买了，给家里人也买了一件，质量稳定，推荐。",
        "军绿",
        "XXL",
        "2023-12-09 21:10",
    ),
]


def gov_board(items):
    lis = "".join(
        f"""<li class="list-item"><div class="msg"><p class="msg-title"><a href="/msg/{500 + i}.html">{title}</a></p><p class="msg-content">{text}</p><p class="msg-info"><span>留言人：{u}</span><span>留言时间：{t}</span><span>类别：{cat}</span></p></div>
<div class="reply-box"><p class="reply-dept">回复单位：{dept}</p><p class="reply-content">{reply}</p><p class="reply-time">回复时间：{rt}</p></div></li>"""
        for i, (title, text, u, t, cat, dept, reply, rt) in enumerate(items)
    )
    return f"""<html><head><title>网上留言板 - 某市人民政府</title></head><body><div class="header"><a href="/">政府门户</a> <a href="/gk/">政务公开</a> <a href="/hd/">互动交流</a></div>
<div class="main"><h2>网上留言板</h2><ul class="msg-list">{lis}</ul><div class="page">共 3 条 <a href="?p=2">下一页</a></div></div></body></html>"""


GOV = [
    (
        "小区门口路灯不亮",
        "幸福路小区门口的路灯已经坏了一个多月，晚上出行很不安全，希望尽快维修。",
        "王先生",
        "2024-03-01",
        "城市管理",
        "市城管局",
        "您反映的问题已转交辖区路灯所，已于3月5日完成维修，感谢您的监督。",
        "2024-03-06",
    ),
    (
        "公交站台缺少遮雨棚",
        "人民医院站没有遮雨棚，雨天候车的老人很不方便，建议增设。",
        "李女士",
        "2024-03-04",
        "交通出行",
        "市交通运输局",
        "经现场勘查，该站台具备增设条件，已列入今年站台改造计划。",
        "2024-03-11",
    ),
    (
        "学校周边交通拥堵",
        "实验小学放学时段周边道路严重拥堵，建议增加交警疏导。",
        "张先生",
        "2024-03-08",
        "公共安全",
        "市公安局交警支队",
        "已安排警力在放学时段进行疏导，并将优化周边信号灯配时。",
        "2024-03-14",
    ),
]


def wechat(items):
    lis = "".join(
        f"""<li class="js_comment_item discuss_item" id="cid{300 + i}"><div class="discuss_item_hd"><div class="user_info"><div class="nickname_wrp"><img class="avatar" src="/w.png"><strong class="nickname">{u}</strong></div></div><span class="discuss_opr"><span class="media_tool_meta meta_praise"><i class="icon_praise_gray"></i><span class="praise_num">{likes}</span></span></span></div>
<div class="discuss_message"><span class="discuss_message_content">{text}</span></div>{f'<div class="reply_result"><div class="nickname">作者</div><div class="discuss_message"><span class="discuss_message_content">{reply}</span></div></div>' if reply else ""}</li>"""
        for i, (u, likes, text, reply) in enumerate(items)
    )
    return f"""<html><head><title>冬天养绿萝的五个小技巧</title></head><body><div class="rich_media"><h1 class="rich_media_title">冬天养绿萝的五个小技巧</h1><div class="rich_media_meta_list"><span class="rich_media_meta_nickname">阳台园艺</span></div>
<div class="rich_media_content"><p>{"冬天室内温度低，绿萝浇水要见干见湿，千万不要频繁浇水导致烂根。" * 5}</p></div></div>
<div class="discuss_container"><div class="discuss_title">精选留言</div><ul class="discuss_list">{lis}</ul></div></body></html>"""


WECHAT = [
    (
        "花花世界",
        23,
        "我家的绿萝冬天叶子发黄，原来是浇水太多了，学到了。",
        "是的，冬天一周浇一次就够了。",
    ),
    (
        "阳台小园丁",
        17,
        "放在暖气旁边可以吗？会不会太干？",
        "不要离暖气太近，可以在旁边放一盆水增加湿度。",
    ),
    ("绿植爱好者", 9, "收藏了，准备按照这个方法试试看。", None),
]


def sina(items):
    divs = "".join(
        f"""<div class="item clearfix" comment-type="itemWrap"><div class="head"><a href="https://weibo.example.test/u/{uid}" target="_blank"><img src="/h.jpg"></a></div><div class="cont">
<div class="info"><span class="name"><a href="https://weibo.example.test/u/{uid}" target="_blank">{u}</a></span><span class="area">[{loc}]</span></div><div class="txt">{text}</div>
<div class="action"><span class="time">{t}</span><a href="javascript:;" class="reply-btn">回复</a><a href="javascript:;" class="vote" title="支持">{i * 8 + 1}</a></div></div></div>"""
        for i, (u, uid, loc, t, text) in enumerate(items)
    )
    return f"""<html><head><title>多地迎来今冬首场降雪_新浪新闻</title></head><body><div class="top-nav"><a href="/">新浪首页</a> <a href="/news">新闻</a></div>
<div class="main-content"><h1 class="main-title">多地迎来今冬首场降雪 交通部门提醒注意出行安全</h1><div class="date-source"><span class="date">2023年12月10日 08:05</span><a class="source">新华网</a></div><div class="article"><p>{"受冷空气影响，北方多地迎来今冬首场降雪，部分路段出现结冰。" * 6}</p></div></div>
<div class="comment-module"><div class="hd">最新评论</div><div class="list">{divs}</div></div></body></html>"""


SINA = [
    ("雪花飘飘", "6001", "北京", "12月10日 08:31", "终于下雪了，孩子们开心坏了，早上堆了个雪人。"),
    (
        "开车小心",
        "6002",
        "河北石家庄",
        "12月10日 08:52",
        "高速封了好几段，出门的朋友提前查一下路况。",
    ),
    (
        "南方的我",
        "6003",
        "广东广州",
        "12月10日 09:15",
        "羡慕，广州还穿短袖，什么时候能看到一次雪。",
    ),
]
