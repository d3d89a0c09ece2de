"""Encoding comparison experiments: specs, isolated runs, executors, reports."""
