#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU; its ICU headers clash with the copy inside Foundation.
// We never touch the ICU members of encoding handlers, so leave them out of the interface.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
