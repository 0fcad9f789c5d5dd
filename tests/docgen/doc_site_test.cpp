// regemu doc's pages, read back as text: one picture box per field, the
// places a register is visible, the index's data, deep-link targets, folder
// handling, escaping. The same pages in a real browser: doc_browser_test.
#include "tools/docgen/doc_site.hpp"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/regdb/test_support.hpp"
#include "tools/docgen/bitfield_svg.hpp"
#include "tools/docgen/coverage_marks.hpp"

namespace regemu::docgen {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;
using regdb::testing_support::CheckYaml;

constexpr const char* kDatabase = R"(device: demo
doc: A device for the doc tests.
spaces:
  - {name: config, kind: pci-config, size: 0x100}
  - {name: bar, kind: mmio, size: 0x10000}
ranges:
  - name: MIRROR
    kind: alias
    space: bar
    base: 0x8000
    size: 0x100
    target: {space: config, offset: 0x0}
  - {name: HOLE, kind: reserved, space: bar, base: 0x4000, size: 0x1000}
registers:
  - name: CMD
    space: config
    offset: 0x4
    width: 16
    doc: Command <enables> & more
    ref: PCI spec 6.2.2
    fields:
      - {name: MSE, bits: 1, doc: Memory space enable}
      - {name: BME, bits: 2}
      - {name: RSVD, bits: "15:11", access: mbz}
  - name: STATUS
    space: bar
    offset: 0x10
    volatile: true
    fields:
      - {name: DONE, bits: 0, access: w1c}
      - {name: MODE, bits: "3:1", values: [{name: FAST, value: 2, doc: quickly}]}
  - name: WIDE
    space: bar
    offset: 0x20
    width: 64
    fields:
      - {name: SPAN, bits: "40:24", reset: 3}
)";

