/*
 * The shared JSON helpers every JSON importer uses: parsing with positions and typed member access
 * with JSON paths.
 * Invariants: a refused document leaves a message located at a line:col inside the input; on an
 * accepted one every member access either succeeds with the right type (finite numbers only) or
 * fails with a message naming the path, and paths are restored after each step.
 */
#include <math.h>
#include <string.h>

#include "fuzz_support.h"
#include "util/json_util.h"

static void walk(const cJSON *item, tally__jpath *path, int depth)
{
    if (depth > 64)
        return;
    char before[TALLY__JSON_PATH_MAX];
    memcpy(before, path->text, path->len + 1);
    size_t index = 0;
    for (const cJSON *child = item->child; child != NULL; child = child->next, index++) {
        if (cJSON_IsObject(item) && child->string != NULL) {
            const char *s;
            double x;
            const cJSON *sub;
            int rc = tally__json_string(&s, item, child->string, 0, "fuzz.json", path);
            FUZZ_CHECK(rc == TALLY_OK ? s != NULL : rc == TALLY_EPARSE || rc == TALLY_ENOTFOUND,
                       "string member");
            rc = tally__json_number(&x, item, child->string, 1, "fuzz.json", path);
            FUZZ_CHECK(rc != TALLY_OK || isfinite(x), "an accepted number is finite");
            if (rc != TALLY_OK)
                fuzz_check_error(rc, "number member");
            rc = tally__json_array(&sub, item, child->string, 0, "fuzz.json", path);
            FUZZ_CHECK(rc != TALLY_OK || cJSON_IsArray(sub), "array member");
            rc = tally__json_object(&sub, item, child->string, 0, "fuzz.json", path);
            FUZZ_CHECK(rc != TALLY_OK || cJSON_IsObject(sub), "object member");
            FUZZ_CHECK(strcmp(before, path->text) == 0, "member access restores the path");
            size_t mark = tally__jpath_key(path, child->string);
            walk(child, path, depth + 1);
            tally__jpath_pop(path, mark);
        } else {
            double x;
            size_t mark = tally__jpath_index(path, index);
            int rc = tally__json_finite(&x, child, "fuzz.json", path);
            if (rc == TALLY_OK)
                FUZZ_CHECK(isfinite(x), "an accepted element is finite");
            else
                fuzz_check_error(rc, "array element");
            walk(child, path, depth + 1);
            tally__jpath_pop(path, mark);
        }
        FUZZ_CHECK(strcmp(before, path->text) == 0, "push and pop restore the path");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cJSON *root = NULL;
    tally_error_clear();
    int rc = tally__json_parse(&root, (const char *)data, size, "fuzz.json");
    if (rc != TALLY_OK) {
        fuzz_check_error(rc, "tally__json_parse refused the document");
        FUZZ_CHECK(root == NULL, "no tree on failure");
        const tally_error *e = tally_error_last();
        /* Syntax errors carry line:col; a number cJSON accepted but the JSON grammar or the
         * number limits refuse (5., 01.5, 1e-400), and a key repeated in an object, carry its
         * JSON path. */
        FUZZ_CHECK((e->line >= 1 && e->column >= 1) || (e->json_path && e->json_path[0] == '$'),
                   "a refusal has a position or a JSON path");
        FUZZ_CHECK(strncmp(e->message, "fuzz.json:", 10) == 0, "the message names the file");
        return 0;
    }
    tally__jpath path;
    tally__jpath_init(&path);
    walk(root, &path, 0);
    FUZZ_CHECK(strcmp(path.text, "$") == 0, "the walk ends at the root path");
    cJSON_Delete(root);
    return 0;
}
