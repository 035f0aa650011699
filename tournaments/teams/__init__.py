"""Bid Whist team tournaments and leagues: teams, games, playoffs, the money and the tablets at
each table. A format package: models, selectors, services, views and API; it builds on the
kernel and imports no other format."""
