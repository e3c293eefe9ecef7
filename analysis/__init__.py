"""cosched's analysis package: figures and tables from the results of `cosched sweep`.

`python -m analysis report DIR` reads DIR/results.csv (and DIR/runs/<run_id>/timeline.csv when
present), checks its schema_version, and writes PNG figures, the CSV table behind each, and a
report.md; `report DIR1 DIR2 ... --out OUT` reads several sweeps of one study as one. The data contract
it reads is documented in analysis/contract.py and docs/analysis.md.
"""
