"""Encoding comparison experiments: specs, isolated runs, executors, reports."""

from .stats import load_results

__all__ = ["load_results"]
