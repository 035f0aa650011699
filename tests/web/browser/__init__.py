"""Tests in a real browser: Debian's Chromium, driven by playwright, against a live server.

Every test here is marked `browser`; `make test` runs them when Chromium is installed.
"""
