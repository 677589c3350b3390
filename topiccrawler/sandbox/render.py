"""HTML templates of the sandbox sites. Each site has its own markup, as real sites do: a
government site, two portals (nav bars, sidebars, ads, footers, comment sections), an old
table-layout portal, a Discuz-style and a div-based forum, a blog, a shop, a login page."""

from __future__ import annotations

from html import escape

from topiccrawler.sandbox.text import format_time


def page_markup(title: str, body: str, charset: str = "utf-8", head: str = "") -> str:
    return (
        '<!DOCTYPE html>\n<html lang="zh-CN">\n<head>\n'
        f'<meta charset="{charset}">\n<title>{escape(title)}</title>\n{head}</head>\n'
        f"<body>\n{body}\n</body>\n</html>\n"
    )


def _links(links, item: str = '<li><a href="{href}">{text}</a></li>') -> str:
    return "\n".join(item.format(href=escape(href), text=escape(text)) for text, href in links)


def _paragraphs(paragraphs: list[str]) -> str:
    return "\n".join(f"<p>{escape(p)}</p>" for p in paragraphs)


def _meta(story, site: str) -> str:
    return (
        f'<meta name="author" content="{escape(story.author)}">\n'
        f'<meta property="article:published_time" content="{story.published:%Y-%m-%dT%H:%M:00+08:00}">\n'
        f'<meta property="og:site_name" content="{escape(site)}">\n'
    )


def listing_page(site, title, links, heading=None, pager=None, charset="utf-8", head="") -> str:
    body = f"""<div id="header"><a href="/">{escape(site)}</a></div>
<h1>{escape(heading or title)}</h1>
<ul class="list">
{_links(links)}
</ul>
<div class="pager">{_links(pager or [], '<a href="{href}">{text}</a> ')}</div>
<div id="footer">版权所有 © {escape(site)}</div>"""
    return page_markup(title, body, charset, head)


def bureau_article(site, section, story) -> str:
    body = f"""<div class="top-bar"><a href="/">首页</a> | <a href="/tzgg/index.html">通知公告</a> | <a href="/zcjd/index.html">政策解读</a> | <a href="/zfal/index.html">执法案例</a></div>
<div class="position">当前位置：<a href="/">首页</a> &gt; {escape(section)}</div>
<div class="article">
<h1 class="title">{escape(story.title)}</h1>
<div class="info">发布时间：{story.published:%Y-%m-%d}　来源：{escape(site)}</div>
<div class="content" id="zoom">
{_paragraphs(story.paragraphs)}
</div>
<div class="share">【<a href="javascript:window.print()">打印本页</a>】【<a href="javascript:window.close()">关闭窗口</a>】</div>
</div>
<div class="footer">主办单位：{escape(site)}　网站标识码：SANDBOX000　ICP备案：沙盒备00000000号</div>"""
    return page_markup(f"{story.title}_{site}", body, head=_meta(story, site))


