"""RisiKo! under the Risiko! Club Milano regulation: a pure standard-library game library."""

__version__ = "0.1.0"
