"""Card and wonder data of 7 Wonders (a package so that setuptools ships its *.json)."""
