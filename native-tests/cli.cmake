# The cuckoo command-line tool (tools/cli/): its behaviour end to end, by cli_test.sh.
if(TARGET cuckoo_cli)
  add_test(NAME cli COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli_test.sh $<TARGET_FILE:cuckoo_cli>)
endif()
