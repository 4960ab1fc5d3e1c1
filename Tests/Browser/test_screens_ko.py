"""The screenshot suite in Korean (screens.py): every view × six widths × light and dark; and every
view loading, empty and failed (states.py)."""
from screens import run_suite
from states import run_states


def test_every_view_at_every_width_in_korean(screens_server):
    run_suite(screens_server, "ko")


def test_every_view_loading_empty_and_failed_in_korean(screens_server):
    run_states(screens_server, "ko")
