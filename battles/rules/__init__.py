"""The Full Thrust Incursion rules engine: pure Python, never imports the web framework.

Everything a resolution needs comes in as arguments (including its ``Dice``); everything
it decides comes out as return values and events (DESIGN.md §3).
"""
