"""Players: the bots (`bots`, and `search`'s SearchBot, which plays by trying options in sampled worlds),
and games and round robins between them on any executor (`sim`).
"""
