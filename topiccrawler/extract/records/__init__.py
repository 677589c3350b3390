"""Repeated records on a page: user comments (POL, SPEC §4) and forum posts and thread lists
(SoL, SPEC §5)."""
