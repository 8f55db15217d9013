# Warnings and sanitizers for every target of this project.
add_library(statecheck_warnings INTERFACE)
target_compile_options(statecheck_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow)
if(STATECHECK_WERROR)
  target_compile_options(statecheck_warnings INTERFACE -Werror)
endif()

set(STATECHECK_FUZZ OFF)
if(STATECHECK_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    # With clang the same build also holds the libFuzzer targets (tests/fuzz):
    # coverage instrumentation for them costs the other tests little.
    add_compile_options(-fsanitize=fuzzer-no-link)
    set(STATECHECK_FUZZ ON)
  endif()
elseif(STATECHECK_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT STATECHECK_SANITIZE STREQUAL "")
  message(FATAL_ERROR "STATECHECK_SANITIZE must be empty, 'address' (ASan+UBSan; with clang also the fuzz targets) "
                      "or 'thread'")
endif()
