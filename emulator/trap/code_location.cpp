#include "regemu/emulator/trap/code_location.hpp"

#include <cxxabi.h>
#include <dwarf.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

namespace regemu::emulator::trap {
namespace {

std::string Demangle(const char* symbol) {
  int status = 0;
  char* demangled = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
  if (status != 0 || demangled == nullptr) return symbol;
  std::string result = demangled;
  std::free(demangled);
  return result;
}

std::string Basename(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A function's name as a reader knows it: the demangled linkage name
// (C++), else DW_AT_name (C), following abstract origins of inlined copies.
std::string FunctionName(Dwarf_Die* die) {
  Dwarf_Attribute attribute;
  for (unsigned int name : {DW_AT_linkage_name, DW_AT_MIPS_linkage_name}) {
    if (dwarf_attr_integrate(die, name, &attribute) != nullptr) {
      if (const char* linkage = dwarf_formstring(&attribute)) return Demangle(linkage);
    }
  }
  if (dwarf_attr_integrate(die, DW_AT_name, &attribute) != nullptr) {
    if (const char* plain = dwarf_formstring(&attribute)) return plain;
  }
  return "";
}

// One libdwfl session over the process, rebuilt when an address falls in
// no module it knows (a library dlopen'ed since).
class Symbolizer {
 public:
  std::vector<CodeLocation> Locate(uint64_t address, uint64_t lookup) {
    std::lock_guard guard(mutex_);
    CodeLocation base;
    base.address = address;
    Dwfl_Module* module = ModuleAt(lookup);
    if (module == nullptr) return {base};
    const char* module_name = dwfl_module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (module_name != nullptr) base.module = Intern(Basename(module_name));
    if (const char* symbol = dwfl_module_addrname(module, lookup)) base.function = Intern(Demangle(symbol));

    Dwarf_Addr bias = 0;
    Dwarf_Die* cu = CompileUnitAt(module, lookup, bias);
    if (cu == nullptr) return {base};
    Dwarf_Addr pc = lookup - bias;
    CodeLocation frame = base;
    if (Dwarf_Line* line = dwarf_getsrc_die(cu, pc)) {
      int number = 0;
      const char* file = dwarf_linesrc(line, nullptr, nullptr);
      if (file != nullptr && dwarf_lineno(line, &number) == 0 && number > 0) {
        frame.file = Intern(file);
        frame.line = static_cast<unsigned>(number);
      }
    }
    // The scopes holding the pc, innermost first, as they nest in the
    // source (dwarf_getscopes_die from the innermost: dwarf_getscopes
    // would go on into an inlined function's abstract definition instead
    // of the function it was inlined into): each inlined subroutine is a
    // frame whose caller is at its DW_AT_call_file:DW_AT_call_line.
    std::vector<CodeLocation> frames;
    Dwarf_Die* scopes = nullptr;
    int count = dwarf_getscopes(cu, pc, &scopes);
    if (count > 0) {
      Dwarf_Die innermost = scopes[0];
      std::free(scopes);
      scopes = nullptr;
      count = dwarf_getscopes_die(&innermost, &scopes);
    }
    for (int i = 0; i < count; ++i) {
      int tag = dwarf_tag(&scopes[i]);
      if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) continue;
      // The function itself goes by its symbol (the full demangled C++
      // name); an inlined one by its DWARF name.
      std::string name = tag == DW_TAG_subprogram && *base.function != '\0' ? "" : FunctionName(&scopes[i]);
      if (!name.empty()) frame.function = Intern(name);
      frames.push_back(frame);
      if (tag == DW_TAG_subprogram) break;
      frame = base;
      CallSite(cu, &scopes[i], frame);
    }
    std::free(scopes);
    if (frames.empty()) frames.push_back(frame);
    return frames;
  }

 private:
  Dwfl_Module* ModuleAt(uint64_t address) {
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (dwfl_ == nullptr || attempt == 1) Report();
      if (dwfl_ == nullptr) return nullptr;
      if (Dwfl_Module* module = dwfl_addrmodule(dwfl_, address)) return module;
    }
    return nullptr;
  }

