"""Pattern tables of the record field reader: the class names, words and labels by which
pages mark authors, times, chrome and replies, kept as data, each with the reason it is there
(as trafilatura keeps its XPath expressions). A new case is a row here, not a branch in code.
"""

from __future__ import annotations

import re

from topiccrawler.extract.words import Words


def alternatives(rows: tuple[tuple[str, str], ...]) -> str:
    """A table's patterns as one alternation, in its order (each row: a pattern and its reason,
    the reason for the reader)."""
    return "|".join(pattern for pattern, _ in rows)


# Elements that do not break a semantic node: text-level markup.
INLINE_TAGS = frozenset(
    ("a", "abbr", "b", "bdi", "big", "cite", "code", "em", "font", "i", "img", "kbd", "label",
     "mark", "q", "s", "small", "span", "strong", "sub", "sup", "time", "tt", "u", "var", "wbr")
)  # fmt: skip

SKIPPED_TAGS = frozenset(
    ("script", "style", "template", "svg", "button", "select", "textarea", "input",
     "form", "iframe", "object", "embed", "head")
)  # fmt: skip

# class/id/itemprop words that name the author of a record (whole words of a name).
AUTHOR_WORDS = (
    ("author", "schema.org's itemprop and most comment systems ('comment-author', 'author-name')"),
    ("username", "forum user boxes ('username', 'username-coloured')"),
    ("user-?name", "the same as two words"),
    ("u-?name", "the user's name in short ('uname')"),
    ("user", "a link or box named for the user ('user', 'user-link')"),
    ("user-?id", "a user's id shown as the name, where ids are names ('userid', 'user-id')"),
    ("nick(?:name)?", "the shown name, as Chinese sites call it ('nick', 'nickname')"),
    ("poster", "who posted ('poster', 'poster-name')"),
    ("fn", "hCard's formatted name (microformats), as WordPress marks a comment's author"),
    ("name", "a record's name element ('name', 'comment-name')"),
    ("by", "a byline's element ('by', 'post-by')"),
    ("commenter", "who wrote a comment"),
    ("comment-author", "WordPress's comment author box"),
    ("postauthor", "a post's author, one word"),
    ("member", "a member's name or box"),
    ("byline", "the line naming who wrote and when"),
)
AUTHOR_HINT = Words(rf"(?:^|[-_\s])(?:{alternatives(AUTHOR_WORDS)})(?:$|[-_\s])")

# A box the markup calls the poster's profile ("thread-profile-box"): its first line names
# the author where no element is called the author itself.
PROFILE_HINT = Words(r"(?:^|[-_\s])profile(?:[-_](?:box|card|info))?(?:$|[-_\s])")

# class/id names of record chrome: reply and vote buttons, avatars, signatures. Matched on
# whole class names, by their last word ("comment-reply-link", not "bbp-reply-content").
CHROME_WORDS = (
    ("reply|respond", "a reply button or link ('comment-reply-link', 'respond')"),
    ("vote|votes|like|likes", "voting and liking buttons and their tallies"),
    ("share|sharing", "share buttons"),
    ("report", "a report-abuse link"),
    ("avatar", "the poster's picture"),
    ("sig|sign", "a signature in short ('post-sig', Discuz!'s 'sign')"),
    ("close", "a box's close button ('modal-close', 'tips_close': its 'x')"),
    ("tools|actions?|buttons?|edit", "a record's toolbar, its action buttons and edit link"),
    ("rating|badges?|karma", "a poster's rating, badges and karma"),
    ("quote-?header", "the header line of a quoted post ('X wrote:')"),
)
# The words a chrome name may end with after its chrome word ("reply-link", "vote-buttons-bar").
CHROME_ENDINGS = "link|links|button|buttons|btn|bar|box|area|wrap|wrapper|container|list"
# Long words matched also at the end of a camel-case name ("messageUserInfo", "postSignature").
CHROME_TAILS = (
    ("userinfo|user-?stats|user-?details|user-?title", "the poster's user box and statistics"),
    ("postprofile", "phpBB-style poster's profile column"),
    ("signature", "a poster's signature under the post"),
    ("toolbar|permalink", "a record's toolbar and its permanent link"),
    ("avatar|badges", "the poster's picture and badges"),
)
CHROME_CLASS = re.compile(
    rf"^(?:[\w-]*[-_])?(?:{alternatives(CHROME_WORDS)})(?:[-_](?:{CHROME_ENDINGS})){{0,2}}$"
    rf"|(?:{alternatives(CHROME_TAILS)})$",
    re.I,
)

