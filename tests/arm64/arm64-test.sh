#!/usr/bin/env bash
# The arm64 test: the box's runtime dependencies installed on the Raspberry Pi's
# architecture and a chosen subset of the tests run there. `make test-arm64` runs it (as
# root; .ci/run does after `make test`). What runs and why: docs/arm64.md.
#
# 1. binfmt_misc: Debian's qemu-user-static aarch64 handler is registered for this run
#    (under its own name, from Debian's /usr/lib/binfmt.d/qemu-aarch64.conf, flag F so a
#    chroot needs no qemu inside) and removed at the end. If binfmt_misc cannot be used
#    (an unprivileged container) this says so in one line and fails: never a silent skip.
# 2. A Debian bookworm arm64 system (debootstrap --arch=arm64: Python 3.11, as Raspberry
#    Pi OS Bookworm), with the libraries Kivy's window needs (Mesa, mtdev). Cached as a
#    tarball in $BOOT_CACHE beside the boot test's, keyed by its package list.
# 3. A fresh venv in it on every run: pyproject.toml's runtime `dependencies` and the
#    test tools, `pip install --only-binary=:all:` (nothing compiled: a release without an
#    aarch64 wheel fails this step, and the package is named). Wheels come from pip's
#    cache in $BOOT_CACHE after the first run.
# 4. The tests marked `arm64` (pytest -m arm64), in the arm64 system under emulation, with
#    this machine's Xvfb (800x480) as the display. The closing line is pytest's own.
#
# Logs in $ARM64_DIR/logs; the window test's screenshot in tests/_artifacts.
set -uo pipefail

HERE="$(cd "$(dirname "$0")" && pwd)"
PROJECT="${PROJECT:-$(cd "$HERE/../.." && pwd)}"
B="${ARM64_DIR:-/tmp/companion-arm64}"
CACHE="${BOOT_CACHE:-/var/cache/table-companion-boot}"
ART="${ARTIFACTS:-$PROJECT/tests/_artifacts}"
R="$B/root"
L="$B/logs"
BINFMT=/proc/sys/fs/binfmt_misc
HANDLER=companion-arm64   # our binfmt_misc entry's name
QEMU_CONF=/usr/lib/binfmt.d/qemu-aarch64.conf
# Debian packages in the arm64 system: Python and its venv, the CA list for pip, and what
# Kivy's window needs at run time on Raspberry Pi OS (deploy/system-packages.sh's `run`).
DEB_PKGS=python3,python3-venv,ca-certificates,libgl1,libegl1,libgl1-mesa-dri,libmtdev1
# The test tools, also from wheels (pure Python).
TEST_TOOLS=("pytest>=8" "pytest-timeout>=2.3" "hypothesis>=6")

say() { printf '\n=== %s  %s\n' "$(date -u +%H:%M:%S)" "$*"; }
die() { echo "arm64 test: $*" >&2; exit 1; }

# ---- binfmt_misc ------------------------------------------------------------------------
MOUNTED_BINFMT=0
REGISTERED=0
binfmt_up() {
  [ -f "$QEMU_CONF" ] || die "no $QEMU_CONF (Debian's qemu-user-static is not installed)"
  if [ ! -e "$BINFMT/register" ]; then
    mount -t binfmt_misc binfmt_misc "$BINFMT" 2>/dev/null \
      || die "binfmt_misc is not available here (cannot mount $BINFMT: an unprivileged container?), so arm64 programs cannot run"
    MOUNTED_BINFMT=1
  fi
  [ -w "$BINFMT/register" ] \
    || die "binfmt_misc is not writable here ($BINFMT/register), so arm64 programs cannot run"
  [ -e "$BINFMT/$HANDLER" ] && echo -1 > "$BINFMT/$HANDLER"   # a stale one from a killed run
  # Debian's line, under our name, with F: the kernel opens qemu now, so it works in a chroot.
  local line flags
  line=$(grep -v '^#' "$QEMU_CONF" | head -1)
  flags=${line##*:}
  case "$flags" in *F*) ;; *) line="${line}F" ;; esac
  line=":$HANDLER:${line#:*:}"
  printf '%s' "$line" > "$BINFMT/register" 2>/dev/null \
    || die "binfmt_misc refused the aarch64 handler (writing $BINFMT/register failed)"
  REGISTERED=1
  echo "binfmt_misc: $HANDLER registered ($(sed -n 's/^interpreter //p' "$BINFMT/$HANDLER"), flags $(sed -n 's/^flags: //p' "$BINFMT/$HANDLER"))"
}
binfmt_down() {
  if [ "$REGISTERED" = 1 ] && [ -e "$BINFMT/$HANDLER" ]; then
    echo -1 > "$BINFMT/$HANDLER" && echo "binfmt_misc: $HANDLER removed"
    REGISTERED=0
  fi
  if [ "$MOUNTED_BINFMT" = 1 ] && [ -z "$(ls "$BINFMT" | grep -v -x -e register -e status)" ]; then
    umount "$BINFMT" 2>/dev/null
    MOUNTED_BINFMT=0
  fi
}

