#!/bin/sh
# The Debian package end to end: cpack builds it from the build tree into a
# directory of its own; its control fields name the package, its version and
# the libraries the programs link; it holds both programs, the desktop entry,
# the icon, the manual pages, the bundled scenarios, lessons, traces and
# machine profiles and the docs, all under /usr, and no test or benchmark
# executables. Unpacked elsewhere, the programs run and find their bundled
# scenarios there; each manual page names every command or option its
# program's --help lists (the GUI's help asked without a display).
# The test's package is compressed with zstd, which takes a few seconds where
# the real package's xz takes half a minute.
# Usage: package.sh CPACK BUILD_DIR SCRATCH_DIR VERSION
set -u
cpack=$1
build=$2
dir=$3
version=$4
rm -rf "$dir"
mkdir -p "$dir"
. "$(dirname "$0")/expect.sh"

arch=$(dpkg --print-architecture)
deb="$dir/pagecache-lab_${version}_${arch}.deb"
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$dir" \
  -D CPACK_DEBIAN_COMPRESSION_TYPE=zstd > "$dir/cpack.log" 2>&1 \
  || { cat "$dir/cpack.log"; fail "cpack"; exit 1; }
[ -f "$deb" ] || { ls "$dir"; fail "no $deb"; exit 1; }

# The control fields.
field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = pagecache-lab ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version)"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ "$(field Section)" = education ] || fail "Section: $(field Section)"
field Maintainer | grep -Eq '^[^<]+ <[^>]+@[^>]+>$' || fail "Maintainer: $(field Maintainer)"
[ "$(field Description | head -n 1)" = 'simulated Linux page cache on real threads, shown live' ] \
  || fail "Description: $(field Description)"
[ "$(field Description | wc -l)" -gt 3 ] || fail "Description: no long description"
depends=$(field Depends)
printf '%s\n' "$depends" | tr ',' '\n' | sed 's/^ *//; s/ .*//' > "$dir/depends.txt"
for lib in libc6 libstdc++6 libqt6core6 libqt6gui6 libqt6widgets6 libqt6charts6 libqt6svg6 libtbb12 liburcu8; do
  grep -Fqx "$lib" "$dir/depends.txt" || fail "Depends lacks $lib: $depends"
done

# The files: all in /usr/bin and /usr/share; the two programs and nothing
# else in bin.
dpkg-deb -c "$deb" | awk '{print $1, $6}' > "$dir/contents.txt"
[ "$(grep -c ' \./usr/bin/.' "$dir/contents.txt")" -eq 2 ] || fail "bin: $(grep ' \./usr/bin/' "$dir/contents.txt")"
grep -Ev ' \./(usr/((bin|share)(/.*)?)?)?$' "$dir/contents.txt" > "$dir/elsewhere.txt" \
  && fail "neither in /usr/bin nor in /usr/share: $(cat "$dir/elsewhere.txt")"
grep -q 'test_' "$dir/contents.txt" && fail "a test: $(grep 'test_' "$dir/contents.txt")"
for f in bin/pagecache-lab bin/pagecache-lab-cli; do
  grep -q "^-rwxr-xr-x \./usr/$f\$" "$dir/contents.txt" || fail "no executable /usr/$f"
done
for f in share/applications/pagecache-lab.desktop share/icons/hicolor/scalable/apps/pagecache-lab.svg \
  share/man/man1/pagecache-lab.1.gz share/man/man1/pagecache-lab-cli.1.gz \
  share/pagecache-lab/scenarios/2002-global-hash-lock.json share/pagecache-lab/scenarios/2005-pft-split-page-table-lock.json \
  share/pagecache-lab/lessons/2002-one-global-hash-lock.json share/pagecache-lab/lessons/2005-the-torn-pte-read.json \
  share/pagecache-lab/traces/cat-sequential.strace share/pagecache-lab/traces/python-random.strace \
  share/pagecache-lab/machines/altix-2005.json share/doc/pagecache-lab/README.md share/doc/pagecache-lab/LICENSE share/doc/pagecache-lab/user-guide.md \
  share/doc/pagecache-lab/scenario-format.md share/doc/pagecache-lab/screenshots/main-window.png; do
  grep -q "^-rw-r--r-- \./usr/$f\$" "$dir/contents.txt" || fail "no /usr/$f"
