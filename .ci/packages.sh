# Sourced by .ci/run: the Debian packages the tests need are installed when missing, as root (a
# CI container) or through sudo without a password (GitHub's runner: a user with sudo); otherwise
# they must be there already.
as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo -n "$@"; fi
}
can_install() {
  [ "$(id -u)" = 0 ] || { command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; }
}
apt_install() {
  as_root apt-get update
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"
}