SIGNATURE = re.compile(r"signature|(?:^|[-_])sig$", re.I)

# Chrome is small: a wrapper named like chrome but holding more text is the record itself.
MAX_CHROME_CHARS = 100

# The line naming the client a record was sent from, below its text ("来自 豆瓣App", "发自我的
# iPhone", "via Android", "Sent from my iPhone using Tapatalk"): no words of the record.
SENT_FROM = re.compile(r"^\s*(?:来自|发自|via|sent from|gesendet von|envoyé de)\s*\S.{0,40}$", re.I)

# An attachment's line: its file name with the file's size (and an image's pixels), as
# boards list a post's upload above or below its text ("檔名：16385.png-(648 KB, 1235x950)",
# "File: cat.jpg (80 KB, 964x827)", "附件: a.zip (2.1 MB)"): the file's, no words of the post.
ATTACHMENT_LINE = re.compile(
    r"^\s*(?:[^\W\d_]{1,12}\s*[:：]\s*)?\S{1,120}?\.(?:png|jpe?g|gif|webp|bmp|webm|mp4|"
    r"pdf|zip|rar|7z|txt|docx?|xlsx?)\s*[-–(（,]*\s*\(?\s*[\d.,]+\s*(?:[KMG]i?B|bytes|字节)"
    r"(?:\s*[,，]\s*\d+\s*[x×]\s*\d+)?(?:\s*[,，][^()（）]{0,40})?\s*[)）]?\s*$",
    re.I,
)

# The replies a post has had, listed under it as links to them by number ("Replies(2):
# >>25208135 >>25208591", "回應: >>123"): image boards' backlinks, no words of the post.
BACKLINKS = re.compile(r"^\s*(?:[^\W\d_]{1,12}\s*(?:[(（]\d+[)）])?\s*[:：]\s*)?(?:>>\d+\s*)+$")

# A note that the record was edited, by whom and when: metadata under or above the text, in
# any language, never the record's words (the whole line; its time is not the post's either,
# `EDITED_TIME`). A bare "编辑于 2017-07-25" is left alone: some sites write the post's own
# time so.
EDIT_NOTE_ROWS = (
    (
        r"本帖最后由\s*\S.{0,40}?\s*于\s*.{0,40}?\s*编辑",
        "Discuz!: '本帖最后由 jane 于 2019-7-3 22:25 编辑'",
    ),
    (
        r"(?:最后)?由\s*\S.{0,40}?\s*于\s*.{0,40}?\s*(?:编辑|修改|編輯)",
        "the same said otherwise: '最后由 jane 于 2020-01-02 修改'",
    ),
    (
        r"(?:last\s+)?(?:edited|modified|updated)\s+by\s+\S.{0,100}",
        "vBulletin, phpBB, IPB: 'Last edited by jane; 05-12-2020 at 10:30 AM.', "
        "'Edited by jane, 12 May 2020 - 10:30 AM.', phpBB's '…, edited 1 time in total.'",
    ),
    (r"last\s+edited\s*(?:on|at)?\s*[:：]\s*.{1,60}", "XenForo: 'Last edited: May 12, 2020'"),
    (
        r"zuletzt\s+(?:bearbeitet|geändert)\s+(?:von|am)\s+.{1,100}",
        "German: 'Zuletzt bearbeitet von jane am 12.05.2020'",
    ),
    (
        r"derni[eè]re\s+(?:édition|modification)\s+par\s+.{1,100}",
        "French: 'Dernière édition par jane le 12/05/2020'",
    ),
    (
        r"(?:última\s+edición|editado|modificado)\s+por\s+.{1,100}",
        "Spanish, Portuguese: 'Última edición por jane', 'Editado por jane'",
    ),
)
EDIT_NOTE = re.compile(
    rf"^\s*[\[(（【]?\s*(?:{alternatives(EDIT_NOTE_ROWS)})\s*[\])）】]?\s*[.。]?\s*$", re.I | re.S
)

