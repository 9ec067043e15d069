"""One answer at every door: each query of ``conformance/corpus.txt`` asked
as the CLI (``grundy ... --format json``), as Python and as the web API
(``grundy serve`` on loopback), the documents compared field for field.

The mapping between the doors, for each command of the corpus:

- ``values G --to N``: Python ``Game(G).values(N)``; the web's
  ``/api/analyze?game=G&to=N`` field ``values``. Compared: the values.
- ``analyze G [--to N]``: Python ``Game(G).analyze(to=N).report()``; the
  web's ``/api/analyze`` (its extra field ``values`` left out).
- ``guess G [--to N]``, ``compare A B --to N``: Python ``Game(G).guess(to=N)``
  and ``Game(A).compare(Game(B), to=N)``; the web does not offer them.
- ``count G --to N [options]``: Python ``grundy.count_report(G, N, start=,
  heaps=, order=, modulo=, nim_sum=, all=, by_formula=)``; the web's
  ``/api/count`` with the same names (``from``, ``mod``). The CLI's
  ``--unordered`` and ``--distinct`` say the order as flags: ``--distinct``
  alone is ``ordered-distinct``, both together ``distinct``. JSON writes
  the counts as decimal strings (they outgrow 2^53), Python as ``int``s
  under the same names: the fields ``heaps``, ``p_positions``,
  ``n_positions``, ``total``, ``cells``, ``per_nim_sum`` and
  ``positions``, and the counts of the ``[value, count]`` pairs of
  ``histogram`` and ``by_nim_sum`` (``COUNT_FIELDS``, ``COUNT_PAIRS``);
  the CLI's document is read so before Python's is compared with it.
- ``sum [G] C...``: Python ``grundy.sum_report([C...], game=G)``; the web's
  ``/api/sum?components=C...&game=G``, which reads no files (a component
  naming one is refused there, and that is all that is checked).
- A script ``FILE.rhai`` is sent to the web as its text (``script=``), and
  the web names it ``script``: the fields ``game`` and ``canonical`` are
  then not compared.
- A refusal of a kind names the question as its door asks it (the web's
  values come from ``/api/analyze``; Python's ``Game`` is made before any
  question and refuses a kind that is not a heap game as ``analyze``
  does): that word is not compared, the reason is.
- A refusal is the CLI's exit code 2 and ``error: MESSAGE``, Python's
  ``GrundyError(MESSAGE)``, the web's status 400 and ``{"error": MESSAGE}``;
  where the library names the parameter to change, each door appends its
  own name for it (`` (--mod)``, `` (modulo=)``, `` (parameter mod)``;
  the CLI's limits `` (raise it with --flag)``, and a refused kind the
  command that plays it, `` (`grundy hackenbush` plays pictures)``), which
  is not compared.
"""

import json
import os
import re
import shlex
import subprocess
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

import grundy

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "conformance" / "corpus.txt"
QUERIES = [
    line.strip()
    for line in CORPUS.read_text().splitlines()
    if line.strip() and not line.startswith("#")
]
FLAGS = {"--unordered", "--distinct", "--all", "--by-formula"}
FILES = ("graph:", "maze:", "hackenbush:")


def binary():
    path = Path(os.environ.get("GRUNDY_BIN", ROOT / "target" / "debug" / "grundy"))
    if not path.exists():
        pytest.fail(f"{path} is missing: run `cargo build -p grundy-cli` first")
    return path


