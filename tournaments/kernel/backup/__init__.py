"""The backup framework every format registers its part into: the format of a document and of a
whole installation's backup, reading and writing rows, checks, the restore report, and the
driver of a whole backup, a restore and a director's import over the formats' parts.

The modules, by job: `schema` (the format's tables and the refusal), `text` (JSON text and
files), `rows` (one row read back and checked), `checks` (checks every format makes), `report`
(what a restore did), `registry` (the formats' parts), `dump` (rows, clubs and users written
out), `writing` (rows written back: ids, users), `documents` (one document's club and people,
its restore and its import), `driver` (a whole backup, any restore, any import). Each format's
own part is in its package: `<format>.selectors.backup` writes its documents,
`<format>.services.backup_parse` checks them, `<format>.services.backup` restores and imports
them and holds its `BackupPart`; `tournaments.files.backup` lists the parts and is what
callers use.
"""
