"""Records: a game kept, checked and annotated: `Replay` (every action and chance outcome, any step at once)
and a teacher's `notes` tied to steps. Built on the engine only.
"""
