# pagecache-lab-cli's bash completion, written from the program's own --help
# by generate.sh each time the program is linked: its commands and options
# are the program's, and go stale with it or not at all. Installed where
# bash-completion looks for a command's completion when it is first
# completed. (Included by app/CMakeLists.txt: a step after a link is added
# in the directory of the target.)
set(PCL_COMPLETION ${CMAKE_CURRENT_BINARY_DIR}/completion/pagecache-lab-cli)
add_custom_command(TARGET pagecache-lab-cli POST_BUILD
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/generate.sh $<TARGET_FILE:pagecache-lab-cli>
    ${CMAKE_CURRENT_LIST_DIR}/pagecache-lab-cli.bash ${PCL_COMPLETION}
  BYPRODUCTS ${PCL_COMPLETION}
  VERBATIM)
# A change to the generator or the completing function links the program
# again, and so writes the completion again.
set_property(TARGET pagecache-lab-cli APPEND PROPERTY LINK_DEPENDS
  ${CMAKE_CURRENT_LIST_DIR}/generate.sh ${CMAKE_CURRENT_LIST_DIR}/pagecache-lab-cli.bash)
install(FILES ${PCL_COMPLETION} DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
