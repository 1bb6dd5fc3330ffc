"""The example replays shipped with the package (`needle_widget.teaching.examples`), by the short name the
notebooks use: `from needle_widget import examples`.

>>> from needle_widget import examples
>>> examples.load("detective").result.reason
<Reason.FOUND: 'found'>
"""

from .teaching.examples import EXAMPLES, FOLDER, load

__all__ = ["EXAMPLES", "FOLDER", "load"]
