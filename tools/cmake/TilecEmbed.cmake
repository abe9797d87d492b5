# Generates the sources of an EMBED kernel library (docs/cmake.md), in
# script mode, at build time; plain CMake, so a machine without tilec (or
# LLVM) can run it on kernels compiled elsewhere:
#
#   cmake -DTILEC_EMBED_NAME=<namespace> -DTILEC_EMBED_LIST=<file>
#         -DTILEC_EMBED_HEADER=<name>.h -DTILEC_EMBED_SOURCE=<name>.cpp
#         -P TilecEmbed.cmake
#
# <file> lists kernel metadata JSONs, one per line. Their kernels are grouped
# by name (the variants of a kernel: one per architecture, newest first); the
# header declares per kernel
#   void <kernel>(const DLTensor &<tensor>..., <scalar type> <scalar>...,
#                 CUstream stream = nullptr);
#   void <kernel>(<element type> *<tensor>..., int64_t <dim>...,
#                 <scalar type> <scalar>..., CUstream stream = nullptr,
#                 int32_t device = 0);       (when it has tensors)
#   tilert::EmbeddedKernel &<kernel>_kernel();
# and the source holds the JSONs and binaries as byte arrays.

cmake_minimum_required(VERSION 3.20)

foreach(var TILEC_EMBED_NAME TILEC_EMBED_LIST TILEC_EMBED_HEADER
        TILEC_EMBED_SOURCE)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "TilecEmbed.cmake: ${var} is not set")
  endif()
endforeach()

# C++ keywords a parameter or kernel name must not be spelled as.
set(_keywords alignas alignof and asm auto bool break case catch char class
  const constexpr continue default delete do double else enum explicit export
  extern false float for friend goto if inline int long mutable namespace new
  noexcept not nullptr operator or private protected public register return
  short signed sizeof static struct switch template this throw true try
  typedef typeid typename union unsigned using virtual void volatile while
  xor stream device)

# Sets out_var to `name`, with an underscore appended if it is a keyword (or
# one of the generated functions' own parameters, stream and device).
function(_embed_identifier name out_var)
  if(name IN_LIST _keywords)
    set(name "${name}_")
  endif()
  set(${out_var} "${name}" PARENT_SCOPE)
endfunction()

# Sets <prefix>_CXX, <prefix>_CODE, <prefix>_BITS and <prefix>_SCALAR (the
# tilert::Scalar factory) for a metadata dtype.
function(_embed_dtype dtype prefix json)
  set(table
    "f16|uint16_t|2|16|f16|float" "bf16|uint16_t|4|16|bf16|float"
    "f32|float|2|32|f32|float" "f64|double|2|64|f64|double"
    "i8|int8_t|0|8|i8|int8_t" "i16|int16_t|0|16|i16|int16_t"
    "i32|int32_t|0|32|i32|int32_t" "i64|int64_t|0|64|i64|int64_t"
    "u8|uint8_t|1|8|u8|uint8_t" "u32|uint32_t|1|32|u32|uint32_t"
    "bool|bool|6|8|boolean|bool")
  foreach(row IN LISTS table)
    string(REPLACE "|" ";" fields "${row}")
    list(GET fields 0 name)
    if(name STREQUAL dtype)
      list(GET fields 1 cxx)
      list(GET fields 2 code)
      list(GET fields 3 bits)
      list(GET fields 4 factory)
      list(GET fields 5 scalar_cxx)
      set(${prefix}_CXX "${cxx}" PARENT_SCOPE)
      set(${prefix}_CODE "${code}" PARENT_SCOPE)
      set(${prefix}_BITS "${bits}" PARENT_SCOPE)
      set(${prefix}_FACTORY "${factory}" PARENT_SCOPE)
      set(${prefix}_SCALAR_CXX "${scalar_cxx}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  message(FATAL_ERROR "TilecEmbed.cmake: ${json}: unknown dtype '${dtype}'")
endfunction()

# Sets out_var to the bytes of `file` as C initializers ("0x7b,0x0a,...").
function(_embed_bytes file out_var)
  file(READ "${file}" hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f])"
         "\\1\n" hex "${hex}")
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," hex "${hex}")
  set(${out_var} "${hex}" PARENT_SCOPE)
endfunction()

# Sets out_var to a number for ordering architectures newest first, the
# arch-specific one (sm_90a) before its portable twin (sm_90).
function(_embed_arch_rank arch out_var)
  string(REGEX MATCH "[0-9]+" number "${arch}")
  math(EXPR rank "${number} * 2")
  if(arch MATCHES "a$")
    math(EXPR rank "${rank} + 1")
  endif()
  set(${out_var} "${rank}" PARENT_SCOPE)
endfunction()

file(STRINGS "${TILEC_EMBED_LIST}" jsons)
if(NOT jsons)
  message(FATAL_ERROR "TilecEmbed.cmake: ${TILEC_EMBED_LIST} names no kernel")
endif()

