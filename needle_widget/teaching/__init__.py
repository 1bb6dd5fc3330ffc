"""Teaching: the quiz (questions asked from a seat's view, revealed and scored: `quiz`), answer records, their
files and a class's table (`answers`), and the bundled example replays (`examples`).
"""
