"""Batch simulation, tournaments and balance reports, for any game through the protocol."""
