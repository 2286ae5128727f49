/* numpy.h — finding a Python with NumPy for tests that compare against files NumPy writes.
 * On Debian the pyenv python3 first in PATH may lack NumPy; /usr/bin/python3 has python3-numpy. */
#ifndef GS_TEST_NUMPY_H
#define GS_TEST_NUMPY_H
/* "python3" or "/usr/bin/python3", whichever imports numpy; NULL if neither (tests then skip
 * their NumPy checks with a note). */
const char *tap_numpy_python(void);
#endif
