"""``python -m canasta_terminal``: the terminal table (same as ``canasta play``)."""

from canasta_terminal.table import main

raise SystemExit(main())
