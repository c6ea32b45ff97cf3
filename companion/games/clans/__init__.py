"""Pure rules of Clans (Leo Colovini, 2002): board, game state, records. No I/O beyond reading the board file."""
