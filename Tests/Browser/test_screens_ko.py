"""The screenshot suite in Korean (screens.py): every view × six widths × light and dark."""
from screens import run_suite


def test_every_view_at_every_width_in_korean(server):
    run_suite(server, "ko")
