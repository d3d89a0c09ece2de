"""The SAT side: formulas as DIMACS text, the solvers and their models, and proofs of what
they answered.

On the data's way ``encoding -> CNF -> solver -> model``: DIMACS text, the one reader and
writer of clauses (:mod:`.cnf`), self-describing export and decoding (:mod:`.dimacs`); the
PySAT solvers and solver binaries (:mod:`.solvers`, :mod:`.binaries`); enumeration with
blocking clauses (:mod:`.solving`), over disjoint subspaces (:mod:`.subspaces`) and cubes
(:mod:`.cubes`); models decoded and checked in blocks (:mod:`.bulk`); DRAT proofs
(:mod:`.drat`), checked in parts (:mod:`.proofparts`) by a checker (:mod:`.certify`), and
certificates on disk (:mod:`.proofdir`).

It imports :mod:`satedge.encode`, :mod:`satedge.puzzle`, :mod:`satedge.system` and
:mod:`satedge.errors`.
"""

__all__ = []  # its modules are imported by name
