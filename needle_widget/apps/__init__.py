"""Apps: the `needle-widget` command (`cli`), its terminal game (`terminal`), the benchmarks (`bench`) and a
replay as one HTML page (`export`).
"""
