"""The referee console: the evening from check-in to results, stages, exports, audit log."""
