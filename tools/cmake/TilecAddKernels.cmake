# tilec_add_kernels(): compiles .tile kernels as part of a CMake build
# (docs/cmake.md). Included by tilecConfig.cmake.
#
#   tilec_add_kernels(<name>
#     SOURCES <file.tile>...         relative to CMAKE_CURRENT_SOURCE_DIR
#     ARCHS <arch>...                sm_80 sm_86 sm_89 sm_90 sm_90a
#     [DEFINES <NAME=VALUE>...]      -D for every source
#   | MANIFEST <file.yaml>           kernels x configs x archs instead
#     [OUTPUT_DIRECTORY <dir>]       default ${CMAKE_CURRENT_BINARY_DIR}/<name>
#     [FATBIN]                       one <kernel>.fatbin for all ARCHS
#     [FAST_MATH]                    tilec --fast-math (a manifest says it
#                                    per kernel: fast_math: true)
#     [EMBED])                       a library with the kernels inside
#
#   tilec_embed_kernels(<name> JSONS <kernel.json>...)
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
# With EMBED, <name> is instead a static library whose generated header
# <name>.h declares one C++ function per kernel (namespace <name>, typed
# parameters) and whose code holds the metadata and binaries, so the
# application reads no kernel file; the compilation target is
# <name>_tilec. tilec_embed_kernels() makes such a library from kernels
# compiled elsewhere (no compiler needed: a runtime-only package has it).
#
# With MANIFEST (docs/cmake.md, "Manifests") the compilations come from a
# YAML kernel manifest, checked at configure time by `tilec-tune manifest`
# (located errors); each of its kernels' configurations is one compilation
# for the entry's architectures, and the configuration reruns when the
# manifest changes.
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

# Adds the static library `name` (EMBED, docs/cmake.md) of the kernels
# whose metadata JSONs are `jsons` (their binaries beside them), built after
# the targets `depends`. `fn` names the caller in messages.
function(_tilec_embed fn name jsons depends)
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "${fn}: EMBED needs a target name that is a C++ "
      "identifier (it names the namespace of the functions), not '${name}'")
  endif()
  set(gen_dir "${CMAKE_CURRENT_BINARY_DIR}/${name}.embed")
  set(list_file "${gen_dir}/kernels.txt")
  list(JOIN jsons "\n" content)
  file(CONFIGURE OUTPUT "${list_file}" CONTENT "${content}\n" @ONLY)
  # The binaries the JSONs name (when they exist already), so that a
  # recompiled binary regenerates the library.
  set(inputs ${jsons})
  foreach(json IN LISTS jsons)
    if(EXISTS "${json}")
      file(READ "${json}" text)
      get_filename_component(json_dir "${json}" DIRECTORY)
      string(JSON count ERROR_VARIABLE error LENGTH "${text}" binaries)
      if(error)
        message(FATAL_ERROR "${fn}: ${json} is not kernel metadata: ${error}")
      endif()
      math(EXPR last "${count} - 1")
      foreach(b RANGE ${last})
        string(JSON file GET "${text}" binaries ${b} file)
        list(APPEND inputs "${json_dir}/${file}")
      endforeach()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES inputs)
  add_custom_command(
    OUTPUT "${gen_dir}/${name}.h" "${gen_dir}/${name}.cpp"
    COMMAND "${CMAKE_COMMAND}" "-DTILEC_EMBED_NAME=${name}"
            "-DTILEC_EMBED_LIST=${list_file}"
            "-DTILEC_EMBED_HEADER=${gen_dir}/${name}.h"
            "-DTILEC_EMBED_SOURCE=${gen_dir}/${name}.cpp"
            -P "${_TILEC_CMAKE_DIR}/TilecEmbed.cmake"
    DEPENDS ${inputs} ${depends} "${list_file}"
            "${_TILEC_CMAKE_DIR}/TilecEmbed.cmake"
    COMMENT "tilec: embedding the kernels of ${name}"
    VERBATIM)
  add_library(${name} STATIC "${gen_dir}/${name}.cpp")
  target_include_directories(${name} PUBLIC "${gen_dir}")
  target_link_libraries(${name} PUBLIC tilec::tilert)
  target_compile_features(${name} PUBLIC cxx_std_17)
endfunction()

