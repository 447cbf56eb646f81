#!/bin/sh
# The Debian package end to end: cpack builds it from the build tree into a
# directory of its own; its control fields name the package, its version and
# the libraries the programs link; it holds both programs, the desktop entry,
# the icon, the manual pages, the bundled scenarios, lessons, traces and
# machine profiles and the docs, all under /usr, and no test or benchmark
# executables. Unpacked elsewhere, the programs run and find their bundled
# scenarios there; each manual page names every command or option its
# program's --help lists (the GUI's help asked without a display). What a
# Debian user expects besides: the copyright file in Debian's
# machine-readable format, the changelog as policy compresses it, AppStream
# metadata that appstreamcli finds valid, PNG icons at the hicolor sizes,
# and a bash completion that completes every command and option --help
# lists; the changelog, the metadata's newest release and the package
# agree on the version, and the changelog's signer is the Maintainer.
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
  share/doc/pagecache-lab/scenario-format.md share/doc/pagecache-lab/screenshots/main-window.png \
  share/doc/pagecache-lab/copyright share/doc/pagecache-lab/changelog.gz share/metainfo/pagecache-lab.metainfo.xml \
  share/bash-completion/completions/pagecache-lab-cli; do
  grep -q "^-rw-r--r-- \./usr/$f\$" "$dir/contents.txt" || fail "no /usr/$f"
done

icon_sizes="16 22 24 32 48 64 128 256"
for size in $icon_sizes; do
  f=share/icons/hicolor/${size}x$size/apps/pagecache-lab.png
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

# The copyright file: Debian's machine-readable format, the project's
# licence for every file, and each licence it names spelled out in a
# paragraph of its own.
doc="$dir/root/usr/share/doc/pagecache-lab"
copyright="$doc/copyright"
[ "$(head -n 1 "$copyright")" = 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ] \
  || fail "copyright: not in the machine-readable format: $(head -n 1 "$copyright")"
grep -qx 'Upstream-Name: Page Cache Lab' "$copyright" || fail "copyright: no Upstream-Name"
awk '/^Files: \*$/ { all = 1 } /^$/ { all = 0 } all && /^License: / { print }' "$copyright" > "$dir/copyright-all.txt"
[ "$(cat "$dir/copyright-all.txt")" = 'License: GPL-3+' ] || fail "copyright: Files: * is not GPL-3+: $(cat "$dir/copyright-all.txt")"
# A Files paragraph's License names its licence; a paragraph that is a
# License alone (after a blank line) gives its text.
awk '/^Files: / { files = 1 } /^$/ { files = 0 } files && /^License: / { print $2 }' "$copyright" | sort -u > "$dir/licences-named.txt"
awk 'previous == "" && /^License: / { print $2 } { previous = $0 }' "$copyright" | sort -u > "$dir/licences-given.txt"
[ -s "$dir/licences-named.txt" ] || fail "copyright: no Files paragraph names a licence"
while read -r licence; do
  grep -Fqx "$licence" "$dir/licences-given.txt" || fail "copyright: no paragraph gives the text of $licence"
done < "$dir/licences-named.txt"
grep -q '/usr/share/common-licenses/GPL-3' "$copyright" || fail "copyright: does not point to /usr/share/common-licenses/GPL-3"

# The changelog: compressed as Debian's policy asks (gzip -9n: the best
# compression, no file name or time stamp), a changelog dpkg reads, its
# newest entry this version, signed by the package's Maintainer.
changelog="$doc/changelog.gz"
file -b "$changelog" > "$dir/changelog-file.txt"
grep -q '^gzip compressed data, max compression' "$dir/changelog-file.txt" \
  || fail "changelog.gz: not gzip -9: $(cat "$dir/changelog-file.txt")"
grep -Eq 'was "|last modified' "$dir/changelog-file.txt" && fail "changelog.gz: has a name or time stamp (not gzip -n): $(cat "$dir/changelog-file.txt")"
gzip -dc "$changelog" > "$dir/changelog" || fail "changelog.gz: gzip -d"
changes() { dpkg-parsechangelog -l "$dir/changelog" -S "$1"; }
[ "$(changes Source)" = pagecache-lab ] || fail "changelog: Source $(changes Source)"
[ "$(changes Version)" = "$version" ] || fail "changelog: newest version $(changes Version), the package's $version"
[ "$(changes Maintainer)" = "$(field Maintainer)" ] \
  || fail "changelog: signed by $(changes Maintainer), the Maintainer is $(field Maintainer)"

# The AppStream metadata: valid to appstreamcli (package appstream), with
# the desktop entry it launches beside it in the package; its id and
# launchable the desktop entry's name; its newest release this version, of
# the changelog's date. appstreamcli's warning that an id is not a reverse
# domain name is told as information: the project has no domain of its own
# to name its id after, so the id is the desktop entry's name.
metainfo="$dir/root/usr/share/metainfo/pagecache-lab.metainfo.xml"
if command -v appstreamcli > /dev/null; then
  problems=$(appstreamcli validate-tree --no-net --override=cid-desktopapp-is-not-rdns=info "$dir/root" 2>&1) \
    || fail "appstreamcli validate-tree: $problems"
else
  fail "no appstreamcli (package appstream) to validate $metainfo"
