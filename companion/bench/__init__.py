"""The benchmarks (`companion bench`): how fast the companion answers, as numbers, not a pass/fail test.

run    the command: key -> frame, a long replay, cold start, memory, the bot's turns
path   the whole path of a key through the real loop, the journal and a counting I2C bus;
       `python -m companion.bench.path memory GAMES SEED` is the memory run's fresh process
"""
