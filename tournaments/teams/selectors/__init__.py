"""The format's reads for pages, the API and the tablets: they never write."""
