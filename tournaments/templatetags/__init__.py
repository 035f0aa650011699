"""Template filters for clubwhist's pages (`clubwhist`: game titles, QR codes, par tables)."""
