"""The engine: one round of Needle in a Card Stack exactly as docs/RULES.md reads, and the plain values
everything else is made of.

Cards, actions, rules and results are small values; `Game` is the state machine with the one legality
predicate (`why_not`); `PlayerView` and `views.view` are all that leaves a game for a player, a screen or a
bot; `narration` puts each action in words for a perspective. Also here, used by every layer: the error family
(`errors`), seat and perspective names (`seats`), how a figure is written (`figures`), checked file paths
(`paths`) and weakly held callbacks (`observers`). Imports nothing else of the package.
"""
