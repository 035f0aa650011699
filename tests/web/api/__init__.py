"""Tests of the REST API: the director's and the tablets' operations, its shape, schemathesis."""
