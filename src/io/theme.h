/* Theme look-ups for the readers of board files. Internal. */
#ifndef CB_THEME_H
#define CB_THEME_H

#include "cutboard.h"

/* A theme's node type or mission by name; -1 when THEME is NULL or has none. */
int cb_theme_type_index(const cb_theme *theme, const char *name);
int cb_theme_mission_index(const cb_theme *theme, const char *name);

#endif
