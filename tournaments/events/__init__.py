"""Duplicate pairs: events with pre-dealt boards, Mitchell and Howell movements, matchpoints,
par and the tablets at each table. A format package: models, selectors, services, views and
API; it builds on the kernel and imports no other format."""
