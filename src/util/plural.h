/*
 * Count and noun that agree in number: "1 kernel in 1 task", "3 kernels
 * in 2 tasks", never "1 kernels". For text output and for the prose
 * strings of JSON documents (a rule's why, notes, messages), whose wording
 * docs/json.md leaves free; never for a JSON key or enumerated value.
 *
 *	printf("%zu kernel%s", n, plural(n));
 *	printf("%zu %s", n, plural_word(n, "entry", "entries"));
 */
#ifndef TKO_UTIL_PLURAL_H
#define TKO_UTIL_PLURAL_H

/* "" when n is 1, else "s" (so 0 kernels, 1 kernel, 2 kernels). */
const char *plural(long long n);

/* `one` when n is 1, else `many`: irregular nouns and verbs ("has"/"have"). */
const char *plural_word(long long n, const char *one, const char *many);

#endif
