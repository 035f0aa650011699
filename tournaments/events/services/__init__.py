"""Services: every operation that changes more than one row, as keyword-only functions named
`<entity>_<action>`. Views, API views, tasks and management commands call these and nothing else
writes to the tournament tables.
"""
