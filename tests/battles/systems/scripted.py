"""Dice that show chosen faces (logged like real ones), for exact table tests."""

from battles.rules.dice import Dice, Roll


class ScriptedDice(Dice):
    """``ScriptedDice([20, 13])``: ``die`` returns 20 then 13; running out is an error."""

    def __init__(self, faces):
        super().__init__(0)
        self._faces = list(faces)

    def die(self, sides, purpose):
        face = self._faces.pop(0)
        assert 1 <= face <= sides, (face, sides, purpose)
        self.log.append(Roll(purpose, sides, face))
        return face
