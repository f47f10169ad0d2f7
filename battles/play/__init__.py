"""Turn-by-turn battles (issue 10 items 5 and 8): orders per turn and side
(:mod:`battles.play.orders`), the services that store them and play the turns
(:mod:`battles.play.game_turns`), and the board as each viewer may see it
(:mod:`battles.play.board`)."""
