#!/usr/bin/env bash
# Install the table companion as the box's kiosk: `sudo make install-kiosk` from a clone.
#
# On Raspberry Pi OS Bookworm 64-bit (Lite or Desktop, Pi 4 or Pi 5) it:
#   - installs the Debian packages the kiosk needs (cage, xwayland, python3-lgpio, ...);
#   - creates the system user table-companion (groups gpio dialout video render input
#     audio, those that exist) whose home is the data folder;
#   - builds the app's venv in $PREFIX/venv with Debian's python3 and its system site
#     packages (python3-lgpio: no compiler, no RPi.GPIO), from a wheel of this clone;
#   - writes /etc/table-companion/config.toml once (the pad on, full screen; kept on
#     reinstall) and /etc/table-companion/kiosk.env (which config, which data folder);
#   - makes the data folder (0700; the game log 0600);
#   - installs the unit, its PAM file, the pad's udev rule (reloaded and triggered), the
#     hardware watchdog setting, and the device list for the kiosk's session;
#   - boots to multi-user.target, enables the kiosk on tty1 and (re)starts it.
# Running it again updates the app and the units and keeps the config and the games.
#
# DESTDIR=DIR stages every file under DIR and changes nothing else on this machine: no
# user, no packages, no systemctl, no udevadm (the tests use it).
# Settings (environment, as the Makefile passes them): PREFIX, DATA_DIR, KIOSK_PYTHON,
# PIP_ARGS, FORCE=1 (install on something that is not Raspberry Pi OS).
set -euo pipefail

SRC="$(cd "$(dirname "$0")/.." && pwd)"
DESTDIR="${DESTDIR:-}"
PREFIX="${PREFIX:-/opt/table-companion}"
DATA_DIR="${DATA_DIR:-/var/lib/table-companion}"
KIOSK_PYTHON="${KIOSK_PYTHON:-/usr/bin/python3}"
PIP_ARGS="${PIP_ARGS:-}"
FORCE="${FORCE:-0}"
OS_RELEASE="${OS_RELEASE:-/etc/os-release}"
PI_MODEL="${PI_MODEL:-/proc/device-tree/model}"
KIOSK_USER=table-companion
UNIT=table-companion.service
DEFAULT_DATA=/var/lib/table-companion
GROUPS_WANTED=(gpio dialout video render input audio)
# polkitd: without it, cage's seat request through logind waits out the unit's whole
# start timeout at every start (Raspberry Pi OS Lite has it; plain Debian may not).
PACKAGES=(cage xwayland python3-venv python3-lgpio libpam-systemd polkitd libgl1 libegl1
          libgl1-mesa-dri libmtdev1 espeak-ng)

say() { printf 'install-kiosk: %s\n' "$*"; }
stop() { printf 'install-kiosk: %s\n' "$*" >&2; exit 1; }
staged() { [ -n "$DESTDIR" ]; }
run() { if staged; then say "(DESTDIR: not run) $*"; else "$@"; fi; }

