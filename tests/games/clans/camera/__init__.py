"""Tests of the camera above the Clans board: synthetic photographs of real positions and an accuracy harness."""