# Read every JSON: kernel name, arch, signature, binaries.
set(kernels "")
set(data "")
set(variant 0)
foreach(json IN LISTS jsons)
  file(READ "${json}" text)
  get_filename_component(json_name "${json}" NAME)
  get_filename_component(json_dir "${json}" DIRECTORY)
  string(JSON kernel GET "${text}" name)
  string(JSON arch GET "${text}" arch)
  if(NOT kernel MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "TilecEmbed.cmake: ${json}: kernel name '${kernel}' "
      "is not a C++ identifier")
  endif()
  # The signature: the parameters a caller passes.
  set(signature "")
  string(JSON count LENGTH "${text}" params)
  math(EXPR last "${count} - 1")
  foreach(p RANGE ${last})
    string(JSON kind GET "${text}" params ${p} kind)
    string(JSON pname GET "${text}" params ${p} name)
    if(kind STREQUAL "tensor")
      string(JSON dtype GET "${text}" params ${p} dtype)
      string(JSON rank LENGTH "${text}" params ${p} shape)
      set(shape "")
      if(rank GREATER 0)
        math(EXPR rank_last "${rank} - 1")
        foreach(d RANGE ${rank_last})
          string(JSON extent GET "${text}" params ${p} shape ${d})
          list(APPEND shape "${extent}")
        endforeach()
      endif()
      string(REPLACE ";" "," shape "${shape}")
      list(APPEND signature "tensor:${pname}:${dtype}:${shape}")
    elseif(kind STREQUAL "dim")
      list(APPEND signature "dim:${pname}")
    elseif(kind STREQUAL "scalar")
      string(JSON dtype GET "${text}" params ${p} dtype)
      list(APPEND signature "scalar:${pname}:${dtype}")
    endif()
  endforeach()
  string(REPLACE ";" "|" signature "${signature}")
  if(kernel IN_LIST kernels)
    if(NOT signature STREQUAL "${signature_${kernel}}")
      message(FATAL_ERROR "TilecEmbed.cmake: ${json}: kernel '${kernel}' "
        "takes other parameters than in ${first_json_${kernel}}")
    endif()
  else()
    list(APPEND kernels "${kernel}")
    set(signature_${kernel} "${signature}")
    set(first_json_${kernel} "${json}")
    set(variants_${kernel} "")
  endif()
  _embed_arch_rank("${arch}" rank)
  list(APPEND variants_${kernel} "${rank}:${variant}")
  set(arch_${variant} "${arch}")

  # The bytes.
  _embed_bytes("${json}" bytes)
  string(APPEND data "const unsigned char Json${variant}[] = {\n${bytes}};\n")
  string(JSON num_binaries LENGTH "${text}" binaries)
  math(EXPR binaries_last "${num_binaries} - 1")
  set(binary_list "")
  foreach(b RANGE ${binaries_last})
    string(JSON file GET "${text}" binaries ${b} file)
    _embed_bytes("${json_dir}/${file}" bytes)
    string(APPEND data
      "const unsigned char Binary${variant}_${b}[] = {\n${bytes}};\n")
    string(APPEND binary_list
      "    {Binary${variant}_${b}, sizeof(Binary${variant}_${b})},\n")
  endforeach()
  string(APPEND data
    "const tilertBinary Binaries${variant}[] = {\n${binary_list}};\n")
  set(entry_${variant} "    {\"${json_name}\", reinterpret_cast<const char *>(Json${variant}), sizeof(Json${variant}), Binaries${variant}, ${num_binaries}},\n")
  math(EXPR variant "${variant} + 1")
endforeach()

