"""What every format's API shares: the error answers, the request parsers, the typed-entry
schema field and the OpenAPI schema class."""
