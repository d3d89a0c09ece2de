"""Reading YAML: the safe loader, with every mapping's keys unique, nesting and the expanded
document bounded (:data:`MAX_YAML_DEPTH`, :data:`MAX_YAML_NODES`), and any problem one line
that names the file.  libyaml parses when PyYAML has it; a document it cannot read, or one out
of bounds, is read again by the Python loader, so the message is the same on every machine."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from ..errors import SatedgeError
from .files import one_line, read_text, shown

__all__ = ["MAX_YAML_NODES", "MAX_YAML_DEPTH", "read_yaml", "parse_yaml"]

MAX_YAML_NODES = 1_000_000  # values, aliases expanded: Eternity II's YAML has 1,300
MAX_YAML_DEPTH = 64


if TYPE_CHECKING:  # what the checks are mixed into: the Python loader or libyaml's
    from yaml import SafeLoader as _Loader
else:
    _Loader = object


class _Bounded(_Loader):
    """The safe loader's checks: a mapping with a key twice is an error (not the last value
    silently kept), and the composed document is within bounds before anything is built."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: set = set()
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            try:
                repeated = key in seen
            except TypeError:  # an unhashable key: the safe loader says so
                continue
            if repeated:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {shown(key)}", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep)

    def get_single_data(self) -> Any:
        node = self.get_single_node()
        if node is None:
            return None
        _check_bounds(node)
        return self.construct_document(node)


class _PythonLoader(_Bounded, yaml.SafeLoader):
    """PyYAML's own parser: the one whose messages satedge gives."""


_FAST: Any = getattr(yaml, "CSafeLoader", None)
if _FAST is not None:

    class _FastLoader(_Bounded, _FAST):
        """libyaml's parser: about ten times faster on a puzzle file."""


def _children(node: yaml.Node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    return node.value if isinstance(node, yaml.SequenceNode) else []


def _check_bounds(root: yaml.Node) -> None:
    """A composed document must be nested at most :data:`MAX_YAML_DEPTH` deep and weigh at most
    :data:`MAX_YAML_NODES`: a few hundred bytes of aliases can stand for billions of nodes.  A
    node weighs one plus its children, an alias what the node it names weighs (one while that
    node is still open: a recursive alias).  Walked in document order, where an anchor comes
    before its aliases, without recursion."""
    weight: dict[int, int] = {}
    open_: set[int] = set()
    stack = [(root, 1, False)]
    while stack:
        node, depth, done = stack.pop()
        if done:
            open_.discard(id(node))
            weight[id(node)] = 1 + sum(weight.get(id(n), 1) for n in _children(node))
            if weight[id(node)] > MAX_YAML_NODES:
                raise yaml.YAMLError(f"more than {MAX_YAML_NODES:,} values once its aliases are expanded")
        elif id(node) not in weight and id(node) not in open_:
            if depth > MAX_YAML_DEPTH:
                raise yaml.YAMLError(f"nested more than {MAX_YAML_DEPTH} deep")
            open_.add(id(node))
            stack.append((node, depth, True))
            stack += [(n, depth + 1, False) for n in reversed(_children(node))]


def read_yaml(path: str | Path) -> Any:
    """The YAML document in ``path``; a missing, unreadable or malformed file is a one-line error."""
    return parse_yaml(read_text(path), path)


def parse_yaml(text: str, path: str | Path) -> Any:
    """The YAML document ``text`` (of the file ``path``, which errors name); a malformed one is a
    one-line error, which calls a ``.json`` file's text JSON (a JSON document is YAML too)."""
    kind = "JSON" if str(path).lower().endswith(".json") else "YAML"
    if _FAST is not None:
        try:
            return yaml.load(text, Loader=_FastLoader)
        except (yaml.YAMLError, ValueError, RecursionError):
            pass  # the Python loader's message, the same whichever parser PyYAML has
    try:
        return yaml.load(text, Loader=_PythonLoader)
    except RecursionError:  # PyYAML's composer recurses: far deeper than the bound
        raise SatedgeError(f"not valid {kind}: nested more than {MAX_YAML_DEPTH} deep", path) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        problem = (
            getattr(e, "problem", None) or str(e).splitlines()[0]
        )  # a reader's error has no problem, two lines
        raise SatedgeError(f"not valid {kind}{where}: {one_line(problem)[:200]}", path) from None
    except ValueError as e:  # an integer of thousands of digits
        raise SatedgeError(f"not valid {kind}: {one_line(str(e))[:200]}", path) from None
