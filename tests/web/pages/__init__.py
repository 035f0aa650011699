"""Tests of the pages directors and members see, through Django's test client."""
