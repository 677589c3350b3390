"""Written pages, batch 11 (written after batches 1-10 were fixed, scored before its own
fixes): forums and comments in other languages: a Spiegel-like German comment list ("vor 2
Stunden"), a French hardware-forum-like thread in table rows ("Posté le 12-03-2023 à
10:15:22"), a Spanish vBulletin-like thread ("Hoy, 10:15"), a Russian forum thread ("12 марта
2023, 10:15"), and a Japanese 2ch-like thread (a dt/dd pair per post: "名前：", "投稿日：")."""


def spiegel(items):
    divs = "".join(
        f"""<div class="comment-item" data-comment-id="{i}"><div class="comment-header"><span class="comment-user">{u}</span><span class="comment-date">{t}</span></div><div class="comment-text"><p>{text}</p></div><div class="comment-actions"><button class="like">Gefällt mir ({i * 3})</button><button class="reply">Antworten</button></div></div>"""
        for i, (u, t, text) in enumerate(items)
    )
    return f"""<html lang="de"><head><title>Bahn kündigt neuen Fahrplan an - Nachrichten</title></head><body><header><a href="/">Nachrichten</a></header>
<article><h1>Bahn kündigt neuen Fahrplan an</h1><div class="article-body"><p>{"Die Bahn will im kommenden Jahr mehr Züge zwischen den großen Städten einsetzen und die Taktung erhöhen. " * 5}</p></div></article>
<section class="comments"><h2>Diskussion</h2><div class="comment-list">{divs}</div></section></body></html>"""


SPIEGEL = [
    (
        "Pendlerin_Köln",
        "vor 2 Stunden",
        "Schön wäre es, wenn die Züge erst einmal pünktlich fahren würden, bevor es mehr werden.",
    ),
    (
        "Bahnfahrer42",
        "vor 3 Stunden",
        "Mehr Takt bringt nichts, wenn die Strecken schon jetzt überlastet sind.",
    ),
    (
        "M. Weber",
        "vor 5 Stunden",
        "Ich fahre jeden Tag nach Frankfurt und merke seit Monaten eine Verbesserung.",
    ),
]


def hfr(items):
    rows = "".join(
        f"""<table class="messagetable" cellspacing="0" cellpadding="4"><tr class="message cBackCouleurTab{1 + i % 2}"><td class="messCase1" width="180" valign="top"><div><b class="s2">{u}</b></div><div class="MoodStatus"></div><span class="avatar_center"><img src="/av.png"></span><br><span class="MoodStatus">Profil : Membre</span></td>
<td class="messCase2" valign="top"><div class="toolbar"><div class="left">Posté le {t}&nbsp;&nbsp;<a href="#t{i}"><img src="/link.gif" alt="n°{100 + i}"></a></div><div class="right"><a href="/message.php?quote={i}">Citer</a></div></div>
<div id="para{100 + i}"><p>{text}</p><div style="clear: both;"> </div></div></td></tr></table>"""
        for i, (u, t, text) in enumerate(items)
    )
    return f"""<html lang="fr"><head><title>Quel SSD pour un vieux portable ? - Stockage - Hardware</title></head><body><div class="cadreonglet"><a href="/">Forum</a> &gt; <a href="/hfr/Hardware/">Hardware</a></div>
<h3>Quel SSD pour un vieux portable ?</h3><div id="mesdiscussions">{rows}</div></body></html>"""


HFR = [
    (
        "Zorglub75",
        "12-03-2023 à 10:15:22",
        "Bonjour, je cherche un SSD SATA pour redonner vie à un portable de 2014. Des conseils ?",
    ),
    (
        "Tonton_Rico",
        "12-03-2023 à 11:02:40",
        "N'importe quel SSD SATA de marque fera l'affaire, le bus du portable sera la limite de toute façon.",
    ),
    (
        "Zorglub75",
        "13-03-2023 à 08:47:05",
        "Merci, j'ai pris un 500 Go et le portable démarre en quinze secondes maintenant.",
    ),
]


