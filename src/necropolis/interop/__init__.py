"""Adapters to the libraries researchers use: OpenSpiel and PettingZoo. Thin by design.

Import ``necropolis.interop.openspiel`` to register every game with pyspiel.
"""
