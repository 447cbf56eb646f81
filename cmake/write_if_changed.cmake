# pcl_write_if_changed(PATH TEXT): writes TEXT to PATH unless PATH already
# holds it, so that a file generated at configure or build time keeps its
# time stamp when nothing changed and nothing that depends on it is rebuilt.
function(pcl_write_if_changed path text)
  set(old "")
  if(EXISTS ${path})
    file(READ ${path} old)
  endif()
  if(NOT old STREQUAL text)
    file(WRITE ${path} "${text}")
  endif()
endfunction()
