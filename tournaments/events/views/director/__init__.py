"""The director's console, one module per job.

Setting an event up (`events`), its pairs (`pairs`), boards (`boards`), par (`analysis`),
the room on the night (`room`), the tablets' links (`tablet_links`), entering and correcting
results (`entry`) and the audit trail (`audit`); `_common` holds what they share (the event
lookup, the action wrapper).

Each view reads with a selector or calls one service, then renders or redirects. Errors from
the engine and the services are `ValueError`s whose text is written for the director; views
show that text next to the form and change nothing.
"""
