"""The close_due_turns command: turns past their deadline closed through ``closing``."""
