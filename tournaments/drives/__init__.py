"""Progressive whist drives: players move by each table's result, score cards, prizes and the
tablets at each table. A format package: models, selectors, services, views and API; it builds
on the kernel and imports no other format."""
