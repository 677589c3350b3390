"""Fetching without being blocked (SPEC §2): browser profiles, block detection and back-off,
proxies, sessions and logins. Each piece is a small downloader middleware switched by settings."""
