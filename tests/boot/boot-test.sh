#!/usr/bin/env bash
# The boot test: the box as its owner installs it, booted by a real systemd, looked at
# from outside. `make boot-test` runs it (as root; .ci/run does after `make test`).
#
# 1. A Debian bookworm system (debootstrap minbase plus what Raspberry Pi OS Lite has
#    that the installer relies on: systemd, udev, dbus, sudo, git, make, python3), cached
#    between runs in $BOOT_CACHE. The owner's account "someone" with passwordless sudo, as
#    Raspberry Pi Imager makes it, and a `git clone` of this project in its home.
# 2. Booted with `systemd-nspawn -b` (systemd 252, as Raspberry Pi OS Bookworm). As the
#    owner, in a PAM login session: `sudo make install-kiosk FORCE=1` (FORCE: this is not
#    a Pi), then a reboot.
# 3. Checked from outside, each check one line "ok"/"FAIL" and a closing count line:
#    unit enabled and active after the reboot, READY=1 (active means it came: Type=notify)
#    and STATUS= saying the companion is on the screen; cage's output (grim over the
#    kiosk's Wayland socket) is the home screen and fills it; the watchdog stays fed for
#    60 s; kill -9 of the app brings it back with the log intact; a SIGSTOPped app is
#    restarted by the watchdog; a second install keeps the config and the games; `sudo
#    companion doctor` names the kiosk's config and log; `companion logs` has the
#    kiosk's lines and `journalctl -u table-companion -b` systemd's; `systemd-analyze
#    security` <= 2.5; the owner's clone is left exactly as it was.
#
# STAND-INS, each also labelled where it is put in place. Nothing else differs from what
# the installer does on a Pi:
#   - python3-lgpio: an empty package built with equivs (Debian has none; Raspberry Pi
#     OS's archive has it). The seat buttons are not pressed here.
#   - /dev/tty0 and /dev/tty1 of this machine bound in: a container has no VTs, and the
#     kiosk's session takes tty1 as on the Pi.
#   - udevd allowed to run on the container's read-only /sys (drop-ins), and a udevadm
#     that ignores only a `trigger` failing on that read-only /sys.
#   - the display: no GPU or DRM device exists here. cage draws with the pixman renderer
#     on wlroots' x11 backend, into an Xvfb screen of the 7" display's 800x480 on this
#     machine, whose window manager (matchbox) sizes cage's output to the screen as the
#     panel does. Not the headless backend: wlroots 0.15's headless output has only a
#     software cursor, so cage's direct scan-out of the full-screen window fails every
#     frame and the output keeps its first picture (docs/deploy.md).
#   - grim and procps installed in the container: the test's own eyes and hands.
#   - the host's extra CA certificates, if this machine has any, so pip inside can verify.
set -uo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
PROJECT="${PROJECT:-$(cd "$HERE/../.." && pwd)}"
B="${BOOT_DIR:-/tmp/companion-boot}"
CACHE="${BOOT_CACHE:-/var/cache/table-companion-boot}"
ART="${ARTIFACTS:-$PROJECT/tests/_artifacts}"
R="$B/root"
L="$B/logs"
XDISPLAY="${BOOT_XDISPLAY:-:61}"
SCREEN="${BOOT_SCREEN:-800x480}"
UNIT=table-companion
APP_PATTERN='^/opt/table-companion/venv/bin/python -m companion .* run --fullscreen$'
PASSED=0
FAILED=0

log() { printf '\n=== %s  %s\n' "$(date -u +%H:%M:%S)" "$*"; }
ok() { PASSED=$((PASSED + 1)); printf 'ok    %s\n' "$*"; }
fail() { FAILED=$((FAILED + 1)); printf 'FAIL  %s\n' "$*"; }
check() {  # check "what" CMD...: ok when CMD exits 0
  local what=$1; shift
  if "$@"; then ok "$what"; else fail "$what"; fi
}

# ---- running things inside the booted container ---------------------------------------
in_root() {  # CMD as root in the container's namespaces, with a clean environment
  nsenter -t "$(cat "$B/leader")" -m -u -i -n -p -C -- env -i \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    TERM=dumb LANG=C.UTF-8 HOME=/root bash -c "$1"
}
as_owner() {  # CMD as "someone" in a PAM login session of the container's own systemd
  in_root "systemd-run --quiet --wait --pipe --collect --service-type=exec \
    -p User=someone -p PAMName=login -p WorkingDirectory=/home/someone \
    -E TERM=dumb -E LANG=C.UTF-8 /bin/bash -lc $(printf %q "$1")"
}
prop() { in_root "systemctl show $UNIT -p $1 --value"; }

