/* The read-back of a written workbook (report/xlsx_verify.c): a complete one passes; an empty
 * part, an XML part cut short, a wrong CRC-32 and a cut file are refused with TALLY_EIO naming
 * the part. The ZIP files are built here by hand, entries stored (method 0), following the
 * layout of PKWARE's APPNOTE.TXT 4.3.7 (local header), 4.3.12 (central directory header) and
 * 4.3.16 (end of central directory); the deflated path is the real workbook of test_real. */
#define _DEFAULT_SOURCE /* truncate */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "test_report_common.h"
#include "report/xlsx_api.h"

/* CRC-32 of ISO 3309 / ITU-T V.42 (reflected polynomial 0xEDB88320), bit by bit: independent
 * of zlib's table-driven one. crc32("123456789") = 0xCBF43926 (the standard check value). */
static uint32_t crc32_of(const char *s, size_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++) {
        c ^= (unsigned char)s[i];
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    return ~c;
}

typedef struct zbuf {
    unsigned char b[8192];
    size_t n;
} zbuf;

static void put(zbuf *z, uint32_t v, int bytes)
{
    for (int i = 0; i < bytes; i++)
        z->b[z->n++] = (unsigned char)(v >> (8 * i));
}

static void put_bytes(zbuf *z, const void *p, size_t n)
{
    memcpy(z->b + z->n, p, n);
    z->n += n;
}

typedef struct part {
    const char *name;
    const char *data;
    int bad_crc;
} part;

/* A stored ZIP of `parts`, cut to `cut` bytes when cut > 0, written to `path`. */
static void write_zip(const char *path, const part *parts, size_t count, size_t cut)
{
    static zbuf z, cd;
    z.n = cd.n = 0;
    for (size_t i = 0; i < count; i++) {
        size_t name_len = strlen(parts[i].name), len = strlen(parts[i].data);
        uint32_t crc = crc32_of(parts[i].data, len) ^ (parts[i].bad_crc ? 1u : 0u);
        uint32_t offset = (uint32_t)z.n;
        put(&z, 0x04034b50u, 4); put(&z, 20, 2); put(&z, 0, 2); put(&z, 0, 2);
        put(&z, 0, 2); put(&z, 0, 2); put(&z, crc, 4); put(&z, (uint32_t)len, 4);
        put(&z, (uint32_t)len, 4); put(&z, (uint32_t)name_len, 2); put(&z, 0, 2);
        put_bytes(&z, parts[i].name, name_len);
        put_bytes(&z, parts[i].data, len);
        put(&cd, 0x02014b50u, 4); put(&cd, 20, 2); put(&cd, 20, 2); put(&cd, 0, 2);
        put(&cd, 0, 2); put(&cd, 0, 2); put(&cd, 0, 2); put(&cd, crc, 4);
        put(&cd, (uint32_t)len, 4); put(&cd, (uint32_t)len, 4); put(&cd, (uint32_t)name_len, 2);
        put(&cd, 0, 2); put(&cd, 0, 2); put(&cd, 0, 2); put(&cd, 0, 2); put(&cd, 0, 4);
        put(&cd, offset, 4);
        put_bytes(&cd, parts[i].name, name_len);
    }
    uint32_t cd_offset = (uint32_t)z.n;
    put_bytes(&z, cd.b, cd.n);
    put(&z, 0x06054b50u, 4); put(&z, 0, 2); put(&z, 0, 2); put(&z, (uint32_t)count, 2);
    put(&z, (uint32_t)count, 2); put(&z, (uint32_t)cd.n, 4); put(&z, cd_offset, 4);
    put(&z, 0, 2);
    FILE *f = fopen(path, "wb");
    CHECK(f != NULL);
    if (f) {
        fwrite(z.b, 1, cut > 0 ? cut : z.n, f);
        fclose(f);
    }
}

