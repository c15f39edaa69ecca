"""Storage: the SQLite game log, its migrations, checksums, salvage and read-only
copies. Export and reading an exported log back for replay are in ``companion.export``."""
