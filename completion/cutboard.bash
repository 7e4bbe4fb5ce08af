# bash completion for cutboard. The options come from the command's own
# --help, so they never drift from the binary.
_cutboard()
{
    local cur prev cmd words cword
    _init_completion 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}; prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
    }
    local commands="game render check cut deck network serve help"
    cmd=game
    local i
    for ((i = 1; i < cword; i++)); do
        case " $commands " in *" ${words[i]} "*) cmd=${words[i]}; break ;; esac
    done
    case $prev in
        -o|--output|--json|--obj|--manifest|--csv|--font)
            COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --theme|--out-dir|--theme-dir)
            COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --format)
            COMPREPLY=($(compgen -W "pdf svg" -- "$cur")); return ;;
        --paper|--board-size|--sheet)
            COMPREPLY=($(compgen -W "a4 letter a3 tabloid legal a5 a2 a1 a0 sra4 sra3 sra2" -- "$cur")); return ;;
        --model)
            COMPREPLY=($(compgen -W "linear ring regular complete random anchored small-world scale-free" -- "$cur")); return ;;
        help)
            COMPREPLY=($(compgen -W "$commands" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        local opts
        opts=$("${words[0]}" "$cmd" --help 2>/dev/null | grep -oE '^ +(-[A-Za-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+|-[A-Za-z]')
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    elif [[ $cmd == game && $cword -eq 1 ]]; then
        COMPREPLY=($(compgen -W "$commands" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -F _cutboard cutboard
