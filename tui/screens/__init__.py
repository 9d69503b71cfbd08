"""The app's generic screens: menu, new game, rules/help, hot-seat pass, end of game, dialogs."""
