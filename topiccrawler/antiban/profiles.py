"""Browser profiles: a User-Agent with the headers that browser really sends, so that a Chrome
User-Agent never arrives with Firefox's Accept headers. A site keeps its profile for the whole
crawl (a browser does not change between two clicks); after a ban it gets another one.

A file can replace the built-in list (PROFILES_FILE, TOML)::

    [[profile]]
    name = "chrome-windows"
    user_agent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) …"
    [profile.headers]
    Accept = "text/html,…"
    Accept-Language = "zh-CN,zh;q=0.9,en;q=0.8"
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ACCEPT_CHROME = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
ACCEPT_FIREFOX = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"
)
ACCEPT_SAFARI = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
ZH = "zh-CN,zh;q=0.9,en;q=0.8"


@dataclass(frozen=True)
class BrowserProfile:
    name: str
    user_agent: str
    headers: dict[str, str] = field(default_factory=dict, hash=False, compare=False)


def _chromium(
    name: str, platform: str, ua_platform: str, brand: str, version: str
) -> BrowserProfile:
    major = version.split(".")[0]
    product = "Chrome" if brand == "Google Chrome" else "Edg"
    user_agent = (
        f"Mozilla/5.0 ({platform}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/{major}.0.0.0 Safari/537.36"
        + (f" Edg/{major}.0.0.0" if product == "Edg" else "")
    )
    return BrowserProfile(
        name,
        user_agent,
        {
            "Accept": ACCEPT_CHROME,
            "Accept-Language": ZH,
            "Sec-Ch-Ua": f'"{brand}";v="{major}", "Chromium";v="{major}", "Not_A Brand";v="24"',
            "Sec-Ch-Ua-Mobile": "?0",
            "Sec-Ch-Ua-Platform": f'"{ua_platform}"',
            "Sec-Fetch-Dest": "document",
            "Sec-Fetch-Mode": "navigate",
            "Sec-Fetch-Site": "none",
            "Upgrade-Insecure-Requests": "1",
        },
    )


def _firefox(name: str, platform: str, version: str) -> BrowserProfile:
    return BrowserProfile(
        name,
        f"Mozilla/5.0 ({platform}; rv:{version}) Gecko/20100101 Firefox/{version}",
        {
            "Accept": ACCEPT_FIREFOX,
            "Accept-Language": "zh-CN,zh;q=0.8,zh-TW;q=0.7,zh-HK;q=0.5,en-US;q=0.3,en;q=0.2",
            "Sec-Fetch-Dest": "document",
            "Sec-Fetch-Mode": "navigate",
            "Sec-Fetch-Site": "none",
            "Upgrade-Insecure-Requests": "1",
        },
    )


BUILTIN_PROFILES: tuple[BrowserProfile, ...] = (
    _chromium("chrome-windows", "Windows NT 10.0; Win64; x64", "Windows", "Google Chrome", "131"),
    _chromium("chrome-mac", "Macintosh; Intel Mac OS X 10_15_7", "macOS", "Google Chrome", "131"),
    _chromium("edge-windows", "Windows NT 10.0; Win64; x64", "Windows", "Microsoft Edge", "131"),
    _firefox("firefox-windows", "Windows NT 10.0; Win64; x64", "133.0"),
    _firefox("firefox-linux", "X11; Linux x86_64", "133.0"),
    BrowserProfile(
        "safari-mac",
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        {"Accept": ACCEPT_SAFARI, "Accept-Language": "zh-CN,zh-Hans;q=0.9"},
    ),
)


class ProfileFileError(ValueError):
    """A profiles file that cannot be used; `str()` names the file (and line when known)."""


def load_profiles(path: Path | str) -> tuple[BrowserProfile, ...]:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ProfileFileError(f"{path}: cannot read: {exc.strerror}") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ProfileFileError(f"{path}: {exc}") from exc
    entries = data.get("profile")
    if not isinstance(entries, list) or not entries:
        raise ProfileFileError(f"{path}: no [[profile]] entries")
    profiles = []
    for n, entry in enumerate(entries, 1):
        agent = entry.get("user_agent") if isinstance(entry, dict) else None
        headers = entry.get("headers", {}) if isinstance(entry, dict) else None
        if not isinstance(agent, str) or not agent.strip():
            raise ProfileFileError(f"{path}: profile {n}: 'user_agent' must be a non-empty string")
        if not isinstance(headers, dict) or not all(isinstance(v, str) for v in headers.values()):
            raise ProfileFileError(f"{path}: profile {n}: 'headers' must be a table of strings")
        profiles.append(BrowserProfile(str(entry.get("name", f"profile-{n}")), agent, headers))
    return tuple(profiles)
