"""Reference solutions from kiwisolver for the constraint solver's and Layout's tests.

Reads JSON from the file named by its one argument and writes one result per system on stdout:

- {"systems": [...]} (KiwisolverOracleTests.swift): each system is replayed step by step
  exactly as the Swift test replays it with Ribcage's solver, with kiwi's own strengths.
- {"screens": [...]} (RandomScreenTests.swift): the constraint systems of laid-out screens, whose
  optional constraints sit on levels that must be minimised one after the other, highest first
  (see `lexicographic`).
"""
import json
import sys

import kiwisolver as kiwi

OPS = {"<=": lambda e, c: e <= c, "==": lambda e, c: e == c, ">=": lambda e, c: e >= c}


def solve(system):
    solver = kiwi.Solver()
    variables = [kiwi.Variable(f"v{i}") for i in range(system["variables"])]
    constraints = []
    rejected = []
    for index, spec in enumerate(system["constraints"]):
        expression = sum((coef * variables[var] for var, coef in spec["terms"]), spec["constant"])
        constraint = OPS[spec["op"]](expression, 0) | spec["strength"]
        try:
            solver.addConstraint(constraint)
            constraints.append(constraint)
        except kiwi.UnsatisfiableConstraint:
            rejected.append(index)
            constraints.append(None)
            # kiwi leaves a refused constraint's pivots in its tableau; Ribcage's solver restores
            # its state instead. Model that by rebuilding from the accepted constraints, in order.
            solver = kiwi.Solver()
            for accepted in constraints:
                if accepted is not None:
                    solver.addConstraint(accepted)
    snapshots = []
    for edit in system["edits"]:
        solver.addEditVariable(variables[edit["var"]], edit["strength"])
    for step in system["suggestions"]:
        solver.suggestValue(variables[step["var"]], step["value"])
        solver.updateVariables()
        snapshots.append([v.value() for v in variables])
    for index in system["removals"]:
        if constraints[index] is not None:
            solver.removeConstraint(constraints[index])
    solver.updateVariables()
    snapshots.append([v.value() for v in variables])
    return {"rejected": rejected, "snapshots": snapshots}


def solve_or_report(system):
    try:
        return solve(system)
    except Exception as error:  # kiwi's InternalSolverError and friends: report, do not crash
        return {"rejected": [], "snapshots": [], "error": f"{type(error).__name__}: {error}"}


def lexicographic(screen):
    """Minimises the errors of a screen's optional constraints level by level, highest first.

    Each optional constraint gets explicit error variables (required to be non-negative), so
    that kiwi only ever holds required constraints and one weak objective: the weighted sum of
    one level's errors. Its optimum is then required (the solution at hand meets it) while
    the next level is minimised. Finally each variable is pushed down and up under all of that:
    where both meet, its value is the same in every optimum, and any correct solver must find it.

    Screen: {"variables": n, "constraints": [[op, level or null, weight, constant, [var, coef,
    ...]], ...], "edits": [[var, level, weight, value], ...]}, level null meaning required; an
    edit is the optional `var == value`. Returns {"levels": [[level, optimum], ...],
    "ranges": [[low, high], ...]}.
    """
    solver = kiwi.Solver()
    variables = [kiwi.Variable(f"v{i}") for i in range(screen["variables"])]
    by_level = {}
    specs = [tuple(c) for c in screen["constraints"]]
    specs += [("==", level, weight, -value, [var, 1]) for var, level, weight, value in screen["edits"]]
    for op, level, weight, constant, terms in specs:
        expression = sum((coef * variables[int(var)] for var, coef in zip(terms[0::2], terms[1::2])), constant)
        if level is None:
            solver.addConstraint(OPS[op](expression, 0))
            continue
        errors = [kiwi.Variable("e"), kiwi.Variable("e")] if op == "==" else [kiwi.Variable("e")]
        for error in errors:
            solver.addConstraint(error >= 0)
        if op == "==":
            solver.addConstraint(expression == errors[0] - errors[1])
        elif op == "<=":
            solver.addConstraint(expression <= errors[0])
        else:
            solver.addConstraint(expression + errors[0] >= 0)
        by_level.setdefault(level, []).extend(weight * error for error in errors)
    optima = []
    for level in sorted(by_level, reverse=True):
        total = sum(by_level[level], 0.0)
        objective = (total == 0) | "weak"
        solver.addConstraint(objective)
        solver.updateVariables()
        optimum = total.value()
        solver.removeConstraint(objective)
        solver.addConstraint(total <= optimum)
        optima.append([level, optimum])
    ranges = []
    for variable in variables:
        bounds = []
        for target in (-1e6, 1e6):
            probe = (variable == target) | "weak"
            solver.addConstraint(probe)
            solver.updateVariables()
            bounds.append(variable.value())
            solver.removeConstraint(probe)
        ranges.append(bounds)
    return {"levels": optima, "ranges": ranges}


def lexicographic_or_report(screen):
    try:
        return lexicographic(screen)
    except Exception as error:  # report, do not crash: the Swift test names the screen
        return {"levels": [], "ranges": [], "error": f"{type(error).__name__}: {error}"}


def main():
    with open(sys.argv[1], encoding="utf-8") as request:
        data = json.load(request)
    if "screens" in data:
        json.dump({"results": [lexicographic_or_report(s) for s in data["screens"]]}, sys.stdout)
    else:
        json.dump({"results": [solve_or_report(s) for s in data["systems"]]}, sys.stdout)


if __name__ == "__main__":
    main()
