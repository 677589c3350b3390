"""`topiccrawler schedule`: a crontab line or a systemd timer that runs a topic's crawl every so
often, from the project folder, with the crawl's exit status left for cron to report.

The minute a crawl starts at is derived from the topic's name, so that several topics on one
machine do not all start at once."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

MARK = "# topiccrawler:"  # ends every installed crontab line, with the topic's name
_EVERY = re.compile(r"^(\d+)\s*([mhd])$")
SYSTEMD_UNITS = {"m": "min", "h": "h", "d": "d"}


@dataclass(frozen=True)
class Every:
    amount: int
    unit: str  # m, h or d

    @classmethod
    def parse(cls, text: str) -> Every:
        match = _EVERY.match(text.strip().lower())
        if not match or int(match.group(1)) < 1:
            raise ValueError(f"--every takes minutes, hours or days, like 30m, 6h or 1d: {text!r}")
        every = cls(int(match.group(1)), match.group(2))
        limits = {"m": 60, "h": 24, "d": 31}
        if (
            every.amount > limits[every.unit]
            or limits[every.unit] % every.amount
            and every.unit != "d"
        ):
            raise ValueError(
                f"--every {text}: cron repeats within the hour or the day; use a divisor of "
                f"{limits[every.unit]} ({every.unit})"
            )
        return every

    @property
    def seconds(self) -> int:
        return self.amount * {"m": 60, "h": 3600, "d": 86400}[self.unit]

    def systemd(self) -> str:
        return f"{self.amount}{SYSTEMD_UNITS[self.unit]}"


def crawl_command(topic: str, project: Path, log: Path | None) -> str:
    """The shell command cron runs: from the project folder, this Python's Scrapy."""
    command = (
        f"cd {shlex.quote(str(project))} && {shlex.quote(sys.executable)} -m scrapy crawl topic"
        f" -a topic={shlex.quote(topic)}"
    )
    if log is not None:
        command += f" >> {shlex.quote(str(log))} 2>&1"
    return command


def crontab_line(topic: str, every: Every, project: Path, log: Path | None) -> str:
    minute = zlib.crc32(topic.encode()) % 60
    hour = zlib.crc32(topic.encode()[::-1]) % 24
    if every.unit == "m":
        timing = f"{minute % every.amount}-59/{every.amount} * * * *"
    elif every.unit == "h":
        timing = f"{minute} {hour % every.amount}-23/{every.amount} * * *"
    else:
        timing = f"{minute} {hour} */{every.amount} * *"
    return f"{timing} {crawl_command(topic, project, log)} {MARK}{topic}"


def systemd_units(topic: str, every: Every, project: Path, log: Path | None) -> dict[str, str]:
    name = f"topiccrawler-{re.sub(r'[^A-Za-z0-9_.-]', '_', topic)}"
    service = f"""[Unit]
Description=topiccrawler: crawl topic {topic}

[Service]
Type=oneshot
WorkingDirectory={project}
ExecStart={sys.executable} -m scrapy crawl topic -a topic={topic}
""" + (f"StandardOutput=append:{log}\nStandardError=append:{log}\n" if log else "")
    timer = f"""[Unit]
Description=topiccrawler: crawl topic {topic} every {every.amount}{every.unit}

[Timer]
OnBootSec=5min
OnUnitActiveSec={every.systemd()}
Persistent=true

[Install]
WantedBy=timers.target
"""
    return {f"{name}.service": service, f"{name}.timer": timer}


def install_crontab(topic: str, line: str) -> str:
    """Put the line in the user's crontab, replacing this topic's earlier line; returns what
    was done. Other lines are kept as they are."""
    current = subprocess.run(["crontab", "-l"], capture_output=True, text=True)
    lines = current.stdout.splitlines() if current.returncode == 0 else []
    kept = [entry for entry in lines if not entry.rstrip().endswith(f"{MARK}{topic}")]
    replaced = len(kept) != len(lines)
    text = "\n".join([*kept, line]) + "\n"
    done = subprocess.run(["crontab", "-"], input=text, capture_output=True, text=True)
    if done.returncode != 0:
        raise OSError(f"crontab refused the new table: {done.stderr.strip()}")
    return "replaced" if replaced else "added"
