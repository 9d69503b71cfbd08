"""gamenight's Textual client: screens, per-game widgets, the table object and the CLI."""
