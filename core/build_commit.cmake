# Writes OUTPUT, the definition of pcl::build_commit() (lib/provenance.h):
# `git describe --always --dirty` of SOURCE_DIR, or "" when it is not a git
# checkout (a source tarball). Run at every build; the file is rewritten
# only when the commit changed, so that nothing else is rebuilt.
execute_process(COMMAND git -C ${SOURCE_DIR} describe --always --dirty --abbrev=12
  OUTPUT_VARIABLE commit OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE failed)
if(failed)
  set(commit "")
endif()
set(text "// Written at build time by core/build_commit.cmake.
#include \"lib/provenance.h\"

const char* pcl::build_commit()
{
    return \"${commit}\";
}
")
include(${CMAKE_CURRENT_LIST_DIR}/../cmake/write_if_changed.cmake)
pcl_write_if_changed(${OUTPUT} "${text}")
