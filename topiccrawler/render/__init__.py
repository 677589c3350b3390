"""Pages whose comments, posts or body are built by script: found by what the static page says
(`detect`), completed from the JSON endpoint the page names (`records_json`) or else rendered by
scrapy-playwright in the system Chromium (`handler`, `browser`); wired in by
`middlewares/scripted.py`."""
