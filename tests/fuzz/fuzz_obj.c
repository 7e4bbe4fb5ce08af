/* Fuzz target: the OBJ drawing parser (cb_game_parse_obj) on arbitrary
 * bytes; see board_target.h for what is checked. */
#include "board_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_board_file(cb_game_parse_obj, "fuzz.obj", data, size);
}
