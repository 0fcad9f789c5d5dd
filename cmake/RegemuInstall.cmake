# Install rules: a driver project does
#   find_package(regemu REQUIRED)
#   target_link_libraries(my_driver_tests PRIVATE regemu::fakes GTest::gmock_main)
# (or regemu::c for C drivers, also through pkg-config `regemu`).
# Installed: the libraries, their headers under include/regemu/ (reached
# only as "regemu/...": include/regemu/{regdb,emulator,emulator/coverage,
# emulator/script,emulator/trap,fakes}/ and
# include/regemu/{regemu.h,iomem.h,hwreg.hpp,reg_bits.h}), the `regemu` tool,
# the shipped databases under share/regemu/yaml and their JSON Schema
# (share/regemu/database.schema.json) and the one of `regemu run --json`
# (share/regemu/run-json.schema.json), the User-Mode Linux kernel's build
# script, fragment and initramfs packer (share/regemu/uml), the docs the tool's --help
# points at, LICENSE, CHANGELOG.md, CONTRIBUTING.md and the user guide
# (docs/) under share/doc/regemu, the examples a driver project builds from
# (a behaviour kind of its own: share/regemu/examples/nvme_plugin, and the
# skeleton to copy, share/regemu/examples/kind_skeleton), and
# the package files: regemuConfig.cmake (with regemu_add_device,
# regemu_add_plugin, regemu_DATABASE_DIR and regemu_EXAMPLES_DIR) and
# regemu.pc (with the variables yamldir and docdir).
include(CMakePackageConfigHelpers)
set(REGEMU_INSTALL_YAML_DIR ${CMAKE_INSTALL_DATADIR}/regemu/yaml)
# Beside yaml/: an example database includes the shipped ones by the same
# relative path (../../../yaml/nvme) installed as in the source tree.
set(REGEMU_INSTALL_EXAMPLES_DIR ${CMAKE_INSTALL_DATADIR}/regemu/examples)

set(regemu_targets regemu_hwreg regemu_regdb regemu_emulator regemu_script regemu)
if(TARGET regemu_fakes)
  list(APPEND regemu_targets regemu_trap regemu_fakes regemu_c)
endif()
install(TARGETS ${regemu_targets} EXPORT regemuTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

foreach(dir regdb emulator fakes)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/${dir} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/regemu
    FILES_MATCHING PATTERN "*.hpp" PATTERN "*.def")
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/regemu DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/yaml/ DESTINATION ${REGEMU_INSTALL_YAML_DIR})
# The databases' JSON Schema (`regemu schema`), for editors to point at.
install(FILES ${PROJECT_BINARY_DIR}/database.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/regemu)
# The shape of `regemu run --json` (docs/scripts.md "JSON output"), for tools to validate against.
install(FILES ${PROJECT_SOURCE_DIR}/docs/run-json.schema.json DESTINATION ${CMAKE_INSTALL_DATADIR}/regemu)
# The kernel `regemu boot` runs: its build script, fragment and patches, and
# the initramfs packer (docs/real-kernels.md), as share/regemu/uml/.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/tools/uml/ DESTINATION ${CMAKE_INSTALL_DATADIR}/regemu/uml USE_SOURCE_PERMISSIONS)
# The kind's sources, its overlay database, script and test, without the
# build file of regemu's own build (tests/consumer shows a project's).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/nvme_plugin DESTINATION ${REGEMU_INSTALL_EXAMPLES_DIR}
  PATTERN CMakeLists.txt EXCLUDE)
# The kind skeleton of docs/extending.md, to copy: one source, its database, its script.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/examples/kind_skeleton DESTINATION ${REGEMU_INSTALL_EXAMPLES_DIR}
  PATTERN CMakeLists.txt EXCLUDE)
# The license (Apache-2.0 asks that it travel with the work), what changed,
# and how to contribute, beside the README.
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  ${PROJECT_SOURCE_DIR}/CONTRIBUTING.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(FILES ${PROJECT_SOURCE_DIR}/emulator/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME emulator.md)
# The user guide beside the README, as docs/ so that the README's links
# (docs/cli.md) work in the install too; the tutorial's files come with it
# (a user copies them), its test machinery does not.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR}
  PATTERN CMakeLists.txt EXCLUDE PATTERN CheckSteps.cmake EXCLUDE PATTERN check_snippets.sh EXCLUDE)

install(EXPORT regemuTargets NAMESPACE regemu:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/regemu)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/regemuConfig.cmake.in
  ${PROJECT_BINARY_DIR}/regemuConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/regemu
  PATH_VARS REGEMU_INSTALL_YAML_DIR REGEMU_INSTALL_EXAMPLES_DIR CMAKE_INSTALL_DOCDIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/regemuConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/regemuConfig.cmake ${PROJECT_BINARY_DIR}/regemuConfigVersion.cmake
  ${PROJECT_SOURCE_DIR}/cmake/RegemuAddDevice.cmake ${PROJECT_SOURCE_DIR}/cmake/RegemuAddPlugin.cmake DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/regemu)

# pkg-config for the C shim: static libraries, so every dependency is listed.
configure_file(${PROJECT_SOURCE_DIR}/cmake/regemu.pc.in ${PROJECT_BINARY_DIR}/regemu.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/regemu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
