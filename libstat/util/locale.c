/* The C locale for one thread at a time (locale.h): the bottom of util/, so that the errors and
 * the text buffer switch locales without depending on number conversion. */
#include <locale.h>
#include <pthread.h>

#include "util/locale.h"

static locale_t c_locale = (locale_t)0;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
    /* glibc returns its static C locale object here, without allocating. */
    c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

void *tally__locale_c_begin(void)
{
    pthread_once(&c_locale_once, make_c_locale);
    if (c_locale == (locale_t)0)
        return NULL;
    return (void *)uselocale(c_locale);
}

void tally__locale_c_end(void *previous)
{
    if (previous != NULL)
        uselocale((locale_t)previous);
}
