"""Settling an evening's balances in the fewest payments (Brusquembille's jetons, R-BRUSQ-4).

The fewest payments for zero-sum balances are (people with a balance) minus (the most groups that settle among
themselves): found exactly by trying the subsets, which is quick for a table's handful of players.
"""
from __future__ import annotations

from functools import lru_cache


def settle(balances: list) -> list:
    """[(payer, payee, amount)] settling ``balances`` (positive: is owed; they sum to zero), fewest payments."""
    people = tuple(i for i, b in enumerate(balances) if b)
    if sum(balances):
        raise ValueError(f"balances do not sum to zero: {balances}")
    values = [balances[p] for p in people]

    def total(mask: int) -> int:
        return sum(v for i, v in enumerate(values) if mask >> i & 1)

    @lru_cache(maxsize=None)
    def groups(mask: int) -> tuple:
        """The most zero-sum groups that partition ``mask`` (whose total is zero)."""
        if not mask:
            return ()
        low = mask & -mask
        best = (mask,)
        sub = mask
        while sub:
            if sub & low and sub != mask and total(sub) == 0:
                rest = groups(mask ^ sub)
                if len(rest) + 1 > len(best):
                    best = (sub,) + rest
            sub = (sub - 1) & mask
        return best

    payments = []
    for group in groups((1 << len(people)) - 1):
        members = [i for i in range(len(people)) if group >> i & 1]
        owed = {people[i]: values[i] for i in members}
        while any(owed.values()):
            payer = min(owed, key=lambda p: (owed[p], p))
            payee = max(owed, key=lambda p: (owed[p], -p))
            amount = min(-owed[payer], owed[payee])
            payments.append((payer, payee, amount))
            owed[payer] += amount
            owed[payee] -= amount
    return payments
