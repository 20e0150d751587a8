// The header is all there is; SwiftPM needs a source file for a C target.
#include "CExtendedAttributes.h"
