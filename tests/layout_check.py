"""What a person would see as broken on a screen, found by walking its widgets.

``problems(root)`` lists, in sentences, every visible label whose text is cut (with
"...", or lines dropped) or spills over its box, every button outside the window or
smaller than a finger (``min_target``), every two buttons that overlap, and every two
texts drawn one over the other. Used by
the layout walks (``tests/ui/test_layout_*.py``) at ``SIZES`` with ``LONG`` names.
"""

from __future__ import annotations

#: The screens the box is sold with: the 7" touchscreen and two larger HDMI panels.
SIZES = [(800, 480), (1024, 600), (1280, 720)]
#: Four 20-letter names (the longest the name entry takes), for seats 1-4.
LONG = ["Anne-Sophie Lefebvre", "Bartholomew Jamesons", "Carolina Wilhelmsens",
        "Dominik Maximilianus"]
FOUR = [{"name": n, "seat": i + 1} for i, n in enumerate(LONG)]


def size_id(size) -> str:
    return f"{size[0]}x{size[1]}"


def shown(w) -> bool:
    """On screen: in the window, of some size, neither it nor a parent see-through, and
    not wholly scrolled out of a scrolling view (a StencilView clips what lies outside)."""
    if w.get_root_window() is None or w.width < 2 or w.height < 2:
        return False
    node = w
    while node is not None and node is not node.parent:
        if getattr(node, "opacity", 1) <= 0:
            return False
        node = node.parent
    return seen_box(w) is not None


def box(w) -> tuple[float, float, float, float]:
    x, y = w.to_window(*w.pos)
    return x, y, x + w.width, y + w.height


def clip(w) -> tuple[float, float, float, float]:
    """The part of the window a widget can show in: cut by every clipping view around
    it (a StencilView clips what lies outside it)."""
    from kivy.uix.stencilview import StencilView

    x0, y0, x1, y1 = -1e9, -1e9, 1e9, 1e9
    node = w.parent
    while node is not None and node is not node.parent:
        if isinstance(node, StencilView):
            cx0, cy0, cx1, cy1 = box(node)
            x0, y0, x1, y1 = max(x0, cx0), max(y0, cy0), min(x1, cx1), min(y1, cy1)
        node = node.parent
    return x0, y0, x1, y1


def _cut(a, b) -> tuple[float, float, float, float] | None:
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    if x1 - x0 < 2 or y1 - y0 < 2:
        return None
    return x0, y0, x1, y1


def seen_box(w) -> tuple[float, float, float, float] | None:
    """The part of the widget's box that shows: cut by every clipping view around it
    (None when nothing of it does)."""
    return _cut(box(w), clip(w))


def layer(w):
    """The overlay a widget lies in (a ``Modal`` or the banner: laid over the screen on
    purpose), or None for the screen itself."""
    from companion.ui.app import Banner
    from companion.ui.modal import Modal

    node = w
    while node is not None and node is not node.parent:
        if isinstance(node, (Modal, Banner)):
            return node
        node = node.parent
    return None


def drawn_text(w) -> tuple[float, float, float, float] | None:
    """Where a label's letters are drawn, as far as they show: its lines (as its core
    label laid them out) placed in its texture by its alignment, the texture centred on
    the label as Kivy's Label rule draws it, cut by the clipping views around the label
    (None when none of it shows)."""
    tw, th = w.texture_size
    lines = getattr(w._label, "_cached_lines", None) or ()
    cw = max((line.w for line in lines), default=tw)
    ch = sum(line.h for line in lines) or th
    pad = w.padding if len(w.padding) == 4 else [w.padding[0], w.padding[1]] * 2
    free_x, free_y = max(0.0, tw - cw), max(0.0, th - ch)
    dx = {"center": free_x / 2, "right": free_x - pad[2]}.get(w.halign, min(pad[0], free_x))
    dy = {"middle": free_y / 2, "center": free_y / 2, "top": free_y - pad[1]}.get(
        w.valign, min(pad[3], free_y))
    x0, y0 = w.to_window(int(w.center_x - tw / 2.0), int(w.center_y - th / 2.0))
    x0, y0 = x0 + dx, y0 + dy
    return _cut((x0, y0, x0 + min(cw, tw), y0 + min(ch, th)), clip(w))


