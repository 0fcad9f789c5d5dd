// `regemu show DB [NAME]`: a database's registers one a line, those a glob
// matches, one register or field in full, as text or JSON; an unknown name
// is exit 1 with the nearest name. Field names and policies are yaml/icl's.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "tests/tools/cli_support.hpp"

namespace {

using regemu::testing_support::CliResult;
using regemu::testing_support::RunRegemu;
using ::testing::ContainsRegex;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

std::vector<std::string> Names(const nlohmann::json& list) {
  std::vector<std::string> names;
  for (const nlohmann::json& item : list) names.push_back(item["name"].get<std::string>());
  return names;
}

// yaml/icl/interrupts.yaml: the master enable is rw, the level bits hw.
TEST(RegemuShowCli, ShowsARegisterWithItsFieldsHighBitFirst) {
  CliResult r = RunRegemu("show yaml/icl GEN11_GFX_MSTR_IRQ");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("GEN11_GFX_MSTR_IRQ: mmio 0x190010, 32 bits, reset 0x00000000\n"));
  EXPECT_THAT(r.out, HasSubstr("  Master Interrupt Control: master enable and level indications"));
  EXPECT_THAT(r.out, HasSubstr("  ref: ICL PRM Vol 13, Interrupts (Host SW Interface)"));
  EXPECT_THAT(r.out, HasSubstr("  defined at yaml/icl/interrupts.yaml:"));
  EXPECT_THAT(r.out, HasSubstr("  behaviour 'irq' (gen11-interrupts) names it as: master\n"));
  // Bits 28:17 and 15:2 are in no field and take the register's default policy.
  EXPECT_THAT(r.out, HasSubstr("  bits in no field: 0x1ffefffc, policy rsvd"));
  EXPECT_THAT(r.out, ContainsRegex(R"(\[31:31\] +MASTER_IRQ +rw +reset 0x0 +Master interrupt enable)"));
  EXPECT_THAT(r.out, ContainsRegex(R"(\[30:30\] +PCU_IRQ +hw +reset 0x0)"));
  EXPECT_THAT(r.out, ContainsRegex(R"(\[29:29\] +GU_MISC_IRQ +hw)"));
  EXPECT_THAT(r.out, ContainsRegex(R"(\[16:16\] +DISPLAY_IRQ +hw)"));
  EXPECT_THAT(r.out, ContainsRegex(R"(\[1:1\] +GT_DW1_IRQ +hw)"));
  EXPECT_THAT(r.out, ContainsRegex(R"(\[0:0\] +GT_DW0_IRQ +hw)"));
  EXPECT_LT(r.out.find("MASTER_IRQ"), r.out.find("GT_DW0_IRQ"));