std::string Slurp(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

class DocSiteTest : public ::testing::Test {
 protected:
  void SetUp() override {
    loaded_ = CheckYaml(kDatabase);
    ASSERT_FALSE(loaded_.diagnostics.has_errors()) << regdb::FormatDiagnostics(loaded_.sources, loaded_.diagnostics);
    char pattern[] = "/tmp/regemu_doc_test_XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    root_ = pattern;
    site_ = root_ / "site";
  }
  void TearDown() override { fs::remove_all(root_); }

  void Write(const CoverageMarks& coverage = {}) {
    DocSiteStats stats;
    std::string error;
    ASSERT_TRUE(WriteDocSite(loaded_, coverage, site_, stats, error)) << error;
    EXPECT_EQ(stats.pages, 4u + 2 + 0 + 3);  // assets, index, data; 2 spaces; no behaviours; 3 registers
  }

  regdb::LoadedDatabase loaded_;
  fs::path root_;
  fs::path site_;
};

TEST_F(DocSiteTest, EveryRegisterSpaceAndAssetHasItsFile) {
  Write();
  for (const char* file : {"index.html", "registers.js", "regemu-doc.css", "regemu-doc.js", "r/CMD.html",
                           "r/STATUS.html", "r/WIDE.html", "s/config.html", "s/bar.html"}) {
    EXPECT_TRUE(fs::exists(site_ / file)) << file;
  }
}

TEST_F(DocSiteTest, TheBitfieldPictureHasOneBoxPerFieldAndGapsForTheRest) {
  Write();
  std::string page = Slurp(site_ / "r/CMD.html");
  EXPECT_EQ(Count(page, "<g class=\"field\""), 3u);
  EXPECT_EQ(Count(page, "class=\"field-row"), 3u);
  // Bits 0 and 10:3 belong to no field.
  EXPECT_EQ(Count(page, "<g class=\"gap\""), 2u);
  EXPECT_THAT(page, HasSubstr("data-field=\"MSE\""));
  EXPECT_THAT(page, HasSubstr("mbz \xE2\x80\x94 must be zero"));
}

TEST_F(DocSiteTest, AFieldAcrossBit32OfA64BitRegisterIsOneBoxDrawnInBothRows) {
  const regdb::Register& wide = *loaded_.database.RegisterNamed("WIDE");
  std::string svg = BitfieldSvg(wide);
  EXPECT_EQ(Count(svg, "<g class=\"field\""), 1u);
  size_t group = svg.find("data-field=\"SPAN\"");
  ASSERT_NE(group, std::string::npos);
  std::string span = svg.substr(group, svg.find("</g>", group) - group);
  EXPECT_EQ(Count(span, "<rect"), 2u) << span;
  // Reset 3 in field units puts ones at bits 24 and 25.
  EXPECT_THAT(svg, HasSubstr(">63</text>"));
}

TEST_F(DocSiteTest, ARegisterPageSaysWhereItIsVisibleIncludingAliasWindows) {
  Write();
  std::string page = Slurp(site_ / "r/CMD.html");
  EXPECT_THAT(page, HasSubstr("window <b>MIRROR</b>"));
  EXPECT_THAT(page, HasSubstr("0x8004"));  // 0x8000 + CMD's 0x4
  EXPECT_THAT(page, HasSubstr("Reference: PCI spec 6.2.2"));
  EXPECT_THAT(page, HasSubstr("Command &lt;enables&gt; &amp; more"));
  EXPECT_THAT(page, Not(HasSubstr("<enables>")));
}

TEST_F(DocSiteTest, MarkersAndEnumeratedValuesAreShown) {
  Write();
  std::string page = Slurp(site_ / "r/STATUS.html");
  EXPECT_THAT(page, HasSubstr("marker volatile"));
  EXPECT_THAT(page, HasSubstr("<code>0x2</code> FAST \xE2\x80\x94 quickly"));
  EXPECT_THAT(page, HasSubstr("w1c \xE2\x80\x94 write 1 to clear"));
  EXPECT_THAT(page, HasSubstr("pf-status"));
}

// A computed field shows its expression; a gated register or field says
// while when it is writable and what a blocked write is.
TEST_F(DocSiteTest, ComputedFieldsAndWriteGatesAreShown) {
  loaded_ = CheckYaml(R"(device: gates
spaces:
  - {name: bar, kind: mmio, size: 0x100}
registers:
  - {name: LOCK, space: bar, offset: 0x0, fields: [{name: LOCKED, bits: 0}]}
  - name: LOAD
    space: bar
    offset: 0x4
    write_gate: {when: "!LOCK.LOCKED", violation: "LOAD written while locked"}
  - name: STATUS
    space: bar
    offset: 0x8
    fields:
      - {name: RAW, bits: 0, access: hw}
      - {name: MASKED, bits: 1, access: ro, value: "STATUS.RAW & LOCK.LOCKED"}
      - {name: MODE, bits: "3:2", write_gate: "LOCK.LOCKED == 0"}
)");
  ASSERT_FALSE(loaded_.diagnostics.has_errors()) << regdb::FormatDiagnostics(loaded_.sources, loaded_.diagnostics);
  DocSiteStats stats;
  std::string error;
  ASSERT_TRUE(WriteDocSite(loaded_, {}, site_, stats, error)) << error;
  std::string load = Slurp(site_ / "r/LOAD.html");
  EXPECT_THAT(load, HasSubstr("<span class=\"marker gate\">writable while !LOCK.LOCKED; a blocked write is a "
                              "protocol violation (LOAD written while locked)</span>"));
  std::string status = Slurp(site_ / "r/STATUS.html");
  EXPECT_THAT(status, HasSubstr("marker computed"));
  EXPECT_THAT(status, HasSubstr("= STATUS.RAW &amp; LOCK.LOCKED</span>"));
  EXPECT_THAT(status, HasSubstr("writable while LOCK.LOCKED == 0; a blocked write is ignored"));
}

TEST_F(DocSiteTest, TheIndexCarriesTheSearchBoxTheRegisterDataAndNoNetworkAddress) {
  Write();
  std::string index = Slurp(site_ / "index.html");
  EXPECT_THAT(index, HasSubstr("<input id=\"search\""));
  EXPECT_THAT(index, HasSubstr("<ul id=\"register-list\">"));
  EXPECT_THAT(index, HasSubstr("href=\"s/bar.html\""));
  EXPECT_THAT(index, HasSubstr("<section id=\"diagnostics\">"));
  std::string data = Slurp(site_ / "registers.js");
  EXPECT_THAT(data, HasSubstr("[\"CMD\",\"config\",\"0x4\",\"Command \\u003cenables> & more\",-1]"));
  for (const char* file : {"index.html", "r/CMD.html", "s/bar.html", "regemu-doc.css", "regemu-doc.js"}) {
    EXPECT_THAT(Slurp(site_ / file), Not(HasSubstr("https://"))) << file;
  }
}

TEST_F(DocSiteTest, TheSpaceMapFoldsEmptyStretchesAndShowsRangesAndWindows) {
  Write();
  std::string page = Slurp(site_ / "s/bar.html");
  EXPECT_THAT(page, HasSubstr("<svg class=\"address-map\""));
  EXPECT_THAT(page, HasSubstr("band reserved"));
  EXPECT_THAT(page, HasSubstr("window onto config 0x0\xE2\x80\x93" "0xff"));
  EXPECT_THAT(page, HasSubstr("with no register"));
  EXPECT_EQ(Count(page, "class=\"row\""), 1u);  // STATUS and WIDE share the row at 0x0
}

TEST_F(DocSiteTest, RewritingAnEarlierMapDropsPagesOfRegistersThatAreGone) {
  fs::create_directories(site_ / "r");
  { std::ofstream(site_ / "regemu-doc.css") << "old"; }
  { std::ofstream(site_ / "r" / "GONE.html") << "old"; }
  Write();
  EXPECT_FALSE(fs::exists(site_ / "r" / "GONE.html"));
  EXPECT_TRUE(fs::exists(site_ / "r" / "CMD.html"));
}

TEST_F(DocSiteTest, AFolderHoldingSomethingElseIsRefused) {
  fs::create_directories(site_);
  { std::ofstream(site_ / "notes.txt") << "mine"; }
  DocSiteStats stats;
  std::string error;
  EXPECT_FALSE(WriteDocSite(loaded_, {}, site_, stats, error));
  EXPECT_THAT(error, HasSubstr("not empty"));
  EXPECT_TRUE(fs::exists(site_ / "notes.txt"));
}

TEST_F(DocSiteTest, CoverageMarksPaintRegistersAndFields) {
  CoverageMarks coverage;
  coverage.enabled = true;
  RegisterMark& mark = coverage.registers["STATUS"];
  mark.hover = "read 3 times";
  mark.fields["DONE"] = {"covered", "changed 1 time"};
  mark.fields["MODE"] = {"uncovered", "never changed"};
  Write(coverage);
  std::string status = Slurp(site_ / "r/STATUS.html");
  EXPECT_THAT(status, HasSubstr("<g class=\"field covered\" data-field=\"DONE\""));
  EXPECT_THAT(status, HasSubstr("<g class=\"field uncovered\" data-field=\"MODE\""));
  EXPECT_THAT(status, HasSubstr("Coverage: read 3 times"));
  std::string cmd = Slurp(site_ / "r/CMD.html");
  EXPECT_THAT(cmd, HasSubstr("<g class=\"field uncovered\" data-field=\"MSE\""));
  EXPECT_THAT(Slurp(site_ / "registers.js"), HasSubstr("[\"STATUS\",\"bar\",\"0x10\",\"\",1]"));
  EXPECT_THAT(Slurp(site_ / "s/bar.html"), HasSubstr("reg pf-"));
}

TEST_F(DocSiteTest, MarksFromACoverageModelCoverChangedFieldsAndReadOnlyFieldsThatWereRead) {
  emulator::CoverageData data;
  emulator::ModelCoverage& model = data.models["demo"];
  model.device = "demo";
  model.registers = 3;
  model.processes = 2;
  model.devices = 5;
  model.touched["STATUS"].reads = 4;
  model.touched["STATUS"].writes = 2;
  model.touched["STATUS"].fields_changed["DONE"] = 2;
  model.touched["STATUS"].effects["w1c"] = 2;
  model.effect_registers["w1c"] = 1;
  model.touched["CMD"].reads = 1;  // read, never written: RSVD (mbz) is covered, MSE is not
  model.behaviours["fw"] = {"forcewake", {{"domains woken", "render", 3}, {"domains woken", "media", 0}}};
  std::string error;
  const emulator::ModelCoverage* found = ModelFor(data, loaded_.database, error);
  ASSERT_NE(found, nullptr) << error;
  CoverageMarks marks = MarksFrom(*found, loaded_.database, "run.json");
  ASSERT_NE(marks.Of("STATUS"), nullptr);
  EXPECT_EQ(marks.Of("STATUS")->fields.at("DONE").css_class, "covered");
  EXPECT_EQ(marks.Of("STATUS")->fields.at("MODE").css_class, "uncovered");
  EXPECT_THAT(marks.Of("STATUS")->hover, HasSubstr("w1c \xC3\x97" "2"));
  EXPECT_EQ(marks.Of("CMD")->fields.at("RSVD").css_class, "covered");
  EXPECT_EQ(marks.Of("CMD")->fields.at("MSE").css_class, "uncovered");
  EXPECT_EQ(marks.Of("WIDE"), nullptr);
  EXPECT_THAT(marks.summary_html, HasSubstr("registers written</td><td class=\"num\">1 of 3"));
  EXPECT_THAT(marks.summary_html, HasSubstr("fw: domains woken</td><td class=\"num\">1 of 2"));
  EXPECT_THAT(marks.summary_html, HasSubstr("No violation was raised"));
}

TEST_F(DocSiteTest, CoverageOfAnotherDeviceIsAnErrorNamingTheDevicesItHas) {
  emulator::CoverageData data;
  data.models["icl"].device = "icl";
  std::string error;
  EXPECT_EQ(ModelFor(data, loaded_.database, error), nullptr);
  EXPECT_THAT(error, HasSubstr("no device 'demo' (it has: icl)"));
}

// A FIFO's page says what it connects: its ways in and out, the streams
// and FIFOs it drains to, at what exact rate, and the fields it keeps.
TEST(DocSiteFifoTest, AFifoPageShowsItsStreamsRatesAndFlags) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/uart16550");
  ASSERT_FALSE(loaded.diagnostics.has_errors());
  char pattern[] = "/tmp/regemu_doc_fifo_XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  fs::path root = pattern;
  DocSiteStats stats;
  std::string error;
  ASSERT_TRUE(WriteDocSite(loaded, {}, root / "site", stats, error)) << error;
  std::string tx = Slurp(root / "site/b/tx_fifo.html");
  std::string rx = Slurp(root / "site/b/rx_fifo.html");
  fs::remove_all(root);
  EXPECT_THAT(tx, HasSubstr("ticks of a 1843200 Hz clock (exact)"));
  EXPECT_THAT(tx, HasSubstr("output stream <b>sout</b>"));
  EXPECT_THAT(tx, HasSubstr("<a href=\"../b/rx_fifo.html\">rx_fifo</a> while <code>MCR.LOOP == 1</code>"));
  EXPECT_THAT(tx, HasSubstr("THR written while the transmit holding register / FIFO is full"));
  EXPECT_THAT(rx, HasSubstr("input stream <b>sin</b>"));
  EXPECT_THAT(rx, HasSubstr("returns the oldest entry and removes it"));
}

