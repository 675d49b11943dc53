#!/bin/sh
# in_root.sh ROOT COMMAND [ARG...]: runs COMMAND in the Debian root ROOT (chroot), with /proc
# mounted in a mount namespace of its own (gone when the command ends, nothing left mounted:
# the Swift runtime reads a program's arguments from /proc/self/cmdline) and cron's bare
# environment: env -i, PATH=/usr/bin:/bin (IN_ROOT_PATH to change it), HOME=/root, TZ if set.
# Needs root. DebianPackageTests runs apt-get, healthetl and the README's cron line with it.
root=$1; shift
exec unshare --mount --propagation private sh -c 'mount -t proc proc "$0/proc" && exec chroot "$0" "$@"' "$root" \
  env -i PATH="${IN_ROOT_PATH:-/usr/bin:/bin}" HOME=/root ${TZ:+TZ=$TZ} "$@"
