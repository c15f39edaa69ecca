"""Slap pad firmware entry point: MicroPython runs this file at boot.

Hold seat 1's button while plugging the pad in to skip the firmware and keep the REPL
(the firmware switches Ctrl-C off, so this is the way back in for ``mpremote``).
A crash resets the Pico: the host sees a new boot nonce and says so. On a board that is
neither an RP2040 nor an RP2350 the firmware prints why and leaves the REPL alone; the
companion shows that sentence when the board does not answer as a slap pad.
"""

import core
import hal


def main():
    try:
        board = hal.Hal()
    except hal.UnsupportedBoard as exc:
        print(exc)
        return
    if board.held_at_boot(1):
        return
    try:
        core.Firmware(board).run()
    except Exception:  # the top of the firmware: a reset is the only way on
        board.reset()


main()