// An i2c-bus's page says what is on the wire: the command layout, where
// the address comes from, where read bytes go, its signals and targets;
// the FIFO draining into it links to it.
TEST(DocSiteI2cBusTest, AnI2cBusPageShowsItsCommandsSignalsAndTargets) {
  regdb::LoadedDatabase loaded = regdb::LoadAndCheck(std::string(REGEMU_SOURCE_DIR) + "/yaml/dw_i2c");
  ASSERT_FALSE(loaded.diagnostics.has_errors());
  char pattern[] = "/tmp/regemu_doc_i2c_XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  fs::path root = pattern;
  DocSiteStats stats;
  std::string error;
  ASSERT_TRUE(WriteDocSite(loaded, {}, root / "site", stats, error)) << error;
  std::string bus = Slurp(root / "site/b/i2c.html");
  std::string tx = Slurp(root / "site/b/tx_fifo.html");
  fs::remove_all(root);
  EXPECT_THAT(bus, HasSubstr("data bits 7:0, read bit 8, STOP bit 9, RESTART bit 10"));
  EXPECT_THAT(bus, HasSubstr("<code>IC_TAR.IC_TAR &amp; 0x7F</code> at each START"));
  EXPECT_THAT(bus, HasSubstr("<a href=\"../b/rx_fifo.html\">rx_fifo</a>"));
  EXPECT_THAT(bus, HasSubstr("<code>i2c.nack</code> (no target acknowledged)"));
  EXPECT_THAT(bus, HasSubstr("<b>eeprom</b> at 0x50: 256 bytes behind a 1-byte pointer, writes wrap in 8-byte pages"));
  EXPECT_THAT(tx, HasSubstr("bus <a href=\"../b/i2c.html\">i2c</a>"));
  EXPECT_THAT(tx, HasSubstr("the event <code>i2c.nack</code>"));
}

}  // namespace
}  // namespace regemu::docgen
