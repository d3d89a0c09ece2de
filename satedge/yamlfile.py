"""Reading YAML: the safe loader, with every mapping's keys unique, nesting and the expanded
document bounded (:data:`MAX_YAML_DEPTH`, :data:`MAX_YAML_NODES`), and any problem one line
that names the file.  libyaml parses when PyYAML has it; a document it cannot read, or one out
of bounds, is read again by the Python loader, so the message is the same on every machine."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .errors import SatedgeError
from .files import one_line, read_text, shown

__all__ = ["MAX_YAML_NODES", "MAX_YAML_DEPTH", "read_yaml"]

MAX_YAML_NODES = 1_000_000  # values, aliases expanded: Eternity II's YAML has 1,300
MAX_YAML_DEPTH = 64


class _UniqueKeys:
    """A mapping with a key twice is an error, not the last value silently kept."""

    def construct_mapping(self, node, deep=False):
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in seen
            except TypeError:  # an unhashable key: the safe loader says so
                continue
            if repeated:
                raise yaml.constructor.ConstructorError(None, None, f"duplicate key {shown(key)}", key_node.start_mark)
            seen.add(key)
        return super().construct_mapping(node, deep)


class _BoundedLoader(_UniqueKeys, yaml.SafeLoader):
    """PyYAML's safe loader with nesting and the expanded document bounded: a few hundred bytes of
    aliases can stand for billions of nodes, and deep nesting ends in a RecursionError.  Each node
    weighs one plus its children, an alias what the node it names weighs."""

    def __init__(self, stream):
        super().__init__(stream)
        self._depth = 0
        self._weight: dict[int, int] = {}

    def compose_node(self, parent, index):
        self._depth += 1
        try:
            if self._depth > MAX_YAML_DEPTH:
                raise yaml.YAMLError(f"nested more than {MAX_YAML_DEPTH} deep")
            node = super().compose_node(parent, index)
        finally:
            self._depth -= 1
        if id(node) not in self._weight:  # an alias returns the node it names, weighed already
            weight = 1 + sum(self._weight.get(id(n), 1) for n in _children(node))
            if weight > MAX_YAML_NODES:
                raise yaml.YAMLError(f"more than {MAX_YAML_NODES:,} values once its aliases are expanded")
            self._weight[id(node)] = weight
        return node


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return node.value if isinstance(node, yaml.SequenceNode) else []


def _within_bounds(root) -> bool:
    """Whether a composed document keeps to :data:`MAX_YAML_DEPTH` and :data:`MAX_YAML_NODES`
    (the bounds :class:`_BoundedLoader` checks as it composes), walked without recursion."""
    weight: dict[int, int] = {}
    stack = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if depth > MAX_YAML_DEPTH:
            return False
        if done:
            weight[id(node)] = 1 + sum(weight[id(n)] for n in _children(node))
            if weight[id(node)] > MAX_YAML_NODES:
                return False
        elif id(node) not in weight:
            stack.append((node, depth, True))
            stack += [(n, depth + 1, False) for n in _children(node) if id(n) not in weight]
    return True


_FAST = getattr(yaml, "CSafeLoader", None)
if _FAST is not None:
    class _FastLoader(_UniqueKeys, _FAST):
        """libyaml's parser with the bounds checked between composing and constructing: about ten
        times faster than :class:`_BoundedLoader` on a puzzle file."""

        def get_single_data(self):
            node = self.get_single_node()
            if node is not None and not _within_bounds(node):
                raise yaml.YAMLError("out of bounds")  # read again by _BoundedLoader, which says where
            return None if node is None else self.construct_document(node)


def read_yaml(path: str | Path) -> Any:
    """The YAML document in ``path``; a missing, unreadable or malformed file is a one-line error."""
    text = read_text(path)
    if _FAST is not None:
        try:
            return yaml.load(text, Loader=_FastLoader)
        except (yaml.YAMLError, ValueError, RecursionError):
            pass  # the Python loader's message, the same whichever parser PyYAML has
    try:
        return yaml.load(text, Loader=_BoundedLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]  # a reader's error has no problem, two lines
        raise SatedgeError(f"not valid YAML{where}: {one_line(problem)[:200]}", path) from None
    except ValueError as e:  # an integer of thousands of digits
        raise SatedgeError(f"not valid YAML: {one_line(str(e))[:200]}", path) from None
