"""examples/notebook.ipynb runs from top to bottom in a real kernel, and the
analysis shows as HTML (the notebook experience of issue 51)."""

from pathlib import Path

import pytest

NOTEBOOK = Path(__file__).resolve().parents[3] / "examples" / "notebook.ipynb"


def test_the_example_notebook_runs_and_shows_html():
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbconvert")
    pytest.importorskip("ipykernel")
    pytest.importorskip("matplotlib")
    from nbconvert.preprocessors import ExecutePreprocessor

    notebook = nbformat.read(NOTEBOOK, as_version=4)
    ExecutePreprocessor(timeout=300, kernel_name="python3").preprocess(
        notebook, {"metadata": {"path": str(NOTEBOOK.parent)}}
    )
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    errors = [o for cell in code for o in cell.outputs if o.output_type == "error"]
    assert not errors, errors

    def shown(marker):
        (cell,) = [cell for cell in code if marker in cell.source]
        return [o.get("data", {}) for o in cell.outputs if o.output_type in ("execute_result", "display_data")]

    (analysis,) = shown("found = kayles.analyze()")
    assert "text/html" in analysis and "Analysis of 0.77" in analysis["text/html"]
    assert any("image/png" in data for data in shown("found.plot()"))
    (counts,) = shown("counts = kayles.count(")
    assert "text/html" in counts and "Positions by nim-sum" in counts["text/html"]
