"""Slap pad firmware entry point: MicroPython runs this file at boot.

Hold seat 1's button while plugging the pad in to skip the firmware and keep the REPL
(the firmware switches Ctrl-C off, so this is the way back in for ``mpremote``).
A crash resets the Pico: the host sees a new boot nonce and says so.
"""

import core
import hal


def main():
    board = hal.Hal()
    if board.held_at_boot(1):
        return
    try:
        core.Firmware(board).run()
    except Exception:  # the top of the firmware: a reset is the only way on
        board.reset()


main()