  CliResult json = RunRegemu("show yaml/icl GEN11_GFX_MSTR_IRQ --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json reg = nlohmann::json::parse(json.out)["register"];
  EXPECT_EQ(reg["space"], "mmio");
  EXPECT_EQ(reg["offset"], 0x190010u);
  EXPECT_EQ(reg["width"], 32);
  EXPECT_THAT(Names(reg["fields"]),
              ElementsAre("MASTER_IRQ", "PCU_IRQ", "GU_MISC_IRQ", "DISPLAY_IRQ", "GT_DW1_IRQ", "GT_DW0_IRQ"));
  EXPECT_EQ(reg["fields"][0]["access"], "rw");
  EXPECT_EQ(reg["fields"][0]["msb"], 31);
  EXPECT_EQ(reg["fields"][1]["access"], "hw");
  EXPECT_EQ(reg["used_by"]["behaviours"][0]["name"], "irq");
  EXPECT_EQ(reg["used_by"]["behaviours"][0]["keys"][0], "master");
}

// yaml/cmsdk_apb: the SP804's MIS is computed, the SP805's registers are
// gated by WDOGLOCK, and a block's behaviours name their instance's
// registers by the block's names.
TEST(RegemuShowCli, ShowsComputedFieldsWriteGatesAndBlockBehaviours) {
  CliResult mis = RunRegemu("show yaml/cmsdk_apb DUALTIMER1_MIS");
  ASSERT_EQ(mis.exit_code, 0) << mis.err;
  EXPECT_THAT(mis.out, ContainsRegex(R"(\[0:0\] +INT +hw +reset 0x0, volatile, computed: RIS.INT & CONTROL.INTEN)"));
  CliResult field = RunRegemu("show yaml/cmsdk_apb DUALTIMER1_MIS.INT");
  ASSERT_EQ(field.exit_code, 0) << field.err;
  EXPECT_THAT(field.out, HasSubstr("  computed: RIS.INT & CONTROL.INTEN (kept up to date"));

  CliResult load = RunRegemu("show yaml/cmsdk_apb WDOGLOAD");
  ASSERT_EQ(load.exit_code, 0) << load.err;
  EXPECT_THAT(load.out, HasSubstr("  write gate: writable while !WDOGLOCK.LOCKED; a blocked write is a protocol violation ("));

  CliResult value = RunRegemu("show yaml/cmsdk_apb DUALTIMER1_VALUE");
  ASSERT_EQ(value.exit_code, 0) << value.err;
  EXPECT_THAT(value.out, HasSubstr("  behaviour 'DUALTIMER1_count' (counter) names it as: register\n"));
  EXPECT_THAT(value.out, Not(HasSubstr("DUALTIMER2_count")));

  CliResult json = RunRegemu("show yaml/cmsdk_apb DUALTIMER1_MIS --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json reg = nlohmann::json::parse(json.out)["register"];
  EXPECT_EQ(reg["fields"][0]["value"], "RIS.INT & CONTROL.INTEN");
  EXPECT_TRUE(reg["write_gate"].is_null());
  CliResult gated = RunRegemu("show yaml/cmsdk_apb WDOGLOAD --json");
  ASSERT_EQ(gated.exit_code, 0) << gated.err;
  EXPECT_THAT(nlohmann::json::parse(gated.out)["register"]["write_gate"].get<std::string>(),
              HasSubstr("writable while !WDOGLOCK.LOCKED"));
}

TEST(RegemuShowCli, ShowsEnumeratedValuesAndArrayElements) {
  CliResult r = RunRegemu("show yaml/icl GEN11_INTR_IDENTITY_REG1");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  element 1 of GEN11_INTR_IDENTITY_REG{n}: 2 from 0, stride 0x4\n"));
  EXPECT_THAT(r.out, ContainsRegex(R"(\[18:16\] +CLASS +hw)"));
  EXPECT_THAT(r.out, HasSubstr("        = 0x3 COPY: Copy (BCS)\n"));
  // Event counters name their slots' registers by the array's template.
  CliResult pmc = RunRegemu("show yaml/goldmont IA32_A_PMC2");
  ASSERT_EQ(pmc.exit_code, 0) << pmc.err;
  EXPECT_THAT(pmc.out, HasSubstr("IA32_A_PMC2: msr 0x4c3, 64 bits, reset 0x0000000000000000\n"));
  EXPECT_THAT(pmc.out, HasSubstr("behaviour 'pmu' (event-counters) names it as: views\n"));
}

TEST(RegemuShowCli, ShowsOneField) {
  CliResult r = RunRegemu("show yaml/icl PCICMD.MSE");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("PCICMD.MSE [1:1]: config 0x4, rw (read/write), reset 0x0\n"));
  EXPECT_THAT(r.out, HasSubstr("  mask 0x2, shift 1, width 1\n"));
  EXPECT_THAT(r.out, HasSubstr("  enables range MCHBAR_MIRROR\n"));  // yaml/icl/mmio.yaml: enabled_by
  CliResult other = RunRegemu("show yaml/icl PCICMD.BME");
  EXPECT_THAT(other.out, Not(HasSubstr("enables range")));

  CliResult json = RunRegemu("show yaml/icl PCICMD.RSVD --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json field = nlohmann::json::parse(json.out)["field"];
  EXPECT_EQ(field["access"], "mbz");
  EXPECT_EQ(field["msb"], 15);
  EXPECT_EQ(field["lsb"], 11);
}

TEST(RegemuShowCli, ListsSpacesAndEveryRegisterOneALine) {
  CliResult r = RunRegemu("show yaml/icl");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CliResult json = RunRegemu("show yaml/icl --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json list = nlohmann::json::parse(json.out);
  size_t registers = list["registers"].size();
  size_t spaces = list["spaces"].size();
  ASSERT_GT(registers, 100u);
  EXPECT_THAT(r.out, HasSubstr("yaml/icl: device 'icl', " + std::to_string(spaces) + " space(s), " +
                               std::to_string(registers) + " register(s)\n"));
  EXPECT_THAT(r.out, ContainsRegex("\nconfig +pci-config +0x1000\n"));
  EXPECT_THAT(r.out, ContainsRegex("\nmmio +0x190010 +32 +GEN11_GFX_MSTR_IRQ +Master Interrupt Control"));
  // Title, space heading and spaces, a blank line, register heading, registers.
  EXPECT_EQ(static_cast<size_t>(std::count(r.out.begin(), r.out.end(), '\n')), 1 + 1 + spaces + 1 + 1 + registers);

  nlohmann::json pcicmd;
  for (const nlohmann::json& reg : list["registers"]) {
    if (reg["name"] == "PCICMD") pcicmd = reg;
  }
  EXPECT_EQ(pcicmd["space"], "config");
  EXPECT_EQ(pcicmd["offset"], 4);
  EXPECT_EQ(pcicmd["width"], 16);
}

TEST(RegemuShowCli, ListsTheLargestDatabase) {
  CliResult json = RunRegemu("show yaml/hsw --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(nlohmann::json::parse(json.out)["registers"].size(), 11284u);
}

TEST(RegemuShowCli, AGlobListsTheRegistersItMatches) {
  CliResult r = RunRegemu("show yaml/icl 'GEN11_GT_INTR_*'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ContainsRegex("^2 of [0-9]+ register\\(s\\) match 'GEN11_GT_INTR_\\*'\n"));
  EXPECT_THAT(r.out, ContainsRegex("\nmmio +0x190018 +32 +GEN11_GT_INTR_DW0 "));
  EXPECT_THAT(r.out, ContainsRegex("\nmmio +0x19001c +32 +GEN11_GT_INTR_DW1 "));
  EXPECT_THAT(r.out, Not(HasSubstr("GEN11_GFX_MSTR_IRQ")));

  CliResult json = RunRegemu("show yaml/icl 'gen11_gt_intr_dw?' --json");  // case-insensitive
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_THAT(Names(nlohmann::json::parse(json.out)["registers"]),
              ElementsAre("GEN11_GT_INTR_DW0", "GEN11_GT_INTR_DW1"));

  CliResult none = RunRegemu("show yaml/icl 'NOTHING_*'");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("no register of yaml/icl matches 'NOTHING_*'"));
}

TEST(RegemuShowCli, AnUnknownNameSuggestsTheNearest) {
  CliResult r = RunRegemu("show yaml/icl GEN11_GFX_MSTR_IRK");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("yaml/icl has no register 'GEN11_GFX_MSTR_IRK' (did you mean 'GEN11_GFX_MSTR_IRQ'?)"));
  CliResult field = RunRegemu("show yaml/icl PCICMD.MSF");
  EXPECT_EQ(field.exit_code, 1);
  EXPECT_THAT(field.err, HasSubstr("register PCICMD has no field 'MSF' (did you mean 'MSE'?)"));
  CliResult reg_of_field = RunRegemu("show yaml/icl PCICDM.MSE");
  EXPECT_EQ(reg_of_field.exit_code, 1);
  EXPECT_THAT(reg_of_field.err, HasSubstr("has no register 'PCICDM' (did you mean 'PCICMD'?)"));
}

TEST(RegemuShowCli, MissingOrBrokenDatabasesFail) {
  CliResult missing = RunRegemu("show yaml/nosuch");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("no such file or folder: yaml/nosuch"));
  CliResult broken = RunRegemu("show tests/data/hsw_literal OACONTROL");
  EXPECT_EQ(broken.exit_code, 1);
  EXPECT_THAT(broken.err, HasSubstr("tests/data/hsw_literal has errors"));
}

}  // namespace

namespace {

// yaml/nvme: a field lists the reactions and rules that trigger on it, read
// it or set it, each as its sentence; --json carries them too.
TEST(RegemuShowCli, ListsTheReactionsOfAField) {
  CliResult r = RunRegemu("show yaml/nvme CC.EN");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("reaction 'enable' of 'controller' (triggers it): when CC.EN rises: after 2ms: "
                               "CSTS.RDY = 1\n"));
  EXPECT_THAT(r.out, HasSubstr("rule 'admin_queue_while_enabled' of 'controller' (reads it): when a write of AQA, "
                               "ASQ or ACQ, if CC.EN == 1: protocol violation:"));
  CliResult rdy = RunRegemu("show yaml/nvme CSTS.RDY");
  ASSERT_EQ(rdy.exit_code, 0) << rdy.err;
  EXPECT_THAT(rdy.out, HasSubstr("reaction 'enable' of 'controller' (sets it)"));
  CliResult intms = RunRegemu("show yaml/nvme INTMS");
  EXPECT_THAT(intms.out, HasSubstr("  a view of IVM"));

