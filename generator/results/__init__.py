"""Timing results as data, without a GPU: read and check the JSON that `gen bench`
and `gen results import` write (load.py), compare two of them (compare.py), and
import what popcorn-cli prints for a leaderboard submission (popcorn.py)."""