# A forum's notice to guests that they must log in or register, shown atop a post to a
# visitor not logged in: the software's, not the poster's words.
GUEST_NOTICE_ROWS = (
    (
        r"(?:马上|立即|现在)注册[，,].{0,40}?(?:好友|功能|论坛|社区|精彩|下载|查看).{0,40}",
        "Discuz!'s: '马上注册，结交更多好友，享用更多功能，让你轻松玩转社区。' (what it offers)",
    ),
    (r"您需要\s*登录\s*才可以.{0,40}", "'您需要 登录 才可以下载或查看，没有帐号？立即注册'"),
    (
        r"(?:you\s+(?:must|need\s+to)(?:\s+be)?|please)\s+"
        r"(?:log(?:ged)?\s*in|sign(?:ed)?\s*in|register(?:ed)?|sign\s*up)\s+"
        r"(?:or\s+(?:register|sign\s*up)\s+)?(?:to|before)\s+"
        r"(?:view|see|reply|post|download|access|comment|read|join)\b.{0,60}",
        "'You must log in or register to reply here.', 'Please sign in to view attachments' "
        "(what for: 'please sign in to your router' is a poster's advice)",
    ),
    (
        r"(?:log\s*in|sign\s*in)\s+or\s+(?:register|sign\s*up)\b.{0,60}",
        "'Log in or register to see the links'",
    ),
)
GUEST_NOTICE = re.compile(rf"^\s*(?:{alternatives(GUEST_NOTICE_ROWS)})\s*$", re.I | re.S)

# Texts that are chrome wherever they appear on a record.
CHROME_WORD = (
    r"(?:回复|引用|举报|赞|顶|踩|分享|删除|编辑|评分|收藏|链接|评论|\d+\s*条?评论|只看该作者|倒序浏览|楼主|沙发|板凳|地板|"
    # what a click shows of a folded text ("展开全部", "Read more"), or a menu of more actions
    # ("更多", "More")
    r"展开全部|展开|收起|显示全部|查看全部|查看更多|更多|阅读全文|show more|read more|see more|more|"
    r"reply|quote|report|like|share|permalink|edit|delete|link|top|select|choose|"
    r"antworten|zitieren|melden|teilen|auswählen|répondre|responder|citer|选择|"
    r"log in to reply|login to reply|cancel reply|[^\w\s]*\d*[^\w\s]*"
    # any short label with a count beside it: a button's tally ("亮了(3)", "Helpful (12)")
    r"|[^\W\d_]{1,4}\s*(?=[(（]\d+[)）]))(?:\s*\(\d*\)|\s*（\d*）)?"
)

# A text made only of chrome words ("回复 赞", "Reply | Quote", "顶(0)").
CHROME_TEXT = re.compile(rf"^{CHROME_WORD}(?:[\s|·/]+{CHROME_WORD})*$", re.I)

# A text of exclamation and question marks alone ("！", "？？？"): what a poster wrote (a
# reply beside a smiley), not a separator or a count, which CHROME_WORD's marks are.
OUTCRY = re.compile(r"^[!?！？]+$")

# What was done, as a byline writes it before the time ("edited Sep 7 '10 at 17:17",
# "answered 2 hours ago", "发表于 2020-05-04"): read off such a line, the word is no name.
ACTION_TEXT = re.compile(
    r"^(?:(?:last\s+)?(?:edited|answered|asked|posted|updated|modified|commented|replied|"
    r"created|submitted|written)(?:\s+on|\s+at)?|编辑于|发表于|回复于|发布于|更新于)$",
    re.I,
)

