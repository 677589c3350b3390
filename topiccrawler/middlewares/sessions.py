"""Downloader middleware: sessions (SPEC §2). Each site has a cookie jar of its own; cookies
exported from a browser can be imported (COOKIES_FILE, Netscape cookies.txt or a JSON list);
sites declared with [[login]] in the seed file are logged into with their form before the first
page of theirs is fetched, and again when the session expires (a page answers with the login
form or a redirect to it).

Credentials come from environment variables or a credentials file named in the seed file, are
read when the crawl logs in, and go nowhere else: not in the logs, not in the database (login
pages are never items).
"""

from __future__ import annotations

import http.cookiejar
import json
import logging
import os
import tomllib
from collections import defaultdict
from pathlib import Path
from urllib.parse import urljoin, urlsplit

from form2request import form2request
from scrapy import Request, signals
from scrapy.crawler import Crawler
from scrapy.exceptions import IgnoreRequest, NotConfigured
from scrapy.http import Response, TextResponse
from scrapy.http.request import NO_CALLBACK  # login requests end in this middleware

from topiccrawler.crawl.topic import crawl_topic
from topiccrawler.meta import ENTRANCE, LOGIN_STEP
from topiccrawler.redact import add_secret
from topiccrawler.signals import request_held
from topiccrawler.topics.model import LoginConfig
from topiccrawler.topics.registry import resolve_dir

logger = logging.getLogger(__name__)

MAX_LOGINS = 3  # per site and crawl: a session that keeps expiring is not chased forever
OUT, PENDING, IN, FAILED = "out", "pending", "in", "failed"


class CookieFileError(ValueError):
    """A cookies file that cannot be read; `str()` names the file."""


def load_cookies(path: Path) -> list[dict]:
    """Cookies from a Netscape cookies.txt or a JSON export (a list of {name, value, domain,
    path}), as dicts for `Request.cookies`."""
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("["):
        try:
            entries = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CookieFileError(f"{path}:{exc.lineno}: not valid JSON: {exc.msg}") from exc
        cookies = []
        for n, entry in enumerate(entries, 1):
            if not isinstance(entry, dict) or not {"name", "value", "domain"} <= set(entry):
                raise CookieFileError(f"{path}: cookie {n} needs name, value and domain")
            cookies.append({k: entry[k] for k in ("name", "value", "domain", "path") if k in entry})
        for cookie in cookies:
            add_secret(str(cookie["value"]))  # a session cookie is a password: never logged
        return cookies
    jar = http.cookiejar.MozillaCookieJar()
    try:
        jar.load(str(path), ignore_discard=True, ignore_expires=True)
    except http.cookiejar.LoadError as exc:
        raise CookieFileError(f"{path}: not a Netscape cookies.txt file: {exc}") from exc
    for cookie in jar:
        add_secret(cookie.value)  # a session cookie is a password: never logged
    return [{"name": c.name, "value": c.value, "domain": c.domain, "path": c.path} for c in jar]


def _host_matches(host: str, domain: str) -> bool:
    domain = domain.lstrip(".").lower()
    return host == domain or host.endswith("." + domain)