function(tilec_embed_kernels name)
  set(fn "tilec_embed_kernels(${name})")
  cmake_parse_arguments(PARSE_ARGV 1 TE "" "" "JSONS")
  if(TE_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown arguments '${TE_UNPARSED_ARGUMENTS}' "
      "(expected JSONS <kernel.json>...)")
  endif()
  if(NOT TE_JSONS)
    message(FATAL_ERROR "${fn}: no JSONS: name the kernels' metadata files")
  endif()
  if(TARGET ${name})
    message(FATAL_ERROR "${fn}: a target named '${name}' already exists")
  endif()
  set(jsons "")
  foreach(json IN LISTS TE_JSONS)
    get_filename_component(json "${json}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${json}")
      message(FATAL_ERROR "${fn}: '${json}' does not exist")
    endif()
    list(APPEND jsons "${json}")
  endforeach()
  _tilec_embed("${fn}" "${name}" "${jsons}" "")
endfunction()

# Sets `out_var` to tilec's flags for `archs`, `defines` (NAME=VALUE),
# `kernel` (empty: every kernel of the source), FATBIN (`fatbin` true) and
# FAST_MATH (`fast_math` true).
function(_tilec_compile_flags archs defines kernel fatbin fast_math out_var)
  list(JOIN archs "," arch_list)
  set(flags --arch "${arch_list}")
  foreach(define IN LISTS defines)
    list(APPEND flags -D "${define}")
  endforeach()
  if(kernel)
    list(APPEND flags --kernel "${kernel}")
  endif()
  if(fast_math)
    list(APPEND flags --fast-math)
  endif()
  if(fatbin)
    list(APPEND flags --emit=fatbin,json)
  else()
    list(APPEND flags --emit=cubin,json)
  endif()
  set(${out_var} "${flags}" PARENT_SCOPE)
endfunction()

# Sets `out_var` to the `compiles` array (JSON) of the kernel manifest
# `manifest` (relative to CMAKE_CURRENT_SOURCE_DIR), checked by
# `tilec-tune manifest`; its problems stop the configuration.
function(_tilec_manifest_compiles fn manifest out_var)
  get_filename_component(manifest "${manifest}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${manifest}" OR IS_DIRECTORY "${manifest}")
    message(FATAL_ERROR "${fn}: the manifest '${manifest}' does not exist "
      "(relative paths are relative to ${CMAKE_CURRENT_SOURCE_DIR})")
  endif()
  if(NOT TARGET tilec::tilec-tune)
    message(FATAL_ERROR "${fn}: MANIFEST needs tilec-tune, which this tilec "
      "package (${_TILEC_CMAKE_DIR}) lacks")
  endif()
  get_target_property(tune_path tilec::tilec-tune LOCATION)
  execute_process(
    COMMAND "${tune_path}" manifest "${manifest}"
    OUTPUT_VARIABLE text
    ERROR_VARIABLE errors
    RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${fn}: the manifest '${manifest}' has errors:\n"
      "${errors}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
               "${manifest}")
  string(JSON compiles ERROR_VARIABLE error GET "${text}" compiles)
  if(error)
    message(FATAL_ERROR "${fn}: tilec-tune manifest printed no compilations: "
      "${error}")
  endif()
  set(${out_var} "${compiles}" PARENT_SCOPE)
endfunction()

# Adds the command that compiles `source` with `flags` into `dir` (its
# depfile in `depdir`, numbered by the variable `index_var`) and appends
# the files it writes to the list variable `outputs_var`, refusing a file
# another compilation of the call writes.
function(_tilec_add_compile fn source flags dir depdir index_var outputs_var)
  set(all_outputs ${${outputs_var}})
  set(index ${${index_var}})
  get_target_property(tilec_path tilec::tilec LOCATION)
  # "sm_80 sm_90a", and the -D values, for the build's progress line.
  list(FIND flags --arch at)
  math(EXPR at "${at} + 1")
  list(GET flags ${at} shown_archs)
  string(REPLACE "," " " shown_archs "${shown_archs}")
  set(shown_defines "")
  set(next_is_define FALSE)
  foreach(flag IN LISTS flags)
    if(next_is_define)
      string(APPEND shown_defines " -D ${flag}")
    endif()
    set(next_is_define FALSE)
    if(flag STREQUAL "-D")
      set(next_is_define TRUE)
    endif()
  endforeach()
  if(shown_defines)
    set(shown_archs "${shown_archs} with${shown_defines}")
  endif()
  if("--fast-math" IN_LIST flags)
    set(shown_archs "${shown_archs} (--fast-math)")
  endif()
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
  set(${index_var} ${index} PARENT_SCOPE)
  set(${outputs_var} ${all_outputs} PARENT_SCOPE)
endfunction()