done

# Unpacked into another prefix, run from another directory: the programs
# find their bundled scenarios inside themselves.
dpkg-deb -x "$deb" "$dir/root"
bin="$dir/root/usr/bin"
cd "$dir" || exit 1
expect 0 '^2002-global-hash-lock +2002 ' "$bin/pagecache-lab-cli" presets
expect 0 '^2002-global-hash-lock: valid scenario$' "$bin/pagecache-lab-cli" validate 2002-global-hash-lock
expect 0 "^pagecache-lab-cli $version\$" "$bin/pagecache-lab-cli" --version
expect 0 "^pagecache-lab $version\$" env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$bin/pagecache-lab" --version

# Each manual page covers its program's help.
man1="$dir/root/usr/share/man/man1"
gzip -dc "$man1/pagecache-lab-cli.1.gz" > "$dir/cli.1" || fail "pagecache-lab-cli.1.gz"
gzip -dc "$man1/pagecache-lab.1.gz" > "$dir/gui.1" || fail "pagecache-lab.1.gz"
# An entry is the line after .TP: the item's heading.
for page in cli gui; do
  awk 'previous == ".TP" { print } { previous = $0 }' "$dir/$page.1" > "$dir/$page-entries.txt"
done
"$bin/pagecache-lab-cli" --help > "$dir/cli-help.txt" || fail "pagecache-lab-cli --help"
sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' "$dir/cli-help.txt" | sort -u > "$dir/cli-commands.txt"
[ "$(wc -l < "$dir/cli-commands.txt")" -ge 9 ] || fail "commands in --help: $(cat "$dir/cli-commands.txt")"
while read -r command; do
  grep -Eq "^(\\\\fB|\\.B )$command( |\\\\fR)" "$dir/cli-entries.txt" || fail "pagecache-lab-cli.1 has no entry for $command"
done < "$dir/cli-commands.txt"
sed -n 's/^  \(bench\|probe\) \([a-z-]*\).*/\1 \2/p' "$dir/cli-help.txt" > "$dir/cli-subcommands.txt"
[ "$(wc -l < "$dir/cli-subcommands.txt")" -ge 6 ] || fail "benchmarks and probes in --help"
while read -r command; do
  escaped=$(printf '%s' "$command" | sed 's/-/\\\\-/g')
  grep -q "^\\.B $escaped " "$dir/cli-entries.txt" || fail "pagecache-lab-cli.1 has no entry for $command"
done < "$dir/cli-subcommands.txt"
env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM "$bin/pagecache-lab" --help > "$dir/gui-help.txt" \
  || fail "pagecache-lab --help without a display"
grep -Eo '^  (-[a-z], )?--[a-z-]+' "$dir/gui-help.txt" | sed 's/.*--//' > "$dir/gui-options.txt"
[ "$(wc -l < "$dir/gui-options.txt")" -ge 10 ] || fail "options in pagecache-lab --help: $(cat "$dir/gui-help.txt")"
while read -r option; do
  escaped=$(printf '%s' "$option" | sed 's/-/\\\\-/g')
  grep -Eq "^\\.(B|BI|BR) .*\\\\-\\\\-$escaped( |\$)" "$dir/gui-entries.txt" || fail "pagecache-lab.1 has no entry for --$option"
done < "$dir/gui-options.txt"
# man-db and desktop-file-utils, where installed, find no fault in them.
if command -v man > /dev/null; then
  for page in "$man1/pagecache-lab-cli.1.gz" "$man1/pagecache-lab.1.gz"; do
    warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 > /dev/null)
    [ -z "$warnings" ] || fail "man --warnings -l $page: $warnings"
  done
fi
if command -v desktop-file-validate > /dev/null; then
  desktop="$dir/root/usr/share/applications/pagecache-lab.desktop"
  problems=$(desktop-file-validate "$desktop" 2>&1) || fail "desktop-file-validate: $problems"
  [ -z "$problems" ] || fail "desktop-file-validate: $problems"
fi

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "package.sh: $deb passed"
