# pytest collects notebooks/ (pyproject's testpaths) with --doctest-modules, which imports every .py
# file in it. A marimo notebook (notebooks/marimo/*.py) is a script, not a module of doctests: importing
# it needs marimo (an optional extra) and builds the app. Leave it out here; tests/test_marimo_notebook.py
# runs it and checks it.
collect_ignore_glob = ["marimo/*.py"]
