"""Battle commands (resolve_battle, forecast, odds, play_due_turns, render_report): layers below."""
