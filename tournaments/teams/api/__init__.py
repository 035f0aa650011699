"""The format's REST API: thin views over its services and selectors."""
