/* Completion scripts written from the option tables (see completion.h).  Each shell gets the
 * same facts: the commands with their summaries; per command, every option of its table (the
 * ones without a line of help too: a user may know them), whether it takes a value, the values
 * of an enum, and a file for anything else. */
#include "cli/completion.h"

#include "cli/options.h"

#include <string.h>

const char *const cli_completion_shells[] = { "bash", "zsh", "fish", NULL };

/* The words nodemark itself answers before any command (main.c). */
static const char *const builtins[] = { "help", "completion", NULL };

static int takes_value(const struct cli_option *o)
{
	return o->kind != CLI_KIND_FLAG && !(o->kind == CLI_KIND_CALL && o->optional_value);
}

/* Whether an option's value is a file or directory name (so the shell offers files); other
 * values (a size, a label, KEY=VALUE) get no suggestions. */
static int takes_file(const struct cli_option *o)
{
	return o->kind == CLI_KIND_OUTPUT ||
	       (o->arg && (strstr(o->arg, "FILE") || strstr(o->arg, "DIR") || strstr(o->arg, "PATH")));
}

/* "--name", or "-n" for a one-letter name or in Go's flag syntax (benchstat). */
static const char *dashes(const struct cli_option *o, int go)
{
	return go || strlen(o->name) == 1 ? "-" : "--";
}

static const struct cli_option *options_of(const struct cli_command_info *c)
{
	return c->help ? c->help->options : NULL;
}

/* Writes s up to its first newline with the characters a shell's quoting needs escaped: each
 * character in `special` is written as `escape` followed by it; a single quote as `quote`. */
static void put_text(FILE *out, const char *s, const char *special, const char *escape, const char *quote)
{
	for (; s && *s && *s != '\n'; s++) {
		if (*s == '\'')
			fputs(quote, out);
		else if (strchr(special, *s))
			fprintf(out, "%s%c", escape, *s);
		else
			fputc(*s, out);
	}
}

static void put_choices(FILE *out, const struct cli_option *o)
{
	for (const struct cli_choice *ch = o->choices; ch && ch->name; ch++)
		fprintf(out, "%s%s", ch == o->choices ? "" : " ", ch->name);
}

static void put_command_names(FILE *out, const struct cli_command_info *cmds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s%s", i ? " " : "", cmds[i].name);
}

/* --- bash ------------------------------------------------------------------------------- */

static void bash_command(FILE *out, const struct cli_command_info *c)
{
	const struct cli_option *opts = options_of(c);
	int go = c->help && c->help->go_flags;
	fprintf(out, "\t%s)\n", c->name);
	if (opts) {
		/* after an enum's option: its values */
		int enums = 0;
		for (const struct cli_option *o = opts; o->kind != CLI_KIND_END; o++)
			if (o->kind == CLI_KIND_ENUM) {
				fprintf(out, "%s\t\t%s%s%s%s) COMPREPLY=($(compgen -W \"", enums++ ? "" : "\t\tcase $prev in\n",
					dashes(o, go), o->name, o->alias ? "|-" : "", o->alias ? o->alias : "");
				put_choices(out, o);
				fprintf(out, "\" -- \"$cur\")); return ;;\n");
			}
		if (enums)
			fprintf(out, "\t\tesac\n");
		fprintf(out, "\t\twords=\"-h %s", go ? "-help" : "--help");
		for (const struct cli_option *o = opts; o->kind != CLI_KIND_END; o++)
			if (cli_is_option(o))
				fprintf(out, " %s%s%s%s%s", o->alias ? "-" : "", o->alias ? o->alias : "",
					o->alias ? " " : "", dashes(o, go), o->name);
		fprintf(out, "\" ;;\n");
	} else {
		fprintf(out, "\t\t;;\n");
	}
}

