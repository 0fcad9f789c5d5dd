// `regemu events DB`: the catalog of a database's event counters, as a
// table or JSON, filtered by name; a database without counters or with
// errors, and a missing path, exit non-zero with a message.
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/tools/cli_support.hpp"

namespace {

using ::testing::HasSubstr;
using regemu::testing_support::CliResult;
using regemu::testing_support::RunRegemu;

TEST(RegemuEventsCli, ListsTheGoldmontCatalog) {
  CliResult r = RunRegemu("events yaml/goldmont");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("yaml/goldmont: behaviour 'pmu': 169 of 169 event(s)"));
  EXPECT_THAT(r.out, HasSubstr("UOPS_NOT_DELIVERED.ANY"));
  EXPECT_THAT(r.out, HasSubstr("EVENT=0x9c UMASK=0x0"));
  EXPECT_THAT(r.out, HasSubstr("fixed 2"));
}

TEST(RegemuEventsCli, GrepAndJson) {
  CliResult r = RunRegemu("events yaml/goldmont --grep offcore_response.any_request --json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json json = nlohmann::json::parse(r.out);
  ASSERT_EQ(json["catalogs"].size(), 1u);
  const nlohmann::json& events = json["catalogs"][0]["events"];
  ASSERT_FALSE(events.empty());
  for (const nlohmann::json& event : events) {
    EXPECT_THAT(event["name"].get<std::string>(), HasSubstr("OFFCORE_RESPONSE.ANY_REQUEST"));
    EXPECT_THAT(event["select"].get<std::string>(), HasSubstr("EVENT=0xb7 UMASK=0x1 response="));
  }
  CliResult same = RunRegemu("events yaml/goldmont --grep inst_retired.any_p --json");
  nlohmann::json any_p = nlohmann::json::parse(same.out)["catalogs"][0]["events"][0];
  EXPECT_EQ(any_p["same_as"], "INST_RETIRED.ANY");
}

TEST(RegemuEventsCli, DatabasesWithoutCountersOrPathsFail) {
  CliResult none = RunRegemu("events yaml/icl");
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_THAT(none.err, HasSubstr("yaml/icl has no event-counters behaviour"));
  CliResult missing = RunRegemu("events yaml/nosuch");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("no such file or folder: yaml/nosuch"));
}

}  // namespace
