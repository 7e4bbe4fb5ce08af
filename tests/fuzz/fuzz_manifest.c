/* Fuzz target: deck merge's reader of manifests (cb_deck_merge_add and
 * cb_deck_merge_end) on arbitrary bytes, split on NUL bytes into up to 8
 * manifests. A merge that succeeds must give the game lines it was given
 * and one summary line; one that fails must say why in one line. */
#include <cjson/cJSON.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cutboard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cb_deck_merge *m = NULL;
    cb_error err = {CB_OK, "", 0, ""};
    if (cb_deck_merge_new(&m, &err) != CB_OK)
        return 0;
    cb_status st = CB_OK;
    size_t lines_in = 0; /* game lines: every line but each manifest's last */
    const char *p = (const char *)data, *end = p + size;
    for (int part = 0; st == CB_OK && part < 8 && p <= end; part++) {
        const char *nul = memchr(p, 0, (size_t)(end - p));
        size_t len = (size_t)((nul ? nul : end) - p);
        char *text = malloc(len + 1);
        if (!text)
            break;
        memcpy(text, p, len);
        for (size_t i = 0; i + 1 < len; i++)
            lines_in += text[i] == '\n';
        char name[16] = "m-0.jsonl";
        name[2] = (char)('0' + part);
        st = cb_deck_merge_add(m, name, text, len, &err);
        if (!nul)
            break;
        p = nul + 1;
    }
    char *out = NULL;
    size_t len = 0;
    if (st == CB_OK)
        st = cb_deck_merge_end(m, &out, &len, &err);
    cb_deck_merge_free(m);
    if (st != CB_OK) {
        if (out || err.status != st || !err.message[0] || strchr(err.message, '\n') ||
            (st != CB_ERR_DATA && st != CB_ERR_NOMEM))
            abort();
        return 0;
    }
    if (!out || len != strlen(out) || len == 0 || out[len - 1] != '\n')
        abort();
    size_t lines_out = 0;
    for (size_t i = 0; i < len; i++)
        lines_out += out[i] == '\n';
    const char *last = len > 1 ? out + len - 2 : out;
    while (last > out && last[-1] != '\n')
        last--;
    cJSON *s = cJSON_Parse(last);
    /* Game lines end with their newline; a final line may lack one, so the
     * count given is at least the count written. */
    if (!s || !cJSON_IsTrue(cJSON_GetObjectItem(s, "summary")) || lines_out < 2 ||
        lines_out - 1 > lines_in + 8)
        abort();
    cJSON_Delete(s);
    free(out);
    return 0;
}
