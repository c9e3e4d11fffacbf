"""docs/cli.md documents every subcommand and flag the CLI's parser has."""

import re

from gamedsl.cli.main import build_parser
from tools.cli_reference import BEGIN, END, PAGE, reference, subcommands


def sections():
    """Each `## gamedsl NAME` section of the page, by NAME."""
    text = PAGE.read_text("utf-8")
    parts = re.split(r"^## gamedsl (\w+)\n", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def test_page_is_the_generated_reference():
    text = PAGE.read_text("utf-8")
    generated = text[text.index(BEGIN):text.index(END) + len(END) + 1]
    assert generated == reference(), "docs/cli.md is out of date: run python tools/cli_reference.py --write"


def test_every_subcommand_and_flag_is_on_the_page():
    page = sections()
    for name, (parser, help_) in subcommands(build_parser()).items():
        assert name in page, f"docs/cli.md has no section for gamedsl {name}"
        assert help_ and help_[1:] in page[name]
        for action in parser._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}`" in page[name], f"gamedsl {name} {flag} is missing from docs/cli.md"
            if not action.option_strings:
                assert f"`{action.metavar or action.dest}`" in page[name]


def test_reference_does_not_depend_on_the_terminal(monkeypatch):
    monkeypatch.setenv("COLUMNS", "40")
    narrow = reference()
    monkeypatch.setenv("COLUMNS", "200")
    assert reference() == narrow
    assert "gamedsl play [-h] --seats SEATS" in narrow
