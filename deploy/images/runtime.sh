#!/usr/bin/env bash
# The images' base layer, made offline from the JDK that runs the build (no base image is downloaded):
#   /opt/java               a jlink-ed runtime with the modules the services use
#   /lib..., /usr/lib...    the C libraries that runtime links against, copied from this machine (ldd)
#   /etc/passwd, /etc/group the non-root user the images run as (convo, 10001)
#   /tmp                    a writable temporary directory
# Jib lays this directory under the application's layers (the `images` profile of the root pom).
# Usage: runtime.sh <output directory> [java home]
set -euo pipefail
out=$1
java_home=${2:-${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}}
# What jdeps finds in the three services' classes and libraries, plus DNS, TLS and JFR for operators.
modules=java.base,java.compiler,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,\
java.prefs,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.sql.rowset,java.transaction.xa,java.xml,\
jdk.crypto.ec,jdk.jfr,jdk.management,jdk.management.jfr,jdk.naming.dns,jdk.unsupported,jdk.zipfs
[ -d "$java_home/jmods" ] || { echo "runtime.sh: $java_home has no jmods (Debian: apt-get install openjdk-17-jmods)" >&2; exit 1; }

rm -rf "$out"
mkdir -p "$out/opt" "$out/etc" "$out/tmp"
"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-man-pages --no-header-files --compress=2 \
  --output "$out/opt/java"

# Every shared library the runtime's executables and libraries need, as a regular file at the path ldd resolved it
# to (the loader included), so the image needs nothing from a base image. java.desktop's graphics libraries are left
# out with what they link (X11, fonts, images): the services run headless and never load them.
find "$out/opt/java" -type f \( -name '*.so' -o -perm -u+x \) \
    ! -name 'libawt_xawt.so' ! -name 'libsplashscreen.so' ! -name 'libfontmanager.so' ! -name 'libjawt.so' \
    ! -name 'liblcms.so' ! -name 'libjavajpeg.so' ! -name 'libmlib_image.so' ! -name 'libawt.so' ! -name 'libjsound.so' -print0 \
  | xargs -0 -n 1 ldd 2> /dev/null \
  | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' \
  | sort -u \
  | while read -r lib; do
      case $lib in "$out"/*) continue ;; esac
      mkdir -p "$out$(dirname "$lib")"
      cp "$(readlink -f "$lib")" "$out$lib"
    done

printf 'root:x:0:0:root:/root:/sbin/nologin\nconvo:x:10001:10001:convo:/tmp:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nconvo:x:10001:\n' > "$out/etc/group"
printf 'hosts: files dns\n' > "$out/etc/nsswitch.conf"
# The same bytes on every build: jlink writes no dates, and Jib sets every file's time to the epoch.
echo "runtime.sh: $(du -sh "$out" | cut -f1) in $out"
