/* Fuzz target: PNG icon decoding (cb_icon_decode, the decoder behind
 * cb_icon_load) on arbitrary bytes. A decoded icon is within the size cap
 * and every pixel byte is read, so a short buffer shows up under ASan. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/icons.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cb_icon icon;
    cb_error err = {CB_OK, "", 0, ""};
    cb_status st = cb_icon_decode(data, size, "fuzz.png", &icon, &err);
    if (st != CB_OK) {
        if (icon.rgba || err.status != st || !strstr(err.message, "fuzz.png") ||
            strchr(err.message, '\n'))
            abort();
        return 0;
    }
    if (!icon.rgba || icon.w < 1 || icon.h < 1 || icon.w > CB_ICON_MAX_SIDE ||
        icon.h > CB_ICON_MAX_SIDE)
        abort();
    unsigned sum = 0;
    for (size_t i = 0; i < (size_t)icon.w * icon.h * 4; i++)
        sum += icon.rgba[i];
    if (sum == 0xFFFFFFFFu) /* keeps the loop */
        abort();
    cb_icon_free(&icon);
    return 0;
}
