"""What the Coup guide and report read: the stored records, the edges, the answers."""
