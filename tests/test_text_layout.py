"""Long text: wrapping stays linear in the text's length and gives the greedy lines, and a text
field holds at most what Android lets a single-line EditText hold."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from phoneworld_gym import Action
from phoneworld_gym.phone import PhoneWorldDevice
from phoneworld_gym.ui import view
from phoneworld_gym.ui.view import MAX_FIELD_LENGTH, TextField, _wrap, dp, text_width, wrap


def greedy(text: str, px: int, weight: str, width: int, max_lines: int = 0) -> list[str]:
    """The definition the fast wrap must agree with: greedy words; a word wider than the line
    breaks after the most characters that fit (at least one); the last allowed line ellipsised."""
    def fits(s: str) -> bool:
        return text_width(s, px, weight) <= width

    out: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split(" "):
            cand = word if not line else f"{line} {word}"
            if fits(cand) or not line and not word:
                line = cand
                continue
            if line:
                out.append(line)
            line = word
            while not fits(line) and len(line) > 1:
                cut = max([c for c in range(1, len(line)) if fits(line[:c])], default=1)
                out.append(line[:cut])
                line = line[cut:]
        out.append(line)
    if max_lines and len(out) > max_lines:
        last = out[max_lines - 1]
        while last and not fits(last + "…"):
            last = last[:-1]
        out = out[: max_lines - 1] + [last.rstrip() + "…"]
    return out


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from("aaaabcilmwW  .,\n語😀\u0301ß"), max_size=160),
       px=st.sampled_from([20, 42, 58]), weight=st.sampled_from(["regular", "bold"]),
       width=st.sampled_from([1, 30, 120, 400, 1080]), max_lines=st.integers(0, 3))
def test_wrap_gives_the_greedy_lines(text, px, weight, width, max_lines):
    assert wrap(text, px, weight, width, max_lines) == greedy(text, px, weight, width, max_lines)


@pytest.fixture
def measured(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the characters the wrap hands to the font to measure (in ``measured[0]``)."""
    count = [0]

    def counting(s: str, px: int, weight: str = "regular") -> float:
        count[0] += len(s)
        return text_width(s, px, weight)

    monkeypatch.setattr(view, "text_width", counting)
    _wrap.cache_clear()
    return count


@pytest.mark.parametrize("text", ["a" * 10_000, "語" * 10_000, ("word " * 2_000).strip(),
                                  "x" * 3_000 + " " + "y" * 7_000])
def test_wrapping_a_long_text_measures_each_character_a_few_times(text, measured):
    # an unbroken run used to be measured prefix by prefix (quadratic: 4,000 characters took
    # 11 s); now every line is found by doubling and bisecting a prefix of about its length
    lines = wrap(text, dp(16), "regular", 1080)
    assert measured[0] <= 40 * len(text), f"{measured[0]:,} characters measured for {len(text):,}"
    assert " ".join(lines) == text or "".join(lines) == text.replace(" ", "")
    assert all(text_width(line, dp(16)) <= 1080 for line in lines)


def test_an_unbroken_run_breaks_into_full_lines():
    lines = wrap("a" * 10_000, dp(16), "regular", 1080)
    assert "".join(lines) == "a" * 10_000
    per_line = len(lines[0])
    assert text_width("a" * per_line, dp(16)) <= 1080 < text_width("a" * (per_line + 1), dp(16))
    assert all(len(line) == per_line for line in lines[:-1])
    assert 0 < len(lines[-1]) <= per_line


def test_a_line_limit_ellipsises_without_wrapping_the_rest(measured):
    lines = wrap("a" * 10_000, dp(16), "regular", 1080, max_lines=2)
    assert measured[0] < 3_000  # three lines of about 45 characters, not all 10,000
    full = wrap("a" * 10_000, dp(16), "regular", 1080)
    assert len(lines) == 2 and lines[0] == full[0]
    assert lines[1].endswith("…") and full[1].startswith(lines[1][:-1])


# -- the field's cap ---------------------------------------------------------------------------
def _contacts_form() -> tuple[PhoneWorldDevice, dict[str, int]]:
    device = PhoneWorldDevice(screenshot_size=(270, 600))
    device.reset(0)
    assert device.execute(Action("open_app", app_name="Contacts")) == ""
    ids = [e.resource_id or "" for e in device.ui_elements()]
    assert device.execute(Action("click", index=ids.index("com.phoneworld.contacts:id/fab"))) == ""
    ids = [(e.resource_id or "").rpartition("/")[2] for e in device.ui_elements()]
    return device, {rid: i for i, rid in enumerate(ids) if rid}


def test_a_field_holds_at_most_what_android_lets_a_single_line_edit_text_hold():
    device, ids = _contacts_form()
    first = ids["field_first"]
    chunks = [f"{k}" * 1000 for k in range(7)]
    for k, chunk in enumerate(chunks):
        assert device.execute(Action("input_text", index=first if k == 0 else None,
                                     text=chunk)) == ""
    field = device.screen.element_views[first]
    assert MAX_FIELD_LENGTH == 5000
    assert field.text == "".join(chunks)[:5000]
    # what it holds stays when more is typed; the delete key and a replacement still work
    assert device.execute(Action("input_text", text="more")) == ""
    assert device.screen.element_views[first].text == "".join(chunks)[:5000]
    assert device.edit_text("fresh", replace=True) == ""
    assert device.screen.element_views[first].text == "fresh"
    # the adb phone's `input text` goes through the same filter
    assert device.edit_text("z" * 6000) == ""
    assert device.screen.element_views[first].text == "fresh" + "z" * 4995
    # a saved contact shows the long name, wrapped, at once
    assert device.execute(Action("input_text", index=ids["field_phone"], text="555")) == ""
    assert device.execute(Action("click", index=ids["save"])) == ""
    assert "fresh" + "z" * 4995 in device.a11y_xml()


def test_a_declared_max_length_cuts_what_is_typed_past_it():
    held: list[str] = []
    field = TextField("code", "12", on_text=held.append, max_length=4)
    field.insert("3456")
    assert held == ["1234"]
    field.insert("789", replace=True)
    assert held[-1] == "789"
    full = TextField("code", "1234", on_text=held.append, max_length=4)
    full.insert("5")
    assert held[-1] == "1234"
