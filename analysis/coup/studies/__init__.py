"""Coup studies that read the agents' play: what the guides teach from."""
