# bash completion for cutboard. The options come from the command's own
# --help, so they never drift from the binary; option values and board
# files are completed by what each option and command takes.
_cutboard_themes()
{
    # Installed theme names: share/cutboard/icons/ beside the program's bin
    # folder, or $CUTBOARD_DATA/icons.
    local bin data t
    bin=$(command -v "$1" 2>/dev/null) || return
    data=${CUTBOARD_DATA:-${bin%/*}/../share/cutboard}
    [[ -d $data/icons ]] || data=${bin%/*}
    for t in "$data"/icons/*/theme.json; do
        [[ -f $t ]] && t=${t%/theme.json} && echo "${t##*/}"
    done
}

_cutboard()
{
    local cur prev cmd words cword
    _init_completion 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
    }
    local commands="game render check cut deck playtest network serve help"
    local papers="a4 letter a3 tabloid legal a5 a2 a1 a0 sra4 sra3 sra2"
    cmd=game
    local i
    for ((i = 1; i < cword; i++)); do
        case " $commands " in *" ${words[i]} "*) cmd=${words[i]}; break ;; esac
    done
    case $prev in
        -o|--output|--json|--obj|--manifest|--csv|--font)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --out-dir|--theme-dir)
            COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --theme)
            COMPREPLY=($(compgen -W "$(_cutboard_themes "${words[0]}")" -- "$cur")
                       $(compgen -d -- "$cur")); return ;;
        --format)
            COMPREPLY=($(compgen -W "pdf svg" -- "$cur")); return ;;
        --rules)
            if [[ $cmd == deck ]]; then
                COMPREPLY=($(compgen -W "each once none" -- "$cur"))
            else
                COMPREPLY=($(compgen -W "last first none" -- "$cur"))
            fi
            return ;;
        --paper|--board-size)
            COMPREPLY=($(compgen -W "$papers" -- "$cur")); return ;;
        --sheet)
            # cut's --sheet is a sheet number; the game's and deck's a paper
            [[ $cmd == cut ]] && return
            COMPREPLY=($(compgen -W "$papers" -- "$cur")); return ;;
        --model)
            COMPREPLY=($(compgen -W "linear ring regular complete random anchored small-world scale-free" -- "$cur")); return ;;
        --agents)
            COMPREPLY=($(compgen -W "random greedy thinking" -- "$cur")); return ;;
        help)
            COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$("${words[0]}" "$cmd" --help 2>/dev/null | grep -oE '^ +(-[A-Za-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+|-[A-Za-z]')
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ $cmd == game && $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    elif [[ $cmd == check || $cmd == render || $cmd == cut || $cmd == playtest ]]; then
        # board files (and folders on the way to them)
        compopt -o filenames 2>/dev/null
        COMPREPLY=($(compgen -f -X '!*.json' -- "$cur") $(compgen -f -X '!*.obj' -- "$cur")
                   $(compgen -d -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _cutboard cutboard