# ---- the host side --------------------------------------------------------------------
host_tools() {
  log "host tools"
  local need=()
  for t in debootstrap:debootstrap systemd-nspawn:systemd-container equivs-build:equivs \
           Xvfb:xvfb matchbox-window-manager:matchbox-window-manager nsenter:util-linux; do
    command -v "${t%%:*}" >/dev/null || need+=("${t#*:}")
  done
  if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
  fi
}

mirror() {  # the Debian mirror this machine's own apt uses
  local uri
  uri=$(sed -n 's/^URIs: *//p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
  [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $3 ~ /^bookworm$/ {print $2; exit}' \
                          /etc/apt/sources.list 2>/dev/null)
  echo "${uri:?no Debian mirror found in the apt sources here}"
}

make_rootfs() {
  local tar="$CACHE/bookworm-minbase.tar"
  mkdir -p "$CACHE"
  if [ ! -s "$tar" ]; then
    log "debootstrap bookworm (cached in $tar for later runs)"
    local m; m=$(mirror)
    rm -rf "$B/debootstrap"
    debootstrap --variant=minbase \
      --include=systemd,systemd-sysv,dbus,sudo,git,make,ca-certificates,python3,udev \
      bookworm "$B/debootstrap" "$m" >"$L/debootstrap.log" 2>&1 \
      || { tail -20 "$L/debootstrap.log"; return 1; }
    printf 'deb %s bookworm main\ndeb %s-security bookworm-security main\n' "$m" "$m" \
      > "$B/debootstrap/etc/apt/sources.list"
    tar -C "$B/debootstrap" -cf "$tar.part" . && mv "$tar.part" "$tar"
    rm -rf "$B/debootstrap"
  fi
  log "a fresh rootfs from $tar"
  rm -rf "$R"; mkdir -p "$R"; tar -C "$R" -xf "$tar"
  if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then  # STAND-IN: CAs
    cp /usr/local/share/ca-certificates/*.crt "$R/usr/local/share/ca-certificates/"
    chroot "$R" update-ca-certificates >/dev/null
  fi
  echo tablebox > "$R/etc/hostname"
  printf '127.0.0.1 localhost\n127.0.1.1 tablebox\n' > "$R/etc/hosts"
  : > "$R/etc/machine-id"
  # The owner, as Raspberry Pi Imager makes the account.
  chroot "$R" useradd -m -s /bin/bash -c "Box owner" someone
  for g in adm dialout sudo audio video plugdev games users input render netdev; do
    chroot "$R" getent group "$g" >/dev/null && chroot "$R" usermod -a -G "$g" someone
  done
  echo 'someone ALL=(ALL) NOPASSWD: ALL' > "$R/etc/sudoers.d/010_pi-nopasswd"
  chmod 0440 "$R/etc/sudoers.d/010_pi-nopasswd"
  git clone -q "$PROJECT" "$R/home/someone/table-companion"
  chroot "$R" chown -R someone:someone /home/someone/table-companion
  standins
}

standins() {
  log "STAND-INS (see the header): python3-lgpio, udevd on a read-only /sys, the display"
  if [ ! -s "$CACHE/python3-lgpio_0.0~standin1_all.deb" ]; then
    (cd "$CACHE" && cat > python3-lgpio.ctl <<'EOF'
Section: python
Priority: optional
Standards-Version: 3.9.2
Package: python3-lgpio
Version: 0.0~standin1
Architecture: all
Description: STAND-IN for Raspberry Pi OS's python3-lgpio (boot test only)
 Empty: lets the kiosk installer's package step pass on Debian bookworm.
EOF
     equivs-build python3-lgpio.ctl >/dev/null)
  fi
  cp "$CACHE/python3-lgpio_0.0~standin1_all.deb" "$R/root/"
  chroot "$R" dpkg -i /root/python3-lgpio_0.0~standin1_all.deb >/dev/null
  for u in systemd-udevd.service systemd-udevd-control.socket systemd-udevd-kernel.socket; do
    mkdir -p "$R/etc/systemd/system/$u.d"
    printf '# STAND-IN (boot test): udevd runs although /sys is read-only in a container\n[Unit]\nConditionPathIsReadWrite=\n' \
      > "$R/etc/systemd/system/$u.d/boot-test-standin.conf"
  done
  cat > "$R/usr/local/sbin/udevadm" <<'EOF'
#!/bin/sh
# STAND-IN (boot test): a container's /sys is read-only, so `udevadm trigger` cannot write
# uevent files; that one failure is ignored, everything else is the real udevadm.
if [ "$1" = trigger ]; then
  err=$(/usr/bin/udevadm "$@" 2>&1); rc=$?
  if [ "$rc" -ne 0 ] && ! printf '%s\n' "$err" | grep -v -q 'Read-only file system'; then
    exit 0
  fi
  [ -z "$err" ] || printf '%s\n' "$err" >&2
  exit "$rc"
fi
exec /usr/bin/udevadm "$@"
EOF
  chmod 0755 "$R/usr/local/sbin/udevadm"
  mkdir -p "$R/etc/systemd/system/$UNIT.service.d"
  cat > "$R/etc/systemd/system/$UNIT.service.d/boot-test-display.conf" <<EOF
# STAND-IN (boot test): no GPU or DRM device here. cage draws with pixman on wlroots' x11
# backend into the test machine's Xvfb screen ($SCREEN, display $XDISPLAY), sized by its
# window manager as a panel sizes cage's output.
[Service]
Environment=WLR_BACKENDS=x11 WLR_RENDERER=pixman DISPLAY=$XDISPLAY
EOF
}

screen_up() {  # STAND-IN: the display, on this machine
  pkill -f "Xvfb $XDISPLAY " 2>/dev/null; sleep 0.5
  Xvfb "$XDISPLAY" -screen 0 "${SCREEN}x24" -nolisten tcp >"$L/xvfb.log" 2>&1 &
  echo $! > "$B/xvfb.pid"
  sleep 1
  DISPLAY=$XDISPLAY matchbox-window-manager -use_titlebar no -use_cursor no \
    >"$L/matchbox.log" 2>&1 &
  echo $! > "$B/matchbox.pid"
}
screen_down() {
  for f in matchbox xvfb; do [ -s "$B/$f.pid" ] && kill "$(cat "$B/$f.pid")" 2>/dev/null; done
}

boot() {  # boot N
  log "boot $1"
  SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 setsid systemd-nspawn --register=no --keep-unit -b \
    -D "$R" --machine=tablebox --bind=/dev/tty0 --bind=/dev/tty1 --console=read-only \
    >"$L/console-$1.log" 2>&1 </dev/null &
  echo $! > "$B/nspawn.pid"
  local kid=""
  for _ in $(seq 1 120); do
    sleep 1
    kill -0 "$(cat "$B/nspawn.pid")" 2>/dev/null || { tail -20 "$L/console-$1.log"; return 1; }
    kid=$(ps -o pid= --ppid "$(cat "$B/nspawn.pid")" | head -1 | tr -d ' ')
    [ -n "$kid" ] && [ "$(cat "/proc/$kid/comm" 2>/dev/null)" = systemd ] && break
  done
  [ -n "$kid" ] || return 1
  echo "$kid" > "$B/leader"
  in_root 'timeout 300 systemctl is-system-running --wait >/dev/null; systemctl --failed --no-legend'
}
poweroff() {
  [ -s "$B/nspawn.pid" ] && kill -0 "$(cat "$B/nspawn.pid")" 2>/dev/null || return 0
  log "power off"
  in_root 'systemctl poweroff' >/dev/null 2>&1
  for _ in $(seq 1 90); do kill -0 "$(cat "$B/nspawn.pid")" 2>/dev/null || break; sleep 1; done
  kill -9 "$(cat "$B/nspawn.pid")" 2>/dev/null
  rm -f "$B/nspawn.pid" "$B/leader"
}

# ---- looking at the screen ------------------------------------------------------------
frame() {  # frame NAME: cage's output as $ART/boot-NAME.png, and its PPM for the checks
  in_root 'uid=$(id -u table-companion); s=$(ls /run/user/$uid | grep -E "^wayland-[0-9]+$" | head -1)
    for t in png ppm; do runuser -u table-companion -- env XDG_RUNTIME_DIR=/run/user/$uid \
      WAYLAND_DISPLAY=$s grim -t $t /run/user/$uid/frame.$t || exit 1
      mv /run/user/$uid/frame.$t /root/frame.$t; done' || return 1
  mkdir -p "$ART"
  cp "$R/root/frame.png" "$ART/boot-$1.png" && cp "$R/root/frame.ppm" "$B/boot-$1.ppm"
}
home_screen() {  # home_screen NAME: the picture fills the output and shows the home tiles
  python3 "$PROJECT/tests/screen_check.py" "$B/boot-$1.ppm" "$SCREEN"
}

# ---- the checks -----------------------------------------------------------------------
install_as_owner() {  # install_as_owner LOG
  as_owner 'cd ~/table-companion && sudo make install-kiosk FORCE=1; echo "exit status $?"' \
    >"$L/$1" 2>&1
  tail -4 "$L/$1"
  grep -q '^exit status 0$' "$L/$1"
}
on_screen() {
  [ "$(prop ActiveState)" = active ] && [ "$(prop StatusText)" = "The companion is on the screen" ]
}
wait_on_screen() {  # up to 90 s for a (re)started kiosk to be on the screen again
  for _ in $(seq 1 90); do on_screen && sleep 3 && return 0; sleep 1; done
  return 1
}
db() {  # what the log holds: integrity, games, actions
  in_root 'python3 -c "import sqlite3; d=sqlite3.connect(\"file:/var/lib/table-companion/games.sqlite3?mode=ro\", uri=True); print(d.execute(\"pragma integrity_check\").fetchone()[0], d.execute(\"select count(*) from games\").fetchone()[0], d.execute(\"select count(*) from actions\").fetchone()[0])"'
}
app_pid() { in_root "pgrep -u table-companion -f '$APP_PATTERN'"; }

lacks() { ! grep -q -e "$1" "$2"; }

run_checks() {
  log "bad input: python3-lgpio not in the package sources (its stand-in removed)"
  in_root 'dpkg -r python3-lgpio >/dev/null'
  install_as_owner install-0.log
  check "the installer names python3-lgpio as missing from the package sources" \
    grep -q "python3-lgpio is not in this system's package sources" "$L/install-0.log"
  check "the installer prints no stray shell error" lacks "No such file or directory" "$L/install-0.log"
  check "the refused install changed nothing" test -z "$(in_root 'ls -d /opt/table-companion /etc/table-companion 2>/dev/null')"
  in_root 'dpkg -i /root/python3-lgpio_0.0~standin1_all.deb >/dev/null'

  log "install as the owner: sudo make install-kiosk FORCE=1"
  check "the installer ends with exit status 0" install_as_owner install-1.log
  check "the installer says the kiosk is on the screen" grep -q "kiosk is on the screen" "$L/install-1.log"
  in_root 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends procps grim >/dev/null 2>&1'  # STAND-IN: test tools
  poweroff; boot 2 || { fail "the box boots again"; return; }

  log "after the reboot"
  check "the unit is enabled" test "$(in_root "systemctl is-enabled $UNIT")" = enabled
  check "READY=1 came and STATUS= says the companion is on the screen" wait_on_screen
  echo "  Status: $(prop StatusText)"
  frame home && check "cage's output is the home screen and fills it ($SCREEN)" home_screen home
  check "the app runs optimised Python and keeps its bytecode in the cache folder" \
    test "$(in_root 'find /var/cache/table-companion/bytecode -name "*.opt-1.pyc" | wc -l')" -gt 100

  log "the watchdog stays fed for 60 s"
  local r0 w0; r0=$(prop NRestarts); w0=$(prop WatchdogTimestampMonotonic); sleep 60
  check "no restart in 60 s and the watchdog was fed" \
    test "$(prop NRestarts)" = "$r0" -a "$(prop WatchdogTimestampMonotonic)" != "$w0" -a "$(prop ActiveState)" = active

  log "a game in the log, the config edited by the owner"
  in_root 'runuser -u table-companion -- /opt/table-companion/venv/bin/python -I - <<EOF
from companion.store.gamelog import GameLog
g = GameLog("/var/lib/table-companion/games.sqlite3")
gid = g.new_game("scorepad", {"players": [{"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]})
for seat, pts in ((1, 3), (2, 5), (1, 2)):
    g.append(gid, {"type": "score", "seat": seat, "points": pts})
g.close()
EOF
    echo "# the owner edited this line" >> /etc/table-companion/config.toml'
  local before; before=$(db); echo "  log: $before"
  local conf; conf=$(in_root 'sha256sum /etc/table-companion/config.toml')

  log "kill -9 the app"
  local pid; pid=$(app_pid); in_root "kill -9 $pid"; sleep 5
  check "kill -9 of the app: back on the screen" wait_on_screen
  check "kill -9 of the app: a new app process" test -n "$(app_pid)" -a "$(app_pid)" != "$pid"
  check "kill -9 of the app: the log intact ($before)" test "$(db)" = "$before"
  frame after-kill9 && check "after kill -9: the home screen again" home_screen after-kill9

  log "SIGSTOP the app: the watchdog (15 s) restarts the kiosk"
  r0=$(prop NRestarts); pid=$(app_pid); in_root "kill -STOP $pid"; sleep 25
  check "a hung app is restarted by the watchdog" test "$(prop NRestarts)" -gt "$r0"
  check "after the hang: back on the screen" wait_on_screen
  check "after the hang: the log intact" test "$(db)" = "$before"
  frame after-hang && check "after the hang: the home screen again" home_screen after-hang

  log "a second install"
  check "the second install ends with exit status 0" install_as_owner install-2.log
  check "the second install keeps the config" test "$(in_root 'sha256sum /etc/table-companion/config.toml')" = "$conf"
  check "the second install keeps the games" test "$(db)" = "$before"
  check "after the second install: on the screen" wait_on_screen

  log "doctor, logs, sandbox, the owner's clone"
  as_owner 'sudo companion doctor' >"$L/doctor.log" 2>&1
  check "sudo companion doctor names the kiosk's config" grep -q /etc/table-companion/config.toml "$L/doctor.log"
  check "sudo companion doctor names the kiosk's log" grep -q /var/lib/table-companion/games.sqlite3 "$L/doctor.log"
  as_owner 'companion logs --no-pager' >"$L/companion-logs.log" 2>&1
  check "companion logs has the launcher's, cage's and the app's lines" \
    grep -q -e "Start application main loop" "$L/companion-logs.log"
  check "companion logs has systemd's lines about the unit" grep -q "Started $UNIT.service" "$L/companion-logs.log"
  in_root "journalctl -u $UNIT -b --no-pager" >"$L/journal-u.log" 2>&1
  check "journalctl -u $UNIT -b has systemd's lines" grep -q "Started $UNIT.service" "$L/journal-u.log"
  in_root "systemd-analyze security $UNIT.service --no-pager" >"$L/security.log" 2>&1
  local score; score=$(sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p' "$L/security.log")
  check "systemd-analyze security inside: ${score:-?} <= 2.5" python3 -c "import sys; sys.exit(not float('${score:-99}') <= 2.5)"
  as_owner 'cd ~/table-companion && git status --porcelain --ignored; find . ! -user someone' >"$L/clone.log" 2>&1
  check "the owner's clone is left as it was (no new files, none of root's)" test ! -s "$L/clone.log"
  check "no core dump in the data folder" test -z "$(in_root 'ls /var/lib/table-companion | grep -i core')"

  log "bad input: no display at all (the display stand-in taken away)"
  in_root "mv /etc/systemd/system/$UNIT.service.d/boot-test-display.conf /root/
    systemctl daemon-reload; systemctl restart --no-block $UNIT"
  local seen_on_screen=no
  for _ in $(seq 1 40); do on_screen && seen_on_screen=yes; sleep 1; done
  echo "  $(prop ActiveState), Status: $(prop StatusText)"
  check "no display: never active with the companion on the screen" test "$seen_on_screen" = no
  as_owner 'companion logs --no-pager -n 200' >"$L/nodisplay.log" 2>&1
  check "no display: companion logs says the companion never reached the screen" \
    grep -q "never reached the screen" "$L/nodisplay.log"
  check "no display: the log intact" test "$(db)" = "$before"
}

main() {
  [ "$(id -u)" -eq 0 ] || { echo "boot test: run it as root (make boot-test)"; exit 2; }
  mkdir -p "$B" "$L"
  poweroff
  host_tools && make_rootfs || { echo "boot test: could not build the system to boot"; exit 1; }
  screen_up
  if boot 1; then run_checks; else fail "the box boots"; fi
  in_root "journalctl -b --no-pager" >"$L/journal-all.log" 2>&1
  poweroff
  screen_down
  echo
  echo "boot test: logs in $L, screenshots in $ART/boot-*.png"
  echo "boot-test: $PASSED passed, $FAILED failed"
  [ "$FAILED" -eq 0 ]
}

main "$@"