def portal_a_article(site, channel, story, suffix, comments, related, comments_api=None) -> str:
    if comments_api:
        comment_block = f"""<div class="comments"><h3>网友评论</h3>
<ul class="comment-list" id="comment-list" data-src="{comments_api}"></ul>
<script>
fetch(document.getElementById("comment-list").dataset.src).then(r => r.json()).then(items => {{
  const list = document.getElementById("comment-list");
  for (const c of items) {{
    const li = document.createElement("li"); li.className = "comment-item";
    li.innerHTML = '<div class="c-head"><span class="c-user"></span><span class="c-time"></span></div><p class="c-text"></p><div class="c-tools"><a href="#">回复</a> <a href="#">赞</a></div>';
    li.querySelector(".c-user").textContent = c.author;
    li.querySelector(".c-time").textContent = c.time;
    li.querySelector(".c-text").textContent = c.text;
    list.appendChild(li);
  }}
}});
</script></div>"""
    elif comments:
        items = "\n".join(
            f'<li class="comment-item"><div class="c-head"><span class="c-user">{escape(c.author)}</span>'
            f'<span class="c-time">{escape(c.time)}</span></div><p class="c-text">{escape(c.text)}</p>'
            f'<div class="c-tools"><a href="#">回复</a> <a href="#">赞</a></div></li>'
            for c in comments
        )
        comment_block = f'<div class="comments"><h3>网友评论（{len(comments)}）</h3>\n<ul class="comment-list">\n{items}\n</ul></div>'
    else:
        comment_block = '<div class="comments"><h3>网友评论</h3><p class="empty">暂无评论，快来抢沙发！</p></div>'
    body = f"""<div id="nav"><ul>
<li><a href="/">首页</a></li><li><a href="/finance/index.html">财经</a></li><li><a href="/sports/index.html">体育</a></li>
<li><a href="/culture/index.html">文化</a></li><li><a href="/tech/index.html">科技</a></li><li><a href="/travel/index.html">旅游</a></li>
</ul></div>
<div class="ad-banner"><a href="/ads/1">【广告】新用户注册即送好礼，点击领取</a></div>
<div class="main">
<div class="crumbs"><a href="/">首页</a> &gt; <a href="#">{escape(channel)}</a> &gt; 正文</div>
<h1>{escape(story.title)}</h1>
<div class="meta"><span class="time">{story.published:%Y-%m-%d %H:%M}</span> <span class="author">作者：{escape(story.author)}</span> <span class="source">来源：{escape(site)}</span></div>
<div class="article-body">
{_paragraphs(story.paragraphs)}
</div>
<div class="editor">责任编辑：{escape(story.author)}</div>
{comment_block}
</div>
<div class="sidebar"><h3>相关阅读</h3><ul>
{_links(related)}
</ul><h3>热门推荐</h3><ul><li><a href="/">24小时热榜</a></li><li><a href="/">图片新闻</a></li></ul></div>
<div id="footer"><a href="/about">关于我们</a> | <a href="/contact">联系方式</a> | 版权所有 © {escape(site)}</div>"""
    return page_markup(f"{story.title}{suffix}", body, head=_meta(story, site))


def portal_b_article(site, story, comments) -> str:
    items = "\n".join(
        f'<div class="cmt-item"><div class="cmt-user"><a href="/user/{i}">{escape(c.author)}</a></div>'
        f'<div class="cmt-body">{escape(c.text)}</div><div class="cmt-meta"><span>{escape(c.time)}</span>'
        f' <a class="reply" href="#">回复</a> <span class="up">顶(0)</span></div></div>'
        for i, c in enumerate(comments)
    )
    section = (
        f'<div id="cmt"><div class="cmt-title">评论区</div>\n{items}\n</div>' if comments else ""
    )
    body = f"""<header class="site-header"><a class="logo" href="/">{escape(site)}</a>
<nav><a href="/news/index.html">要闻</a> <a href="/">行情</a> <a href="/">理财</a> <a href="/special/index.html">专题</a></nav></header>
<article class="post">
<h1 class="post-title">{escape(story.title)}</h1>
<p class="post-meta">{format_time(story.published, "slash")} · {escape(story.author)}</p>
<section class="post-content">
{_paragraphs(story.paragraphs)}
</section>
</article>
{section}
<aside class="hot"><h4>热门文章</h4><ol><li><a href="/news/1.html">市场早知道</a></li><li><a href="/news/2.html">财经日历</a></li></ol></aside>
<footer>© {escape(site)} 本站内容仅供参考，不构成投资建议</footer>"""
    return page_markup(f"{story.title} | 财经频道 | {site}", body, head=_meta(story, site))