  CliResult json = RunRegemu("show yaml/nvme CC.EN --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json reactions = nlohmann::json::parse(json.out)["field"]["reactions"];
  ASSERT_TRUE(reactions.is_array()) << json.out;
  EXPECT_THAT(Names(reactions), ::testing::Contains("enable"));
}

// --injects lists the inject verbs the device's behaviours declare, each with
// its arguments and what it does: the forms a script's `inject` line checks
// against, so a script writer reads them here rather than in the sources.
TEST(RegemuShowCli, ListsTheInjectVerbsADeviceDeclares) {
  CliResult r = RunRegemu("show yaml/icl --injects");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("inject irq ENGINE DATA"));
  EXPECT_THAT(r.out, HasSubstr("inject irq message WORD"));

  CliResult json = RunRegemu("show yaml/icl --injects --json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json forms = nlohmann::json::parse(json.out)["injects"];
  ASSERT_TRUE(forms.is_array()) << json.out;
  bool engine_form = false;
  for (const nlohmann::json& form : forms) {
    if (form["usage"] != "inject irq ENGINE DATA") continue;
    engine_form = true;
    ASSERT_EQ(form["arguments"].size(), 2u) << form.dump();
    EXPECT_EQ(form["arguments"][0]["kind"], "choice");
    EXPECT_THAT(form["arguments"][0]["choices"].get<std::vector<std::string>>(), ::testing::Contains("RCS0"));
    EXPECT_EQ(form["arguments"][1]["max"], 0xFFFF);
  }
  EXPECT_TRUE(engine_form) << json.out;

  CliResult none = RunRegemu("show yaml/uart16550 --injects");
  ASSERT_EQ(none.exit_code, 0) << none.err;

  CliResult with_name = RunRegemu("show yaml/icl PCICMD --injects");
  EXPECT_EQ(with_name.exit_code, 1);
  EXPECT_THAT(with_name.err, HasSubstr("--injects"));
}

}  // namespace
