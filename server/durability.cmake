# Durability and LAN life for xiangqi-server (clocks, persistence, archive, discovery,
# external engines, limits and the operator console). xq_durability holds the parts that
# stand alone (unit-tested without a server); xq_durability_server joins them to the core.
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

if(TARGET xq_server_core)
  find_package(CLI11 REQUIRED)
  find_package(spdlog REQUIRED)
  # Members of Lobby and Table the layer adds (restore, console, archive requests): part of
  # the core itself, since the core's message dispatch calls them.
  target_sources(xq_server_core PRIVATE ${CMAKE_CURRENT_LIST_DIR}/core_extensions.cpp
                                        ${CMAKE_CURRENT_LIST_DIR}/engine_pool.cpp)
  # The core checks the server password and runs external engines for AI seats.
  # The lobby reads create_table.settings.clock with the one clock parser.
  target_link_libraries(xq_server_core PUBLIC xq_durability)
  add_library(xq_durability_server STATIC
    ${CMAKE_CURRENT_LIST_DIR}/table_clock.cpp
    ${CMAKE_CURRENT_LIST_DIR}/durability_layer.cpp
    ${CMAKE_CURRENT_LIST_DIR}/durability_runtime.cpp
  )
  target_link_libraries(xq_durability_server PUBLIC xq_durability xq_server_core CLI11::CLI11 spdlog::spdlog)
  target_compile_definitions(xq_durability_server PRIVATE XQ_VERSION="${PROJECT_VERSION}")
  if(TARGET xiangqi-server)
    target_link_libraries(xiangqi-server PRIVATE xq_durability_server)
  endif()
endif()

# What committing a move costs (NORMAL vs FULL sync), printed as numbers and a ratio.
add_executable(xq-storage-bench ${CMAKE_SOURCE_DIR}/tools/durability/storage_bench.cpp)
target_link_libraries(xq-storage-bench PRIVATE xq_durability)

# Lists the servers answering a LAN discovery query (--discovery-address / XQ_DISCOVERY_ADDR).
find_package(CLI11 REQUIRED)
add_executable(xiangqi-discover ${CMAKE_SOURCE_DIR}/tools/durability/discover.cpp)
target_link_libraries(xiangqi-discover PRIVATE xq_lan_discovery CLI11::CLI11)
