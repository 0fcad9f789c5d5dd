// A plugin as one built against an older regemu would be: it says plugin
// version 1. The loader must refuse it before calling its entry point, with
// a message naming both versions (tests/plugin_versions/CMakeLists.txt).
#include <cstdio>
#include <cstdlib>

extern "C" __attribute__((visibility("default"))) unsigned regemu_plugin_api_version() { return 1; }

extern "C" __attribute__((visibility("default"))) void regemu_plugin_init() {
  std::fputs("older_plugin: regemu_plugin_init ran, but the loader should have refused the plugin\n", stderr);
  std::abort();
}
