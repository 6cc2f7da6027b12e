"""Shared fixtures: paths of the repository's test models."""

import os
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GYM = ROOT / "internal" / "mjref" / "testdata" / "gymnasium"


@pytest.fixture
def hopper():
    return str(GYM / "hopper.xml")


@pytest.fixture
def ant():
    return str(GYM / "ant.xml")


def rss_kib():
    """Resident set size of this process, KiB (Linux)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    pytest.skip("no /proc/self/status")


LONG = os.environ.get("STICTION_LONG") == "1"
