import pytest
from django.test import Client
from battles.turns.play import turn_play_start

@pytest.mark.django_db
def test_pages(duel):
    c = Client()
    c.force_login(duel.cast.organiser)
    r = c.get(f"/battles/{duel.battle.pk}/turns/"); print(r.status_code)
    r = c.post(f"/battles/{duel.battle.pk}/turns/start/", {"seed": "7", "max_turns": "3"}); print(r.status_code, r.content[:300] if r.status_code!=302 else "")
    r = c.get(f"/battles/{duel.battle.pk}/turns/"); print(r.status_code, len(r.content))
    p = Client(); p.force_login(duel.cast.qatzrin_player)
    r = p.get(f"/battles/{duel.battle.pk}/turns/"); print(r.status_code); html=r.content.decode()
    import re; print(re.findall(r'name="([a-z]+-ship[^"]*)"', html))
    r = p.post(f"/battles/{duel.battle.pk}/turns/preview/", {"ship": "ship-1", "movement-ship-1": "+2, 1T"}); print(r.status_code, r.content.decode()[:600])
    r = p.post(f"/battles/{duel.battle.pk}/turns/preview/", {"ship": "ship-1", "movement-ship-1": "+9"}); print(r.status_code, r.content.decode()[:600])
    r = p.post(f"/battles/{duel.battle.pk}/turns/orders/", {"movement-ship-1": "+9"}); print(r.status_code, re.findall(r'form-error[^>]*>([^<]*)', r.content.decode()))
    r = p.post(f"/battles/{duel.battle.pk}/turns/orders/", {"movement-ship-1": "+2", "fire-ship-1-beam-a": "ship-3"}); print(r.status_code)
    r = p.get(f"/battles/{duel.battle.pk}/replay/"); print(r.status_code)
    r = c.get(f"/battles/{duel.battle.pk}/"); print(r.status_code, "Fight it" in r.content.decode() or "Combattre" in r.content.decode())
