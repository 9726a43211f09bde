/* A written workbook read back before it is renamed into place (see xlsx_api.h): libxlsxwriter
 * writes each part to a temporary file first and does not check those writes, so a full disk
 * gives a well-formed ZIP of empty or cut XML parts and LXW_NO_ERROR. Every part is inflated
 * with the zlib that libxlsxwriter itself loaded, and its CRC-32 and size compared with the
 * central directory's; an XML part must be non-empty and end with its root element's end tag. */
#define _DEFAULT_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/internal.h"
#include "report/xlsx_api.h"

#define EOCD_SIG 0x06054b50u
#define EOCD64_SIG 0x06064b50u
#define LOCATOR64_SIG 0x07064b50u
#define CENTRAL_SIG 0x02014b50u
#define LOCAL_SIG 0x04034b50u

/* The head and tail of a part kept for the XML check: a root element's name fits. */
#define KEEP 256

typedef struct zipfile {
    const unsigned char *p;
    size_t len;
    const char *shown;
} zipfile;

static uint32_t le(const unsigned char *p, int bytes)
{
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t le64(const unsigned char *p)
{
    return (uint64_t)le(p + 4, 4) << 32 | le(p, 4);
}

static int damaged(const zipfile *z, const char *fmt, const char *part)
{
    return tally__error_at(TALLY_EIO, z->shown, 0, 0,
                           "the workbook written is incomplete (%s%s%s): nothing was replaced; "
                           "check the free space of the output's directory",
                           fmt, part ? " " : "", part ? part : "");
}

/* Where the central directory starts and how many entries it has. */
static int find_directory(const zipfile *z, uint64_t *offset, uint64_t *count)
{
    if (z->len < 22)
        return damaged(z, "no ZIP directory", NULL);
    size_t lowest = z->len > 22 + 65535 ? z->len - 22 - 65535 : 0;
    size_t at = z->len - 22;
    while (le(z->p + at, 4) != EOCD_SIG) {
        if (at == lowest)
            return damaged(z, "no ZIP directory", NULL);
        at--;
    }
    *count = le(z->p + at + 10, 2);
    *offset = le(z->p + at + 16, 4);
    if (*count != 0xFFFF && *offset != 0xFFFFFFFFu)
        return TALLY_OK;
    if (at < 20 || le(z->p + at - 20, 4) != LOCATOR64_SIG)
        return damaged(z, "no ZIP64 directory locator", NULL);
    uint64_t eocd64 = le64(z->p + at - 20 + 8);
    if (eocd64 > z->len - 56 || le(z->p + eocd64, 4) != EOCD64_SIG)
        return damaged(z, "no ZIP64 directory", NULL);
    *count = le64(z->p + eocd64 + 32);
    *offset = le64(z->p + eocd64 + 48);
    return TALLY_OK;
}

/* The root element's name at the start of an XML text (after its declaration). */
static size_t root_name(const char *head, size_t n, const char **name)
{
    size_t i = 0;
    for (;;) {
        while (i < n && head[i] != '<')
            i++;
        if (i + 1 >= n)
            return 0;
        if (head[i + 1] != '?' && head[i + 1] != '!')
            break;
        i++;
    }
    size_t start = ++i;
    while (i < n && head[i] != '>' && head[i] != '/' && head[i] != ' ' && head[i] != '\r' &&
           head[i] != '\n' && head[i] != '\t')
        i++;
    *name = head + start;
    return i < n ? i - start : 0;
}

/* An XML part ends with the end tag of its root element (or is that element, self-closed). */
static int xml_complete(const char *head, size_t head_len, const char *tail, size_t tail_len)
{
    while (tail_len > 0 && (tail[tail_len - 1] == '\n' || tail[tail_len - 1] == '\r' ||
                            tail[tail_len - 1] == ' '))
        tail_len--;
    const char *name;
    size_t n = root_name(head, head_len, &name);
    if (n == 0 || tail_len < n + 3)
        return tail_len >= 2 && memcmp(tail + tail_len - 2, "/>", 2) == 0 &&
               head_len == tail_len && memchr(head, '<', head_len) != NULL;
    const char *end = tail + tail_len - n - 3;
    if (end[0] == '<' && end[1] == '/' && memcmp(end + 2, name, n) == 0 && end[n + 2] == '>')
        return 1;
    /* A self-closed root: the whole part is its start tag. */
    const char *close = memchr(name, '>', head_len - (size_t)(name - head));
    return close != NULL && close[-1] == '/' && (size_t)(close + 1 - head) == tail_len &&
           head_len == tail_len;
}

static int has_suffix(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

/* Inflate one entry, check its CRC-32 and size, and for XML its end. */
static int check_entry(const zipfile *z, const tally__xlsx_api *x, const unsigned char *cd,
                       const char *name, size_t name_len)
{
    unsigned method = le(cd + 10, 2);
    uint32_t crc = le(cd + 16, 4);
    uint64_t csize = le(cd + 20, 4), usize = le(cd + 24, 4), local = le(cd + 42, 4);
    /* ZIP64 sizes and offset, in this order, for the fields the header marks 0xFFFFFFFF. */
    const unsigned char *extra = cd + 46 + name_len, *extra_end = extra + le(cd + 30, 2);
    while (extra + 4 <= extra_end) {
        unsigned id = le(extra, 2), size = le(extra + 2, 2);
        const unsigned char *f = extra + 4, *f_end = f + size;
        if (f_end > extra_end)
            break;
        if (id == 1) {
            if (usize == 0xFFFFFFFFu && f + 8 <= f_end)
                usize = le64(f), f += 8;
            if (csize == 0xFFFFFFFFu && f + 8 <= f_end)
                csize = le64(f), f += 8;
            if (local == 0xFFFFFFFFu && f + 8 <= f_end)
                local = le64(f);
        }
        extra = f_end;
    }
    char part[128];
    snprintf(part, sizeof part, "%.*s", (int)(name_len < 100 ? name_len : 100), name);
    if (local > z->len - 30 || le(z->p + local, 4) != LOCAL_SIG)
        return damaged(z, "a missing part:", part);
    uint64_t data = local + 30 + le(z->p + local + 26, 2) + le(z->p + local + 28, 2);
    if (data > z->len || csize > z->len - data)
        return damaged(z, "a cut part:", part);
    int xml = has_suffix(name, name_len, ".xml") || has_suffix(name, name_len, ".rels");
    if (xml && usize == 0)
        return damaged(z, "an empty part:", part);
    if (method != 0 && method != 8)
        return damaged(z, "an unknown compression in", part);
    char head[KEEP], tail[KEEP];
    size_t head_len = 0, tail_len = 0;
    uint64_t total = 0;
    unsigned long sum = x->crc32(0, NULL, 0);
    unsigned char out[16384];
    z_stream s;
    memset(&s, 0, sizeof s);
    if (method == 8 && x->inflateInit2_(&s, -MAX_WBITS, ZLIB_VERSION, (int)sizeof s) != Z_OK)
        return tally__oom();
    const unsigned char *in = z->p + data;
    uint64_t left = csize;
    int done = 0, bad = 0;
    while (!done && !bad) {
        size_t got;
        if (method == 0) {
            got = left < sizeof out ? (size_t)left : sizeof out;
            memcpy(out, in, got);
            in += got;
            left -= got;
            done = left == 0;
        } else {
            if (s.avail_in == 0) {
                s.next_in = (unsigned char *)in; /* zlib's API is not const */
                s.avail_in = left > (1u << 30) ? (1u << 30) : (unsigned)left;
                in += s.avail_in;
                left -= s.avail_in;
            }
            s.next_out = out;
            s.avail_out = sizeof out;
            int zr = x->inflate(&s, Z_NO_FLUSH);
            got = sizeof out - s.avail_out;
            done = zr == Z_STREAM_END;
            bad = zr != Z_OK && zr != Z_STREAM_END && !(zr == Z_BUF_ERROR && got > 0);
            if (!done && got == 0 && s.avail_in == 0 && left == 0)
                bad = 1;
        }
        sum = x->crc32(sum, out, (unsigned)got);
        total += got;
        if (head_len < KEEP) {
            size_t k = got < KEEP - head_len ? got : KEEP - head_len;
            memcpy(head + head_len, out, k);
            head_len += k;
        }
        if (got >= KEEP) {
            memcpy(tail, out + got - KEEP, KEEP);
            tail_len = KEEP;
        } else if (got > 0) {
            size_t keep = tail_len + got > KEEP ? KEEP - got : tail_len;
            memmove(tail, tail + tail_len - keep, keep);
            memcpy(tail + keep, out, got);
            tail_len = keep + got;
        }
    }
    if (method == 8)
        x->inflateEnd(&s);
    if (bad || total != usize || sum != crc)
        return damaged(z, "a damaged part:", part);
    if (xml && !xml_complete(head, head_len, tail, tail_len))
        return damaged(z, "a cut XML part:", part);
    return TALLY_OK;
}

static int check_zip(const zipfile *z, const tally__xlsx_api *x)
{
    uint64_t offset = 0, count = 0;
    int rc = find_directory(z, &offset, &count);
    if (rc != TALLY_OK)
        return rc;
    int saw_types = 0, saw_workbook = 0;
    uint64_t at = offset;
    for (uint64_t i = 0; i < count; i++) {
        if (at > z->len - 46 || le(z->p + at, 4) != CENTRAL_SIG)
            return damaged(z, "a cut ZIP directory", NULL);
        size_t name_len = le(z->p + at + 28, 2);
        size_t entry = 46 + name_len + le(z->p + at + 30, 2) + le(z->p + at + 32, 2);
        if (entry > z->len - at)
            return damaged(z, "a cut ZIP directory", NULL);
        const char *name = (const char *)z->p + at + 46;
        if ((rc = check_entry(z, x, z->p + at, name, name_len)) != TALLY_OK)
            return rc;
        saw_types |= name_len == 19 && memcmp(name, "[Content_Types].xml", 19) == 0;
        saw_workbook |= name_len == 15 && memcmp(name, "xl/workbook.xml", 15) == 0;
        at += entry;
    }
    if (!saw_types || !saw_workbook)
        return damaged(z, "parts missing from the ZIP directory", NULL);
    return TALLY_OK;
}

int tally__xlsx_verify(const tally__xlsx_api *x, const char *path, const char *shown)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        int err = errno;
        if (fd >= 0)
            close(fd);
        return tally__error_at(TALLY_EIO, shown, 0, 0, "cannot read back the workbook: %s",
                               strerror(err));
    }
    zipfile z = { NULL, (size_t)st.st_size, shown };
    void *map = z.len > 0 ? mmap(NULL, z.len, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    int err = errno;
    close(fd);
    if (z.len == 0)
        return damaged(&z, "an empty file", NULL);
    if (map == MAP_FAILED)
        return tally__error_at(TALLY_EIO, shown, 0, 0, "cannot read back the workbook: %s",
                               strerror(err));
    z.p = map;
    int rc = check_zip(&z, x);
    munmap(map, z.len);
    return rc;
}
