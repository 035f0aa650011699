"""The kernel: what every format (events, drives, team tournaments) shares, written once.

It holds the error base every refusal derives from (`refusals`), the table links' token and
their abstract model (`tokens`, `links`), the one audit writer (`audit`), the one rule for
names and dates (`names`), "owned by a club this user directs" (`directors`), and the tablet
API's base view and throttles (`tablet_api`). It sits below the models and imports nothing of
the app outside itself, so every format can build on it and none reaches another through it
(`.importlinter` says so; docs/development/architecture.md explains where a format plugs in).
"""
