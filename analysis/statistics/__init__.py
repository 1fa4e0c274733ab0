"""The statistics of measured win rates: intervals, and control variates that take the
luck of the deal out. Plain arithmetic, usable by every layer."""