# What a link in the poster's menu does to them ("View Profile", "Send a private message",
# "Find more posts by jane", "查看详细资料", "发短消息", "加为好友", "向TA提问"): such a link goes to the
# poster's page like the name does, but it is no name.
POSTER_ACTION = re.compile(
    r"^(?:(?:view|visit|send|find|add|show|see|message|follow|ignore|block)\s+\S"
    r"|(?:查看|发送|发短消息|发消息|发私信|私信|加为好友|加好友|访问|进入|关注|屏蔽)\S*"
    r"|向\S{1,3}提问)",
    re.I,
)

# Labels in front of an author: "作者：", "by", "von", "Name:"; those that are common words
# ("from") or say where from ("网友") only with their colon.
BY_VERBS = r"(?:posted|submitted|asked|answered|commented|replied|written) by"  # "Asked by jane"

# (a Latin label is a word of its own: "bytedancer" is no "by" and a name)
WORD_END = r"(?![a-zà-öø-ÿ])"

NAME_LABELS = rf"作者|楼主|发帖人|用户|by|von|par|por|name|{BY_VERBS}|geschrieben von"

NAME_LABELS_WITH_COLON = r"from|来自|发件人|留言人|提问人|发布人|发言人|回复人|网友"

AUTHOR_LABEL = re.compile(
    rf"^\s*(?:(?:{NAME_LABELS}){WORD_END}\s*[:：]?|(?:{NAME_LABELS_WITH_COLON})\s*[:：])\s*", re.I
)

# The same labels before a name link's own text: only set apart from the name by a colon or
# a space ("作者：jane", "by jane"). A name that starts with one is the name ("楼主长的帅": the
# page writes its labels outside the link).
LINKED_AUTHOR_LABEL = re.compile(
    rf"^\s*(?:{NAME_LABELS}|{NAME_LABELS_WITH_COLON})(?:\s*[:：]|\s+)\s*", re.I
)

# What follows an author's name in a byline: "Jane says:", "Anna sagt:".
AUTHOR_TRAILER = re.compile(
    r"\s*(?:says|said|sagt|schreibt|meint|dit|dice|wrote|说|说道)\s*[:：]?\s*$"
    r"|\s*<[^<>\s]+@[^<>\s]+>\s*$",  # a mail header's address: "Ada Park <ada@example.org>"
    re.I,
)

# A poster's statistics ("Posts: 139", "积分: 84"): a label, a colon and a number, never
# a name, though user boxes mark them as the author's.
STAT_TEXT = re.compile(
    r"^\s*[^\W\d_][\w .'-]{0,24}?\s*[:：]\s*[\d.,]+\s*[kKmM万]?\s*$"
    r"|^\s*[\d.,]+\s*[kKmM万]?\s+(?:posts?|messages?|replies|threads?|topics?|points?|karma|"
    r"beiträge|antworten|themen|punkte|messages|réponses|mensajes|respuestas|"
    r"days?|weeks?|months?|years?|tage|monate|jahre|"
    r"帖子|主题|回复|积分|回帖|精华)\s*$",
    re.I,
)

# A labelled field of the poster's card, its value not a number ("Join Date: Dec 2005",
# "Location: the Philippines", "来自：北京"): a label of a few words, a colon, then a value
# (a colon with a space or a full-width one: "DJ:Mix" may be someone's name).
FIELD_TEXT = re.compile(r"^\s*[^\W\d_][^\W\d_ .'-]?[\w .'-]{0,23}?(?::\s+|\s*：\s*)\S")

# Times that are not the record's: when the poster joined, or was last seen; when the post
# was edited (a note under it: "[Beitrag von X am 21. Apr 2020 bearbeitet]").
EDITED_TIME = re.compile(
    r"\b(?:last edited|edited|modified|updated|bearbeitet|geändert|modifié|editado|modificado)\b",
    re.I,
)

