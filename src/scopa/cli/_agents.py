"""The agents the command plays: by name, a trained policy file, or an agent of the user's own."""

from __future__ import annotations

import contextlib
import gettext
import importlib
import os
import random
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from scopa._extras import needs_extra
from scopa._i18n import translation
from scopa.agents import Agent, GreedyAgent, OmniscientAgent, RandomAgent
from scopa.cli._errors import UsageError, quoted, raised, why_not
from scopa.errors import ScopaError
from scopa.moves import Move
from scopa.rules import Rules
from scopa.search import ISMCTSAgent
from scopa.state import PlayerView

AGENTS: dict[str, Callable[[], Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "search": lambda: ISMCTSAgent(iterations=1000, match_aware=True),
    "policy": lambda: _policy_agent(),
}
"""The agents the command knows by name (besides `policy:FILE` and `MODULE:NAME`)."""


def agent_words(tr: gettext.NullTranslations) -> str:
    """The agents an option takes, in words, for the help."""
    return tr.gettext(
        "{agents}; a trained policy file as policy:FILE; or an agent of your own as "
        "MODULE:NAME (a class, made with no arguments, a function that makes one, or an "
        "agent), imported with the current folder first, as python -m does"
    ).format(agents=", ".join(AGENTS))


def agent(spec: str, rules: Rules, tr: gettext.NullTranslations) -> Agent:
    """The agent of `spec` (see `built_agent`), once it has said it plays these rules.

    An agent that has a `check_rules(rules)` method is asked; one that reads the whole state
    is refused, since the command plays fair.
    """
    made = built_agent(spec, tr)
    if isinstance(made, OmniscientAgent):
        raise UsageError(
            tr.gettext(
                "agent {agent} reads the whole state (choose_from_state): the command plays "
                "only agents that see their player's view"
            ).format(agent=_named(spec))
        )
    check_rules = getattr(made, "check_rules", None)
    if check_rules is not None:
        try:
            check_rules(rules)
        except ScopaError as error:
            raise UsageError(_failed(tr, spec, str(error))) from None
    return made


def built_agent(spec: str, tr: gettext.NullTranslations) -> Agent:
    """The agent of a name: a known one, `policy:FILE`, or `MODULE:NAME` of the user's own."""
    if spec in AGENTS:
        return AGENTS[spec]()
    kind, colon, rest = spec.partition(":")
    if colon and kind == "policy":
        return _policy_file_agent(spec, rest, tr)
    if colon:
        return _own_agent(spec, kind, rest, tr)
    raise UsageError(
        tr.gettext(
            "unknown agent {agent}; known agents: {agents}; or a trained policy as "
            "policy:FILE, or an agent of your own as MODULE:NAME"
        ).format(agent=quoted(spec), agents=", ".join(AGENTS))
    )


def _named(spec: str) -> str:
    """An agent's name for a message: a known one as it is, any other quoted short."""
    return spec if spec in AGENTS else quoted(spec)


def _failed(tr: gettext.NullTranslations, spec: str, why: str) -> str:
    """A message that an agent cannot be made or played, and why."""
    return tr.gettext("agent {agent}: {why}").format(agent=_named(spec), why=why)


def _policy_agent() -> Agent:
    """The shipped trained policy, which needs numpy (the extra "cli")."""
    made: Agent = _policy_class("policy")()
    return made


def _policy_class(spec: str) -> Any:
    """`scopa.policy.PolicyAgent`, or a usage error that says how to install numpy."""
    try:
        from scopa.policy import PolicyAgent  # numpy is imported only when asked for
    except ImportError:
        raise UsageError(needs_extra(f"agent {_named(spec)}", "numpy", "cli")) from None
    return PolicyAgent


def _policy_file_agent(spec: str, path: str, tr: gettext.NullTranslations) -> Agent:
    """The trained policy of a parameter file (`scopa.policy.load_parameters`)."""
    policy = _policy_class(spec)
    from scopa.policy import load_parameters

    if not path:
        raise UsageError(_failed(tr, spec, tr.gettext("give the policy's file, as policy:FILE")))
    try:
        made: Agent = policy(load_parameters(path))
    except ScopaError as error:
        raise UsageError(_failed(tr, spec, str(error))) from None
    except (OSError, ValueError) as error:
        why = tr.gettext("cannot read {file}: {why}")
        raise UsageError(
            _failed(tr, spec, why.format(file=quoted(path), why=why_not(tr, error)))
        ) from None
    return made


def _own_agent(spec: str, module_name: str, name: str, tr: gettext.NullTranslations) -> Agent:
    """The agent `name` of module `module_name`, made with no arguments if it is a class.

    `name` may be dotted (`Outer.inner`); a class or a function that makes an agent is
    called with no arguments, and an object with a `choose` method is the agent itself.
    """
    dotted = [*module_name.split("."), *name.split(".")]
    if not all(part.isidentifier() for part in dotted):
        why = tr.gettext("give an agent of your own as MODULE:NAME, such as mybots:MyAgent")
        raise UsageError(_failed(tr, spec, why))
    found: Any = _imported(spec, module_name, tr)
    for part in name.split("."):
        try:
            found = getattr(found, part)
        except AttributeError:
            why = tr.gettext("{module} has no {name}").format(module=module_name, name=quoted(part))
            raise UsageError(_failed(tr, spec, why)) from None
        except Exception as error:
            why = tr.gettext("reading {name} raised {error}")
            raise UsageError(
                _failed(tr, spec, why.format(name=part, error=raised(error)))
            ) from None
    made = found
    if isinstance(found, type) or (callable(found) and not hasattr(found, "choose")):
        try:
            made = found()
        except Exception as error:
            why = tr.gettext("making it raised {error}").format(error=raised(error))
            raise UsageError(_failed(tr, spec, why)) from None
    if not callable(getattr(made, "choose", None)):
        raise UsageError(
            tr.gettext(
                "agent {agent} is not an agent: {kind} objects have no choose(seen, rng) method"
            ).format(agent=_named(spec), kind=type(made).__name__)
        )
    return made  # type: ignore[no-any-return]


def _imported(spec: str, module_name: str, tr: gettext.NullTranslations) -> ModuleType:
    """The module of an agent of the user's own, imported with the current folder first.

    The current folder is put first on the module path, as `python -m` does, until the
    command ends.
    """
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if module_name == missing or module_name.startswith(f"{missing}."):
            why = tr.gettext(
                "there is no module {module} in the current folder or among the installed packages"
            )
            raise UsageError(_failed(tr, spec, why.format(module=quoted(module_name)))) from None
        raise UsageError(_import_failed(tr, spec, module_name, error)) from None
    except Exception as error:
        raise UsageError(_import_failed(tr, spec, module_name, error)) from None


def _import_failed(
    tr: gettext.NullTranslations, spec: str, module_name: str, error: Exception
) -> str:
    why = tr.gettext("importing {module} raised {error}")
    return _failed(tr, spec, why.format(module=module_name, error=raised(error)))


class Rebuilt:
    """An agent that a worker process builds again from its name on the command line.

    Only the name (and the language of the messages) travels to the worker, so an agent
    that cannot be pickled plays on a pool too. The agent is built on the first move of each
    chunk of games it is sent with.
    """

    def __init__(self, spec: str, lang: str) -> None:
        self.spec = spec
        self.lang = lang
        self.agent: Agent | None = None

    def __reduce__(self) -> tuple[type[Rebuilt], tuple[str, str]]:
        return type(self), (self.spec, self.lang)

    def choose(self, seen: PlayerView, rng: random.Random) -> Move:
        """The move of the agent, built when it is first asked."""
        if self.agent is None:
            self.agent = built_agent(self.spec, translation(self.lang))
        return self.agent.choose(seen, rng)


@contextlib.contextmanager
def module_path_kept() -> Iterator[None]:
    """Put the module path back as it was when the command ends (see `_imported`)."""
    saved = list(sys.path)
    try:
        yield
    finally:
        sys.path[:] = saved
