"""Tests of who may do what and what the server refuses: permissions, secrecy, limits, fuzzing.

The settings' own checks (a bad value stops the process) are here too.
"""
