"""`topiccrawler serve`: a local, read-only web view of what the crawls stored (web/app.py)."""