@pytest.fixture(scope="module")
def web():
    """`grundy serve` on a free loopback port, stopped after the module."""
    server = subprocess.Popen(
        # A debug build on a slow machine: a deadline the corpus never meets.
        [binary(), "serve", "--port", "0", "--deadline", "600"],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stderr.readline()
        found = re.search(r"http://(\S+?)/", line)
        assert found, line
        yield f"http://{found.group(1)}"
    finally:
        server.terminate()
        server.wait(timeout=10)


def parse(words):
    """The command, its positional words and its options."""
    command, rest = words[0], words[1:]
    positional, options = [], {}
    i = 0
    while i < len(rest):
        word = rest[i]
        if word in FLAGS:
            options[word] = True
        elif word.startswith("--"):
            options[word] = rest[i + 1]
            i += 1
        else:
            positional.append(word)
        i += 1
    return command, positional, options


def size(text):
    """A size as the CLI reads it: ``100``, ``1e18``, ``2^20``."""
    if "e" in text:
        mantissa, exponent = text.split("e")
        return int(mantissa) * 10 ** int(exponent)
    if "^" in text:
        base, exponent = text.split("^")
        return int(base) ** int(exponent)
    return int(text)


def refused(message):
    return ("refused", message)


#: The count fields JSON writes as decimal strings and Python as ints.
COUNT_FIELDS = {"heaps", "p_positions", "n_positions", "total", "cells", "per_nim_sum", "positions"}
COUNT_PAIRS = {"histogram", "by_nim_sum"}


def counts_as_ints(document):
    """A JSON count document with its decimal-string counts as ints, as
    Python gives them."""
    if isinstance(document, list):
        return [counts_as_ints(item) for item in document]
    if not isinstance(document, dict):
        return document
    read = {}
    for key, value in document.items():
        if key in COUNT_FIELDS and isinstance(value, str) and value.isdigit():
            read[key] = int(value)
        elif key in COUNT_PAIRS and isinstance(value, list):
            read[key] = [[v, int(c)] if isinstance(c, str) and c.isdigit() else [v, c] for v, c in value]
        else:
            read[key] = counts_as_ints(value)
    return read


def as_python_gives(words, answer):
    """The CLI's answer as Python gives it: counts as ints (see the module
    docs)."""
    kind, document = answer
    if kind == "answer" and words[0] == "count":
        return (kind, counts_as_ints(document))
    return answer


def ask_cli(words):
    done = subprocess.run(
        [binary(), *words, "--format", "json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if done.returncode == 2:
        message = done.stderr.strip().removeprefix("error: ")
        message = re.sub(r" \((raise it|run again) with --[^)]*\)$", "", message)
        message = re.sub(r" \(`grundy [^`]*`[^()]*\)$", "", message)
        return refused(re.sub(r" \((--[a-z-]+(, )?)+\)$", "", message))
    assert done.returncode == 0, (words, done.stderr)
    return ("answer", json.loads(done.stdout))


def components(positional):
    """A sum's components and its default game, as `grundy sum` reads them."""
    first = positional[0]
    if ":" in first or first.startswith("("):
        return positional, None
    return positional[1:], first


def order_of(options):
    """The order a count asks for: `--order ORDER`, or the CLI's flags
    (`--distinct` alone is ordered-distinct; with `--unordered`, sets)."""
    if "--order" in options:
        return options["--order"]
    unordered, distinct = "--unordered" in options, "--distinct" in options
    return {
        (False, False): "ordered",
        (False, True): "ordered-distinct",
        (True, False): "unordered",
        (True, True): "distinct",
    }[(unordered, distinct)]


def ask_python(words):
    command, positional, options = parse(words)
    to = options.get("--to")
    try:
        if command == "values":
            return ("answer", {"values": list(grundy.Game(positional[0]).values(size(to)))})
        if command == "analyze":
            found = grundy.Game(positional[0]).analyze(to=None if to is None else size(to))
            return ("answer", found.report())
        if command == "guess":
            return ("answer", grundy.Game(positional[0]).guess(to=None if to is None else size(to)))
        if command == "compare":
            first, second = (grundy.Game(g) for g in positional)
            return ("answer", first.compare(second, to=size(to)))
        if command == "count":
            order = order_of(options)
            optional = lambda name: None if name not in options else size(options[name])  # noqa: E731
            return (
                "answer",
                grundy.count_report(
                    positional[0],
                    to,
                    start=optional("--from") if "--from" in options else 1,
                    heaps=optional("--heaps"),
                    order=order,
                    modulo=optional("--mod"),
                    nim_sum=optional("--nim-sum"),
                    all="--all" in options,
                    by_formula="--by-formula" in options,
                    max=optional("--max"),
                ),
            )
        if command == "sum":
            parts, game = components(positional)
            return ("answer", grundy.sum_report(parts, game=game))
    except grundy.GrundyError as error:
        return refused(re.sub(r" \(([a-z_]+=(, )?)+\)$", "", str(error)))
    raise AssertionError(f"no Python mapping for {command}")


def script(spec):
    return spec.endswith(".rhai")


def get(web, path, query):
    url = f"{web}{path}?{urllib.parse.urlencode(query)}"
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return ("answer", json.loads(response.read()))
    except urllib.error.HTTPError as error:
        body = json.loads(error.read())
        assert error.code == 400, (url, error.code, body)
        return refused(re.sub(r" \(parameter [a-z_, ]+\)$", "", body["error"]))


def game_query(spec):
    if script(spec):
        return {"game": "script", "script": (ROOT / spec).read_text()}
    return {"game": spec}


def ask_web(words, web):
    """The web's answer, or None where the web does not offer the question."""
    command, positional, options = parse(words)
    if command in ("values", "analyze"):
        query = game_query(positional[0])
        if "--to" in options:
            query["to"] = size(options["--to"])
        found = get(web, "/api/analyze", query)
        if found[0] == "answer":
            document = found[1]
            values = document.pop("values")
            return ("answer", {"values": values}) if command == "values" else found
        return found
    if command == "count":
        query = game_query(positional[0])
        names = {
            "--from": "from",
            "--to": "to",
            "--heaps": "heaps",
            "--mod": "mod",
            "--nim-sum": "nim_sum",
            "--max": "max",
        }
        query.update({names[o]: v for o, v in options.items() if o in names})
        if "--heaps" in options:
            query["order"] = order_of(options)
        if "--all" in options:
            query["all"] = "true"
        if "--by-formula" in options:
            query["by_formula"] = "true"
        return get(web, "/api/count", query)
    if command == "sum":
        parts, game = components(positional)
        if any(p.startswith(FILES) or ".rhai" in p for p in parts + [game or ""]):
            found = get(web, "/api/sum", {"components": " ".join(parts), **({"game": game} if game else {})})
            assert found[0] == "refused", found
            return None
        query = {"components": " ".join(parts)}
        if game:
            query["game"] = game
        return get(web, "/api/sum", query)
    return None


def comparable(words, answer):
    """The answer with what the mapping leaves out removed."""
    kind, document = answer
    if kind == "refused":
        return (kind, re.sub(r"cannot answer `\w+`", "cannot answer `...`", document))
    if not isinstance(document, dict):
        return answer
    command, positional, _ = parse(words)
    document = dict(document)
    if command == "values":
        document = {"values": document["values"]}
    elif any(script(p) for p in positional):
        document.pop("game", None)
        document.pop("canonical", None)
    return (kind, document)


@pytest.mark.parametrize("line", QUERIES)
def test_every_door_answers_alike(line, web, monkeypatch):
    monkeypatch.chdir(ROOT)
    words = shlex.split(line)
    cli = comparable(words, ask_cli(words))
    assert comparable(words, ask_python(words)) == as_python_gives(words, cli), (
        "Python differs from the CLI"
    )
    found = ask_web(words, web)
    if found is not None:
        assert comparable(words, found) == cli, "the web differs from the CLI"


def test_the_corpus_covers_every_question_and_kind():
    assert len(QUERIES) >= 150
    commands = {shlex.split(q)[0] for q in QUERIES}
    assert commands == {"values", "analyze", "guess", "compare", "count", "sum"}
    text = "\n".join(QUERIES)
    for kind in ["kayles", ".rhai", "sub(", "wythoff", "ruler*ruler", "(()())", "graph:", "maze:", "rook("]:
        assert kind in text, kind
