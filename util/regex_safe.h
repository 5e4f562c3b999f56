/* regex_safe.h - POSIX extended regular expressions from users, compiled
 * only when they cannot make the matcher take minutes or gigabytes.
 *
 * glibc compiles a repetition by copying what it repeats: "a+" becomes
 * "aa*", "x{3}" becomes "xxx", so stacked or nested repetitions multiply
 * ("a+++++++++++++++++++++" is 2^21 copies: 10 s and 1.4 GB at regcomp).
 * A repetition of something that can match nothing ((){15}, (a*)*) slows
 * the compiler down exponentially whatever the size ("((()|()){15}*){15}"
 * takes minutes).  Back-references (\1, a GNU extension in ERE) make
 * matching exponential.  So a pattern is checked first: its size once every
 * repetition is copied out must stay under GP_REGEX_MAX_SIZE, nothing that
 * can match the empty string may be repeated, it may hold no
 * back-reference, and it is at most GP_REGEX_MAX_LEN characters.  Within that, glibc's search
 * still costs up to (text length)^2 x size on text built to defeat it, so
 * callers that match long text cut it first (characterize: the first
 * GP_REGEX_TEXT_MAX bytes of a line); at that length the worst pattern
 * takes about 0.05 s. */
#ifndef GP_REGEX_SAFE_H
#define GP_REGEX_SAFE_H

#include <regex.h>
#include <stddef.h>

#define GP_REGEX_MAX_LEN 2000
#define GP_REGEX_MAX_SIZE 2000
#define GP_REGEX_TEXT_MAX 4096

/* The pattern's size with every repetition copied out, or -1 with the
 * reason in why (back-reference, nesting too deep, too long). */
double gp_regex_size(const char *pattern, char *why, size_t whylen);

/* regcomp(re, pattern, flags) after the checks above.  Returns 0, or -1
 * with one sentence in why (re is then not to be freed). */
int gp_regex_compile(regex_t *re, const char *pattern, int flags, char *why, size_t whylen);

#endif
