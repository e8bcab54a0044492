"""The ``necropolis`` command: play, replay and simulate, speaking only the protocol."""
