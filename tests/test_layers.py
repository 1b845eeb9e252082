"""The architecture as contracts: every import of the package (module level or inside a function) points down
the layers below, the tools do not import each other, nothing imports a cycle, and no module reaches into
another's private names. The layers are the README's ("Layout"); a new module belongs to its folder's layer.

The imports are read from the source with ``ast`` (``import-linter`` cannot: ``idiotsim.strategies`` is
installed from the top-level ``strategies/`` folder, which its graph builder does not see)."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Top to bottom: a module may import its own layer's modules and any layer below, never one above.
LAYERS = (
    ("idiotsim.cli",),
    ("idiotsim.table", "idiotsim.experiments", "idiotsim.optimize", "idiotsim.learn", "idiotsim.interop"),
    ("idiotsim.analysis",),
    ("idiotsim.runs",),
    ("idiotsim.strategy_api",),
    ("idiotsim.strategies",),
    ("idiotsim.engine",),
    ("idiotsim.game",),
    ("idiotsim.jit", "idiotsim.errors"),
)
# Within the strategies layer, top to bottom: checking and loading a spec, the registry, the families (the
# search and the learned player among them), the toolkit they are written with.
STRATEGY_LAYERS = (
    ("idiotsim.strategies.strategy_checks",),
    ("idiotsim.strategies.loading",),
    ("idiotsim.strategies.registry",),
    ("idiotsim.strategies.basic", "idiotsim.strategies.randomplay", "idiotsim.strategies.heuristic",
     "idiotsim.strategies.counter", "idiotsim.strategies.cascade", "idiotsim.strategies.weighted",
     "idiotsim.strategies.search", "idiotsim.strategies.learned", "idiotsim.strategies.chart"),
    ("idiotsim.strategies.toolkit", "idiotsim.strategies.constraints", "idiotsim.strategies.split_kinds"),
)
TOOLS = LAYERS[1]  # independent of each other
FACADE = "idiotsim.strategy_api"  # for strategy files; the package imports the homes of its names


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[0] == "strategies":
        parts = ["idiotsim", *parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_files() -> dict[str, Path]:
    files = {}
    for folder in ("idiotsim", "strategies"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "__pycache__" not in path.parts:
                files[module_name(path)] = path
    return files


FILES = package_files()
MODULES = set(FILES)


def resolve(name: str) -> str | None:
    """The package module `name` is, or lives in (`idiotsim.game.moves.play` -> `idiotsim.game.moves`)."""
    while name:
        if name in MODULES:
            return name
        name = name.rpartition(".")[0]
    return None


def imports(module: str) -> list[tuple[str, int, str]]:
    """(imported module, line, imported names) of every import of the package in `module`."""
    tree = ast.parse(FILES[module].read_text())
    is_package = FILES[module].name == "__init__.py"
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(target, node.lineno, "") for a in node.names if (target := resolve(a.name))]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = module.split(".") if is_package else module.split(".")[:-1]
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                target = resolve(f"{base}.{alias.name}") or resolve(base)
                if target:
                    found.append((target, node.lineno, alias.name))
    return [f for f in found if f[0] != module]


def layer_of(module: str, layers) -> int | None:
    for i, layer in enumerate(layers):
        if any(module == top or module.startswith(top + ".") for top in layer):
            return i
    return None


def test_every_module_belongs_to_a_layer():
    assert [m for m in MODULES if m != "idiotsim" and layer_of(m, LAYERS) is None] == []
    strategies = [m for m in MODULES if m.startswith("idiotsim.strategies.")]
    assert [m for m in strategies if layer_of(m, STRATEGY_LAYERS) is None] == []


def violations(layers, within: str = "idiotsim") -> list[str]:
    found = []
    for module in sorted(MODULES):
        mine = layer_of(module, layers)
        if mine is None or not module.startswith(within):
            continue
        for target, line, _ in imports(module):
            theirs = layer_of(target, layers)
            if theirs is not None and theirs < mine:
                found.append(f"{FILES[module].relative_to(ROOT)}:{line} imports {target} (a higher layer)")
    return found


def test_layers_point_down():
    assert violations(LAYERS) == []


def test_strategy_layers_point_down():
    assert violations(STRATEGY_LAYERS, "idiotsim.strategies") == []


def test_the_tools_are_independent():
    found = []
    for module in sorted(MODULES):
        mine = next((tool for tool in TOOLS if module == tool or module.startswith(tool + ".")), None)
        for target, line, _ in imports(module) if mine else ():
            other = next((tool for tool in TOOLS if target == tool or target.startswith(tool + ".")), None)
            if other and other != mine:
                found.append(f"{FILES[module].relative_to(ROOT)}:{line} imports {target}")
    assert found == []


def test_no_import_cycles():
    graph = {m: {t for t, _, _ in imports(m)} for m in MODULES}
    # a package's __init__ is imported with every module under it: not a cycle of their own
    graph = {m: {t for t in targets if not m.startswith(t + ".")} for m, targets in graph.items()}
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert cycles == []


def test_nothing_reaches_into_another_modules_private_names():
    found = []
    for module in sorted(MODULES):
        tree = ast.parse(FILES[module].read_text())
        aliases = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    if full in MODULES:
                        aliases.add(alias.asname or alias.name)
                    elif alias.name.startswith("_") and not alias.name.startswith("__") and resolve(node.module or ""):
                        found.append(f"{FILES[module].relative_to(ROOT)}:{node.lineno} imports {full}")
            elif isinstance(node, ast.Import):
                aliases |= {a.asname for a in node.names if a.asname and a.name in MODULES}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                    and node.attr.startswith("_") and not node.attr.startswith("__")):
                found.append(f"{FILES[module].relative_to(ROOT)}:{node.lineno} reads {node.value.id}.{node.attr}")
    assert found == []


def test_the_package_never_imports_the_strategy_files_facade():
    assert [f"{m} imports {FACADE}" for m in sorted(MODULES) if m != FACADE
            and any(t == FACADE for t, _, _ in imports(m))] == []


@pytest.mark.parametrize("flat_limit", [3])
def test_few_flat_modules_and_names_that_do_not_repeat(flat_limit):
    flat = [p.name for p in (ROOT / "idiotsim").glob("*.py") if p.name not in ("__init__.py", "__main__.py")]
    assert len(flat) <= flat_limit, flat
    names = [p.name for p in FILES.values() if p.name not in ("__init__.py", "__main__.py")]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


# The engine's memory layout and its rule transitions are its own: every other module steps tables through
# its public face (`stepping`, the drivers, `rollouts`, `hidden_cards`, `batches`, `memory`).
ENGINE_INTERNALS = ("idiotsim.engine.state_layout", "idiotsim.engine.transitions", "idiotsim.engine.recording")


def test_nothing_outside_the_engine_reads_its_internals():
    readers = {m for m in MODULES if not m.startswith("idiotsim.engine.")
               and any(t in ENGINE_INTERNALS for t, _, _ in imports(m))}
    assert sorted(readers) == []


@pytest.mark.parametrize("most_lines", [600])
def test_one_concern_a_module_no_module_over(most_lines):
    lengths = {m: len(FILES[m].read_text().splitlines()) for m in MODULES}
    assert {m: n for m, n in lengths.items() if n > most_lines} == {}