NOT_POST_LABELS = (
    r"(?:joined|registered|member since|last (?:seen|active|visit)|mitglied seit|"
    r"join date|date joined|registration date|anmeldungsdatum|registrierungsdatum|"
    r"date d'inscription|fecha de registro|"
    r"registriert|dabei seit|inscrit|inscrito|registrado|注册(?:时间|于|日期)?|加入(?:时间|于)?|"
    r"入坛|最后(?:登录|访问)|上次(?:登录|访问))"
)

NOT_POST_TIME = re.compile(rf"^\s*{NOT_POST_LABELS}\b\s*[:：]?", re.I)

# The same label right before the time, inside a line of the poster's details ("Member
# Joined: 12 Mar 2005 Posts: 122").
NOT_POST_TIME_AFTER = re.compile(rf"(?:^|[\s|·,;]){NOT_POST_LABELS}\s*[:：]?\s*$", re.I)

# A poster's rank or role, shown beside the name in user boxes: never the name itself.
ROLE_TEXT = re.compile(
    r"^\s*(?:(?:new|junior|senior|full|active|registered|well-known|premium|banned|global|super|"
    r"forum|site|community)\s+)?"
    r"(?:member|user|administrator|admin|moderator|mod|staff|guest|newbie|contributor|"
    r"original poster|thread starter|topic starter|op|themenstarter|threadersteller|"
    r"mitglied|benutzer|moderateur|modérateur|membre|miembro|membro|"
    r"会员|管理员|版主|超级版主|新手上路|注册会员|游客)\s*$",
    re.I,
)

# class names of a poster's title, rank, group or flair box ("user-title", "user-group"):
# whole names, by their last word; the links in such a box name a group, not the poster.
RANK_WORDS = (
    ("user-?title", "the title a forum gives a poster ('Senior Member')"),
    ("rank", "a poster's rank"),
    ("badges?", "badges beside the name"),
    ("flair", "a poster's flair (Reddit-like communities)"),
    ("(?:member|post|user)?group", "the poster's member group"),
    ("role", "a poster's role (moderator, staff)"),
)
RANK_CLASS = re.compile(rf"^(?:[\w-]*[-_])?(?:{alternatives(RANK_WORDS)})$", re.I)

MAX_AUTHOR_CHARS = 40
# A menu item or control is a few words ("Private Message", "Visit Homepage", "只看该作者"):
# longer whole-link lines repeated across posts may be text (a link the posters all share).
MAX_MENU_ITEM_CHARS = 30

ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060\ufeff]")  # joiners a name may carry unseen

INVISIBLE = re.compile("[\u200b-\u200f\u2060\ufeff]")  # and the marks of writing direction

MAX_TIME_NODE_CHARS = 80

# What sets a time apart from the byline it ends ("jane · 2022-05-12"): not the time's own.
TIME_SEPARATORS = " ·•|"

DIGIT_RUNS = re.compile(r"\d+")

# An age shown without "ago" ("21 天", "3w", "5 days") where an attribute holds the time.
BARE_AGE = re.compile(
    r"^\s*\d+\s*(?:秒|分钟?|小时|天|日|周|个月|月|年|[smhdwy]|mo|mins?|hrs?|"
    r"(?:second|minute|hour|day|week|month|year)s?)\s*$",
    re.I,
)

# Where a BARE_AGE may stand in a longer text (a byline's "jane PRO 2y"): what `cued_time`
# looks for before reading the byline's elements one by one.
AGE_IN = re.compile(
    r"\d\s*(?:秒|分钟?|小时|天|日|周|个月|月|年|(?:[smhdwy]|mo|mins?|hrs?)(?![a-z]))", re.I
)

# A coarse date shown where an attribute holds the time ("September 2019", "2019"): a year in
# a short text is what the page writes.
SHOWN_YEAR = re.compile(r"(?<!\d)(?:19|20)\d\d(?!\d)")

MAX_COARSE_CHARS = 30

# class/id words of an element that holds a record's time (whole words of a name).
TIME_WORDS = (
    ("time|date|datetime|timestamp", "the element of a time ('post-time', 'comment-date')"),
    ("pubtime", "the time of publishing, as Chinese sites name it"),
    ("posted|post-?date", "when the record was posted"),
    ("ago", "an age shown as 'N days ago' ('time-ago')"),
)
TIME_CLASS = Words(rf"(?:^|[-_\s])(?:{alternatives(TIME_WORDS)})(?:$|[-_\s])")