def _natural(w, width: float | None) -> tuple[float, float, int]:
    """The text at the label's font, unwrapped (width None) or wrapped at width: its
    width, height and number of lines (markup measured as it shows: [size=22] at 22)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.core.text.markup import MarkupLabel

    kind = MarkupLabel if w.markup else CoreLabel
    core = kind(text=w.text, font_size=w.font_size, bold=w.bold, italic=w.italic,
                font_name=w.font_name, text_size=(width, None), halign=w.halign,
                line_height=w.line_height)
    if w.markup:
        core.refresh()
        tw, th = core.content_size
    else:
        tw, th = core.render()
    return tw, th, len(getattr(core, "_cached_lines", ()) or ()) or 1


def label_problems(w) -> list[str]:
    name = f"{type(w).__name__} {w.text!r}"
    out = []
    tw, th = w.texture_size
    if tw > w.width + 2 or th > w.height + 4:  # a line's box stands out a little
        out.append(f"{name} spills over its box ({tw:.0f}x{th:.0f} in "
                   f"{w.width:.0f}x{w.height:.0f})")
    avail_w = w.text_size[0] if w.text_size[0] else w.width
    avail_w -= w.padding[0] + w.padding[2] if len(w.padding) == 4 else 2 * w.padding[0]
    if w.shorten:
        if _natural(w, None)[0] > avail_w + 1:
            out.append(f"{name} is cut with '...' ({w.width:.0f} px wide)")
    elif w.text_size[0]:
        _tw, th, n = _natural(w, avail_w)
        room = w.text_size[1] if w.text_size[1] else w.height
        fit = max(1, int((room + 4) // (th / n)))
        if w.max_lines:
            fit = min(fit, int(w.max_lines))
        if n > fit:
            out.append(f"{name} loses lines ({n} lines, room for {fit})")
    return out


def problems(root, min_target: float | None = None) -> list[str]:
    # Kivy imported here, not at collection: its window must open as the session sets it
    from kivy.core.window import Window
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label

    seen = [w for w in root.walk(restrict=True) if shown(w)]
    out: list[str] = []
    for w in seen:
        if isinstance(w, Label) and w.text.strip():
            out += label_problems(w)
    buttons = [w for w in seen if isinstance(w, ButtonBehavior)]
    for b in buttons:
        x0, y0, x1, y1 = seen_box(b)
        what = f"{type(b).__name__} {getattr(b, 'text', '')!r}"
        if x0 < -1 or y0 < -1 or x1 > Window.width + 1 or y1 > Window.height + 1:
            out.append(f"{what} lies outside the window")
        if min_target and (b.width < min_target - 0.5 or b.height < min_target - 0.5):
            out.append(f"{what} is {b.width:.0f}x{b.height:.0f}, under {min_target} px")
    texts = [(w, ink, layer(w)) for w in seen if isinstance(w, Label) and w.text.strip()
             and (ink := drawn_text(w)) is not None]
    for i, (a, ia, la) in enumerate(texts):
        for b, ib, lb in texts[i + 1:]:
            if la is lb and min(ia[2], ib[2]) - max(ia[0], ib[0]) > 2 and \
                    min(ia[3], ib[3]) - max(ia[1], ib[1]) > 2:
                out.append(f"{type(a).__name__} {a.text!r} is drawn over "
                           f"{type(b).__name__} {b.text!r}")
    for i, a in enumerate(buttons):
        for b in buttons[i + 1:]:
            if a in b.walk(restrict=True) or b in a.walk(restrict=True):
                continue
            ax0, ay0, ax1, ay1 = seen_box(a)
            bx0, by0, bx1, by1 = seen_box(b)
            if min(ax1, bx1) - max(ax0, bx0) > 2 and min(ay1, by1) - max(ay0, by0) > 2:
                out.append(f"{type(a).__name__} {getattr(a, 'text', '')!r} overlaps "
                           f"{type(b).__name__} {getattr(b, 'text', '')!r}")
    return out


def places(root) -> dict:
    """Every visible button's box in the window, by the button (for ``moved``)."""
    from kivy.uix.behaviors import ButtonBehavior

    return {w: tuple(round(v) for v in box(w)) for w in root.walk(restrict=True)
            if isinstance(w, ButtonBehavior) and shown(w)}


def moved(before: dict, after: dict) -> list[str]:
    """The buttons shown in both readings whose box changed (only a text should have)."""
    return [f"{type(b).__name__} {getattr(b, 'text', '')!r} moved from {before[b]} to "
            f"{after[b]}" for b in before if b in after and before[b] != after[b]]
