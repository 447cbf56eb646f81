# Parts of Debian's linux-source package unpacked into the build tree, for
# what builds the kernel's own code: the xarray peer of bench indexes
# (bench/CMakeLists.txt) and the kernel's radix-tree tests
# (tests/kernel/CMakeLists.txt). Nothing of the kernel is kept in this
# repository, and nothing is downloaded: without the package, callers skip
# what needs it and say so.
#
# Every caller shares one directory per build tree, ${PCL_LINUX_DIR}, laid out
# as the kernel's tree (the tarball's top directory stripped). The tarball is
# one xz stream, so each unpacking reads all of it (about 20 s): members are
# unpacked once, a caller's missing ones in one pass, and the stamp lists what
# is there. A newer tarball starts again from nothing. Each directory that
# builds from it includes this file (it sets ${PCL_LINUX_DIR} in its scope).
set(PCL_LINUX_SOURCE_TARBALL /usr/src/linux-source-6.12.tar.xz
  CACHE FILEPATH "Debian's linux-source tarball (package linux-source-6.12), for the kernel's xarray peer of bench indexes and the kernel's radix-tree tests")
set(PCL_LINUX_DIR ${CMAKE_BINARY_DIR}/linux-source)

# pcl_linux_source(<member>...): unpacks the members (paths in the kernel's
# tree, tar wildcards allowed: tools/include/*) into ${PCL_LINUX_DIR} unless
# they are there already, and sets PCL_LINUX_SOURCE_FOUND in the caller's
# scope to whether they are.
function(pcl_linux_source)
  set(PCL_LINUX_SOURCE_FOUND FALSE PARENT_SCOPE)
  if(NOT EXISTS ${PCL_LINUX_SOURCE_TARBALL})
    return()
  endif()
  set(stamp ${PCL_LINUX_DIR}/.unpacked)
  set(have "")
  if(EXISTS ${stamp} AND NOT ${PCL_LINUX_SOURCE_TARBALL} IS_NEWER_THAN ${stamp})
    file(STRINGS ${stamp} have)
  else()
    file(REMOVE_RECURSE ${PCL_LINUX_DIR})
  endif()
  set(missing ${ARGN})
  if(have)
    list(REMOVE_ITEM missing ${have})
  endif()
  if(missing)
    string(REPLACE ";" " " names "${missing}")
    message(STATUS "linux-source: unpacking ${names} from ${PCL_LINUX_SOURCE_TARBALL}")
    file(MAKE_DIRECTORY ${PCL_LINUX_DIR})
    get_filename_component(top ${PCL_LINUX_SOURCE_TARBALL} NAME)
    string(REGEX REPLACE "\\.tar\\.xz$" "" top ${top})
    list(TRANSFORM missing PREPEND ${top}/ OUTPUT_VARIABLE paths)
    execute_process(
      COMMAND tar -xJf ${PCL_LINUX_SOURCE_TARBALL} -C ${PCL_LINUX_DIR} --strip-components=1 --wildcards ${paths}
      RESULT_VARIABLE unpacked)
    if(NOT unpacked EQUAL 0)
      message(WARNING "linux-source: could not unpack ${names} from ${PCL_LINUX_SOURCE_TARBALL}")
      return()
    endif()
    list(APPEND have ${missing})
    string(JOIN "\n" listed ${have})
    file(WRITE ${stamp} "${listed}\n")
  endif()
  set(PCL_LINUX_SOURCE_FOUND TRUE PARENT_SCOPE)
endfunction()