# A date shown without its year ("11-02", "11/02 18:30", "11月2日"): no time on its own (a
# score, a range), a record's time where the markup calls its element the date or time. It
# may close the element's text after what the element shows beside it ("61.229.1.18 04/01
# 19:49": the poster's address, then the time), then with its clock.
CUED_DATE = re.compile(r"^\s*(?:\d{1,2}[-/.]\d{1,2}|\d{1,2}月\d{1,2}日)(?:\s+\d{1,2}:\d{2})?\s*$")
CLOSING_CUED_DATE = re.compile(r"\s(\d{1,2}[-/.]\d{1,2}\s+\d{1,2}:\d{2})\s*$")
MAX_CUED_CHARS = 40

# A class word that ends in a time's word ("ipdatetime", "replytime", "postdate"): names a
# time's element as TIME_CLASS does, for a date that needs the cue (CUED_DATE) only.
COMPOUND_TIME_CLASS = Words(r"[a-z](?:time|date)(?:$|[-_\s])")

MONTH_DAY = re.compile(r"\d[-/.月]\d")  # what a CUED_DATE has somewhere in a longer text

CLOCK = re.compile(r"\d{1,2}:\d{2}")

# A date's clock written in an element of its own beside it ("<b>9:00am</b> On <b>Apr 24</b>")
# is read with it from their parent, up to this long.
MAX_DATE_AND_CLOCK_CHARS = 40

# Text pieces longer than this are prose: a record's time is written in a short one.
MAX_TIME_PIECE_CHARS = 120

HAS_DIGIT = re.compile(r"\d")
# A counter's value beside its label ("LV. 15", "GP 2k", "积分 1.3万"): the posters' counters are
# told apart by their labels, what is left with these taken out (nodes.counter_keys).
COUNTER_VALUE = re.compile(r"\d[\d,.]*[kKmM万]?")

# HTML5 and ARIA landmarks of what sits beside a page's content: their lists are the site's
# (recent comments, latest threads, members online), not the page's records; unless the
# landmark holds half the page's text or more (a stray <aside> left open around the rest).
LANDMARK_TAGS = ("aside", "nav")

LANDMARK_ROLES = ("complementary", "navigation")

# A link to a person's page, loosely (also a feature of the signature scorer's): the words and
# paths of profile links.
PERSON_LINK_PARTS = (
    ("user|member|profile|people|author", "'/users/12/jane/', '/member.php?u=5', '/people/x'"),
    ("/u/", "a user's page in short ('/u/jane')"),
    (
        "space|home\\.php",
        "a user's space on Chinese forum software ('space-uid-9', 'home.php?uid=')",
    ),
    ("account", "an account page"),
    ("/@|~", "a handle's page ('/@jane') or a home directory ('/~jane')"),
)
PERSON_LINK = re.compile(alternatives(PERSON_LINK_PARTS), re.I)

# The name a post answers, not its author's: "in reply to jane", "Antwort auf …", "回复 …".
IN_REPLY_TO = re.compile(
    r"^\s*(?:in reply to|replying to|reply to|antwort auf|als antwort auf|en réponse à|"
    r"en respuesta a|回复)\b",
    re.I,
)

# A line naming those who reacted to a post, their names first ("洪哥 赞同", "萧瑶、Winter 等人赞同",
# "jane and 3 others liked this"): the reaction closes the line, and the names are no author's.
REACTED = re.compile(
    r"(?:等\s*\d*\s*人)?\s*(?:赞同|赞了|点赞|觉得很赞|赞过|喜欢|觉得有用|"
    r"(?:and \d+ others? )?(?:liked?|upvoted|reacted to|found this helpful)(?: (?:this|it))?|"
    r"gefällt das|aiment ça)\s*[。.!！]?\s*$",
    re.I,
)
MAX_REACTED_LINE_CHARS = 120
NAME_SEPARATORS = re.compile(r"[\s、,，;；&]|\band\b|和|及|与")  # between names on such a line

