"""Typed reading of parsed JSON documents (state files, game records) that names the JSON
path of the first problem, so a corrupt file gets one clear message."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class JsonReader:
    """A JSON value at a path (``$.players[1].coins``). ``error`` is the exception class
    raised for problems; ``source`` (a file name), when given, starts each message."""

    def __init__(
        self, value: Any, error: type[ValueError], source: str = "", path: str = "$"
    ) -> None:
        self.value = value
        self.error = error
        self.source = source
        self.path = path

    def _child(self, value: Any, path: str) -> JsonReader:
        return JsonReader(value, self.error, self.source, path)

    def fail(self, reason: str) -> ValueError:
        where = f"{self.source}: {self.path}" if self.source else self.path
        return self.error(f"{where}: {reason}")

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def __getitem__(self, key: str | int) -> JsonReader:
        if isinstance(key, str):
            if not isinstance(self.value, dict):
                raise self.fail("expected an object")
            child = self._child(self.value.get(key), f"{self.path}.{key}")
            if key not in self.value:
                raise child.fail("missing")
            return child
        if not isinstance(self.value, list):
            raise self.fail("expected an array")
        return self._child(self.value[key], f"{self.path}[{key}]")

    def items(self) -> list[JsonReader]:
        if not isinstance(self.value, list):
            raise self.fail("expected an array")
        return [self._child(v, f"{self.path}[{i}]") for i, v in enumerate(self.value)]

    def mapping(self) -> dict[str, JsonReader]:
        if not isinstance(self.value, dict):
            raise self.fail("expected an object")
        return {k: self._child(v, f"{self.path}.{k}") for k, v in self.value.items()}

    def int(self) -> int:
        if isinstance(self.value, bool) or not isinstance(self.value, int):
            raise self.fail("expected an integer")
        return self.value

    def str(self) -> str:
        if not isinstance(self.value, str):
            raise self.fail("expected a string")
        return self.value

    def optional(self, read: Callable[[JsonReader], Any], none: Any) -> Any:
        return none if self.value is None else read(self)
