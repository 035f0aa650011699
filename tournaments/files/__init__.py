"""The files a club keeps and exchanges, for every format: exports (PBN, CSV, clubwhist JSON),
imports and the backup of an installation. A backup spans every format, so this package sits
above the formats (it may import each) and no format imports it."""
