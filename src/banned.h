/*
 * Calls that are easy to misuse are turned into compile errors here, as
 * git's banned.h does. Every tko source file includes this header last.
 */
#ifndef TKO_BANNED_H
#define TKO_BANNED_H

#define BANNED(func) sorry_##func##_is_banned_in_tko

#undef strcpy
#define strcpy(x, y) BANNED(strcpy)
#undef strcat
#define strcat(x, y) BANNED(strcat)
#undef strncpy
#define strncpy(x, y, n) BANNED(strncpy)
#undef strncat
#define strncat(x, y, n) BANNED(strncat)
#undef sprintf
#define sprintf(...) BANNED(sprintf)
#undef vsprintf
#define vsprintf(...) BANNED(vsprintf)
#undef strtok
#define strtok(x, y) BANNED(strtok)
#undef atoi
#define atoi(x) BANNED(atoi)
#undef atol
#define atol(x) BANNED(atol)
#undef system
#define system(x) BANNED(system)
#undef popen
#define popen(x, y) BANNED(popen)
#undef gets
#define gets(x) BANNED(gets)

#endif
