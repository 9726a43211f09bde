/* Store locations: which back end a location names, and the form of it that messages may
 * show (no password). */
#include "store/store_internal.h"

#include <string.h>

int tally__store_is_pg_url(const char *url)
{
    return strncmp(url, "postgresql://", 13) == 0 || strncmp(url, "postgres://", 11) == 0;
}

void tally__store_scrub_url(char *buf, size_t cap, const char *url)
{
    if (cap == 0)
        return;
    buf[0] = '\0';
    if (url == NULL)
        return;
    size_t out = 0;
    const char *p = url;
    /* userinfo = user[:password]@ right after "scheme://", before the first '/', '?' or '#'. */
    const char *auth = tally__store_is_pg_url(url) ? strstr(url, "://") + 3 : NULL;
    const char *at = NULL, *colon = NULL;
    if (auth) {
        size_t span = strcspn(auth, "/?#");
        for (const char *q = auth; q < auth + span; q++)
            if (*q == '@')
                at = q;
        if (at)
            colon = memchr(auth, ':', (size_t)(at - auth));
    }
    while (*p && out + 1 < cap) {
        if (colon && p == colon + 1) {
            const char *mask = "***";
            for (; *mask && out + 1 < cap; mask++)
                buf[out++] = *mask;
            p = at;
            continue;
        }
        /* A password given as a query parameter: password=...(&|end). */
        if (auth && p > url && (p[-1] == '?' || p[-1] == '&') && strncmp(p, "password=", 9) == 0) {
            const char *mask = "password=***";
            for (; *mask && out + 1 < cap; mask++)
                buf[out++] = *mask;
            p += strcspn(p, "&#");
            continue;
        }
        buf[out++] = *p++;
    }
    buf[out] = '\0';
}
