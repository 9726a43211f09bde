/* Library initialisation: GSL must never abort the host process. */
#include <pthread.h>

#include <gsl/gsl_errno.h>

#include "util/internal.h"

static pthread_once_t init_once = PTHREAD_ONCE_INIT;

static void init_once_body(void)
{
    /* GSL's default handler calls abort(); with it off, GSL functions return error codes that
     * the callers check (the `_e` variants). */
    gsl_set_error_handler_off();
}

void tally__ensure_init(void)
{
    pthread_once(&init_once, init_once_body);
}

int tally_init(void)
{
    tally__ensure_init();
    return TALLY_OK;
}