get_filename_component(header_name "${TILEC_EMBED_HEADER}" NAME)
string(TOUPPER "TILEC_EMBED_${TILEC_EMBED_NAME}_H" guard)
set(header "// ${header_name}: generated by tilec_add_kernels(${TILEC_EMBED_NAME} ... EMBED)
// (TilecEmbed.cmake); do not edit. The kernels' metadata and binaries are
// compiled into the library ${TILEC_EMBED_NAME}: nothing is read from files.
// Each function launches with libtilert's checks (dtype, rank, dims,
// contiguity, device, alignment, scalars) and throws tilert::Error.

#ifndef ${guard}
#define ${guard}

#include <tilert/embedded.hpp>

#include <cstdint>

namespace ${TILEC_EMBED_NAME} {
")
set(source "// Generated by tilec_add_kernels(${TILEC_EMBED_NAME} ... EMBED); do not edit.

#include \"${header_name}\"

namespace {

${data}")
set(functions "")

foreach(kernel IN LISTS kernels)
  _embed_identifier("${kernel}" fn)
  # Variants, newest architecture first.
  list(SORT variants_${kernel} COMPARE NATURAL ORDER DESCENDING)
  set(entries "")
  set(archs "")
  foreach(item IN LISTS variants_${kernel})
    string(REGEX REPLACE "^[0-9]+:" "" index "${item}")
    string(APPEND entries "${entry_${index}}")
    list(APPEND archs "${arch_${index}}")
  endforeach()
  list(LENGTH variants_${kernel} num_variants)
  list(JOIN archs ", " shown_archs)
  string(APPEND source "const tilert::EmbeddedVariant Variants_${kernel}[] = {\n${entries}};\n")

  # The parameters, in the forms of both functions.
  string(REPLACE "|" ";" params "${signature_${kernel}}")
  set(described "")
  set(tensor_params "")
  set(pointer_params "")
  set(dim_params "")
  set(scalar_params "")
  set(tensor_args "")
  set(scalar_args "")
  set(scalar_names "")
  set(pointer_body "")
  set(pointer_tensor_args "")
  set(num_tensors 0)
  foreach(param IN LISTS params)
    string(REPLACE ":" ";" fields "${param}")
    list(GET fields 0 kind)
    list(GET fields 1 pname)
    _embed_identifier("${pname}" id)
    if(kind STREQUAL "tensor")
      list(GET fields 2 dtype)
      list(LENGTH fields nfields)
      set(shape "")
      if(nfields GREATER 3)
        list(GET fields 3 shape)
      endif()
      _embed_dtype("${dtype}" t "${first_json_${kernel}}")
      list(APPEND described "${pname}: ${dtype}[${shape}]")
      list(APPEND tensor_params "const DLTensor &${id}")
      list(APPEND tensor_args "&${id}")
      list(APPEND pointer_params "${t_CXX} *${id}")
      string(REPLACE "," ";" extents "${shape}")
      set(shape_ids "")
      foreach(extent IN LISTS extents)
        if(extent MATCHES "^[0-9]+$")
          list(APPEND shape_ids "${extent}")
        else()
          _embed_identifier("${extent}" extent_id)
          list(APPEND shape_ids "${extent_id}")
        endif()
      endforeach()
      list(LENGTH shape_ids rank)
      list(JOIN shape_ids ", " shape_init)
      if(rank GREATER 0)
        string(APPEND pointer_body "  int64_t tilec_shape_${pname}[] = {${shape_init}};\n")
        set(shape_arg "tilec_shape_${pname}")
      else()
        set(shape_arg "nullptr")
      endif()
      string(APPEND pointer_body "  DLTensor tilec_${pname} = tilert::deviceTensor(${id}, device, ${t_CODE}, ${t_BITS}, ${shape_arg}, ${rank});\n")
      list(APPEND pointer_tensor_args "tilec_${pname}")
      math(EXPR num_tensors "${num_tensors} + 1")
    elseif(kind STREQUAL "dim")
      list(APPEND dim_params "int64_t ${id}")
    else()
      list(GET fields 2 dtype)
      _embed_dtype("${dtype}" s "${first_json_${kernel}}")
      list(APPEND described "${pname}: ${dtype}")
      list(APPEND scalar_params "${s_SCALAR_CXX} ${id}")
      list(APPEND scalar_args "tilert::Scalar::${s_FACTORY}(${id})")
      list(APPEND scalar_names "${id}")
    endif()
  endforeach()
  list(JOIN described ", " described)

  set(dl_params ${tensor_params} ${scalar_params} "CUstream stream")
  list(JOIN dl_params ", " dl_definition)
  list(JOIN tensor_args ", " tensor_list)
  list(JOIN scalar_args ", " scalar_list)
  string(APPEND header "
/// ${kernel}(${described}), for ${shown_archs} (the variant that runs on the
/// tensors' device): launches on `stream` (nullptr: the legacy default
/// stream) of the device that holds the tensors; throws tilert::Error.
void ${fn}(${dl_definition} = nullptr);
")
  string(APPEND functions "
tilert::EmbeddedKernel &${fn}_kernel() {
  static tilert::EmbeddedKernel Kernel(Variants_${kernel}, ${num_variants});
  return Kernel;
}

void ${fn}(${dl_definition}) {
  ${fn}_kernel().launch({${tensor_list}}, {${scalar_list}}, stream);
}
")
  if(num_tensors GREATER 0)
    set(ptr_params ${pointer_params} ${dim_params} ${scalar_params}
        "CUstream stream" "int32_t device")
    list(JOIN ptr_params ", " ptr_definition)
    string(REPLACE "CUstream stream, int32_t device"
           "CUstream stream = nullptr, int32_t device = 0" ptr_declaration
           "${ptr_definition}")
    set(forward ${pointer_tensor_args} ${scalar_names} stream)
    list(JOIN forward ", " forward)
    string(APPEND header "
/// ${kernel} on compact row-major tensors at device addresses of CUDA device
/// `device`, with the dims given; otherwise as above.
void ${fn}(${ptr_declaration});
")
    string(APPEND functions "
void ${fn}(${ptr_definition}) {
${pointer_body}  ${fn}(${forward});
}
")
  endif()
  string(APPEND header "
/// The embedded kernel ${kernel} (its variants; the tilert::Kernel of a
/// device).
tilert::EmbeddedKernel &${fn}_kernel();
")
endforeach()

string(APPEND header "
} // namespace ${TILEC_EMBED_NAME}

#endif // ${guard}
")
string(APPEND source "
} // namespace

namespace ${TILEC_EMBED_NAME} {
${functions}
} // namespace ${TILEC_EMBED_NAME}
")

file(WRITE "${TILEC_EMBED_HEADER}" "${header}")
file(WRITE "${TILEC_EMBED_SOURCE}" "${source}")
