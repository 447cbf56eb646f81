# Completes pagecache-lab-cli's command line: the command, a benchmark's or
# probe's name, each command's options, and the values the program can
# name: an output format, a file or directory, a bundled scenario, lesson or
# machine. It needs nothing but bash (not the bash-completion package's
# helpers), so that it can be tried by sourcing this file alone.

# COMPREPLY extended with the words of $1 that begin with $cur.
_pagecache_lab_cli_add()
{
    local word
    while IFS= read -r word; do
        [[ -n $word ]] && COMPREPLY+=("$word")
    done < <(compgen -W "$1" -- "$cur")
}

# COMPREPLY extended with what compgen ARGS... gives for $cur: files (-f),
# directories (-d), files matching a pattern (-f -X '!*.json'), as file
# names (quoted as they need, a directory ending in '/').
_pagecache_lab_cli_files()
{
    local word
    compopt -o filenames 2> /dev/null
    while IFS= read -r word; do
        COMPREPLY+=("$word")
    done < <(compgen "$@" -- "$cur")
}

# The machines' names: the bundled profiles and the user's own (what
# 'calibrate' writes), which the program reads from this directory.
_pagecache_lab_cli_machines()
{
    local names profile dir=${XDG_CONFIG_HOME:-}
    [[ $dir == /* ]] || dir=$HOME/.config
    _pagecache_lab_cli_names machines
    names=$REPLY
    for profile in "$dir"/pagecache-lab/machines/*.json; do
        [[ -f $profile ]] && profile=${profile##*/} && names+=" ${profile%.json}"
    done
    _pagecache_lab_cli_add "$names"
}

_pagecache_lab_cli()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    local command first=2 word option value names i positionals=0 REPLY
    local -a options
    COMPREPLY=()

    # The command, first; 'help COMMAND' takes the same.
    if ((COMP_CWORD == 1)); then
        if [[ $cur == -* ]]; then
            _pagecache_lab_cli_options ''
            read -ra options <<< "$REPLY"
            _pagecache_lab_cli_add "${options[*]%%=*}"
        else
            _pagecache_lab_cli_commands
            _pagecache_lab_cli_add "$REPLY help"
        fi
        return
    fi
    command=${COMP_WORDS[1]}
    if [[ $command == help ]]; then
        if ((COMP_CWORD == 2)); then
            _pagecache_lab_cli_commands
            _pagecache_lab_cli_add "$REPLY"
        elif ((COMP_CWORD == 3)); then
            _pagecache_lab_cli_members "${COMP_WORDS[2]}"
            _pagecache_lab_cli_add "$REPLY"
        fi
        return
    fi
    # A group's member (bench indexes, probe readahead) is the second word.
    _pagecache_lab_cli_members "$command"
    if [[ -n $REPLY ]]; then
        if ((COMP_CWORD == 2)); then
            _pagecache_lab_cli_add "$REPLY"
            return
        fi
        command+=" ${COMP_WORDS[2]}"
        first=3
    fi
    _pagecache_lab_cli_options "$command"
    read -ra options <<< "$REPLY"

    # The value of the option before: what the program can name, or
    # nothing (a number, a field, a pattern).
    for option in "${options[@]}"; do
        [[ $option == "$prev="* ]] && value=${option#*=}
    done
    if [[ -n $value ]]; then
        case $prev,$value in
            --format,*) _pagecache_lab_cli_add 'table json csv' ;;
            --machine,*) _pagecache_lab_cli_machines ;;
            --file,* | *,FILE) _pagecache_lab_cli_files -f ;;
            *,DIR) _pagecache_lab_cli_files -d ;;
        esac
        return
    fi

    # The arguments already given, not counting the options' values (bash
    # splits VALUE at '=' and ':' into words of their own: --set a=1 is
    # four words, the last three its value).
    for ((i = first; i < COMP_CWORD; i++)); do
        word=${COMP_WORDS[i]}
        if [[ $word == -* ]]; then
            for option in "${options[@]}"; do
                [[ $option == "$word="* ]] && ((i++)) && break
            done
            while [[ ${COMP_WORDS[i + 1]} == [=:] ]] && ((i + 2 < COMP_CWORD)); do
                ((i += 2))
            done
        elif [[ $word != [=:] ]]; then
            ((positionals++))
        fi
    done

    # An argument: a scenario (a bundled preset by name, or a file), a
    # lesson, a machine, while the command takes one more; else an option.
    if [[ $cur != -* ]]; then
        case $command,$positionals in
            run,0 | sweep,0 | compare,[01])
                _pagecache_lab_cli_names presets
                _pagecache_lab_cli_add "$REPLY"
                _pagecache_lab_cli_files -f -X '!*.json'
                _pagecache_lab_cli_files -d
                return
                ;;
            validate,*)
                _pagecache_lab_cli_names presets
                names=$REPLY
                _pagecache_lab_cli_names lessons
                _pagecache_lab_cli_add "$names $REPLY"
                _pagecache_lab_cli_files -f -X '!*.json'
                _pagecache_lab_cli_files -d
                return
                ;;
            experiment,0)
                _pagecache_lab_cli_names lessons
                _pagecache_lab_cli_add "$REPLY"
                _pagecache_lab_cli_files -f -X '!*.json'
                _pagecache_lab_cli_files -d
                return
                ;;
            machines,0)
                _pagecache_lab_cli_machines
                [[ -n $cur ]] && return
                ;;
        esac
    fi
    _pagecache_lab_cli_add "${options[*]%%=*}"
}
complete -F _pagecache_lab_cli pagecache-lab-cli
