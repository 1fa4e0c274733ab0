"""What the Goat Lords guide and report read: the tournaments, the records, the answers."""
