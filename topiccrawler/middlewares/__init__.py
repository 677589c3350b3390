"""Downloader middlewares, one behaviour each, switched on and off by settings."""
