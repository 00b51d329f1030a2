/* Count and noun in agreement (plural.h). */
#include "util/plural.h"
#include "banned.h"

const char *plural_word(long long n, const char *one, const char *many)
{
	return n == 1 ? one : many;
}

const char *plural(long long n)
{
	return plural_word(n, "", "s");
}
