"""``python -m pybridge.cli``: the same as the ``pybridge`` command."""

from pybridge.cli import main

main()
