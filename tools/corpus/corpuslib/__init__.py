"""Library behind tools/corpus/build.py (see tools/corpus/README.md)."""
