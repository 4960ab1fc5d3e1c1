#!/usr/bin/env bash
# A release for servers without a Swift toolchain: `sise` built in release mode with the Swift
# runtime linked statically (-static-stdlib) and its web resources beside it, as
#   dist/sise-VERSION-linux-ARCH.tar.gz   (bin/sise, bin/Sise_SiseServer.resources, deploy files)
#   dist/sise_VERSION_ARCH.deb            (/usr/bin/sise, resources, the systemd unit, nginx example)
# Usage: scripts/package.sh   (VERSION from Sources/sise/SiseCommand.swift unless set)
set -euo pipefail
cd "$(dirname "$0")/.."
version=${VERSION:-$(sed -n 's/.*current = "\([^"]*\)".*/\1/p' Sources/sise/SiseCommand.swift | head -1)}
version=${version:-0.0.0}
arch=$(dpkg --print-architecture 2>/dev/null || uname -m)
scratch=${SCRATCH:-.build-release}

swift build -c release --scratch-path "$scratch" --product sise -Xswiftc -static-stdlib
bin="$scratch/release"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p dist

# Tarball: the binary finds its resources bundle next to itself.
root="$work/sise-$version"
mkdir -p "$root/bin" "$root/deploy"
cp "$bin/sise" "$root/bin/"
# Symbols out: a quarter of the size (the Swift runtime stays, linked in).
strip --strip-unneeded "$root/bin/sise" 2>/dev/null || true
for bundle in "$bin"/*.resources; do cp -R "$bundle" "$root/bin/"; done
cp deploy/nginx.conf deploy/sise.service deploy/README.md "$root/deploy/"
cp README.md "$root/"
mkdir -p "$root/docs" && cp docs/*.md "$root/docs/"
tar -C "$work" -czf "dist/sise-$version-linux-$arch.tar.gz" "sise-$version"

# Debian package.
deb="$work/deb"
mkdir -p "$deb/DEBIAN" "$deb/usr/bin" "$deb/lib/systemd/system" "$deb/usr/share/doc/sise" "$deb/etc/sise"
cp "$root/bin/sise" "$deb/usr/bin/"
for bundle in "$bin"/*.resources; do cp -R "$bundle" "$deb/usr/bin/"; done
cp deploy/sise.service "$deb/lib/systemd/system/sise@.service"
cp deploy/nginx.conf deploy/README.md "$deb/usr/share/doc/sise/"
cp docs/*.md "$deb/usr/share/doc/sise/"
printf '# SISE_DATABASE_URL=postgres://sise@127.0.0.1:5432/sise\nSISE_PUBLIC_URL=http://127.0.0.1:8081\n' > "$deb/etc/sise/sise.env"
cat > "$deb/DEBIAN/control" <<CONTROL
Package: sise
Version: $version
Architecture: $arch
Maintainer: Sise <sise@localhost>
Depends: libc6, libgcc-s1, libstdc++6, zlib1g, libsqlite3-0
Section: net
Priority: optional
Description: Sise (시세) real-time cryptocurrency market tracker
 Live boards of Upbit, Korbit and Bithumb with the kimchi premium, as a web app,
 a terminal UI and a CLI. Swift runtime linked statically.
CONTROL
echo "/etc/sise/sise.env" > "$deb/DEBIAN/conffiles"
cat > "$deb/DEBIAN/postinst" <<'POSTINST'
#!/bin/sh
set -e
getent group sise >/dev/null || addgroup --system sise
getent passwd sise >/dev/null || adduser --system --ingroup sise --home /var/lib/sise --no-create-home sise
mkdir -p /var/lib/sise && chown sise:sise /var/lib/sise
chmod 640 /etc/sise/sise.env && chgrp sise /etc/sise/sise.env
command -v systemctl >/dev/null && systemctl daemon-reload 2>/dev/null || true
POSTINST
chmod 755 "$deb/DEBIAN/postinst"
dpkg-deb --root-owner-group --build "$deb" "dist/sise_${version}_${arch}.deb" >/dev/null
ls -l dist/
