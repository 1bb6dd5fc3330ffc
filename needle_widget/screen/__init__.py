"""The screen: what one screen may see and do, in plain Python (no Jupyter import). A `Session` is the policy
of one widget; `guard` runs bots safely; the `Desk` holds the session on show, its branch and panels;
`whatif` builds the hypothetical panels; `display` and `synced` build what a screen receives for one
perspective; `notepad` and `quizmode` are the notes and quiz features on a screen.
"""
