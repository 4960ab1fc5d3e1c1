"""The screenshot suite in English (screens.py): every view × six widths × light and dark. (Every view
loading, empty and failed is shot in Korean, test_screens_ko.py: the layout rules are the same.)"""
from screens import run_suite


def test_every_view_at_every_width_in_english(screens_server):
    run_suite(screens_server, "en")
