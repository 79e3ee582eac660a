"""The shipped player profiles (``ai:greedy:profile=NAME``), as package data."""
