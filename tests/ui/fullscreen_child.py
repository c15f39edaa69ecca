"""Run by test_fullscreen.py in its own process under an X server of a given size: the
real app started full screen (as ``companion run --fullscreen`` does), a screenshot of
Home, and where every button of Home lies, printed as one JSON line.

    python tests/ui/fullscreen_child.py OUT.png
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path


def main(out: str) -> None:
    home = Path(tempfile.mkdtemp(prefix="companion-fs-"))
    os.environ["KIVY_HOME"] = str(home / "kivy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ["KIVY_NO_FILELOG"] = "1"
    os.environ["KIVY_LOG_MODE"] = "PYTHON"
    from companion.ui.kivy_env import prepare

    prepare(home / "kivy", fullscreen=True)
    from kivy.base import EventLoop
    from kivy.core.image import Image as CoreImage
    from kivy.core.window import Window
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels
    from kivy.graphics.texture import Texture
    from kivy.uix.behaviors import ButtonBehavior

    from companion.config import load_config
    from companion.sound import SoundCues
    from companion.store.gamelog import GameLog
    from companion.table import Table
    from companion.ui.app import CompanionApp

    class Silent:
        @staticmethod
        def load(_path):
            return None

    cfg = load_config()
    app = CompanionApp(cfg, GameLog(home / "games.sqlite3"), Table.from_config(cfg, "keyboard"),
                       SoundCues(home / "sounds", loader=Silent))
    app._run_prepare()
    for _ in range(8):
        EventLoop.idle()
    width, height = Window.size
    data = glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE)
    texture = Texture.create(size=(width, height), colorfmt="rgba")
    texture.blit_buffer(data, colorfmt="rgba", bufferfmt="ubyte")
    texture.flip_vertical()
    CoreImage(texture).save(out, flipped=True)
    buttons = [{"text": str(getattr(w, "text", "")), "x": w.to_window(*w.pos)[0],
                "y": w.to_window(*w.pos)[1], "right": w.to_window(w.right, w.top)[0],
                "top": w.to_window(w.right, w.top)[1]}
               for w in app.root.walk() if isinstance(w, ButtonBehavior)
               and w.get_root_window() is not None and w.width > 0]
    print(json.dumps({"window": [width, height], "root": list(app.root.size),
                      "x_window": x_geometry(), "buttons": buttons}))
    app.stop()
    app.table.close()
    app.log.close()


def x_geometry() -> list[int] | None:
    """The app's X window as the X server has it: [width, height, left, top] (what is
    really on the display, whatever Kivy believes)."""
    import re
    import shutil
    import subprocess

    if shutil.which("xwininfo") is None:
        return None
    tree = subprocess.run(["xwininfo", "-root", "-children"], capture_output=True,
                          text=True, timeout=10).stdout
    for line in tree.splitlines():
        m = re.search(r"(\d+)x(\d+)\+(-?\d+)\+(-?\d+)", line)
        if m and '"' in line:
            return [int(v) for v in m.groups()]
    return None


if __name__ == "__main__":
    main(sys.argv[1])
