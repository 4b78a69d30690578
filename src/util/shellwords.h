/* A command line split into words as a POSIX shell would split it, without running anything:
 * blanks separate words, '...' keeps everything, "..." keeps all but \" \\ \$ \` escapes, a
 * backslash escapes the next character.  For hyperfine's -N ('grep TODO /home/user' runs
 * grep directly) and --shell "bash --norc". */
#ifndef NM_UTIL_SHELLWORDS_H
#define NM_UTIL_SHELLWORDS_H

#include <stddef.h>

/* A NULL-terminated malloc'd array of malloc'd words, or NULL with a message (an unclosed
 * quote, no words). */
char **shellwords_split(const char *s, char *err, size_t errlen);
void shellwords_free(char **words);

#endif