#define TYPES "<?xml version=\"1.0\"?>\n<Types xmlns=\"x\"><Default Extension=\"xml\"/></Types>\n"
#define BOOK "<?xml version=\"1.0\"?>\r\n<workbook xmlns=\"x\"><sheets/></workbook>"

static int verify(const char *path)
{
    tally__xlsx_api x;
    if (tally__xlsx_open(&x) != TALLY_OK)
        return 99;
    int rc = tally__xlsx_verify(&x, path, "shown.xlsx");
    tally__xlsx_close(&x);
    return rc;
}

static void test_crc_reference(void)
{
    CHECK_INT(crc32_of("123456789", 9), 0xCBF43926u); /* the CRC-32 check value */
}

static void test_stored(void)
{
    const char *path = TALLY_TEST_TMP "/verify.xlsx";
    part good[] = { { "[Content_Types].xml", TYPES, 0 }, { "xl/workbook.xml", BOOK, 0 },
                    { "xl/_rels/workbook.xml.rels", "<Relationships xmlns=\"x\"/>", 0 } };
    write_zip(path, good, 3, 0);
    CHECK_INT(verify(path), TALLY_OK);

    part empty[] = { { "[Content_Types].xml", TYPES, 0 }, { "xl/workbook.xml", "", 0 } };
    write_zip(path, empty, 2, 0);
    CHECK_INT(verify(path), TALLY_EIO);
    CHECK(strstr(tally_error_last()->message, "an empty part: xl/workbook.xml") != NULL);
    CHECK(strstr(tally_error_last()->message, "shown.xlsx") != NULL);

    /* Cut where a 4 KiB buffer of a temporary file would have ended. */
    part cut[] = { { "[Content_Types].xml", TYPES, 0 },
                   { "xl/workbook.xml", "<?xml version=\"1.0\"?>\n<workbook><sheets><sh", 0 } };
    write_zip(path, cut, 2, 0);
    CHECK_INT(verify(path), TALLY_EIO);
    CHECK(strstr(tally_error_last()->message, "a cut XML part: xl/workbook.xml") != NULL);

    part crc[] = { { "[Content_Types].xml", TYPES, 1 }, { "xl/workbook.xml", BOOK, 0 } };
    write_zip(path, crc, 2, 0);
    CHECK_INT(verify(path), TALLY_EIO);
    CHECK(strstr(tally_error_last()->message, "a damaged part: [Content_Types].xml") != NULL);

    part no_book[] = { { "[Content_Types].xml", TYPES, 0 } };
    write_zip(path, no_book, 1, 0);
    CHECK_INT(verify(path), TALLY_EIO);

    write_zip(path, good, 3, 100); /* the directory is lost */
    CHECK_INT(verify(path), TALLY_EIO);
    CHECK(strstr(tally_error_last()->message, "no ZIP directory") != NULL);
}

/* A workbook libxlsxwriter wrote (deflated, ZIP64 extras) passes; the same with its last byte
 * cut does not. */
static void test_real(void)
{
    tally_results *list = build_fixture();
    tally_report *r = NULL;
    CHECK_INT(tally_report_new(&r, list, NULL), TALLY_OK);
    tally_results_free(list);
    tally_render_options o = TALLY_RENDER_OPTIONS_INIT;
    o.format = TALLY_FORMAT_XLSX;
    const char *path = TALLY_TEST_TMP "/verify_real.xlsx";
    CHECK_INT(tally_report_write(r, path, &o), TALLY_OK);
    CHECK_INT(verify(path), TALLY_OK);
    tally_report_free(r);
    FILE *f = fopen(path, "r+b");
    CHECK(f != NULL);
    if (f) {
        fseek(f, 0, SEEK_END);
        long n = ftell(f);
        fclose(f);
        CHECK(truncate(path, n - 1) == 0);
        CHECK_INT(verify(path), TALLY_EIO);
    }
}

int main(void)
{
    test_crc_reference();
    test_stored();
    test_real();
    return check_summary();
}
