# The Debian package, built from the install rules by `cpack -G DEB` in the
# build tree: pagecache-lab_VERSION_ARCH.deb, installed under /usr.

set(PCL_PACKAGE_MAINTAINER "Page Cache Lab maintainers <maintainers@users.noreply.a-seed-a896840c.example>"
  CACHE STRING "The Debian package's Maintainer field: a name and an address")

# Debian's copyright file (machine-readable, DEP-5) and changelog
# (app/debian/), where its policy puts them: /usr/share/doc/pagecache-lab/
# copyright and, a package without a Debian revision being native,
# changelog.gz, compressed as the policy asks (gzip -9n: no name or time
# stamp in it, so that the same changelog gives the same file).
find_program(PCL_GZIP gzip REQUIRED)
configure_file(${PROJECT_SOURCE_DIR}/app/debian/changelog ${PROJECT_BINARY_DIR}/debian/changelog COPYONLY)
add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/debian/changelog.gz
  COMMAND ${PCL_GZIP} -9 -n -k -f changelog
  WORKING_DIRECTORY ${PROJECT_BINARY_DIR}/debian
  DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog
  VERBATIM)
add_custom_target(pcl_changelog ALL DEPENDS ${PROJECT_BINARY_DIR}/debian/changelog.gz)
# Built with the programs, so that installing after building them alone
# finds every file it installs.
if(TARGET pagecache-lab-cli)
  add_dependencies(pagecache-lab-cli pcl_changelog)
endif()
install(FILES ${PROJECT_SOURCE_DIR}/app/debian/copyright ${PROJECT_BINARY_DIR}/debian/changelog.gz
  DESTINATION ${PCL_INSTALL_DOCDIR})

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME pagecache-lab)
set(CPACK_PACKAGE_VENDOR "Page Cache Lab")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT ${PCL_PACKAGE_MAINTAINER})
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
# A package installs under /usr whatever CMAKE_INSTALL_PREFIX a build uses.
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Debian ships binaries without their debug information.
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${PCL_PACKAGE_MAINTAINER})
set(CPACK_DEBIAN_PACKAGE_SECTION education)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The Description field: the summary, then the long description.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "simulated Linux page cache on real threads, shown live")
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "Page Cache Lab runs a simulated Linux page cache on real threads and shows
it live: the radix tree, hash table and skip list page indexes growing, their
locks contending, faults queueing on pages under I/O, readahead windows
opening ahead of a reader. The historical experiments of the kernel's
mailing-list threads come bundled as scenarios and lessons whose claims it
measures on the machine at hand.

It has a Qt desktop application (pagecache-lab) and a headless command
line program (pagecache-lab-cli) that runs scenarios, sweeps, benchmarks and
lessons and writes JSON, CSV and Chrome traces.")
# The Depends field, from the libraries the executables link
# (dpkg-shlibdeps, of dpkg-dev).
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

# The package_source target: the sources without the build trees and Git.
set(CPACK_SOURCE_GENERATOR TXZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build/")

include(CPack)