def malformed_article(site, story) -> str:
    """Unclosed tags, stray end tags, an unquoted attribute, a broken entity."""
    paragraphs = "".join(f"<p><font color=#333>{escape(p)}</b>" for p in story.paragraphs)
    return (
        f"<html><head><meta charset=utf-8><title>{escape(story.title)}-{escape(site)}</title>"
        f"<body><div class=main><table><tr><td><h1>{escape(story.title)}</h1>"
        f"<div class=content>{paragraphs}</td></tr>&nbsp &copy</table></div></span></div>"
    )


def deep_article(site, story, depth: int) -> str:
    return page_markup(
        f"{story.title}-{site}",
        "<div>" * depth
        + f"<h1>{escape(story.title)}</h1>"
        + _paragraphs(story.paragraphs)
        + "</div>" * depth,
    )


def legacy_article(site, story, declared: str) -> str:
    body = f"""<table width="960" align="center" border="0" cellpadding="0" cellspacing="0">
<tr><td colspan="2" class="top"><a href="/">{escape(site)}</a> | <a href="/">新闻</a> | <a href="/zz/index.htm">转载</a></td></tr>
<tr><td width="700" valign="top">
<table width="100%"><tr><td align="center"><font size="5"><b>{escape(story.title)}</b></font></td></tr>
<tr><td align="center"><font color="#999999">{story.published:%Y年%m月%d日} 作者：{escape(story.author)}</font></td></tr>
<tr><td class="text">
{_paragraphs(story.paragraphs)}
</td></tr></table>
</td><td width="260" valign="top"><table><tr><td><a href="/">返回首页</a></td></tr></table></td></tr>
<tr><td colspan="2" align="center"><font size="2">{escape(site)} 版权所有</font></td></tr>
</table>"""
    return page_markup(f"{story.title}_{site}", body, charset=declared)


def repost_article(site, story, shown_title, source_url, source_name, charset) -> str:
    body = f"""<div class="nav"><a href="/">{escape(site)}</a> &gt; 转载</div>
<h1>{escape(story.title)}</h1>
<div class="src">{story.published:%Y-%m-%d %H:%M} 来源：<a href="{escape(source_url)}">{escape(source_name)}</a></div>
<div class="text">
{_paragraphs(story.paragraphs)}
</div>
<div class="foot">本文转载自{escape(source_name)}，版权归原作者所有。</div>"""
    return page_markup(shown_title, body, charset=charset)


def discuz_list(site, board, fid, threads, page, pages) -> str:
    rows = "\n".join(
        f"""<tbody id="normalthread_{i}"><tr>
<td class="icn"><img src="/static/folder_new.gif" alt=""></td>
<th class="new"><a href="{escape(t["url"][1])}" class="s xst">{escape(t["title"])}</a></th>
<td class="by"><cite><a href="/space-uid-{i}.html">{escape(t["author"])}</a></cite><em><span>{escape(t["time"])}</span></em></td>
<td class="num"><a href="{escape(t["url"][1])}" class="xi2">{t["replies"]}</a><em>{t["views"]}</em></td>
</tr></tbody>"""
        for i, t in enumerate(threads)
    )
    pager = " ".join(
        f'<a href="/forum-{fid}-{n}.html">{n}</a>' if n != page else f"<strong>{n}</strong>"
        for n in range(1, pages + 1)
    )
    if page < pages:
        pager += f' <a href="/forum-{fid}-{page + 1}.html" class="nxt">下一页</a>'
    body = f"""<div id="hd"><a href="/forum.php">{escape(site)}</a> <a href="/forum.php">论坛</a></div>
<div id="pt"><a href="/forum.php">{escape(site)}</a> &rsaquo; {escape(board)}</div>
<div id="threadlist"><table summary="forum_{fid}" cellspacing="0" cellpadding="0" id="threadlisttableid">
<tbody><tr class="th"><th>标题</th><td class="by">作者</td><td class="num">回复/查看</td></tr></tbody>
{rows}
</table></div>
<div class="pg">{pager}</div>
<div id="ft">Powered by Discuz! X3.4 © {escape(site)}</div>"""
    return page_markup(f"{board} - {site} - Powered by Discuz!", body)


