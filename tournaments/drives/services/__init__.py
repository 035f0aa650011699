"""The format's services: every write, as keyword-only functions; pages, the API and commands
call these and nothing else writes the format's rows."""
