"""The kernel: what every format (events, drives, team tournaments) shares, written once.

The club and the abstract evening every format's play derives from (`models`), who directs
which club (`access`, `directors`, `clubs`), the error base every refusal derives from and its
one mapping to HTTP (`refusals`), the rules for names, dates and whole numbers (`names`,
`numbers`), the table links' token and abstract model (`tokens`, `links`), the one audit writer
and the audit row's columns (`audit`), the gate a table's late write meets (`table_gate`), the
tablet API's base view and throttles (`tablet_api`), live updates and their streams (`live`,
`streams`), the tablet pages and their service worker (`tablet_pages`), the typed documents'
base (`documents`), the fields and pages the director's screens share (`forms`, `pages`,
`pdf`), the API's shared pieces (`api`), jobs and health checks (`jobs`, `health`).

It imports no format, no `files` and none of the wiring, so every format can build on it and
none reaches another through it (`.importlinter` says so; docs/development/architecture.md
explains where a fourth format plugs in).
"""