def forocoches(items):
    lis = "".join(
        f"""<div id="edit{500 + i}"><table class="tborder" id="post{500 + i}" width="100%" cellspacing="0" cellpadding="6" border="0"><tr><td class="thead"><div class="normal" style="float:right">#<a href="showpost.php?p={500 + i}" target="new"><strong>{i + 1}</strong></a></div><div class="normal">{t}</div></td></tr>
<tr><td class="alt2" width="175"><div id="postmenu_{500 + i}"><a class="bigusername" href="member.php?u={20 + i}">{u}</a></div><div class="smallfont">{rank}</div><div class="smallfont">Registrado: {reg}<br>Mensajes: {(i + 1) * 812}</div></td>
<td class="alt1" id="td_post_{500 + i}"><div id="post_message_{500 + i}">{text}</div></td></tr></table></div>"""
        for i, (u, rank, reg, t, text) in enumerate(items)
    )
    return f"""<html lang="es"><head><title>¿Merece la pena el coche eléctrico? - ForoCoches</title></head><body><div class="navbar"><a href="/foro/">ForoCoches</a> &gt; <a href="/foro/forumdisplay.php?f=2">General</a></div>
<div id="posts">{lis}</div></body></html>"""


FOROCOCHES = [
    (
        "pepe_motor",
        "Forero",
        "abr 2015",
        "Hoy, 10:15",
        "Estoy pensando en cambiar a un eléctrico, pero no tengo garaje. ¿Alguien en la misma situación?",
    ),
    (
        "vatios",
        "Forero Senior",
        "ene 2011",
        "Hoy, 10:42",
        "Sin cargador en casa es complicado, depende mucho de los puntos de carga de tu barrio.",
    ),
    (
        "la_gasolinera",
        "Forero",
        "jun 2019",
        "Ayer, 22:08",
        "Yo lo cargo en el trabajo y me sobra, pero sin esa opción no lo compraría.",
    ),
]


def russian(items):
    divs = "".join(
        f"""<div class="post_block" id="post-{900 + i}"><div class="post_wrap"><div class="post_header"><span class="post_author"><a href="/index.php?showuser={60 + i}">{u}</a></span><span class="post_date">{t}</span><span class="post_id">Сообщение #{i + 1}</span></div>
<div class="post_body"><div class="post_text">{text}</div></div><div class="post_controls"><a href="#" class="reply">Ответить</a> <a href="#" class="quote">Цитата</a></div></div></div>"""
        for i, (u, t, text) in enumerate(items)
    )
    return f"""<html lang="ru"><head><title>Какой роутер выбрать для квартиры? - Форум</title></head><body><div class="breadcrumbs"><a href="/">Форум</a> › <a href="/forum/12">Сети</a></div>
<h1>Какой роутер выбрать для квартиры?</h1><div class="topic">{divs}</div></body></html>"""


RUSSIAN = [
    (
        "Сергей_К",
        "12 марта 2023, 10:15",
        "Посоветуйте роутер для трёхкомнатной квартиры, сейчас в дальней комнате почти нет сигнала.",
    ),
    (
        "netadmin",
        "12 марта 2023, 11:40",
        "Лучше взять mesh-систему из двух модулей, один роутер через стены не пробьёт.",
    ),
    (
        "Сергей_К",
        "14 марта 2023, 19:05",
        "Купил mesh из двух модулей, теперь сигнал отличный во всех комнатах. Спасибо!",
    ),
]


def nichan(items):
    dl = "".join(
        f"""<dt id="{i + 1}">{i + 1} ：<span class="name"><b>{u}</b></span>：{t} ID:{uid}</dt><dd class="thread_in">{text}<br><br></dd>"""
        for i, (u, t, uid, text) in enumerate(items)
    )
    return f"""<html lang="ja"><head><title>おすすめの登山靴を教えてくれ</title></head><body><div class="menu"><a href="/">掲示板トップ</a></div>
<h1 class="thread_title">おすすめの登山靴を教えてくれ</h1><dl class="thread">{dl}</dl></body></html>"""


NICHAN = [
    (
        "名無しさん",
        "2024/01/05(金) 10:15:22.12",
        "aBcD1234",
        "初心者向けの登山靴でおすすめはある？日帰りの低山がメイン。",
    ),
    (
        "名無しさん",
        "2024/01/05(金) 10:40:03.55",
        "xYz98765",
        "ミッドカットの防水モデルなら失敗しない。店で必ず試し履きしろ。",
    ),
    (
        "山男",
        "2024/01/05(金) 12:02:47.90",
        "Qw12Er34",
        "靴下も登山用にすると靴擦れがかなり減るぞ。",
    ),
]