# ---- the display (this machine's Xvfb, its socket bound into the arm64 system) ---------
XVFB_PID=
XDISPLAY=
screen_up() {  # Xvfb on a free display number (it writes the number when it is ready)
  rm -f "$B/display"
  Xvfb -displayfd 3 -screen 0 800x480x24 -nolisten tcp 3>"$B/display" >"$L/xvfb.log" 2>&1 &
  XVFB_PID=$!
  for _ in $(seq 1 300); do
    [ -s "$B/display" ] && XDISPLAY=":$(head -1 "$B/display")" && return 0
    kill -0 "$XVFB_PID" 2>/dev/null || break
    sleep 0.1
  done
  die "Xvfb did not start (see $L/xvfb.log)"
}
screen_down() { [ -n "$XVFB_PID" ] && kill "$XVFB_PID" 2>/dev/null; XVFB_PID=; }

# ---- mounts for the chroot ----------------------------------------------------------------
MOUNTS=()
bind() {  # bind SRC DEST-in-root: private, so nothing mounted under it propagates back
  mkdir -p "$R$2"
  mount --bind "$1" "$R$2" || die "cannot bind $1 into the arm64 system"
  MOUNTS=("$R$2" "${MOUNTS[@]}")
  mount --make-private "$R$2"
}
mounts_up() {
  # A /dev of its own (tmpfs, a few nodes, its own devpts): nothing of this machine's /dev
  # is bound in, so no mount can propagate back to it.
  mkdir -p "$R/proc" "$R/dev" "$R/tmp"
  mount -t proc proc "$R/proc" || die "cannot mount /proc in the arm64 system"
  MOUNTS=("$R/proc" "${MOUNTS[@]}")
  mount -t tmpfs -o mode=0755,size=16m tmpfs "$R/dev" || die "cannot mount its /dev"
  MOUNTS=("$R/dev" "${MOUNTS[@]}")
  local n name major minor
  for n in null:1:3 zero:1:5 full:1:7 random:1:8 urandom:1:9 tty:5:0; do
    IFS=: read -r name major minor <<<"$n"
    mknod -m 0666 "$R/dev/$name" c "$major" "$minor" || die "cannot make its /dev/$name"
  done
  mkdir -p "$R/dev/pts" "$R/dev/shm"
  mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$R/dev/pts" \
    || die "cannot mount its /dev/pts (the pad tests need pseudo-terminals)"
  MOUNTS=("$R/dev/pts" "${MOUNTS[@]}")
  ln -s pts/ptmx "$R/dev/ptmx"
  mount -t tmpfs -o mode=1777 tmpfs "$R/dev/shm" || die "cannot mount its /dev/shm"
  MOUNTS=("$R/dev/shm" "${MOUNTS[@]}")
  ln -s /proc/self/fd "$R/dev/fd"
  mount -t tmpfs -o mode=1777 tmpfs "$R/tmp" || die "cannot mount its /tmp"
  MOUNTS=("$R/tmp" "${MOUNTS[@]}")
  mkdir -p "$CACHE/arm64-pip"
  bind "$CACHE/arm64-pip" /root/.cache/pip
  cp -L /etc/resolv.conf "$R/etc/resolv.conf"
}
mounts_down() {
  local m
  for m in "${MOUNTS[@]}"; do umount "$m" 2>/dev/null || umount -l "$m"; done
  MOUNTS=()
}
inside() {  # inside CMD: bash -c CMD in the arm64 system, clean environment
  chroot "$R" /usr/bin/env -i PATH=/usr/local/bin:/usr/bin:/bin HOME=/root LANG=C.UTF-8 \
    TERM=dumb ${DISPLAY_INSIDE:+DISPLAY=$DISPLAY_INSIDE} PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_DEFAULT_TIMEOUT=180 PIP_CERT=/etc/ssl/host-ca-certificates.crt /bin/bash -c "$1"
}

