/* Fuzz target: the board file parser (cb_game_parse_json) on arbitrary
 * bytes; see board_target.h for what is checked. */
#include "board_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_board_file(cb_game_parse_json, "fuzz.json", data, size);
}
