#!/usr/bin/env bash
# make dist, the Debian package (issue 59): dist/healthetl_VERSION-1_ARCH.deb from the release
# folder scripts/dist.sh has just filled (the same stripped binary, man page, completions and
# pipelines as the tarball), built with dpkg-deb alone: nothing is compiled, so debhelper has
# nothing to do. Where each file goes is where Debian's own packages put it (the man page
# gzipped, bash's, zsh's and fish's vendor completion folders, systemd's user units in
# /usr/lib/systemd/user); packaging/debian/ holds the control template and the copyright file.
# Depends is what the binary still loads, the C library, at the newest GLIBC_ symbol version it
# asks for (objdump -T), the number dpkg-shlibdeps would give.
#   scripts/dist-deb.sh RELEASE_FOLDER VERSION      (run by scripts/dist.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
release=$1 version=$2
cd "$root"
arch=$(dpkg --print-architecture)
debversion=$version-1
deb=dist/healthetl_${debversion}_$arch.deb
pkg=dist/.deb-root
rm -rf "$pkg" "$deb"
stamp=$(git log -1 --format=%ct 2>/dev/null || date +%s)

# The newest glibc symbol version the binary needs: libc6 (>= that).
glibc=$(objdump -T "$release/bin/healthetl" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
[ -n "$glibc" ] || { echo "dist-deb: no GLIBC_ symbol versions in $release/bin/healthetl" >&2; exit 1; }

install -D -m 0755 "$release/bin/healthetl" "$pkg/usr/bin/healthetl"
install -d "$pkg/usr/share/man/man1"
gzip -n -9 -c "$release/share/man/man1/healthetl.1" > "$pkg/usr/share/man/man1/healthetl.1.gz"
install -D -m 0644 "$release/share/bash-completion/completions/healthetl" "$pkg/usr/share/bash-completion/completions/healthetl"
install -D -m 0644 "$release/share/zsh/site-functions/_healthetl" "$pkg/usr/share/zsh/vendor-completions/_healthetl"
install -D -m 0644 "$release/share/fish/vendor_completions.d/healthetl.fish" "$pkg/usr/share/fish/vendor_completions.d/healthetl.fish"
for f in default.json nightly.json; do
  install -D -m 0644 "$release/share/healthetl/pipelines/$f" "$pkg/usr/share/healthetl/pipelines/$f"
done
install -D -m 0644 packaging/systemd/nightly.env "$pkg/usr/share/healthetl/nightly.env"
install -d "$pkg/usr/lib/systemd/user"
for f in healthetl-nightly.service healthetl-nightly.timer; do
  sed 's|@PREFIX@|/usr|g' "packaging/systemd/$f" > "$pkg/usr/lib/systemd/user/$f"
done
doc=$pkg/usr/share/doc/healthetl
install -D -m 0644 packaging/debian/copyright "$doc/copyright"
install -m 0644 packaging/README.md "$doc/README.md"
# Debian's changelog of this package (one entry a release; the history is upstream's
# CHANGELOG.md, shipped as changelog.gz) and lintian's overrides, each with its reason.
date=$(date -u -R -d "@$stamp")
printf 'healthetl (%s) unstable; urgency=medium\n\n  * Release %s: see /usr/share/doc/healthetl/changelog.gz.\n\n -- %s  %s\n' \
  "$debversion" "$version" "$(sed -n 's/^Maintainer: //p' packaging/debian/control)" "$date" | gzip -n -9 > "$doc/changelog.Debian.gz"
gzip -n -9 -c CHANGELOG.md > "$doc/changelog.gz"
install -D -m 0644 packaging/debian/lintian-overrides "$pkg/usr/share/lintian/overrides/healthetl"

chmod -R u=rwX,go=rX "$pkg"
install -d -m 0755 "$pkg/DEBIAN"
size=$(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
sed -e "s|@DEBVERSION@|$debversion|" -e "s|@ARCH@|$arch|" -e "s|@SIZE@|$size|" -e "s|@DEPENDS@|libc6 (>= $glibc)|" \
  packaging/debian/control > "$pkg/DEBIAN/control"
(cd "$pkg" && find usr -type f | LC_ALL=C sort | xargs md5sum) > "$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums"
# Reproducible: every file at the commit's time, root-owned in the archive.
find "$pkg" -exec touch -h -d "@$stamp" {} +
SOURCE_DATE_EPOCH=$stamp dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >/dev/null
rm -rf "$pkg"
echo "$deb ($(du -h "$deb" | cut -f1), Depends: libc6 (>= $glibc))"
