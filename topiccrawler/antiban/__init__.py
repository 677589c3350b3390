"""Fetching without being banned (SPEC §2): browser profiles, ban detection and back-off,
proxies, sessions and logins. Each piece is a small downloader middleware switched by settings."""