static void write_bash(FILE *out, const struct cli_command_info *cmds, size_t n)
{
	fprintf(out, "# bash completion for nodemark, written by `nodemark completion bash` from its\n"
		     "# option tables.\n"
		     "_nodemark() {\n"
		     "\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]} words=\n"
		     "\tif [ \"$COMP_CWORD\" -eq 1 ]; then\n"
		     "\t\tCOMPREPLY=($(compgen -W \"");
	put_command_names(out, cmds, n);
	for (const char *const *b = builtins; *b; b++)
		fprintf(out, " %s", *b);
	fprintf(out, " --help --version\" -- \"$cur\"))\n"
		     "\t\treturn\n"
		     "\tfi\n"
		     "\tcase ${COMP_WORDS[1]} in\n"
		     "\thelp)\n"
		     "\t\t[ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W \"");
	put_command_names(out, cmds, n);
	fprintf(out, "\" -- \"$cur\"))\n\t\treturn ;;\n"
		     "\tcompletion)\n"
		     "\t\t[ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W \"");
	for (const char *const *s = cli_completion_shells; *s; s++)
		fprintf(out, "%s%s", s == cli_completion_shells ? "" : " ", *s);
	fprintf(out, "\" -- \"$cur\"))\n\t\treturn ;;\n");
	for (size_t i = 0; i < n; i++)
		bash_command(out, &cmds[i]);
	fprintf(out, "\tesac\n"
		     "\tif [[ $cur == -* && -n $words ]]; then\n"
		     "\t\tCOMPREPLY=($(compgen -W \"$words\" -- \"$cur\"))\n"
		     "\telse\n"
		     "\t\tCOMPREPLY=($(compgen -f -- \"$cur\"))\n"
		     "\tfi\n"
		     "}\n"
		     "complete -o filenames -F _nodemark nodemark\n");
}

/* --- zsh -------------------------------------------------------------------------------- */

/* One _arguments spec, single-quoted: '*--name=[help]:value:action' (the * when repeatable). */
static void zsh_spec(FILE *out, const struct cli_option *o, const char *spelled, const char *name)
{
	fprintf(out, " \\\n\t\t'%s%s%s%s[", o->kind == CLI_KIND_LIST ? "*" : "", spelled, name,
		takes_value(o) && strlen(name) > 1 && strcmp(spelled, "--") == 0 ? "=" : "");
	put_text(out, cli_option_help(o) ? cli_option_help(o) : "", "[]\\", "\\", "'\\''");
	fputc(']', out);
	if (takes_value(o)) {
		/* the message: the help's name for the value, where it needs no quoting */
		const char *arg = o->arg && o->arg[0] != '[' && !strpbrk(o->arg, ":'\\") ? o->arg : "value";
		fprintf(out, ":%s:", arg);
		if (o->kind == CLI_KIND_ENUM) {
			fputc('(', out);
			put_choices(out, o);
			fputc(')', out);
		} else {
			fputs(takes_file(o) ? "_files" : " ", out);
		}
	}
	fputc('\'', out);
}

static void write_zsh(FILE *out, const struct cli_command_info *cmds, size_t n)
{
	fprintf(out, "#compdef nodemark\n"
		     "# zsh completion for nodemark, written by `nodemark completion zsh` from its option\n"
		     "# tables.\n\n");
	for (size_t i = 0; i < n; i++) {
		const struct cli_option *opts = options_of(&cmds[i]);
		int go = cmds[i].help && cmds[i].help->go_flags;
		fprintf(out, "_nodemark_%s() {\n\t_arguments -s", cmds[i].name);
		if (opts) {
			fprintf(out, " \\\n\t\t'-h[show the options]' \\\n\t\t'%shelp[show the options]'", go ? "-" : "--");
			for (const struct cli_option *o = opts; o->kind != CLI_KIND_END; o++) {
				if (!cli_is_option(o))
					continue;
				if (o->alias)
					zsh_spec(out, o, "-", o->alias);
				zsh_spec(out, o, dashes(o, go), o->name);
			}
		}
		fprintf(out, " \\\n\t\t'*:file:_files'\n}\n\n");
	}
	fprintf(out, "_nodemark() {\n\tlocal -a commands\n\tcommands=(");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "\n\t\t'%s:", cmds[i].name);
		put_text(out, cmds[i].summary, "", "", "'\\''");
		fputc('\'', out);
	}
	fprintf(out, "\n\t)\n"
		     "\tif (( CURRENT == 2 )); then\n"
		     "\t\t_describe -t commands 'nodemark command' commands\n"
		     "\t\treturn\n"
		     "\tfi\n"
		     "\tlocal cmd=$words[2]\n"
		     "\tshift words\n"
		     "\t(( CURRENT-- ))\n"
		     "\tcase $cmd in\n"
		     "\thelp) _describe -t commands 'nodemark command' commands ;;\n"
		     "\tcompletion) _values shell");
	for (const char *const *s = cli_completion_shells; *s; s++)
		fprintf(out, " %s", *s);
	fprintf(out, " ;;\n");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "\t%s) _nodemark_%s ;;\n", cmds[i].name, cmds[i].name);
	fprintf(out, "\t*) _files ;;\n\tesac\n}\n\n_nodemark \"$@\"\n");
}

