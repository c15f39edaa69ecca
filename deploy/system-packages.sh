#!/usr/bin/env bash
# The Debian packages the companion needs on this machine, installed when missing.
#
#   deploy/system-packages.sh run    what `make run` needs: Kivy's GL, input and clipboard
#   deploy/system-packages.sh test   what `make test` needs as well (Xvfb, the fault and
#                                    kiosk tests' tools; as root also the user
#                                    companion-ci that the cage test runs as)
#
# As root the missing ones are installed with apt-get. Without root nothing is changed:
# one line names the missing packages and the command that installs them, and the exit
# status is 1. On a system without dpkg (not Debian or Raspberry Pi OS) it says so and
# carries on: install the equivalents by hand. The Makefile calls this before building
# .venv, and .ci/run through `make test`, so the README's two commands are all the set-up.
set -euo pipefail

role=${1:-run}
# Mesa GL/EGL and mtdev for Kivy's window and touch; xclip for Kivy's clipboard;
# python3-venv for .venv; espeak-ng for the spoken lines (the WAV tests use it too).
run_pkgs=(libgl1 libegl1 libgl1-mesa-dri libmtdev1 xclip python3-venv espeak-ng)
# Xvfb for real windows without a display (xwininfo from x11-utils: the window's real size
# in the full-screen tests); systemd-analyze for the unit checks; strace for
# the game log's fault injection (tests/faults); cage, xwayland and grim for the kiosk test
# (the real kiosk under cage on a stand-in display: Xvfb sized by matchbox-window-manager,
# its frame taken with grim); venue mode
# (docs/venue.md): Mosquitto for the broker tests, Chromium and its WebDriver for the
# venue page in a real headless browser; zbar-tools (zbarimg) reads the BG Stats QR code
# back from a screenshot of the window (tests/ui/test_bgstats_panel.py).
test_pkgs=(xvfb xauth x11-utils systemd strace cage xwayland grim matchbox-window-manager
           mosquitto chromium chromium-driver zbar-tools)

case "$role" in
  run) want=("${run_pkgs[@]}") ;;
  test) want=("${run_pkgs[@]}" "${test_pkgs[@]}") ;;
  *) echo "deploy/system-packages.sh: say 'run' or 'test', not '$role'" >&2; exit 2 ;;
esac

if ! command -v dpkg >/dev/null 2>&1; then
  echo "No dpkg here, so the system packages cannot be checked: install the equivalents of" \
       "${want[*]} by hand." >&2
  exit 0
fi

need=()
for pkg in "${want[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ "$role" = test ] && [ "$(id -u)" -eq 0 ] && ! id companion-ci >/dev/null 2>&1; then
  # cage refuses to run as root: as root, the kiosk test runs it as this system user.
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin \
    companion-ci
fi
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "Missing system packages: ${need[*]}. Install them with:" \
       "sudo apt-get install ${need[*]}" >&2
  exit 1
fi
echo "Installing the missing system packages: ${need[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${need[@]}"
