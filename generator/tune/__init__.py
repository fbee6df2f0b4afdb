"""`gen tune`: search spaces, records, measurement, write-back (generator/tune/tune.py)."""
