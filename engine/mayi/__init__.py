"""May I? — the contract rummy of the rules file §5 (engine key ``may_i``, rule prefix MI).

May I? is not a Canasta, so it is its own game module on the shared pieces
(cards, errors, options, the phase enum and the result rows). The public facade
(``engine.new_game``, ``legal_moves``, ``apply``, ``next_deal``, the views and the
notation) finds a state's game in :mod:`engine.games`, so callers use one API for every
game.

This package file imports none of its modules on purpose: the shared modules import
:mod:`engine.mayi.state` and :mod:`engine.mayi.moves` at load time, and those must
not pull the rest of the package in (no import cycles). It only puts the compiled
modules first when the compiled build runs (:mod:`engine.build`).

Modules: :mod:`~engine.mayi.melds` (sets and sequences), :mod:`~engine.mayi.table`
(a meld on the table), :mod:`~engine.mayi.moves`, :mod:`~engine.mayi.rules` (options and
contracts), :mod:`~engine.mayi.state`, :mod:`~engine.mayi.successor` (the next state of
every move), :mod:`~engine.mayi.transitions`, :mod:`~engine.mayi.legal`,
:mod:`~engine.mayi.checks` and :mod:`~engine.mayi.reasons` (why a move is refused),
:mod:`~engine.mayi.play`, :mod:`~engine.mayi.scoring`, :mod:`~engine.mayi.views`,
:mod:`~engine.mayi.notation`, :mod:`~engine.mayi.game`, :mod:`~engine.mayi.mayi_game` (the
game behind the facade), :mod:`~engine.mayi.bots` (greedy and the expert's own play).
Rules as implemented: ``docs/rules-may-i.md``.
"""

from engine.build import select

select(__path__, "mayi")
