"""Inference: what one seat can know or expect from its own view alone: the needle odds (`knowledge`),
where hidden cards can be (`slots`), whole possible worlds and the opponent-model posterior (`worlds`), and how
a position ends when played out (`outcomes`). Reads view dicts and PlayerViews, never a game's hidden state.
"""
