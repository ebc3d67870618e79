"""Glicko-2, as Glickman publishes it ("Example of the Glicko-2 system", 2013): a rating, its
deviation (how sure the rating is) and a volatility, updated once per rating period from every
game of the period against the opponents' ratings at the period's start.

Written here from the paper rather than taken from PyPI's ``glicko2`` (a 2014 module of
classes with state, no types, no release since): the algorithm is forty lines, and the tests
check it against the paper's worked example to the printed digits. Pure: no I/O, no clock.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

SCALE = 173.7178
"""Glicko-2's scale: a rating of 1500 ± 173.7178 is μ = 0 ± 1."""
START_RATING = 1500.0
START_RD = 350.0
START_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change (Glickman: 0.3 to 1.2)."""
EPSILON = 0.000001
MAX_RD = 350.0


@dataclass(frozen=True)
class Rating:
    """A player's rating, rating deviation and volatility, on the Glicko scale."""

    rating: float = START_RATING
    rd: float = START_RD
    volatility: float = START_VOLATILITY

    @property
    def mu(self) -> float:
        return (self.rating - START_RATING) / SCALE

    @property
    def phi(self) -> float:
        return self.rd / SCALE


@dataclass(frozen=True)
class Game:
    """One game of the period from the player's side: the opponent's rating at the period's
    start and the player's score (1 a win, 0.5 a draw, 0 a loss)."""

    opponent: Rating
    score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def idle(player: Rating, periods: int = 1) -> Rating:
    """A player who did not play for ``periods`` periods: the deviation grows (step 6 of the
    paper alone, each period), never beyond the start's."""
    if periods <= 0:
        return player
    phi = math.sqrt(player.phi**2 + periods * player.volatility**2)
    return Rating(player.rating, min(MAX_RD, phi * SCALE), player.volatility)


def update(player: Rating, games: list[Game], tau: float = TAU) -> Rating:
    """The player's rating after one period with ``games`` (none: ``idle``)."""
    if not games:
        return idle(player)
    mu, phi, sigma = player.mu, player.phi, player.volatility
    v_inv = 0.0
    delta_sum = 0.0
    for game in games:
        mu_j, phi_j = game.opponent.mu, game.opponent.phi
        g = _g(phi_j)
        e = _e(mu, mu_j, phi_j)
        v_inv += g * g * e * (1.0 - e)
        delta_sum += g * (game.score - e)
    v = 1.0 / v_inv
    delta = v * delta_sum
    sigma_new = _volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * delta_sum
    return Rating(mu_new * SCALE + START_RATING, min(MAX_RD, phi_new * SCALE), sigma_new)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm (the paper's own procedure)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def expected(a: Rating, b: Rating) -> float:
    """A's expected score against B, both ratings' deviations counted (what a rating list
    predicts for a game between them)."""
    phi = math.sqrt(a.phi**2 + b.phi**2)
    return _e(a.mu, b.mu, phi)