  // The compile unit holding `address`. libdw finds it through
  // .debug_aranges, which clang does not emit: when objects of both
  // compilers are linked together, the table misses clang's units (and may
  // answer with a neighbour), so a unit that does not hold the address is
  // not taken, and the units are searched by their own ranges.
  static Dwarf_Die* CompileUnitAt(Dwfl_Module* module, uint64_t address, Dwarf_Addr& bias) {
    if (Dwarf_Die* cu = dwfl_module_addrdie(module, address, &bias); cu != nullptr && dwarf_haspc(cu, address - bias) > 0) {
      return cu;
    }
    for (Dwarf_Die* cu = dwfl_module_nextcu(module, nullptr, &bias); cu != nullptr;
         cu = dwfl_module_nextcu(module, cu, &bias)) {
      if (dwarf_haspc(cu, address - bias) > 0) return cu;
    }
    return nullptr;
  }

  // Where the inlined subroutine `inlined` was called from.
  void CallSite(Dwarf_Die* cu, Dwarf_Die* inlined, CodeLocation& caller) {
    Dwarf_Attribute attribute;
    Dwarf_Word file_index = 0;
    Dwarf_Word line = 0;
    if (dwarf_attr(inlined, DW_AT_call_line, &attribute) != nullptr && dwarf_formudata(&attribute, &line) == 0) {
      caller.line = static_cast<unsigned>(line);
    }
    Dwarf_Files* files = nullptr;
    size_t file_count = 0;
    if (dwarf_attr(inlined, DW_AT_call_file, &attribute) != nullptr &&
        dwarf_formudata(&attribute, &file_index) == 0 && dwarf_getsrcfiles(cu, &files, &file_count) == 0 &&
        file_index < file_count) {
      if (const char* file = dwarf_filesrc(files, file_index, nullptr, nullptr)) caller.file = Intern(file);
    }
    if (*caller.file == '\0') caller.line = 0;
  }

  void Report() {
    if (dwfl_ != nullptr) dwfl_end(dwfl_);
    static const Dwfl_Callbacks callbacks = {
        .find_elf = dwfl_linux_proc_find_elf,
        .find_debuginfo = dwfl_standard_find_debuginfo,
        .section_address = nullptr,
        .debuginfo_path = nullptr,
    };
    dwfl_ = dwfl_begin(&callbacks);
    if (dwfl_ == nullptr) return;
    dwfl_report_begin(dwfl_);
    if (dwfl_linux_proc_report(dwfl_, getpid()) != 0 || dwfl_report_end(dwfl_, nullptr, nullptr) != 0) {
      dwfl_end(dwfl_);
      dwfl_ = nullptr;
    }
  }

  const char* Intern(const std::string& text) { return interned_.insert(text).first->c_str(); }

  std::mutex mutex_;
  Dwfl* dwfl_ = nullptr;
  std::set<std::string> interned_;  // node-based: c_str() pointers stay valid
};

Symbolizer& Instance() {
  static auto* symbolizer = new Symbolizer();  // never destroyed: its strings outlive every caller
  return *symbolizer;
}

}  // namespace

std::vector<CodeLocation> LocateFrames(uint64_t address, bool return_address) {
  return Instance().Locate(address, return_address ? address - 1 : address);
}

CodeLocation LocateCode(uint64_t address, bool return_address) { return LocateFrames(address, return_address)[0]; }

std::string CodeLocation::Describe() const {
  if (has_line()) {
    std::string text = std::string(file) + ":" + std::to_string(line);
    if (*function != '\0') text += " in " + std::string(function);
    return text;
  }
  if (*function != '\0') {
    std::string text = function;
    if (*module != '\0') text += " in " + std::string(module);
    return text + " (no line information)";
  }
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(address));
  return std::string(buffer) + (*module != '\0' ? " in " + std::string(module) : std::string()) + " (no symbol)";
}

}  // namespace regemu::emulator::trap
