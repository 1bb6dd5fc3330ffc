"""Jupyter: the anywidget adapter (`widget.NeedleWidget`: traits, requests, timers) and what only it needs
(`shared`: the constants generated into js/src/shared.js).
"""
