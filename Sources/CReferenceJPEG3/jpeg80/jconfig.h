/* Configuration for compiling against libjpeg-turbo 3.x's ABI (the libjpeg 8 API) with the
 * system's jpeglib.h: that header takes every layout decision from JPEG_LIB_VERSION, which the
 * system's own jconfig.h sets to 62 for Debian's libjpeg62-turbo. This file, found first on
 * this target's include path, describes the library loaded at run time instead: the
 * libjpeg-turbo 3.x shipped inside the `imagecodecs` Python wheel (soname libjpeg.so.8). */
#define JPEG_LIB_VERSION  80
#define LIBJPEG_TURBO_VERSION  3.1
#define C_ARITH_CODING_SUPPORTED 1
#define D_ARITH_CODING_SUPPORTED 1
#define MEM_SRCDST_SUPPORTED 1
#define BITS_IN_JSAMPLE  8
