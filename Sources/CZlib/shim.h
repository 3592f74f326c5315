// The system zlib, the one C library PureImage itself uses (PNG IDAT, iCCP/zTXt/iTXt,
// TIFF Deflate, and the PNG writer of the command-line tool).
#include <zlib.h>
