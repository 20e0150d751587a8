// SecureStorage facade: implemented later.
