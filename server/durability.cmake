# Durability and LAN life for xiangqi-server (clocks, persistence, discovery, external
# engines, limits and the operator console), built as one library the server links.
find_package(SQLite3 REQUIRED)
find_package(Threads REQUIRED)
find_package(Boost REQUIRED)

add_library(xq_durability STATIC
  ${CMAKE_CURRENT_LIST_DIR}/clock.cpp
  ${CMAKE_CURRENT_LIST_DIR}/storage.cpp
  ${CMAKE_CURRENT_LIST_DIR}/discovery.cpp
  ${CMAKE_CURRENT_LIST_DIR}/external_engine.cpp
  ${CMAKE_CURRENT_LIST_DIR}/archive.cpp
  ${CMAKE_CURRENT_LIST_DIR}/admin.cpp
)
target_include_directories(xq_durability PUBLIC ${CMAKE_CURRENT_LIST_DIR})
target_link_libraries(xq_durability PUBLIC xq_rules xq_proto_discovery Boost::boost Threads::Threads PRIVATE SQLite::SQLite3)
