"""A later stage takes a worker's work only for the text it reads now (read_ahead.py)."""

import subprocess
import sys

from topiccrawler.read_ahead import SCORE, put, take, text_key


def test_a_result_is_taken_once_and_only_for_its_text():
    store = {}
    put(store, SCORE, 0.5, "title", "body")
    assert take(store, SCORE, "title", "another body") is None  # computed from other text
    assert store == {}  # and gone: a stage takes its part once
    put(store, SCORE, None, "title", "body")
    ahead = take(store, SCORE, "title", "body")
    assert ahead is not None and ahead.value is None  # "nothing needed" is an answer too
    assert take(store, SCORE, "title", "body") is None


def test_keys_tell_parts_apart_and_none_from_empty():
    assert text_key("ab", "c") != text_key("a", "bc")
    assert text_key(None) != text_key("")
    assert text_key("税", "x") == text_key("税", "x")


def test_keys_are_the_same_in_another_interpreter():
    """A spawned worker seeds str hashing afresh; the key must not depend on it."""
    code = "from topiccrawler.read_ahead import text_key; print(text_key('税务 tax', None))"
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "123"},
    )
    assert int(other.stdout) == text_key("税务 tax", None)
