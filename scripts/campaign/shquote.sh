# shquote ARG...: prints the arguments as one shell command line, each
# single-quoted (a ' inside as '\''), for the command strings GNU parallel
# hands to a shell, here or over ssh: a path with a blank or a quote stays
# one argument.
shquote() {
	for a in "$@"; do
		printf " '%s'" "$(printf '%s' "$a" | sed "s/'/'\\\\''/g")"
	done
}