/* --- fish ------------------------------------------------------------------------------- */

static void write_fish(FILE *out, const struct cli_command_info *cmds, size_t n)
{
	fprintf(out, "# fish completion for nodemark, written by `nodemark completion fish` from its\n"
		     "# option tables.\n"
		     "complete -c nodemark -f\n");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "complete -c nodemark -n __fish_use_subcommand -a %s -d '", cmds[i].name);
		put_text(out, cmds[i].summary, "\\", "\\", "\\'");
		fprintf(out, "'\n");
	}
	for (const char *const *b = builtins; *b; b++)
		fprintf(out, "complete -c nodemark -n __fish_use_subcommand -a %s\n", *b);
	fprintf(out, "complete -c nodemark -n '__fish_seen_subcommand_from help' -a '");
	put_command_names(out, cmds, n);
	fprintf(out, "'\ncomplete -c nodemark -n '__fish_seen_subcommand_from completion' -a '");
	for (const char *const *s = cli_completion_shells; *s; s++)
		fprintf(out, "%s%s", s == cli_completion_shells ? "" : " ", *s);
	fprintf(out, "'\n");
	for (size_t i = 0; i < n; i++) {
		const struct cli_option *opts = options_of(&cmds[i]);
		int go = cmds[i].help && cmds[i].help->go_flags;
		const char *name = cmds[i].name;
		/* Every command's positional words are files (or runs, which are names). */
		fprintf(out, "complete -c nodemark -n '__fish_seen_subcommand_from %s' -F\n", name);
		if (!opts)
			continue;
		fprintf(out, "complete -c nodemark -n '__fish_seen_subcommand_from %s' -s h %s help -d 'show the options'\n",
			name, go ? "-o" : "-l");
		for (const struct cli_option *o = opts; o->kind != CLI_KIND_END; o++) {
			if (!cli_is_option(o))
				continue;
			/* -s: one letter; -l: --long; -o: -long (Go's flags) */
			const char *kind = strlen(o->name) == 1 ? "-s" : go ? "-o" : "-l";
			fprintf(out, "complete -c nodemark -n '__fish_seen_subcommand_from %s' %s %s", name, kind,
				o->name);
			if (o->alias)
				fprintf(out, " -s %s", o->alias);
			if (o->kind == CLI_KIND_ENUM) {
				fprintf(out, " -x -a '");
				put_choices(out, o);
				fputc('\'', out);
			} else if (takes_value(o)) {
				fprintf(out, takes_file(o) ? " -r -F" : " -x");
			}
			if (cli_option_help(o)) {
				fprintf(out, " -d '");
				put_text(out, cli_option_help(o), "\\", "\\", "\\'");
				fputc('\'', out);
			}
			fputc('\n', out);
		}
	}
}

int cli_completion_write(FILE *out, const char *shell, const struct cli_command_info *cmds, size_t n)
{
	if (strcmp(shell, "bash") == 0)
		write_bash(out, cmds, n);
	else if (strcmp(shell, "zsh") == 0)
		write_zsh(out, cmds, n);
	else if (strcmp(shell, "fish") == 0)
		write_fish(out, cmds, n);
	else
		return -1;
	return 0;
}