# Data attributes a page writes the name it shows in ("data-display-name", XenForo's and
# others' "data-author", "data-username"): read where the element's own text is that name.
DATA_NAME_ATTRIBUTES = (
    "data-display-name", "data-displayname", "data-author", "data-author-name",
    "data-username", "data-user-name", "data-nickname", "data-nick",
)  # fmt: skip

# A post header written as fields ("#143003 - eKid - Tue Oct 16, 2007 12:47 am"): what
# separates them, a post's number among them ("#12", "No.5", "3楼", "Reply #2"), and a
# weekday written apart from its date.
HEADER_FIELD_SEPARATOR = re.compile(r"\s+[-–—|·•]\s+|\s*[|｜·•]\s*")
POST_NUMBER = re.compile(
    r"^(?:#\s*\d+|no\.?\s*\d+|\d+\s*[楼樓#]|第?\d+楼|reply\s*#?\d+|post\s*#?\d+)$", re.I
)
WEEKDAY = re.compile(
    r"^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?,?$|^(?:星期|周|週|礼拜)[一二三四五六日天]$", re.I
)
HEADER_NODES = 3  # a record's first nodes looked at for such a header

# Names of things, not people: "category-name", "tag__name", "forum-title-name".
NOT_PERSON = Words(
    r"(?:category|tag|badge|forum|board|site|file|attachment|image|product)[-_]*name"
)

QUOTE_CLASS = re.compile(r"(?:^|[-_\s])quote(?:$|[-_\s])", re.I)

# A class naming a list of replies by its plural: "comments", "answer-item-comments", "replies".
REPLIES_LIST = re.compile(r"^(?:[\w-]*[-_])?(?:comments|replies)$", re.I)

# A name shown in brackets ("[清风徐来]"), read without them.
BRACKETED = re.compile(r"^[\[【「『〔]\s*([^\[\]【】「」『』〔〕]+?)\s*[\]】」』〕]$")

# A web address given where a name is: never a name.
WEB_ADDRESS = re.compile(r"^(?:https?://|www\.)\S+$", re.I)

# A class named for a reply ("root-reply", "reply-container", "reply-link"): a button or a
# reply box, or the reply itself, which a sentence in it tells (no button holds one).
REPLY_NAMED = re.compile(r"^(?:[\w-]*[-_])?(?:reply|respond)(?:[-_][a-z]+){0,2}$", re.I)

# Class names of text kept for screen readers only ("sr-only", "visually-hidden",
# "screen-reader-text"): a time there repeats the one the page shows, in another form.
VISUALLY_HIDDEN = Words(r"sr-only|visually-?hidden|screen-reader|offscreen")

# "回复 @张三：", "@Jane:", "In reply to Jane": who a comment answers.
REPLY_TO = re.compile(r"^(?:回复\s*@?|@|in reply to\s+|antwort auf\s+)([^\s:：,，]{1,30})", re.I)

# A poster's card is short lines (name, rank, "Posts: 139"); a longer one is prose.
MAX_CARD_LINE_CHARS = 60

# class names of the replies to a post shown under it ("sub-replies", "core_reply_wrapper",
# "comments-wrap"): whole names, by their last words.
REPLIES_CLASS = re.compile(
    r"^(?:[\w-]*[-_])?(?:repl(?:y|ies)|comments?)(?:[-_](?:wrapper|wrap|container|list|box|area))+$"
    r"|^(?:sub|child|nested|inner)[-_]?(?:repl(?:y|ies)|comments?|posts?)$",
    re.I,
)

# What joins a byline's name to its time: "By jane On 2020.03.12", "von Max am 3. Mai".
BYLINE_JOIN = re.compile(
    r"(?:^|[\s,|·-]+)(?:on|at|am|um|le|el|il|op|于|发表于|发布于|posted(?: on)?)?[\s,|·:-]*$"
    # the time's own label ("作者：江南小雨 时间：2019-03-01"), written against the name
    r"|\s*(?:(?:留言|回复|发表|发布|提问|发帖|更新|评论|创建)?时间|日期|发表于|发布于|time|date)"
    r"\s*[:：]\s*$",
    re.I,
)

