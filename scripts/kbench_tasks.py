#===- scripts/kbench_tasks.py - task.json helpers shared by the scripts ---===#
#
# Python twins of what the runner does with a task.json, for the scripts that
# run without it (gpu-aoti-package.py, results.py): shape expressions (the
# grammar of include/kbench/Support/ShapeExpr.h), shape labels as
# ShapeCase::label prints them, and the timed shapes. Standard library only.
#===----------------------------------------------------------------------===#

import json
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class TaskError(Exception):
    """A task.json this script cannot turn into a module; names file and field."""


# --- shape expressions (the grammar of include/kbench/Support/ShapeExpr.h) ---

def eval_shape_expr(text, dims):
    """Evaluates a ShapeExpr string: + - * / % (floor), unary -, ceildiv,
    floordiv, min, max, integers and dim names."""
    if isinstance(text, int):
        return text
    tokens = re.findall(r"\s*(\d+|[A-Za-z_][A-Za-z0-9_]*|[-+*/%(),])", text)
    if "".join(tokens).replace(" ", "") != text.replace(" ", ""):
        raise TaskError("'%s' is not a shape expression" % text)
    pos = [0]

    def peek():
        return tokens[pos[0]] if pos[0] < len(tokens) else None

    def take(expected=None):
        tok = peek()
        if tok is None or (expected and tok != expected):
            raise TaskError("'%s': expected %s" % (text, expected or "more"))
        pos[0] += 1
        return tok

    def floordiv(a, b):
        if b <= 0:
            raise TaskError("'%s': divisor %d is not positive" % (text, b))
        return a // b

    def expr():
        v = term()
        while peek() in ("+", "-"):
            v = v + term() if take() == "+" else v - term()
        return v

    def term():
        v = unary()
        while peek() in ("*", "/", "%"):
            op, rhs = take(), unary()
            v = v * rhs if op == "*" else floordiv(v, rhs) if op == "/" else v - floordiv(v, rhs) * rhs
        return v

    def unary():
        if peek() == "-":
            take()
            return -unary()
        return primary()

    def primary():
        tok = take()
        if tok == "(":
            v = expr()
            take(")")
            return v
        if tok.isdigit():
            return int(tok)
        if peek() == "(":
            take("(")
            a = expr()
            take(",")
            b = expr()
            take(")")
            funcs = {"ceildiv": lambda: -floordiv(-a, b), "floordiv": lambda: floordiv(a, b),
                     "min": lambda: min(a, b), "max": lambda: max(a, b)}
            if tok not in funcs:
                raise TaskError("'%s': unknown function '%s'" % (text, tok))
            return funcs[tok]()
        if tok not in dims:
            raise TaskError("'%s': unknown dim '%s'" % (text, tok))
        return dims[tok]

    value = expr()
    if peek() is not None:
        raise TaskError("'%s': unexpected '%s'" % (text, peek()))
    return value


def shape_label(set_name, index, dims):
    """As kbench-run prints a shape: "tune[0] {M=4096, N=8192}"."""
    return "%s[%d] {%s}" % (set_name, index, ", ".join("%s=%d" % (k, dims[k]) for k in sorted(dims)))


def timed_shapes(task, sets=("tune", "heldout")):
    """(set, index, dims) of every shape of `sets`, in kbench-run's order."""
    for set_name in sets:
        for index, dims in enumerate(task.get("shapes", {}).get(set_name, [])):
            yield set_name, index, dims


def load_task(name, tasks_dir=None):
    """tasks/<name>/task.json as JSON."""
    with open(os.path.join(tasks_dir or os.path.join(ROOT, "tasks"), name, "task.json")) as f:
        return json.load(f)