function(tilec_add_kernels name)
  set(fn "tilec_add_kernels(${name})")
  cmake_parse_arguments(PARSE_ARGV 1 TK "FATBIN;EMBED;FAST_MATH"
                        "OUTPUT_DIRECTORY;MANIFEST" "SOURCES;ARCHS;DEFINES")
  if(TK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown arguments '${TK_UNPARSED_ARGUMENTS}' "
      "(expected SOURCES <file.tile>... ARCHS <arch>... [DEFINES "
      "<NAME=VALUE>...] [FAST_MATH] or MANIFEST <file.yaml>, then "
      "[OUTPUT_DIRECTORY <dir>] [FATBIN] [EMBED])")
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
  if(TK_MANIFEST)
    if(TK_SOURCES OR TK_ARCHS OR TK_DEFINES OR TK_FAST_MATH)
      message(FATAL_ERROR "${fn}: MANIFEST names the sources, architectures, "
        "-D values and fast_math itself: give it without SOURCES, ARCHS, "
        "DEFINES or FAST_MATH")
    endif()
  else()
    if(NOT TK_SOURCES)
      message(FATAL_ERROR "${fn}: no SOURCES: name the .tile files to "
        "compile (or give a MANIFEST)")
    endif()
    if(NOT TK_ARCHS)
      message(FATAL_ERROR "${fn}: no ARCHS: name the architectures to "
        "compile for (sm_80, sm_86, sm_89, sm_90, sm_90a)")
    endif()
  endif()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/${name}")
  if(DEFINED TK_OUTPUT_DIRECTORY)
    get_filename_component(dir "${TK_OUTPUT_DIRECTORY}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  set(depdir "${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${name}.tilec")

  set(all_outputs "")
  set(index 0)
  if(TK_MANIFEST)
    _tilec_manifest_compiles("${fn}" "${TK_MANIFEST}" compiles)
    set(embedded "")
    string(JSON count LENGTH "${compiles}")
    math(EXPR last "${count} - 1")
    foreach(c RANGE ${last})
      string(JSON spec GET "${compiles}" ${c} spec)
      string(JSON kernel GET "${compiles}" ${c} kernel)
      string(JSON arch_count LENGTH "${compiles}" ${c} archs)
      string(JSON define_count LENGTH "${compiles}" ${c} defines)
      string(JSON fast_math GET "${compiles}" ${c} fast_math)
      set(archs "")
      math(EXPR last_arch "${arch_count} - 1")
      foreach(a RANGE ${last_arch})
        string(JSON arch GET "${compiles}" ${c} archs ${a})
        list(APPEND archs "${arch}")
      endforeach()
      set(defines "")
      if(define_count GREATER 0)
        math(EXPR last_define "${define_count} - 1")
        foreach(d RANGE ${last_define})
          string(JSON define GET "${compiles}" ${c} defines ${d})
          list(APPEND defines "${define}")
        endforeach()
      endif()
      if(TK_EMBED)
        # One function per kernel: a second variant of one would collide.
        if("${spec}|${kernel}" IN_LIST embedded)
          message(FATAL_ERROR "${fn}: EMBED declares one function per "
            "kernel, and the manifest has several configurations of "
            "'${spec}': embed one configuration per kernel")
        endif()
        list(APPEND embedded "${spec}|${kernel}")
      endif()
      _tilec_compile_flags("${archs}" "${defines}" "${kernel}" "${TK_FATBIN}"
                           "${fast_math}" flags)
      _tilec_add_compile("${fn}" "${spec}" "${flags}" "${dir}" "${depdir}"
                         index all_outputs)
    endforeach()
  else()
    _tilec_compile_flags("${TK_ARCHS}" "${TK_DEFINES}" "" "${TK_FATBIN}"
                         "${TK_FAST_MATH}" flags)
    foreach(source IN LISTS TK_SOURCES)
      get_filename_component(source "${source}" ABSOLUTE
                             BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
      _tilec_add_compile("${fn}" "${source}" "${flags}" "${dir}" "${depdir}"
                         index all_outputs)
    endforeach()
  endif()

  set(kernels_target ${name})
  if(TK_EMBED)
    set(kernels_target ${name}_tilec)
    if(TARGET ${kernels_target})
      message(FATAL_ERROR "${fn}: a target named '${kernels_target}' already "
        "exists (EMBED names the compilation target so)")
    endif()
  endif()
  add_custom_target(${kernels_target} ALL DEPENDS ${all_outputs})
  set_target_properties(${kernels_target} PROPERTIES
    TILEC_OUTPUT_DIRECTORY "${dir}"
    TILEC_OUTPUTS "${all_outputs}")
  if(TK_EMBED)
    set(jsons "")
    foreach(output IN LISTS all_outputs)
      if(output MATCHES "\\.json$")
        list(APPEND jsons "${output}")
      endif()
    endforeach()
    _tilec_embed("${fn}" "${name}" "${jsons}" "${all_outputs}")
    add_dependencies(${name} ${kernels_target})
  endif()
endfunction()