# The dash a signature follows ("… — jane", "… – jane"), after the text it signs.
SIGNED = re.compile(r"\S\s*[—–]\s*$|\S\s+-\s*$")

# What a person says, after their name and a colon ("<a>晨跑的猫</a>：终于凉快了"): a sentence.
SAID = re.compile(r"^\s*[:：]\s*\S")

# A user's level or rank badge beside the name ("Lv2", "LV.5", "等级 3", "V6", "VIP"), or their
# reputation score (Q&A sites: "1.3k", "2,515", "1.2万"): the line is the name's.
LEVEL = re.compile(
    r"^\s*(?:lv\.?\s*\d+|level\s*\d+|等级\s*\d+|v\d{1,2}|vip\d{0,2}|\d[\d,.]*\s*[km万]?)\s*$", re.I
)

# A line naming the author after a label: "作者：", "by jane", a message's "From: Ada Park".
# (Fewer words than AUTHOR_LABEL strips: "par", "name" and "用户" open many lines that name no one,
# "Parents: …")
LABELLED_NAME = re.compile(
    rf"^\s*(?:(?:作者|楼主|by|von|{BY_VERBS}){WORD_END}\s*[:：]?"
    rf"|(?:{NAME_LABELS_WITH_COLON})\s*[:：])\s*\S",
    re.I,
)

# A label alone, the name in the node after it.
NAME_LABEL = re.compile(
    rf"^\s*(?:{NAME_LABELS}|{NAME_LABELS_WITH_COLON}|author)\s*[:：]?\s*$", re.I
)

# A user named by a number ("1657811359"): at the position that holds the authors' links in
# the other posts, a linked number this long is a name, not a count.
NUMBERED_USER = re.compile(r"^\d{5,12}$")

PARAGRAPH_TAGS = frozenset(("p", "li", "pre", "dd"))
BOLD_TAGS = frozenset(("b", "strong"))

# Share of a node's non-link text one child must hold for the content to be looked for in it.
CONTENT_SHARE = 0.6
# Non-space characters of its own an element written in <br> lines holds to be a record's text
# however much of it a block among its lines (a code box, a quote) holds.
MIN_LINES_CHARS = 20

# A header line above a message: a label, a colon, and what it says ("发信站: 水木社区 (Tue May
# 12 10:20:31 2020), 站内", "Date: Tue, 12 May 2020 10:20"), as BBS posts and mail archives
# open the text of a post; looked for among its first MESSAGE_HEADER_LINES lines.
HEADER_LINE = re.compile(r"^\s*[^\W\d_][^\W\d_ ]{0,11}(?: [^\W\d_]+)?\s*[:：]")

MESSAGE_HEADER_LINES = 5
# A line of its own that opens a message's signature ("--", the separator of RFC 3676 §4.3, as
# mail archives and BBS posts write it): what follows is the poster's signature and the
# server's source line ("※ 来源:·水木社区 …"), no text of the post.
SIGNATURE_SEPARATOR = re.compile(r"^\s*--\s*$")
# The rule forum software draws above a poster's signature, opening a line: vBulletin's
# eighteen underscores (its template's; longer or shorter rules divide a post's own text).
SIGNATURE_RULE = re.compile(r"^[ \t]*_{18}(?!_)", re.MULTILINE)

# Letters and digits a one-line record's text has beside its byline (eight CJK characters do
# too): fewer are the byline's own labels ("By | | Topic: Hardware").
MIN_ONE_LINE_CHARS = 20
# What joins a one-line record's author, text and time ("jane – Works now · 12:30",
# "<a>晨跑的猫</a>：终于凉快了 10:02"), stripped from the text's edges.
ONE_LINE_JOINS = " –—-·|,:;："

# A title: four words or more, 20 characters, or eight CJK characters.
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
