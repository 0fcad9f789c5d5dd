// The plugin's entry point: `regemu --plugin libnvme_admin.so` calls it
// after dlopen, before the command loads a database naming the kind.
#include "nvme_admin.hpp"

REGEMU_PLUGIN { nvme_plugin::RegisterNvmeAdminKind(); }
