"""A role choice the sweep cannot honour is refused in terms of the data: the role, the column or
value asked for it and what the sweep has instead, without the command line's flags (the command
line words them itself: test_cli.py)."""

import pytest

from analysis.__main__ import ROLE_ERRORS
from analysis.contract import load_results
from analysis.roles import RoleError, find_roles

SPIN = "workload.jobs.0.wait.spin"


@pytest.mark.parametrize(
    "fixture, options, kind, role, given, message",
    [
        ("smp_load", {"load": "nope"}, "not_an_axis", "load", "nope",
         f"load column 'nope': not an axis of this sweep (axes: workload.nosync, {SPIN})"),
        ("smp_load", {"variant": "nope"}, "not_an_axis", "variant", "nope",
         f"variant column 'nope': not an axis of this sweep (axes: workload.nosync, {SPIN})"),
        ("smp_load", {"load": SPIN}, "not_numbers", "load", SPIN,
         f"load column '{SPIN}': expected an axis of numbers, got values such as 'CS'"),
        ("smp_load", {"variant": "none", "baseline": "CS"}, "comparisons_without_variant", "variant", "none",
         "variant 'none' leaves no variant axis, which a baseline and comparisons need"),
        ("smp_threads", {"compare": ["2 vs 3"]}, "no_variant_to_compare", "comparison", None,
         "comparisons asked for, but this sweep has no variant axis"),
        ("smp_load", {"baseline": "3CS"}, "not_a_value", "baseline", "3CS",
         f"baseline '3CS': not a value of the variant {SPIN} (values: CS, 2CS+)"),
        ("smp_load", {"compare": ["CS vs"]}, "not_a_pair", "comparison", "CS vs",
         f"comparison 'CS vs': expected 'X vs Y', two values of the variant {SPIN}"),
        ("smp_load", {"compare": ["CS vs CS"]}, "same_value", "comparison", "CS vs CS",
         "comparison 'CS vs CS': X and Y are the same value"),
    ],
)
def test_a_refused_choice_names_the_role_and_the_data(fixtures, fixture, options, kind, role, given, message):
    with pytest.raises(RoleError) as refused:
        find_roles(load_results(fixtures / fixture), **options)
    error = refused.value
    assert (error.kind, error.role, error.given, str(error)) == (kind, role, given, message)
    assert "--" not in str(error), "the flags are the command line's to name"


def test_the_command_line_words_every_kind_of_role_error():
    assert ROLE_ERRORS.keys() == RoleError.WORDING.keys()