def discuz_thread(site, board, title, posts, tid, page, pages, first_floor) -> str:
    rows = "\n".join(
        f"""<div id="post_{tid}{n}"><table id="pid{tid}{n}" class="plhin" summary="pid{tid}{n}" cellspacing="0" cellpadding="0">
<tr><td class="pls" rowspan="2"><div class="pi"><div class="authi"><a href="/space-uid-{n}.html" class="xw1">{escape(p.author)}</a></div></div>
<dl class="pil cl"><dt>积分</dt><dd>{(n * 37) % 900 + 10}</dd></dl></td>
<td class="plc"><div class="pi"><strong><a href="#">{first_floor + n}<sup>#</sup></a></strong>
<div class="authi"><em id="authorposton{tid}{n}">发表于 {escape(p.time)}</em> | <a href="#">只看该作者</a></div></div>
<div class="pct"><div class="t_fsz"><table cellspacing="0" cellpadding="0"><tr><td class="t_f" id="postmessage_{tid}{n}">
{escape(p.text)}
</td></tr></table></div></div></td></tr>
<tr><td class="plc plm"><div class="po"><a href="#">回复</a> <a href="#">支持</a> <a href="#">反对</a></div></td></tr>
</table></div>"""
        for n, p in enumerate(posts)
    )
    pager = " ".join(
        f'<a href="/thread-{tid}-{n}-1.html">{n}</a>' if n != page else f"<strong>{n}</strong>"
        for n in range(1, pages + 1)
    )
    if page < pages:
        pager += f' <a href="/thread-{tid}-{page + 1}-1.html" class="nxt">下一页</a>'
    body = f"""<div id="hd"><a href="/forum.php">{escape(site)}</a></div>
<div id="pt"><a href="/forum.php">{escape(site)}</a> &rsaquo; {escape(board)} &rsaquo; {escape(title)}</div>
<h1 class="ts"><span id="thread_subject">{escape(title)}</span></h1>
<div id="postlist" class="pl bm">
{rows}
</div>
<div class="pg">{pager}</div>
<div id="ft">Powered by Discuz! X3.4</div>"""
    return page_markup(f"{title} - {board} - {site}", body)


def div_list(site, board, board_id, threads, page, pages) -> str:
    rows = "\n".join(
        f"""<div class="topic-row">
  <div class="topic-main"><a class="topic-title" href="{escape(t["url"][1])}">{escape(t["title"])}</a></div>
  <div class="topic-author">{escape(t["author"])}</div>
  <div class="topic-time">{escape(t["time"])}</div>
  <div class="topic-stats"><span class="replies">{t["replies"]}</span> / <span class="views">{t["views"]}</span></div>
</div>"""
        for t in threads
    )
    pager = " ".join(
        f'<a href="/board/{board_id}?page={n}">{n}</a>'
        if n != page
        else f'<span class="cur">{n}</span>'
        for n in range(1, pages + 1)
    )
    body = f"""<div class="header"><a href="/">{escape(site)}</a></div>
<div class="board"><h2>{escape(board)}</h2>
<div class="topic-list">
{rows}
</div>
<div class="pagination">{pager}</div></div>
<div class="footer">{escape(site)} · 理性讨论，友善交流</div>"""
    return page_markup(f"{board} - {site}", body)