fi
grep -q '^  <id>pagecache-lab</id>$' "$metainfo" || fail "metainfo: its id is not pagecache-lab"
grep -q '<launchable type="desktop-id">pagecache-lab.desktop</launchable>' "$metainfo" \
  || fail "metainfo: no launchable pagecache-lab.desktop"
release=$(grep -m 1 '<release ' "$metainfo")
changelog_date=$(date -u -d "$(changes Date)" +%Y-%m-%d)
printf '%s\n' "$release" | grep -Fq "version=\"$version\"" || fail "metainfo: newest release is not $version: $release"
printf '%s\n' "$release" | grep -Fq "date=\"$changelog_date\"" || fail "metainfo: newest release not of the changelog's date $changelog_date: $release"

# The icons: a PNG of each hicolor size, that size.
for size in $icon_sizes; do
  png="$dir/root/usr/share/icons/hicolor/${size}x$size/apps/pagecache-lab.png"
  file -b "$png" | grep -q "^PNG image data, $size x $size, 8-bit/color RGBA," || fail "$png: $(file -b "$png")"
done

# The bash completion, sourced into bash with nothing else: it completes
# every command, benchmark and probe --help lists, every option of each
# one's own --help, and the bundled scenarios', lessons' and machines'
# names. completions WORD... prints what completing the last word of
# 'pagecache-lab-cli WORD...' offers, one a line.
completion="$dir/root/usr/share/bash-completion/completions/pagecache-lab-cli"
completions() {
  bash -c '. "$1" || exit 1; shift; COMP_WORDS=(pagecache-lab-cli "$@"); COMP_CWORD=$#; _pagecache_lab_cli
    printf "%s\n" "${COMPREPLY[@]}"' complete "$completion" "$@" < /dev/null
}
bash -c '. "$1" && complete -p pagecache-lab-cli' complete "$completion" | grep -q -- '-F _pagecache_lab_cli pagecache-lab-cli$' \
  || fail "$completion does not complete pagecache-lab-cli with _pagecache_lab_cli"
[ "$(completions ru)" = run ] || fail "completion of 'ru': $(completions ru)"
completions '' > "$dir/completed.txt"
while read -r command; do
  grep -Fqx "$command" "$dir/completed.txt" || fail "completion has no command $command: $(cat "$dir/completed.txt")"
done < "$dir/cli-commands.txt"
sed -n '/^global options:/,/^$/p' "$dir/cli-help.txt" | grep -Eo '^  (-[a-z], )?--[a-z-]+' | sed 's/^  //; s/, /\n/' > "$dir/global-options.txt"
completions - > "$dir/completed.txt"
while read -r option; do
  grep -Fqx -- "$option" "$dir/completed.txt" || fail "completion has no option $option: $(cat "$dir/completed.txt")"
done < "$dir/global-options.txt"
cut -d ' ' -f 1 "$dir/cli-subcommands.txt" | sort -u > "$dir/cli-groups.txt"
while read -r group; do
  completions "$group" '' > "$dir/completed.txt"
  sed -n "s/^$group //p" "$dir/cli-subcommands.txt" > "$dir/members.txt"
  while read -r member; do
    grep -Fqx "$member" "$dir/completed.txt" || fail "completion has no $group $member: $(cat "$dir/completed.txt")"
  done < "$dir/members.txt"
done < "$dir/cli-groups.txt"
# Each command's options (a benchmark's or probe's: 'bench indexes'), as
# its --help lists them; $command unquoted, for the two words of these.
{ grep -Fvxf "$dir/cli-groups.txt" "$dir/cli-commands.txt"; cat "$dir/cli-subcommands.txt"; } > "$dir/cli-commands-all.txt"
while read -r command; do
  # shellcheck disable=SC2086
  "$bin/pagecache-lab-cli" $command --help < /dev/null > "$dir/command-help.txt" 2>&1 || fail "$command --help"
  grep -Eo '^  (-[a-zA-Z], )?--[a-z][a-z-]*' "$dir/command-help.txt" | sed 's/^  //; s/, /\n/' > "$dir/command-options.txt"
  grep -Fqx -- --help "$dir/command-options.txt" || fail "$command --help lists no --help: $(cat "$dir/command-help.txt")"
  # shellcheck disable=SC2086
  completions $command - > "$dir/completed.txt"
  while read -r option; do
    grep -Fqx -- "$option" "$dir/completed.txt" || fail "completion has no $command $option: $(cat "$dir/completed.txt")"
  done < "$dir/command-options.txt"
done < "$dir/cli-commands-all.txt"
completions run 2002-global | grep -qx 2002-global-hash-lock || fail "completion of 'run 2002-global': $(completions run 2002-global)"
[ "$(completions experiment 2005-the-torn)" = 2005-the-torn-pte-read ] \
  || fail "completion of 'experiment 2005-the-torn': $(completions experiment 2005-the-torn)"
completions machines alt | grep -qx altix-2005 || fail "completion of 'machines alt': $(completions machines alt)"
[ "$(completions run --format '' | tr '\n' ' ')" = 'table json csv ' ] || fail "completion of 'run --format': $(completions run --format '')"

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
echo "package.sh: $deb passed"
