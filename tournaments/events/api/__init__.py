"""The REST API: one view per operation, thin, over the services."""
