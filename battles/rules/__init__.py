"""The Full Thrust Incursion rules engine: pure Python, never imports the web framework.

Everything a resolution needs comes in as arguments (including its ``Dice``); everything
it decides comes out as return values and events.

The ``.py`` files are the engine. When a mypyc build of exactly these files exists
(``make rules-engine`` makes one), its modules are loaded instead, about twice as fast; otherwise,
or with ``ADMIRALTY_PURE_RULES=1``, the plain Python runs (``_accelerator``). ``COMPILED``
says which; ``ENGINE`` says it in words (with the reason when pure).
"""

from battles.rules._accelerator import install as _install

COMPILED, ENGINE = _install()
