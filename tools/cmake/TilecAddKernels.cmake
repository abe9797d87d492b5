# tilec_add_kernels(): compiles .tile kernels as part of a CMake build
# (docs/cmake.md). Included by tilecConfig.cmake.
#
#   tilec_add_kernels(<name>
#     SOURCES <file.tile>...         relative to CMAKE_CURRENT_SOURCE_DIR
#     ARCHS <arch>...                sm_80 sm_86 sm_89 sm_90 sm_90a
#     [DEFINES <NAME=VALUE>...]      -D for every source
#     [OUTPUT_DIRECTORY <dir>]       default ${CMAKE_CURRENT_BINARY_DIR}/<name>
#     [FATBIN])                      one <kernel>.fatbin for all ARCHS
#
# adds the target <name>, built by `all`, whose build runs tilec once per
# source and writes <dir>/<kernel>.<arch>.cubin and <dir>/<kernel>.<arch>.json
# for every kernel of the source and every arch (<kernel> is the file-name
# stem tilec gives a kernel: its name plus the -D values that differ from the
# defaults). With FATBIN it writes <dir>/<kernel>.fatbin (SASS for every arch
# plus the PTX of the newest one that is not arch-specific, for newer GPUs)
# and the JSONs instead, which the runtime loads on any of those
# architectures. The target's properties
# TILEC_OUTPUT_DIRECTORY and TILEC_OUTPUTS hold where and what it writes.
#
# Configuring runs `tilec -M` on each source (the front end only) to learn
# the kernels' file names, and reruns when a source changes; building runs
# tilec with -MD -MF, so each source is compiled again exactly when it, a
# file tilec read for it, or the tilec executable changed.

# The directory of this file, for the functions below.
set(_TILEC_CMAKE_DIR "${CMAKE_CURRENT_LIST_DIR}")

# Sets `out_var` to the targets of the one-line Make rule `rule`, as tilec
# writes it (compiler/DepFile.h): escaped spaces and '#', doubled '$'.
function(_tilec_make_rule_targets rule out_var)
  string(ASCII 1 space)
  string(REPLACE "\\ " "${space}" rule "${rule}")
  string(REPLACE "\\#" "#" rule "${rule}")
  string(REPLACE "$$" "$" rule "${rule}")
  string(STRIP "${rule}" rule)
  string(FIND "${rule}" ": " colon)
  if(colon EQUAL -1)
    string(REGEX REPLACE ":$" "" targets "${rule}")
  else()
    string(SUBSTRING "${rule}" 0 ${colon} targets)
  endif()
  string(REPLACE ";" "\\;" targets "${targets}")
  string(REPLACE " " ";" targets "${targets}")
  string(REPLACE "${space}" " " targets "${targets}")
  set(${out_var} "${targets}" PARENT_SCOPE)
endfunction()

function(tilec_add_kernels name)
  set(fn "tilec_add_kernels(${name})")
  cmake_parse_arguments(PARSE_ARGV 1 TK "FATBIN" "OUTPUT_DIRECTORY"
                        "SOURCES;ARCHS;DEFINES")
  if(TK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown arguments '${TK_UNPARSED_ARGUMENTS}' "
      "(expected SOURCES <file.tile>... ARCHS <arch>... [DEFINES "
      "<NAME=VALUE>...] [OUTPUT_DIRECTORY <dir>] [FATBIN])")
  endif()
  foreach(keyword IN LISTS TK_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${fn}: ${keyword} is given without a value")
  endforeach()
  if(NOT TARGET tilec::tilec)
    message(FATAL_ERROR "${fn}: this tilec package (${_TILEC_CMAKE_DIR}) "
      "has no compiler: it was built with -DTILEC_BUILD_COMPILER=OFF and "
      "holds only the runtime (tilec::tilert)")
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_.+-]*$")
    message(FATAL_ERROR "${fn}: '${name}' is not a valid target name")
  endif()
  if(TARGET ${name})
    message(FATAL_ERROR "${fn}: a target named '${name}' already exists")
  endif()
  if(NOT TK_SOURCES)
    message(FATAL_ERROR "${fn}: no SOURCES: name the .tile files to compile")
  endif()
  if(NOT TK_ARCHS)
    message(FATAL_ERROR "${fn}: no ARCHS: name the architectures to compile "
      "for (sm_80, sm_86, sm_89, sm_90, sm_90a)")
  endif()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  if(DEFINED TK_OUTPUT_DIRECTORY)
    get_filename_component(dir "${TK_OUTPUT_DIRECTORY}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  list(JOIN TK_ARCHS "," arch_list)
  list(JOIN TK_ARCHS " " shown_archs)
  set(flags --arch "${arch_list}")
  foreach(define IN LISTS TK_DEFINES)
    list(APPEND flags -D "${define}")
  endforeach()
  if(TK_FATBIN)
    list(APPEND flags --emit=fatbin,json)
  else()
    list(APPEND flags --emit=cubin,json)
  endif()
  get_target_property(tilec_path tilec::tilec LOCATION)
  set(depdir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.tilec")

  set(all_outputs "")
  set(index 0)
  foreach(source IN LISTS TK_SOURCES)
    get_filename_component(source "${source}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    foreach(path "${source}" "${dir}")
      if(path MATCHES "\\\\")
        message(FATAL_ERROR "${fn}: '${path}' has a backslash, which a "
          "dependency file cannot spell unambiguously")
      endif()
    endforeach()
    if(NOT EXISTS "${source}" OR IS_DIRECTORY "${source}")
      message(FATAL_ERROR "${fn}: the source '${source}' does not exist "
        "(relative paths are relative to ${CMAKE_CURRENT_SOURCE_DIR})")
    endif()
    # The files tilec writes for this source, from its front end; a kernel
    # added or renamed reconfigures.
    execute_process(
      COMMAND "${tilec_path}" "${source}" ${flags} -o "${dir}/" -M
      OUTPUT_VARIABLE rule
      ERROR_VARIABLE errors
      RESULT_VARIABLE status)
    if(NOT status EQUAL 0)
      list(JOIN flags " " shown_flags)
      message(FATAL_ERROR "${fn}: tilec rejects '${source}' with "
        "${shown_flags}:\n${errors}")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
                 "${source}")
    _tilec_make_rule_targets("${rule}" outputs)
    foreach(output IN LISTS outputs)
      if(output IN_LIST all_outputs)
        message(FATAL_ERROR "${fn}: two sources would write '${output}' "
          "(kernels of the same name): give them separate "
          "tilec_add_kernels() calls with different OUTPUT_DIRECTORY")
      endif()
    endforeach()
    list(APPEND all_outputs ${outputs})

    get_filename_component(stem "${source}" NAME_WE)
    set(depfile "${depdir}/${index}-${stem}.d")
    math(EXPR index "${index} + 1")
    file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${source}")
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND tilec::tilec "${source}" ${flags} -o "${dir}/" -MD -MF
              "${depfile}"
      DEPENDS "${source}" "$<TARGET_FILE:tilec::tilec>"
      DEPFILE "${depfile}"
      COMMENT "tilec: compiling ${shown} for ${shown_archs}"
      VERBATIM)
  endforeach()

  add_custom_target(${name} ALL DEPENDS ${all_outputs})
  set_target_properties(${name} PROPERTIES
    TILEC_OUTPUT_DIRECTORY "${dir}"
    TILEC_OUTPUTS "${all_outputs}")
endfunction()
