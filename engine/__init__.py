"""gamenight's rules engine: pure functions over immutable plain data, one package per game."""
