// A plugin built before plugin versions existed: an entry point, no
// version. The loader must refuse it before calling the entry point.
#include <cstdio>
#include <cstdlib>

extern "C" __attribute__((visibility("default"))) void regemu_plugin_init() {
  std::fputs("unversioned_plugin: regemu_plugin_init ran, but the loader should have refused the plugin\n", stderr);
  std::abort();
}
