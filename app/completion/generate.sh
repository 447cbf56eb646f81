#!/bin/sh
# Writes pagecache-lab-cli's bash completion from the program itself, each
# time it is linked (completion.cmake): its commands, the benchmarks and
# probes, every option each one's --help lists with the value it takes,
# and the names of the bundled scenarios, lessons and machines as it lists
# them; then the completing function, pagecache-lab-cli.bash, which reads
# those. So the completion offers what the program it was built with
# takes, and goes stale with it or not at all.
# Usage: generate.sh CLI FUNCTION_FILE OUTPUT
set -eu
cli=$1
function_file=$2
output=$3
tmp=$output.tmp
mkdir -p "$(dirname "$output")"

# Each option a --help lists, one a line: NAME, or NAME=VALUE for one that
# takes a value (VALUE is the help's name for it: FILE, DIR, F, N...).
# An entry is "  -h, --help   text" or "  --json FILE   text": its names and
# value, then two spaces or more before the text.
options() {
  awk '/^  -/ {
    spec = substr($0, 3)
    sub(/  .*/, "", spec)
    count = split(spec, names, /, /)
    value = ""
    space = index(names[count], " ")
    if (space) {
      value = substr(names[count], space + 1)
      names[count] = substr(names[count], 1, space - 1)
    }
    for (i = 1; i <= count; i++)
      print (value == "" ? names[i] : names[i] "=" value)
  }'
}
# The lines read as one line of words, space-separated.
words() {
  tr '\n' ' ' | sed 's/ $//'
}
# A list of words is written in single quotes: it must hold none, and
# none is empty (every command has --help, every group a member).
check() {
  case $1 in
    '') echo "generate.sh: an empty list from $cli" >&2; exit 1 ;;
    *\'*) echo "generate.sh: a quote in '$1'" >&2; exit 1 ;;
  esac
}
# What the program prints for ARGS, into a file, so that its failure
# stops the script (the status of a pipeline is its last command's).
ask() {
  "$cli" "$@" > "$tmp.out" || { echo "generate.sh: $cli $* failed" >&2; exit 1; }
}

# The bundled machines only, not the profiles of whoever builds it
# ('calibrate' writes them under $XDG_CONFIG_HOME).
XDG_CONFIG_HOME=/nonexistent
export XDG_CONFIG_HOME

ask --help
help=$(cat "$tmp.out")
commands=$(printf '%s\n' "$help" | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | sort -u | words)
# A group's members: "  bench indexes [options]", "  probe readahead [--file F]...".
members=$(printf '%s\n' "$help" | sed -n 's/^  \([a-z][a-z-]*\) \([a-z][a-z-]*\)\( .*\)\{0,1\}$/\1 \2/p' | sort -u)
groups=$(printf '%s\n' "$members" | cut -d ' ' -f 1 | sort -u | words)
if [ -z "$commands" ] || [ -z "$groups" ]; then
  echo "generate.sh: no commands or no groups in $cli --help" >&2
  exit 1
fi
ask presets --format csv
presets=$(sed '1d; s/,.*//' "$tmp.out" | words)
ask experiments
lessons=$(sed -n 's/^\([a-z0-9][a-z0-9-]*\) .*/\1/p' "$tmp.out" | words)
ask machines --format csv
machines=$(sed '1d; s/,.*//' "$tmp.out" | words)
ask --version
version=$(cat "$tmp.out")

{
  echo "# bash completion for $version                    -*- shell-script -*-"
  echo "# Written by generate.sh from the program's own --help and lists; the"
  echo "# completing function, pagecache-lab-cli.bash, is at the end."
  echo
  echo "# The commands, as --help lists them."
  echo "_pagecache_lab_cli_commands()"
  echo "{"
  check "$commands"
  echo "    REPLY='$commands'"
  echo "}"
  echo
  echo "# The members of a group (bench, probe); none for another command."
  echo "_pagecache_lab_cli_members()"
  echo "{"
  echo "    case \$1 in"
  for group in $groups; do
    list=$(printf '%s\n' "$members" | sed -n "s/^$group //p" | words)
    check "$list"
    echo "        $group) REPLY='$list' ;;"
  done
  echo "        *) REPLY= ;;"
  echo "    esac"
  echo "}"
  echo
  echo "# The names the program knows of its bundled presets (scenarios),"
  echo "# lessons and machines."
  echo "_pagecache_lab_cli_names()"
  echo "{"
  echo "    case \$1 in"
  check "$presets"
  check "$lessons"
  check "$machines"
  echo "        presets) REPLY='$presets' ;;"
  echo "        lessons) REPLY='$lessons' ;;"
  echo "        machines) REPLY='$machines' ;;"
  echo "    esac"
  echo "}"
  echo
  echo "# The options of a command (a group's member: 'bench indexes'), or the"
  echo "# program's own for none; one taking a value as NAME=VALUE, VALUE what"
  echo "# its --help calls it."
  echo "_pagecache_lab_cli_options()"
  echo "{"
  echo "    case \$1 in"
  list=$(printf '%s\n' "$help" | sed -n '/^global options:/,/^$/p' | options | words)
  check "$list"
  echo "        '') REPLY='$list' ;;"
  for command in $commands; do
    case " $groups " in
      *" $command "*)
        for member in $(printf '%s\n' "$members" | sed -n "s/^$command //p"); do
          ask "$command" "$member" --help
          list=$(options < "$tmp.out" | words)
          check "$list"
          echo "        '$command $member') REPLY='$list' ;;"
        done
        ;;
      *)
        ask "$command" --help
        list=$(options < "$tmp.out" | words)
        check "$list"
        echo "        $command) REPLY='$list' ;;"
        ;;
    esac
  done
  echo "        *) REPLY= ;;"
  echo "    esac"
  echo "}"
  echo
  cat "$function_file"
} > "$tmp"
rm -f "$tmp.out"
mv "$tmp" "$output"
