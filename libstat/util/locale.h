/* The C locale for the calling thread (locale.c). */
#ifndef TALLY_LOCALE_H
#define TALLY_LOCALE_H

/* Switch the calling thread to the C locale (uselocale) for printf-family calls with
 * floating-point conversions and for libraries that follow the locale (libxlsxwriter); returns
 * the previous locale (a locale_t) for tally__locale_c_end. Other threads are not affected. */
void *tally__locale_c_begin(void);
void tally__locale_c_end(void *previous);

#endif /* TALLY_LOCALE_H */