def div_thread(site, board, title, posts, topic_id, page, pages) -> str:
    rows = "\n".join(
        f"""<div class="post" id="p{topic_id}-{page}-{n}">
  <div class="post-user"><a href="/u/{n}">{escape(p.author)}</a><span class="level">Lv.{n % 7 + 1}</span></div>
  <div class="post-time">{escape(p.time)}</div>
  <div class="post-content">{escape(p.text)}</div>
  <div class="post-actions"><a href="#">引用</a> <a href="#">点赞</a></div>
</div>"""
        for n, p in enumerate(posts)
    )
    pager = " ".join(
        f'<a href="/topic/{topic_id}?page={n}">{n}</a>'
        if n != page
        else f'<span class="cur">{n}</span>'
        for n in range(1, pages + 1)
    )
    body = f"""<div class="header"><a href="/">{escape(site)}</a> / <a href="/">{escape(board)}</a></div>
<h1 class="topic-heading">{escape(title)}</h1>
<div class="posts">
{rows}
</div>
<div class="pagination">{pager}</div>
<div class="footer">{escape(site)}</div>"""
    return page_markup(f"{title} - {site}", body)


def blog_post(site, story, comments) -> str:
    items = "\n".join(
        f"""<li class="comment" id="comment-{n}"><article class="comment-body">
<footer class="comment-meta"><b class="fn">{escape(c.author)}</b> <span class="says">说道：</span>
<time>{escape(c.time)}</time></footer>
<div class="comment-content"><p>{escape(c.text)}</p></div>
<div class="reply"><a class="comment-reply-link" href="#">回复</a></div></article></li>"""
        for n, c in enumerate(comments)
    )
    body = f"""<header id="masthead"><a href="/">{escape(site)}</a><nav><a href="/">首页</a> <a href="/">归档</a> <a href="/">关于</a></nav></header>
<main><article class="entry">
<h1 class="entry-title">{escape(story.title)}</h1>
<div class="entry-meta">发布于 {format_time(story.published, "zh")} · {escape(story.author)}</div>
<div class="entry-content">
{_paragraphs(story.paragraphs)}
</div></article>
<div id="comments"><h2 class="comments-title">{len(comments)} 条评论</h2>
<ol class="commentlist">
{items}
</ol></div></main>
<footer id="colophon">{escape(site)} · 由博客程序驱动</footer>"""
    return page_markup(f"{story.title} – {site}", body, head=_meta(story, site))


def shop_item(site, title, description, reviews, related) -> str:
    related_items = "\n".join(
        f'<li class="goods"><a href="{escape(href)}"><img src="/img/{i}.jpg" alt=""><p class="g-name">{escape(name)}</p>'
        f'<p class="g-price">{escape(price)}</p></a></li>'
        for i, (name, href, price) in enumerate(related)
    )
    review_items = "\n".join(
        f'<div class="review"><div class="r-user">{escape(r.author)}</div><div class="r-stars">★★★★☆</div>'
        f'<div class="r-text">{escape(r.text)}</div><div class="r-date">{escape(r.time)}</div></div>'
        for r in reviews
    )
    body = f"""<div class="topbar"><a href="/">{escape(site)}</a> <a href="/">购物车</a></div>
<div class="product"><h1>{escape(title)}</h1><p class="price">¥{len(title) * 13}</p>
<div class="desc"><p>{escape(description)}</p></div><button>加入购物车</button></div>
<div class="related"><h3>看了又看</h3><ul>
{related_items}
</ul></div>
<div class="reviews"><h3>商品评价（{len(reviews)}）</h3>
{review_items}
</div>
<div class="footer">{escape(site)} 正品保障 七天无理由退货</div>"""
    return page_markup(f"{title}-{site}", body)


def login_page(site) -> str:
    body = f"""<h1>{escape(site)} 会员登录</h1>
<form method="post" action="/login">
<label>用户名 <input type="text" name="username"></label>
<label>密码 <input type="password" name="password"></label>
<button type="submit">登录</button>
</form>"""
    return page_markup(f"登录 - {site}", body)


def captcha_page() -> str:
    body = """<div class="verify"><h2>安全验证</h2><p>请完成下方验证后继续访问 / Please verify you are human.</p>
<img src="/captcha.jpg" alt="captcha"><input name="code"><button>提交</button></div>"""
    return page_markup("安全验证", body)
