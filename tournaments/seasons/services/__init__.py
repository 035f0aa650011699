"""Every write of the seasons: the ledger taken from the formats' results (`ledger`)."""
