#include "regemu/emulator/trap/code_location.hpp"

#include <cxxabi.h>
#include <elfutils/libdwfl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>

namespace regemu::emulator::trap {
namespace {

// One libdwfl session over the process, rebuilt when an address falls in
// no module it knows (a library dlopen'ed since).
class Symbolizer {
 public:
  ~Symbolizer() {
    if (dwfl_ != nullptr) dwfl_end(dwfl_);
  }

  CodeLocation Locate(uint64_t address, uint64_t lookup) {
    std::lock_guard guard(mutex_);
    CodeLocation location;
    location.address = address;
    Dwfl_Module* module = ModuleAt(lookup);
    if (module == nullptr) return location;
    const char* module_name = dwfl_module_info(module, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr);
    if (module_name != nullptr) location.module = Intern(Basename(module_name));
    if (const char* symbol = dwfl_module_addrname(module, lookup)) location.function = Intern(Demangle(symbol));
    if (Dwfl_Line* line = dwfl_module_getsrc(module, lookup)) {
      int number = 0;
      const char* file = dwfl_lineinfo(line, nullptr, &number, nullptr, nullptr, nullptr);
      if (file != nullptr && number > 0) {
        location.file = Intern(file);
        location.line = static_cast<unsigned>(number);
      }
    }
    return location;
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

  static std::string Basename(const std::string& path) {
    size_t slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
  }

  static std::string Demangle(const char* symbol) {
    int status = 0;
    char* demangled = abi::__cxa_demangle(symbol, nullptr, nullptr, &status);
    if (status != 0 || demangled == nullptr) return symbol;
    std::string result = demangled;
    std::free(demangled);
    return result;
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

CodeLocation LocateCode(uint64_t address, bool return_address) {
  return Instance().Locate(address, return_address ? address - 1 : address);
}

std::string CodeLocation::Describe() const {
  char buffer[64];
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
  std::snprintf(buffer, sizeof buffer, "0x%llx", static_cast<unsigned long long>(address));
  return std::string(buffer) + (*module != '\0' ? " in " + std::string(module) : std::string()) + " (no symbol)";
}

}  // namespace regemu::emulator::trap
