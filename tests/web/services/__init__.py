"""Tests of the services under the pages and the API: events, results, backups, exports."""