stale_mounts_down() {  # whatever a killed run left mounted under $R, deepest first
  local m
  for m in $(awk -v r="$R" 'index($2, r "/") == 1 {print $2}' /proc/mounts | sort -r); do
    umount "$m" 2>/dev/null || umount -l "$m"
  done
}

cleanup() {
  mounts_down
  screen_down
  binfmt_down
}

# ---- the arm64 system -------------------------------------------------------------------
host_tools() {
  local need=()
  command -v debootstrap >/dev/null || need+=(debootstrap)
  [ -f "$QEMU_CONF" ] || need+=(qemu-user-static)
  command -v Xvfb >/dev/null || need+=(xvfb)
  if [ ${#need[@]} -gt 0 ]; then
    say "host tools: ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends "${need[@]}" >/dev/null || die "could not install ${need[*]}"
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
  local key tar
  key=$(printf '%s\n' bookworm arm64 minbase "$DEB_PKGS" | sha256sum | cut -c1-12)
  tar="$CACHE/bookworm-arm64-$key.tar"
  mkdir -p "$CACHE"
  if [ ! -s "$tar" ]; then
    say "debootstrap --arch=arm64 bookworm (cached in $tar for later runs)"
    local m; m=$(mirror)
    rm -rf "$B/debootstrap"
    local t0=$SECONDS
    debootstrap --arch=arm64 --variant=minbase \
      --include="$DEB_PKGS" bookworm "$B/debootstrap" "$m" >"$L/debootstrap.log" 2>&1 \
      || { tail -20 "$L/debootstrap.log"; die "debootstrap --arch=arm64 failed (log: $L/debootstrap.log)"; }
    echo "debootstrap: $((SECONDS - t0)) s; $(tail -1 "$L/debootstrap.log")"
    rm -rf "$B/debootstrap/var/cache/apt/archives/"*.deb
    tar -C "$B/debootstrap" -cf "$tar.part" . && mv "$tar.part" "$tar"
    rm -rf "$B/debootstrap"
  fi
  say "a fresh arm64 system from $tar"
  stale_mounts_down
  rm -rf --one-file-system "$R"; mkdir -p "$R"
  tar -C "$R" -xf "$tar" || die "could not unpack $tar into $R"
  # pip there verifies the index with this machine's CA list (which may hold the CA of a
  # TLS proxy in front of it): cheaper than update-ca-certificates under emulation.
  cp -L /etc/ssl/certs/ca-certificates.crt "$R/etc/ssl/host-ca-certificates.crt" \
    || die "no /etc/ssl/certs/ca-certificates.crt on this machine for pip to verify with"
}

runtime_deps() {  # pyproject.toml's [project] dependencies, one a line
  python3 -c 'import sys, tomllib
print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]))' \
    "$PROJECT/pyproject.toml"
}

