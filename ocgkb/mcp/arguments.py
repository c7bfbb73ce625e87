"""A tool's arguments, each declared once as a `Param`: the input schema an
assistant reads is made from the declarations, and every call is checked against
them before any view runs, each refusal one line naming the argument."""

from __future__ import annotations

from typing import Any, NamedTuple

from ocgkb import UsageError
from ocgkb.query.filters import DateError, Filters, parse_date
from ocgkb.store.schema import MAX_QUERY, PASSAGE_KINDS


class ArgumentError(UsageError):
    """An argument missing, unknown, of the wrong type, out of range, too long or not text."""


class Param(NamedTuple):
    name: str
    description: str
    kind: str = "string"  # its JSON Schema type: "string" or "integer"
    required: bool = False
    most: int = MAX_QUERY  # a string's most characters, an integer's largest value
    least: int = 1  # a string's fewest characters, an integer's smallest value
    choices: tuple[str, ...] = ()
    default: Any = None


def input_schema(params: tuple[Param, ...]) -> dict:
    """The JSON Schema of a tool's arguments, as `checked` enforces it."""
    properties = {}
    for param in params:
        bounds = ("minLength", "maxLength") if param.kind == "string" else ("minimum", "maximum")
        properties[param.name] = {
            "type": param.kind,
            "description": param.description,
            bounds[0]: param.least,
            bounds[1]: param.most,
            **({"enum": list(param.choices)} if param.choices else {}),
            **({"default": param.default} if param.default is not None else {}),
        }
    return {
        "type": "object",
        "properties": properties,
        "required": [param.name for param in params if param.required],
        "additionalProperties": False,
    }


def checked(params: tuple[Param, ...], arguments: Any) -> dict[str, Any]:
    """The arguments of a call, each checked (a default where one is left out)."""
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        raise ArgumentError("the arguments must be a JSON object")
    names = [param.name for param in params]
    unknown = sorted(set(arguments) - set(names))
    if unknown:
        raise ArgumentError(f"unknown argument {unknown[0]!r:.60}; this tool takes {', '.join(names)}")
    values = {}
    for param in params:
        value = arguments.get(param.name)
        if value is None and param.required:
            raise ArgumentError(f"{param.name!r} is required: {param.description}")
        if value is None:
            values[param.name] = param.default
        elif param.kind == "string":
            values[param.name] = _string(param, value)
        else:
            values[param.name] = _integer(param, value)
    return values


def _string(param: Param, value: Any) -> str:
    if not isinstance(value, str):
        raise ArgumentError(f"{param.name!r} must be a string, not {_json_type(value)}")
    if not value.strip():
        raise ArgumentError(f"{param.name!r} is empty")
    if len(value) > param.most:
        raise ArgumentError(
            f"{param.name!r} is {len(value):,} characters long; at most {param.most:,} are read"
        )
    if "\ufffd" in value:  # a byte that was not UTF-8, or a lone surrogate (server.py)
        raise ArgumentError(f"{param.name!r} is not valid UTF-8")
    if any((ord(c) < 32 and c not in "\t\n\r") or 127 <= ord(c) < 160 for c in value):
        raise ArgumentError(f"{param.name!r} holds control characters")
    if param.choices and value not in param.choices:
        raise ArgumentError(f"{param.name!r}: {value!r:.60} is none of {', '.join(param.choices)}")
    return value


def _integer(param: Param, value: Any) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # 5.0: JSON has one number type
    if not isinstance(value, int) or isinstance(value, bool):
        raise ArgumentError(f"{param.name!r} must be a whole number, not {_json_type(value)}")
    if not param.least <= value <= param.most:
        raise ArgumentError(f"{param.name!r} must be from {param.least} to {param.most}, not {value}")
    return value


def _json_type(value: Any) -> str:
    names = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "an array"}
    return names.get(type(value), "an object")


def date(values: dict[str, Any], name: str) -> str | None:
    """A date argument in ISO form, None when left out; an error names the argument."""
    try:
        return parse_date(values[name]) if values[name] is not None else None
    except DateError as exc:
        raise ArgumentError(f"{name!r}: {exc}") from None


# The search filters, the same arguments for `search` and `ask`.
FILTER_PARAMS = (
    Param("kind", "Only passages of this kind.", choices=PASSAGE_KINDS),
    Param("section", "Only this rulebook section and those below it, e.g. 4.3."),
    Param("concept", "Only passages about this concept (any English or Chinese name)."),
    Param("card", "Only passages that mention this card (any name form, or a password)."),
    Param("since", "Only passages dated on or after this day (YYYY-MM-DD)."),
    Param("until", "Only passages dated on or before this day (YYYY-MM-DD)."),
)


def filters(values: dict[str, Any]) -> Filters | None:
    """The search filters the arguments name, None when they name none."""
    if all(values[param.name] is None for param in FILTER_PARAMS):
        return None
    since, until = date(values, "since"), date(values, "until")
    if since and until and since > until:  # a range no date fits: a mistake, not "no results"
        raise ArgumentError(f"'since' {since} is after 'until' {until}")
    section = values["section"]
    return Filters(
        values["kind"], section.strip() if section else None, values["concept"], values["card"], since, until
    )
