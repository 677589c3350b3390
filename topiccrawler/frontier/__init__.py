"""The focused frontier: which link to fetch next (link priorities learned while crawling) and
when to stop (the harvest rate)."""