class SessionMiddleware:
    def __init__(self, crawler: Crawler, cookies: list[dict]):
        self.crawler = crawler
        self.stats = crawler.stats
        self.cookies = cookies
        self.seeded: set[str] = set()
        self.logins: dict[str, LoginConfig] = {}
        self.state: dict[str, str] = defaultdict(lambda: OUT)
        self.attempts: dict[str, int] = defaultdict(int)
        self.waiting: dict[str, list[Request]] = defaultdict(list)

    @classmethod
    def from_crawler(cls, crawler: Crawler) -> SessionMiddleware:
        settings = crawler.settings
        if not settings.getbool("SESSIONS_ENABLED"):
            raise NotConfigured("SESSIONS_ENABLED is False")
        path = settings.get("COOKIES_FILE")
        cookies = load_cookies(resolve_dir(path)) if path else []
        if cookies:
            logger.info("Imported %d cookies from %s", len(cookies), path)
        middleware = cls(crawler, cookies)
        crawler.signals.connect(middleware.spider_opened, signal=signals.spider_opened)
        return middleware

    def spider_opened(self, spider) -> None:
        seeds = crawl_topic(self.crawler).seeds
        for login in seeds.logins if seeds is not None else ():
            self.logins[login.site.lower()] = login

    # --- requests ---------------------------------------------------------------------------

    def process_request(self, request: Request, spider=None):
        host = (urlsplit(request.url).hostname or "").lower()
        request.meta.setdefault("cookiejar", host)
        if host not in self.seeded:
            self.seeded.add(host)
            imported = [c for c in self.cookies if _host_matches(host, c["domain"])]
            if imported:
                request.cookies = [*imported, *_as_list(request.cookies)]
        login = self.logins.get(host)
        if login is None or ENTRANCE not in request.meta:
            return None  # robots.txt, the login requests themselves: never held back
        if urlsplit(request.url).path == urlsplit(login.login_url).path:
            self.stats.inc_value("topiccrawler/sessions/login_page_skipped")
            raise IgnoreRequest("the login page is not content")
        if self.state[host] in (IN, FAILED):
            return None
        self.waiting[host].append(request)
        self.crawler.signals.send_catch_log(request_held, request=request)
        if self.state[host] == PENDING:
            raise IgnoreRequest(f"waiting for the login to {host}")
        return self._start_login(host, login)

    def _start_login(self, host: str, login: LoginConfig) -> Request | None:
        self.attempts[host] += 1
        if self.attempts[host] > MAX_LOGINS:
            self._give_up(host, f"the session expired {MAX_LOGINS} times")
            raise IgnoreRequest(f"no more logins to {host}")
        self.state[host] = PENDING
        self.stats.inc_value("topiccrawler/sessions/logins")
        return self._login_form(host, login)

    @staticmethod
    def _login_form(host: str, login: LoginConfig) -> Request:
        return Request(
            login.login_url,
            meta={LOGIN_STEP: "form", "cookiejar": host, "dont_obey_robotstxt": True},
            dont_filter=True,
            priority=1000,
            callback=NO_CALLBACK,
        )

    def process_exception(self, request: Request, exception: Exception, spider=None):
        """A login step that could not be fetched (a dropped connection, a timeout): the login
        starts again from its form, MAX_LOGINS tries in all, while the site's requests stay
        held; past them the site's pages are fetched without a session. (Left to Scrapy's
        retries, a lost login step left the site's requests held for the rest of the crawl.)"""
        host = (urlsplit(request.url).hostname or "").lower()
        login = self.logins.get(host)
        if login is None or LOGIN_STEP not in request.meta or self.state[host] != PENDING:
            return None
        if isinstance(exception, IgnoreRequest):
            return None  # (the login's own steps end so)
        why = f"{exception.__class__.__name__} fetching {request.url}"
        if self.attempts[host] >= MAX_LOGINS:
            self._give_up(host, why)
            return None
        self.attempts[host] += 1
        self.stats.inc_value("topiccrawler/sessions/login_retries")
        logger.warning("Login to %s: %s; starting it again", host, why)
        return self._login_form(host, login)

    # --- responses ---------------------------------------------------------------------------

    def process_response(self, request: Request, response: Response, spider=None):
        host = (urlsplit(request.url).hostname or "").lower()
        login = self.logins.get(host)
        step = request.meta.get(LOGIN_STEP)
        if login is None:
            return response
        if step == "form":
            return self._submit(host, login, response)
        if step == "submit":
            self._finish(host, login, response)
            raise IgnoreRequest(f"login to {host} done")
        if self.state[host] == IN and self._asks_for_login(login, response):
            self.stats.inc_value("topiccrawler/sessions/expired")
            logger.info("Session on %s expired (%s): logging in again", host, request.url)
            self.state[host] = OUT
            return self.process_request(request.replace(dont_filter=True))
        return response

    def _submit(self, host: str, login: LoginConfig, response: Response) -> Request:
        credentials = self._credentials(login)
        if credentials is None or not isinstance(response, TextResponse):
            self._give_up(host, "no credentials" if credentials is None else "no login form")
            raise IgnoreRequest(f"cannot log in to {host}")
        username, password = credentials
        try:
            forms = response.xpath(f"//form[.//input[@name='{login.password_field}']]")
            if not forms:
                raise ValueError("no form with the password field")
            data = {login.username_field: username, login.password_field: password}
            return form2request(forms[0], data).to_scrapy(
                NO_CALLBACK,
                meta={LOGIN_STEP: "submit", "cookiejar": host, "dont_redirect": True,
                      "handle_httpstatus_list": [301, 302, 303], "dont_obey_robotstxt": True},
                dont_filter=True,
                priority=1000,
            )  # fmt: skip
        except ValueError:
            self._give_up(
                host, f"no form with a '{login.password_field}' field at {login.login_url}"
            )
            raise IgnoreRequest(f"cannot log in to {host}") from None

    def _finish(self, host: str, login: LoginConfig, response: Response) -> None:
        if self._asks_for_login(login, response) or (
            login.failure_text
            and isinstance(response, TextResponse)
            and login.failure_text in response.text
        ):
            self._give_up(host, "the site refused the credentials")
            return
        self.state[host] = IN
        self.stats.inc_value("topiccrawler/sessions/logged_in")
        logger.info("Logged in to %s", host)
        self._release(host)

    def _asks_for_login(self, login: LoginConfig, response: Response) -> bool:
        """A redirect to the login page, or the login form itself."""
        login_path = urlsplit(login.login_url).path
        if 300 <= response.status < 400:
            location = response.headers.get(b"Location", b"").decode("latin-1")
            return urlsplit(urljoin(response.url, location)).path == login_path
        return isinstance(response, TextResponse) and bool(
            response.xpath(f"//form//input[@name='{login.password_field}'][@type='password']")
        )

    def _credentials(self, login: LoginConfig) -> tuple[str, str] | None:
        if login.credentials_file:
            path = resolve_dir(login.credentials_file)
            try:
                data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            except (OSError, tomllib.TOMLDecodeError) as exc:
                logger.error(
                    "Cannot read the credentials file %s: %s", path, exc.__class__.__name__
                )
                return None
            username, password = data.get("username"), data.get("password")
        else:
            username = os.environ.get(login.username_env or "")
            password = os.environ.get(login.password_env or "")
        if not username or not password:
            where = login.credentials_file or f"${login.username_env} and ${login.password_env}"
            logger.error("No credentials for %s: set %s", login.site, where)
            return None
        add_secret(str(password))  # masked in the log from now on
        return str(username), str(password)

    def _give_up(self, host: str, why: str) -> None:
        self.state[host] = FAILED
        self.stats.inc_value("topiccrawler/sessions/login_failed")
        logger.error("Login to %s failed (%s): its pages are fetched without a session", host, why)
        self._release(host)

    def _release(self, host: str) -> None:
        waiting, self.waiting[host] = self.waiting[host], []
        for request in waiting:
            self.crawler.engine.crawl(request.replace(dont_filter=True))


def _as_list(cookies) -> list:
    if not cookies:
        return []
    if isinstance(cookies, dict):
        return [{"name": k, "value": v} for k, v in cookies.items()]
    return list(cookies)
