"""The ``risiko`` command line (Typer + Rich); one module per command family."""
