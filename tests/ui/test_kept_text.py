"""KeptText (companion/ui/kept_text.py): a look that comes back is shown from the
texture it was drawn into, and that texture shows exactly its words, in the real window."""

from __future__ import annotations

import pytest


@pytest.fixture
def labels(ui, label_renders):
    from kivy.uix.label import Label

    from companion.ui import kept_text

    class Kept(kept_text.KeptText, Label):
        pass

    def make(**kwargs):
        label = Kept(font_size=30, **kwargs)
        return label, label_renders(label)

    yield make, Label
    kept_text.forget_all()


def show(label, text: str):
    label.text = text
    label.texture_update()
    return label.texture


def picture(texture) -> bytes:
    texture.bind()  # filled, as the window does when it first draws it
    return bytes(texture.pixels)


def test_a_look_that_comes_back_is_not_drawn_again(labels):
    make, _ = labels
    label, renders = make()
    show(label, "Ann's turn")
    show(label, "Bob's turn")
    kept = show(label, "Ann's turn")  # second showing: drawn and kept
    show(label, "Bob's turn")
    renders.clear()
    assert show(label, "Ann's turn") is kept
    assert renders == []


def test_a_text_shown_once_is_drawn_as_kivy_draws_it(labels):
    make, _ = labels
    label, renders = make()
    for ms in range(5):
        show(label, f"+{ms}0 ms")
    renders.clear()
    show(label, "+00 ms")  # seen once before: drawn again, kept from now on
    assert renders


def test_a_kept_texture_shows_its_own_words(labels):
    make, Label = labels
    label, _ = make()
    # digits are all as wide: every one of these times is drawn at the same size, so a
    # texture reused for the next text would be drawn over
    for text in ("10:00", "11:11", "10:00", "11:11", "12:22", "13:33"):
        show(label, text)
    kept = show(label, "11:11")
    plain = Label(font_size=30, text="11:11")
    plain.texture_update()
    assert kept.size == plain.texture.size
    assert picture(kept) == picture(plain.texture)


def test_every_option_of_the_picture_is_part_of_the_look(labels):
    make, _ = labels
    label, renders = make()
    for _ in range(2):
        show(label, "Ann")
    white = show(label, "Ann")
    label.color = (1, 0, 0, 1)
    renders.clear()
    red = show(label, "Ann")
    assert red is not white and renders == ["Ann"] * len(renders)
    label.color = (1, 1, 1, 1)
    assert show(label, "Ann") is white


def test_a_lost_gl_context_forgets_the_kept_looks(labels):
    from companion.ui import kept_text

    make, _ = labels
    label, renders = make()
    for _ in range(3):
        kept = show(label, "Ann")
    kept_text.forget_all()
    renders.clear()
    assert show(label, "Ann") is not kept
    assert renders


def test_markup_labels_are_drawn_as_kivy_draws_them(labels):
    make, _ = labels
    label, renders = make(markup=True)
    for _ in range(3):
        show(label, "[b]Ann[/b]")
    renders.clear()
    show(label, "[b]Ann[/b]")
    assert renders  # its links and anchors come from drawing it


def test_a_class_whose_texts_come_back_keeps_them_from_the_first_showing(labels):
    make, _ = labels
    label, renders = make()
    label.keep_first_showing = True
    first = show(label, "Undo: score (Ann)")
    show(label, "Undo: score (Bob)")
    renders.clear()
    assert show(label, "Undo: score (Ann)") is first
    assert renders == []


def test_a_look_is_known_whatever_font_file_the_label_drew_before(labels):
    """The font's file is worked out from its name, weight and slant at each drawing: a
    label that drew bold, then plain, holds the bold file until it draws again, and
    its plain look is the same look as any other label's plain one."""
    make, _ = labels
    first, _ = make(bold=True)
    show(first, "6")
    first.bold = False
    show(first, "6")  # its first plain showing
    second, _ = make()
    show(second, "6")  # the second: drawn and kept
    third, renders = make()
    show(third, "6")
    assert renders == []
