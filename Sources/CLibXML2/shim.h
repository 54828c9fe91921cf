#ifndef MERIDIAN_CLIBXML2_SHIM_H
#define MERIDIAN_CLIBXML2_SHIM_H
#include <libxml/xmlversion.h>
/* Debian's libxml2 is built with ICU, and its encoding.h then includes the system's <unicode/ucnv.h>, whose
   UErrorCode clashes with Foundation's own copy of ICU (_FoundationICU) in any module that sees both. Meridian
   never touches libxml2's encoding handlers (ICU only adds two trailing pointers to one), so leave ICU out. */
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#endif
