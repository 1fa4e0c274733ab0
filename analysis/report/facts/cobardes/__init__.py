"""What the ¡Cobardes! guide and report read: the stored records and the answers."""
