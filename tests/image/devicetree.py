"""A flattened device tree (.dtb) read, changed and written back, in plain Python.

The Pi boot test gives QEMU the card's own device tree with what a Pi's firmware adds to it before
Linux starts (`/system/linux,revision`, which gpiozero reads to know the board) and with the nodes
QEMU's model lacks disabled, as QEMU itself does for a few (`status = "disabled"`). Only what that
needs: nodes, properties, the memory reservations kept as they were (the layout: devicetree.org's
specification, "Flattened Devicetree (DTB) Format")."""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

MAGIC = 0xD00DFEED
BEGIN_NODE, END_NODE, PROP, NOP, END = 1, 2, 3, 4, 9


@dataclass
class Node:
    """One node: its name (`soc`, `hdmi@7ef00700`), properties in order, children in order."""

    name: str
    props: dict[str, bytes] = field(default_factory=dict)
    children: list["Node"] = field(default_factory=list)

    def child(self, name: str, create: bool = False) -> "Node":
        for node in self.children:
            if node.name == name:
                return node
        if not create:
            raise KeyError(name)
        self.children.append(Node(name))
        return self.children[-1]


@dataclass
class Tree:
    root: Node
    reservations: bytes
    boot_cpu: int

    def node(self, path: str, create: bool = False) -> Node:
        node = self.root
        for part in path.strip("/").split("/"):
            if part:
                node = node.child(part, create)
        return node

    def symbol(self, label: str) -> str | None:
        """The path a label (`hdmi0`) names in /__symbols__, or None."""
        try:
            value = self.node("/__symbols__").props.get(label)
        except KeyError:
            return None
        return value.rstrip(b"\0").decode() if value else None


def _pad(n: int) -> int:
    return (n + 3) & ~3


def load(data: bytes) -> Tree:
    magic, _, off_struct, off_strings, off_rsv, *_rest = struct.unpack_from(">10I", data)
    if magic != MAGIC:
        raise ValueError("not a flattened device tree")
    boot_cpu = _rest[2]
    end = off_rsv
    while struct.unpack_from(">QQ", data, end) != (0, 0):
        end += 16
    stack: list[Node] = []
    top: Node | None = None
    pos = off_struct
    while True:
        (token,) = struct.unpack_from(">I", data, pos)
        pos += 4
        if token == BEGIN_NODE:
            stop = data.index(b"\0", pos)
            node = Node(data[pos:stop].decode())
            pos = _pad(stop + 1)
            if stack:
                stack[-1].children.append(node)
            else:
                top = node
            stack.append(node)
        elif token == END_NODE:
            stack.pop()
        elif token == PROP:
            length, name_off = struct.unpack_from(">II", data, pos)
            pos += 8
            name = data[off_strings + name_off:data.index(b"\0", off_strings + name_off)].decode()
            stack[-1].props[name] = data[pos:pos + length]
            pos = _pad(pos + length)
        elif token == NOP:
            continue
        elif token == END:
            break
        else:
            raise ValueError(f"bad device tree token {token} at {pos - 4}")
    assert top is not None
    return Tree(top, data[off_rsv:end + 16], boot_cpu)


def dump(tree: Tree) -> bytes:
    strings = bytearray()
    offsets: dict[str, int] = {}
    body = bytearray()

    def emit(node: Node) -> None:
        name = node.name.encode() + b"\0"
        body.extend(struct.pack(">I", BEGIN_NODE) + name + b"\0" * (_pad(len(name)) - len(name)))
        for key, value in node.props.items():
            if key not in offsets:
                offsets[key] = len(strings)
                strings.extend(key.encode() + b"\0")
            body.extend(struct.pack(">III", PROP, len(value), offsets[key]) + value)
            body.extend(b"\0" * (_pad(len(value)) - len(value)))
        for child in node.children:
            emit(child)
        body.extend(struct.pack(">I", END_NODE))

    emit(tree.root)
    body.extend(struct.pack(">I", END))
    off_rsv = 40
    off_struct = off_rsv + len(tree.reservations)
    off_strings = off_struct + len(body)
    total = off_strings + len(strings)
    header = struct.pack(">10I", MAGIC, total, off_struct, off_strings, off_rsv, 17, 16, tree.boot_cpu,
                         len(strings), len(body))
    return header + tree.reservations + bytes(body) + bytes(strings)
