"""The screenshot suite in English (screens.py): every view × six widths × light and dark."""
from screens import run_suite


def test_every_view_at_every_width_in_english(server):
    run_suite(server, "en")
