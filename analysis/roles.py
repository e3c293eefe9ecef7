"""Which results.csv columns play which part in the figures: the load on the x axis, the variant
whose values are compared, the waiting algorithm, the scheduler, the job length, and the other
varying axes. A caller may choose the load, the variant, its baseline and the comparisons; a choice
the sweep cannot honour raises a RoleError worded in terms of the data, which a caller with its own
names for those choices (the command line's flags) can reword from the error's facts."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from .contract import axis_columns, is_numeric, varying

NO_VARIANT = "none"  # variant "none": no variant axis
SCHEDULER_COLUMNS = ("resolved.scheduler.policy", "scheduler.policy")


@dataclass
class Roles:
    """Which results.csv columns play which part in the figures (None: not in this sweep)."""

    load: str | None = None  # x axis of the curves (thesis "load")
    variant: str | None = None  # the axis whose values are compared (wakeup scheme, spin, keep-alive)
    baseline: str | None = None  # the variant value the others are compared to
    comparisons: list[tuple[str, str]] = field(default_factory=list)  # (X, Y): speedup of X vs Y
    wait: str | None = None  # the waiting-algorithm axis (B&M Table 1)
    wait_baseline: str | None = None
    scheduler: str | None = None
    length: str | None = None  # job length (B&M short / medium / long)
    groups: list[str] = field(default_factory=list)  # other varying axes: one curve set each

    def curve_groups(self, results: pd.DataFrame) -> list[str]:
        """Columns that separate curves besides the job class and the variant: the other varying
        axes, the waiting algorithm, the job length and the scheduler when they vary."""
        extra = [self.wait, self.length, self.scheduler]
        return self.groups + [
            c for c in extra if c and c != self.variant and c in results.columns and results[c].nunique() > 1
        ]

    def described(self) -> list[str]:
        def axis(column: str | None, baseline: str | None = None) -> str:
            if column is None:
                return "none"
            return f"`{column}`" + (f" (baseline `{baseline}`)" if baseline is not None else "")

        pairs = ", ".join(f"`{x} vs {y}`" for x, y in self.comparisons)
        return [
            f"load: {axis(self.load)}",
            f"variant: {axis(self.variant, self.baseline)}" + (f"; comparisons {pairs}" if pairs else ""),
            f"waiting algorithm: {axis(self.wait, self.wait_baseline)}",
            f"scheduler: {axis(self.scheduler)}",
            f"job length: {axis(self.length)}",
            "other varying axes: " + (", ".join(f"`{g}`" for g in self.groups) or "none"),
        ]


class RoleError(ValueError):
    """A choice of role the sweep cannot honour. The message speaks of the data only (the role, the
    column or value asked for it, what the sweep has instead) so that the analysis can be called
    from code as well as from the command line; `kind`, `role`, `given` and `facts` are there for a
    caller that names the choices otherwise to say the same in its own words (see __main__.py).

    `role` is the choice at fault: load, variant, baseline or comparison; `given` what was asked for
    it (None when nothing was: comparisons asked for, but nothing to compare)."""

    WORDING = {
        "comparisons_without_variant": "variant '{given}' leaves no variant axis, which a baseline and comparisons need",
        "not_an_axis": "{role} column '{given}': not an axis of this sweep (axes: {axes})",
        "not_numbers": "{role} column '{given}': expected an axis of numbers, got values such as '{example}'",
        "no_variant_to_compare": "comparisons asked for, but this sweep has no variant axis",
        "not_a_value": "{role} '{given}': not a value of the variant {variant} (values: {values})",
        "not_a_pair": "{role} '{given}': expected 'X vs Y', two values of the variant {variant}",
        "same_value": "{role} '{given}': X and Y are the same value",
    }

    def __init__(self, kind: str, role: str, given: str | None = None, **facts: str):
        self.kind, self.role, self.given, self.facts = kind, role, given, facts
        super().__init__(self.WORDING[kind].format(role=role, given=given, **facts))


def find_roles(
    results: pd.DataFrame,
    load: str | None = None,
    variant: str | None = None,
    baseline: str | None = None,
    compare: list[str] | None = None,
) -> Roles:
    """Assigns roles to the sweep's axes; `load`, `variant`, `baseline` and `compare` override the
    defaults. `variant="none"` leaves the variant out (no speedups: figure 7.2's grains are not
    treatments of one job). `compare` lists pairs "X vs Y" of variant values: the speedups drawn are
    of X against Y for each pair (thesis figures 7.9-7.12 compare 2CS+ vs CS, CS+ vs CS and
    2CS+ vs CS+ in one figure); by default every other value against the baseline.

    Defaults: the waiting-algorithm axis is the varying axis ending in `wait.algorithm` or `wait`,
    with the value naming `pairwise` as its baseline (B&M compare to implicit coscheduling's
    pairwise waiting); the job length is the varying axis ending in `barriers`, else the `scenario`
    column when it varies (B&M's short / medium / long scenarios); the scheduler is
    `resolved.scheduler.policy`; the load is the first varying numeric axis left; the variant is
    the first varying axis left (else, with a load axis, the waiting algorithm), with its first
    value in the file as the baseline. Raises RoleError for a choice the sweep cannot honour.
    """
    axes = axis_columns(results)
    moving = varying(results, axes)
    no_variant = variant == NO_VARIANT
    if no_variant:
        if compare or baseline is not None:
            raise RoleError("comparisons_without_variant", "variant", NO_VARIANT)
        variant = None
    _check_chosen_axes(results, axes, load, variant)
    roles = Roles()
    roles.wait, roles.wait_baseline = _waiting_algorithm(results, moving, variant)
    roles.length = _job_length(results, moving, load, variant)
    roles.scheduler = next((c for c in SCHEDULER_COLUMNS if c in results.columns), None)
    taken = {roles.wait, roles.length} | {a for a in moving if a in ("scheduler", "scheduler.policy")}
    if load is None:
        load = next((a for a in moving if a not in taken | {variant} and is_numeric(results[a])), None)
    roles.load = load
    taken |= {load}
    if variant is None and not no_variant:
        variant = next((a for a in moving if a not in taken), None)
        if variant is None and load is not None and roles.wait is not None:
            variant = roles.wait  # spin vs always-block against load (thesis 8.6)
    roles.variant = variant
    if variant is None and compare:
        raise RoleError("no_variant_to_compare", "comparison")
    if variant is not None:
        roles.baseline, roles.comparisons = _baseline_and_comparisons(results, variant, baseline, compare)
    taken |= {variant}
    roles.groups = [a for a in moving if a not in taken]
    return roles


def _check_chosen_axes(results: pd.DataFrame, axes: list[str], load: str | None, variant: str | None) -> None:
    """Refuses a chosen load or variant that is not an axis, and a load whose values are not numbers
    (it is the x axis of the curves)."""
    for role, given in (("load", load), ("variant", variant)):
        if given is not None and given not in axes:
            raise RoleError("not_an_axis", role, given, axes=", ".join(axes) or "none")
    if load is not None and not is_numeric(results[load]):
        raise RoleError("not_numbers", "load", load, example=str(results[load].iloc[0]))


def _waiting_algorithm(results: pd.DataFrame, moving: list[str], variant: str | None) -> tuple[str | None, str | None]:
    """The waiting-algorithm axis and its baseline, the value naming `pairwise` (B&M compare to it),
    else its first value; (None, None) without such an axis."""
    waits = [a for a in moving if a.endswith(("wait.algorithm", ".wait")) and a != variant]
    if not waits:
        return None, None
    values = list(dict.fromkeys(results[waits[0]].astype(str)))
    pairwise = [v for v in values if "pairwise" in v]
    return waits[0], pairwise[0] if pairwise else values[0]


def _job_length(results: pd.DataFrame, moving: list[str], load: str | None, variant: str | None) -> str | None:
    """The varying axis counting barriers, else the `scenario` column when it varies (B&M's short,
    medium and long scenarios are separate scenario files)."""
    lengths = [a for a in moving if a.endswith("barriers") and a not in (load, variant)]
    if lengths:
        return lengths[0]
    if "scenario" in results.columns and results["scenario"].nunique() > 1:
        return "scenario"
    return None


def _baseline_and_comparisons(
    results: pd.DataFrame, variant: str, baseline: str | None, compare: list[str] | None
) -> tuple[str, list[tuple[str, str]]]:
    """The baseline (default: the variant's first value) and the pairs (X, Y) whose speedup is drawn
    (default: every other value against the baseline), each a value of the variant."""
    values = list(dict.fromkeys(results[variant].astype(str)))

    def known(value: str, role: str) -> str:
        if value not in values:
            raise RoleError("not_a_value", role, value, variant=variant, values=", ".join(values))
        return value

    baseline = known(baseline, "baseline") if baseline is not None else values[0]
    if not compare:
        return baseline, [(v, baseline) for v in values if v != baseline]
    comparisons = []
    for pair in compare:
        parts = pair.split(" vs ")
        if len(parts) != 2 or not all(p.strip() for p in parts):
            raise RoleError("not_a_pair", "comparison", pair, variant=variant)
        x, y = (known(p.strip(), "comparison") for p in parts)
        if x == y:
            raise RoleError("same_value", "comparison", pair)
        comparisons.append((x, y))
    return baseline, comparisons
