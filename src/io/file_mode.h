/* The mode of the files saturn makes. They are written under a temporary
 * name from mkstemp, which creates them 0600, then renamed into place: each
 * is given the mode a plain open(2) would give, 0666 less the umask. */
#ifndef SATURN_IO_FILE_MODE_H
#define SATURN_IO_FILE_MODE_H

#include <sys/types.h>

mode_t io_new_file_mode(void);

#endif
