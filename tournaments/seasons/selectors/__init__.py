"""Every read of the seasons: the ledger's appearances (`ledger`)."""