case "$PREFIX$DATA_DIR" in *" "*) stop "PREFIX and DATA_DIR cannot contain spaces.";; esac
case "$DATA_DIR" in /*) ;; *) stop "DATA_DIR must be an absolute path, not '$DATA_DIR'.";; esac
if staged; then
  mkdir -p "$DESTDIR"
  DESTDIR="$(cd "$DESTDIR" && pwd)"
  say "staging under $DESTDIR: nothing outside it is changed"
else
  [ "$(id -u)" -eq 0 ] || stop "run it as root: sudo make install-kiosk"
  # What this is: Raspberry Pi OS says so in os-release (Debian with a Raspberry Pi
  # model in the device tree counts too: that is Raspberry Pi OS Lite).
  os_name="$(. "$OS_RELEASE" 2>/dev/null && echo "${PRETTY_NAME:-unknown}")" || os_name=unknown
  codename="$(. "$OS_RELEASE" 2>/dev/null && echo "${VERSION_CODENAME:-}")" || codename=
  model=""
  [ -r "$PI_MODEL" ] && model="$(tr -d '\0' < "$PI_MODEL" 2>/dev/null || true)"
  arch="$(uname -m)"
  if [ "$FORCE" != 1 ]; then
    case "$model" in
      "Raspberry Pi"*) ;;
      *) stop "this is not Raspberry Pi OS on a Raspberry Pi (found $os_name on" \
              "${model:-a machine that is not a Pi}, $arch): the kiosk is made for Raspberry" \
              "Pi OS Bookworm 64-bit. To install anyway: sudo make install-kiosk FORCE=1";;
    esac
    [ "$codename" = bookworm ] || stop "this is $os_name; the kiosk is made for Raspberry Pi" \
        "OS Bookworm. To install anyway: sudo make install-kiosk FORCE=1"
    [ "$arch" = aarch64 ] || stop "this is not a 64-bit Arm system ($arch); Kivy needs Raspberry" \
        "Pi OS 64-bit. To install anyway: sudo make install-kiosk FORCE=1"
  fi
fi
T="$DESTDIR"  # the target root: "" on the box

# 1. Debian packages, only those missing.
if ! staged; then
  missing=()
  for pkg in "${PACKAGES[@]}"; do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
  if [ ${#missing[@]} -gt 0 ]; then
    say "installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq || stop "apt-get could not read the package lists: connect the Pi to" \
        "the network and run sudo make install-kiosk again"
    # A package the sources do not have is named as such, not blamed on the network.
    unknown=()
    for pkg in "${missing[@]}"; do
      candidate="$(apt-cache policy "$pkg" 2>/dev/null | sed -n 's/^ *Candidate: //p')"
      [ -n "$candidate" ] && [ "$candidate" != "(none)" ] || unknown+=("$pkg")
    done
    if [ ${#unknown[@]} -gt 0 ]; then
      if [ "${unknown[*]}" = python3-lgpio ]; then
        stop "python3-lgpio is not in this system's package sources: this is not Raspberry" \
             "Pi OS, whose archive has it (the kiosk reads the seat buttons through it)"
      fi
      stop "${unknown[*]}: not in this system's package sources (apt-cache policy shows no" \
           "candidate); the kiosk is made for Raspberry Pi OS Bookworm"
    fi
    apt-get install -y -qq --no-install-recommends "${missing[@]}" \
      || stop "apt-get could not install ${missing[*]} (see its message above); then run" \
              "sudo make install-kiosk again"
  fi
fi
[ -x "$KIOSK_PYTHON" ] || stop "$KIOSK_PYTHON is missing: sudo apt install python3-venv"

# 2. The kiosk's system user.
if ! staged; then
  if id "$KIOSK_USER" >/dev/null 2>&1; then
    say "user $KIOSK_USER exists: kept"
  else
    useradd --system --user-group --home-dir "$DATA_DIR" --no-create-home \
            --shell /usr/sbin/nologin --comment "Table companion kiosk" "$KIOSK_USER"
    say "created the system user $KIOSK_USER"
  fi
  groups=()
  for g in "${GROUPS_WANTED[@]}"; do getent group "$g" >/dev/null && groups+=("$g"); done
  [ ${#groups[@]} -eq 0 ] || usermod -a -G "$(IFS=,; echo "${groups[*]}")" "$KIOSK_USER"
  say "groups of $KIOSK_USER: $(id -nG "$KIOSK_USER")"
fi

# 3. The app's venv, from a wheel of this clone (built in a copy: the clone stays clean).
venv="$T$PREFIX/venv"
if [ -x "$venv/bin/python" ] && [ "$(readlink -f "$venv/bin/python")" = "$(readlink -f "$KIOSK_PYTHON")" ]; then
  say "venv $PREFIX/venv exists: updating it"
else
  rm -rf "$venv"
  "$KIOSK_PYTHON" -m venv --system-site-packages "$venv" \
    || stop "$KIOSK_PYTHON could not make a venv: sudo apt install python3-venv"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
(cd "$SRC" && tar --exclude=./.venv --exclude=./.git --exclude=./tests/_artifacts \
   --exclude=./build --exclude='*.egg-info' -cf - .) | tar -xf - -C "$work" --no-same-owner
mkdir "$work/wheel"
# shellcheck disable=SC2086  # PIP_ARGS is a list of options
"$venv/bin/python" -m pip wheel --quiet --no-deps $PIP_ARGS -w "$work/wheel" "$work" \
  || stop "could not build the companion's wheel (see pip's message above)"
wheel="$(ls "$work"/wheel/table_companion-*.whl)"
# shellcheck disable=SC2086
"$venv/bin/python" -m pip install --quiet $PIP_ARGS "$wheel" \
  && "$venv/bin/python" -m pip install --quiet --no-deps --force-reinstall "$wheel" \
  || stop "pip could not install the companion into $PREFIX/venv (see above): check the" \
          "network, then run sudo make install-kiosk again"
install -d "$T/usr/local/bin"
ln -sfn "$PREFIX/venv/bin/companion" "$T/usr/local/bin/companion"
install -d "$T$PREFIX/docs"
install -m 0644 "$SRC/docs/deploy.md" "$T$PREFIX/docs/deploy.md"
say "installed $(basename "$wheel") into $PREFIX/venv"

# 4. Config (kept) and kiosk.env (the two paths rewritten, other lines kept).
install -d -m 0755 "$T/etc/table-companion"
config="$T/etc/table-companion/config.toml"
if [ -e "$config" ]; then
  say "config /etc/table-companion/config.toml exists: kept"
else
  "$venv/bin/python" -I - "$config" <<'PY' || stop "could not write the kiosk's config"
import re
import sys
from pathlib import Path

from companion.config import DEFAULT_CONFIG, load_config

text = DEFAULT_CONFIG.read_text(encoding="utf-8")
text = re.sub(r"(?ms)^(\[pad\].*?^enabled = )false", r"\1true", text)
text = re.sub(r"(?ms)^(\[ui\].*?^fullscreen = )false", r"\1true", text)
header = ("# The kiosk's hardware config, written once by `make install-kiosk` and kept when\n"
          "# it runs again. After a change: sudo systemctl restart table-companion\n")
target = Path(sys.argv[1])
target.write_text(header + text, encoding="utf-8")
config = load_config(target)
assert config.pad.enabled and config.fullscreen, "the pad and full screen should be on"
PY
  chmod 0644 "$config"
  say "wrote /etc/table-companion/config.toml (the pad on when plugged in, full screen)"
fi
if ! "$venv/bin/python" -I -c "import sys; from companion.config import load_config; load_config(sys.argv[1])" "$config" 2>"$work/config-error"; then
  say "WARNING: the kept config does not load with this version: $(tail -1 "$work/config-error")"
  say "the kiosk will show this message until /etc/table-companion/config.toml is fixed"
fi
envfile="$T/etc/table-companion/kiosk.env"
{
  echo "# Written by make install-kiosk: the kiosk's config and data folder. The unit reads"
  echo "# it, and so do \`companion doctor\` and \`companion export\` from a shell. Lines"
  echo "# other than these two (e.g. COMPANION_CAGE_ARGS=-r to rotate) are kept on reinstall."
  echo "COMPANION_CONFIG=/etc/table-companion/config.toml"
  echo "COMPANION_DATA_DIR=$DATA_DIR"
  if [ -e "$envfile" ]; then
    grep -v -E '^(COMPANION_CONFIG|COMPANION_DATA_DIR)=|^# ' "$envfile" || true
  fi
} > "$work/kiosk.env"
install -m 0644 "$work/kiosk.env" "$envfile"

# 5. The data folder: 0700, its files 0600, owned by the kiosk user.
install -d -m 0700 "$T$DATA_DIR"
if ! staged; then
  chown -R "$KIOSK_USER:$KIOSK_USER" "$DATA_DIR"
  chmod -R go-rwx "$DATA_DIR"  # a log written by an older install was 0644
fi
say "data folder $DATA_DIR (0700)"

# 6. Units, PAM, udev, watchdog, the session's device list.
sysd="$T/etc/systemd/system"
install -d "$sysd"
sed "s#/opt/table-companion#$PREFIX#g" "$SRC/systemd/$UNIT" > "$work/$UNIT"
install -m 0644 "$work/$UNIT" "$sysd/$UNIT"
dropin="$sysd/$UNIT.d"
if [ "$DATA_DIR" != "$DEFAULT_DATA" ]; then
  install -d "$dropin"
  cat > "$work/data-dir.conf" <<EOF
# Written by make install-kiosk DATA_DIR=$DATA_DIR: the game log on a writable partition
# (for the overlay file system, see docs/deploy.md).
[Unit]
RequiresMountsFor=$DATA_DIR
[Service]
StateDirectory=
WorkingDirectory=$DATA_DIR
ReadWritePaths=$DATA_DIR
EOF
  install -m 0644 "$work/data-dir.conf" "$dropin/data-dir.conf"
else
  rm -f "$dropin/data-dir.conf"
fi
# Venue mode talks to an MQTT broker: only a config with a [venue] section gets internet
# sockets; every other box keeps AF_UNIX and AF_NETLINK only.
if grep -q '^[[:space:]]*\[venue\]' "$config"; then
  install -d "$dropin"
  install -m 0644 "$SRC/systemd/venue-network.conf" "$dropin/venue-network.conf"
  say "venue mode: the kiosk may reach the broker (internet sockets allowed)"
else
  rm -f "$dropin/venue-network.conf"
fi
rmdir "$dropin" 2>/dev/null || true
install -d "$T/etc/pam.d" "$T/etc/udev/rules.d" "$T/etc/systemd/system.conf.d"
install -m 0644 "$SRC/deploy/table-companion.pam" "$T/etc/pam.d/table-companion"
install -m 0644 "$SRC/systemd/99-slap-pad.rules" "$T/etc/udev/rules.d/99-slap-pad.rules"
install -m 0644 "$SRC/systemd/system.conf.d/table-companion-watchdog.conf" \
  "$T/etc/systemd/system.conf.d/table-companion-watchdog.conf"
uid="$(id -u "$KIOSK_USER" 2>/dev/null || true)"
if [ -n "$uid" ]; then
  # ProtectHome=tmpfs empties /run/user in the unit's view; bring back the kiosk's own
  # runtime folder (its Wayland and notify sockets). Only the installer knows the UID.
  install -d "$dropin"
  cat > "$work/runtime-dir.conf" <<EOF
# Written by make install-kiosk: the kiosk user's runtime folder (/run/user/$uid, made by
# logind for its session) inside the unit's sandbox, where ProtectHome=tmpfs hides the rest.
[Service]
BindPaths=-/run/user/$uid
EOF
  install -m 0644 "$work/runtime-dir.conf" "$dropin/runtime-dir.conf"
  install -d "$sysd/user-$uid.slice.d"
  install -m 0644 "$SRC/systemd/table-companion-slice.conf" \
    "$sysd/user-$uid.slice.d/table-companion.conf"
else
  say "(DESTDIR: no user $KIOSK_USER here, so no user-UID.slice.d device list staged)"
fi
say "installed $UNIT, /etc/pam.d/table-companion, the udev rule and the watchdog setting"

# 7. Tell systemd and udev; boot into the kiosk.
old=/etc/systemd/system/companion.service  # the unit of the five manual steps
if ! staged && [ -e "$old" ] && grep -q "Table companion" "$old"; then
  systemctl disable --now companion.service >/dev/null 2>&1 || true
  rm -f "$old"
  say "removed the old companion.service (the kiosk replaces it)"
fi
run udevadm control --reload
run udevadm trigger --subsystem-match=tty --action=change
run systemctl daemon-reload
if ! staged && [ "$(systemctl get-default)" = graphical.target ]; then
  systemctl set-default multi-user.target >/dev/null
  say "the desktop no longer starts at boot: the kiosk takes the screen (to get the desktop"
  say "back: sudo systemctl disable $UNIT && sudo systemctl set-default graphical.target)"
fi
if staged; then
  systemctl --root="$DESTDIR" enable "$UNIT" 2>&1 | sed 's/^/install-kiosk: /'
else
  systemctl enable "$UNIT"
fi
if staged; then
  say "staged (enabled inside DESTDIR). Not done: apt-get, useradd, chown, udevadm, systemctl"
elif ! systemctl restart "$UNIT"; then
  status="$(systemctl show -p StatusText --value "$UNIT" 2>/dev/null || true)"
  stop "installed, but the kiosk did not reach the screen: ${status:-systemd gave no reason}." \
       "Its lines: companion logs   (then: sudo systemctl restart table-companion)"
else
  say "done: the kiosk is on the screen (tty1) and starts at every boot."
  say "check it with: companion doctor   and its lines with: companion logs"
fi
