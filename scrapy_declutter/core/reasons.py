"""Why a block has its final label: the rule that decided it, as a value.

A stage that decides a block's label writes a ``Reason`` on it
(``Block.reason``): its name, the words
that explain it to a user and the figures those words quote (the rule's own
parameters). Each reason is defined beside the stage or rule that writes it;
the core knows only the type. A later stage that changes a label writes its
own reason, so the last rule to decide is the one named.
"""

from dataclasses import dataclass, replace


@dataclass(frozen=True, eq=False)
class Reason:
    """Why a rule labelled a block as it did: ``name`` (what the report,
    ``explain`` and ``--blocks`` show), ``explanation`` (its ``{figure}``
    placeholders filled from ``figures``) and ``rule`` (the name of the rule
    that writes it, for the rules that read what an earlier one decided).

    Two reasons are equal when their names are: the figures say with which
    parameters a rule ran, not which rule it was. A reason equals its name
    too, as ``Block.reason`` was a plain string before it was a reason."""

    name: str
    explanation: str
    rule: str = ""
    figures: tuple[tuple[str, object], ...] = ()  # (placeholder, value) pairs: it pickles

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        if isinstance(other, str):
            return other == self.name
        return isinstance(other, Reason) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)

    def explain(self) -> str:
        """The explanation, its placeholders filled with the figures (one
        with no figure stays as written: ``{content_threshold}``)."""
        return self.explanation.format_map(_Figures(self.figures))

    def quoting(self, **figures: object) -> "Reason":
        """This reason with ``figures`` (the writer's parameters) added."""
        return replace(self, figures=tuple({**dict(self.figures), **figures}.items()))


class _Figures(dict):
    def __missing__(self, name: str) -> "_Unknown":
        return _Unknown(name)


class _Unknown:
    def __init__(self, name: str) -> None:
        self.name = name

    def __format__(self, spec: str) -> str:
        return "{" + self.name + "}"
