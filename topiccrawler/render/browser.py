"""What the browser does on a page before its HTML is taken: press "load more" and scroll, a
bounded number of times, so that lists that grow on demand are complete."""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)

LOAD_MORE_SELECTOR = (
    "button:text-matches('加载更多|查看更多|更多评论|load more|show more|more comments', 'i'), "
    "a:text-matches('加载更多|查看更多|更多评论|load more|show more|more comments', 'i')"
)


async def complete(page, rounds: int = 5, wait_ms: int = 300) -> None:
    """Click visible "load more" controls and scroll to the end, up to `rounds` times, until the
    page stops growing."""
    await page.wait_for_load_state("networkidle")
    size = await page.evaluate("document.body ? document.body.innerHTML.length : 0")
    for _ in range(rounds):
        buttons = page.locator(LOAD_MORE_SELECTOR)
        clicked = 0
        for index in range(await buttons.count()):
            button = buttons.nth(index)
            try:
                if await button.is_visible():
                    await button.click(timeout=2000)
                    clicked += 1
            except Exception as exc:  # noqa: BLE001 (a control that cannot be clicked is left)
                logger.debug("Rendering: could not click %s: %s", button, exc)
        await page.evaluate("window.scrollTo(0, document.body ? document.body.scrollHeight : 0)")
        await page.wait_for_timeout(wait_ms)
        await page.wait_for_load_state("networkidle")
        grown = await page.evaluate("document.body ? document.body.innerHTML.length : 0")
        if not clicked and grown == size:
            return
        size = grown