make_venv() {
  local deps; mapfile -t deps < <(runtime_deps)
  [ ${#deps[@]} -gt 0 ] || die "no dependencies read from pyproject.toml"
  say "a fresh venv on arm64: pip install --only-binary=:all: ${deps[*]} ${TEST_TOOLS[*]}"
  inside 'uname -m; python3 --version' || die "the arm64 system does not run (binfmt_misc?)"
  inside 'python3 -m venv /opt/venv' >"$L/venv.log" 2>&1 || { cat "$L/venv.log"; die "python3 -m venv failed"; }
  printf '%s\n' "${deps[@]}" "${TEST_TOOLS[@]}" > "$R/opt/requirements.txt"
  if ! inside '/opt/venv/bin/python -m pip install --only-binary=:all: --progress-bar off \
                 -r /opt/requirements.txt' >"$L/pip.log" 2>&1; then
    tail -15 "$L/pip.log"
    local missing
    missing=$(sed -n 's/.*No matching distribution found for \(.*\)$/\1/p' "$L/pip.log" | head -1)
    [ -n "$missing" ] && die "no aarch64 wheel for Python 3.11 of $missing (pip install --only-binary=:all:)"
    die "pip install --only-binary=:all: failed on arm64 (log: $L/pip.log)"
  fi
  grep -E '^Successfully installed' "$L/pip.log" | fold -s -w 100
  inside 'KIVY_NO_CONSOLELOG=1 KIVY_NO_ARGS=1 KIVY_HOME=/tmp/kivy /opt/venv/bin/python -c "
import platform, sqlite3, kivy, orjson
print(\"arm64 venv:\", platform.machine(), \"Python\", platform.python_version(), \"SQLite\",
      sqlite3.sqlite_version, \"Kivy\", kivy.__version__, \"orjson\", orjson.__version__)"' \
    || die "the arm64 venv does not import the box's libraries"
  # A newer release without an aarch64 wheel is passed over by pip for an older one that
  # has it: the newest release of each runtime dependency must be the one installed.
  inside '/opt/venv/bin/python -m pip list --outdated --format=json' >"$L/outdated.json" \
    2>"$L/outdated.log" || die "pip list --outdated failed on arm64 (log: $L/outdated.log)"
  local stale
  stale=$(python3 - "$L/outdated.json" "${deps[@]}" <<'PY'
import json, re, sys
wanted = {re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", d).group()).lower()
          for d in sys.argv[2:]}
for row in json.load(open(sys.argv[1])):
    if re.sub(r"[-_.]+", "-", row["name"]).lower() in wanted:
        print(f"{row['name']} {row['latest_version']} is out without an aarch64 wheel for "
              f"Python 3.11 (newest file: {row['latest_filetype']}); pip installed "
              f"{row['version']}")
PY
)
  [ -z "$stale" ] || die "$(echo "$stale" | paste -sd ';' -)"
  # Nothing built: every installed distribution came from a wheel (pip says "Building
  # wheel for" or "Running setup.py" when it compiles something).
  if grep -q -E 'Building wheel for|Running setup.py install' "$L/pip.log"; then
    die "pip compiled something on arm64 (log: $L/pip.log)"
  fi
}

copy_project() {
  say "the project's files into the arm64 system (/src)"
  rm -rf "$R/src"; mkdir -p "$R/src"
  # what git knows, without ignored files (no .venv, no caches)
  (cd "$PROJECT" && git ls-files -z --cached --others --exclude-standard \
     | python3 -c 'import os, sys
names = sys.stdin.buffer.read().split(b"\0")
sys.stdout.buffer.write(b"\0".join(n for n in names if n and os.path.lexists(n)))' \
     | tar --null -T - -cf -) | tar -C "$R/src" -xf - \
    || die "could not copy $PROJECT into the arm64 system"
  # companion/firmware is a link to firmware/ in the repository: kept as it is.
}

run_tests() {
  # Only the files that hold marked tests are collected: the others import test tools
  # (a browser driver, the RP2040 emulator, ...) that the box's venv does not have, and
  # importing them under emulation would cost minutes for nothing.
  local files
  files=$(cd "$R/src" && grep -rl --include='test_*.py' -e 'pytest.mark.arm64' tests | sort)
  [ -n "$files" ] || die "no test is marked arm64"
  say "pytest -m arm64 on aarch64 under emulation: $(echo "$files" | wc -l) files"
  DISPLAY_INSIDE=$XDISPLAY
  bind /tmp/.X11-unix /tmp/.X11-unix
  local rc
  # shellcheck disable=SC2086
  inside "cd /src && exec /opt/venv/bin/python -m pytest -m arm64 -p no:cacheprovider -q \
            --durations=10 $(echo $files)" 2>&1 | tee "$L/pytest.log"
  rc=${PIPESTATUS[0]}
  DISPLAY_INSIDE=
  mkdir -p "$ART"
  for f in "$R"/src/tests/_artifacts/*.png; do
    [ -e "$f" ] && cp "$f" "$ART/arm64-$(basename "$f")"
  done
  CLOSING=$(grep -v '^\s*$' "$L/pytest.log" | tail -1 | sed 's/^=* *//; s/ *=*$//')
  return "$rc"
}

main() {
  [ "$(id -u)" -eq 0 ] || die "run it as root (make test-arm64): it registers a binfmt_misc handler and uses chroot"
  mkdir -p "$B" "$L"
  trap cleanup EXIT
  local t0; t0=$(date +%s)
  host_tools
  binfmt_up
  make_rootfs
  mounts_up
  make_venv
  copy_project
  screen_up
  CLOSING=
  run_tests; local rc=$?
  cleanup
  echo
  echo "arm64 test: logs in $L, screenshots in $ART/arm64-*.png"
  echo "arm64 test: $(( $(date +%s) - t0 )) s in all; on aarch64: ${CLOSING:-no closing line from pytest}"
  [ "$rc" -eq 0 ] || die "the arm64 tests failed (pytest exit status $rc)"
}

main "$@"; exit $?
