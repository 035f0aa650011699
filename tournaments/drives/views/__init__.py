"""The format's web pages: the director's console, the public pages and the tablets."""
