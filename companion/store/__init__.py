"""Storage: the SQLite game log, its migrations, and export/replay of log files."""
