# The client's LAN discovery probe: plain POSIX UDP, no SFML, so it builds (and is tested)
# even when the desktop client is switched off.
add_library(xq_lan_discovery STATIC ${CMAKE_CURRENT_LIST_DIR}/lan_discovery.cpp)
target_include_directories(xq_lan_discovery PUBLIC ${CMAKE_SOURCE_DIR})
target_link_libraries(xq_lan_discovery PUBLIC xq_proto_discovery)
