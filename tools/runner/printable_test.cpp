#include <gtest/gtest.h>

#include "printable.h"

namespace onnxpool_runner {
namespace {

TEST(PrintableLine, KeepsAsciiAndValidUtf8) {
  EXPECT_EQ(printable_line("MaxPool 'x'"), "MaxPool 'x'");
  EXPECT_EQ(printable_line("\xc3\xa9t\xc3\xa9 \xe2\x82\xac"), "\xc3\xa9t\xc3\xa9 \xe2\x82\xac");
}

TEST(PrintableLine, EscapesControlAndInvalidBytes) {
  EXPECT_EQ(printable_line("a\nb"), "a\\x0ab");
  EXPECT_EQ(printable_line(std::string("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable_line("Max\xffPool"), "Max\\xffPool");
  EXPECT_EQ(printable_line("\xc3"), "\\xc3");          // truncated sequence
  EXPECT_EQ(printable_line("\xc3(x"), "\\xc3(x");      // bad continuation byte
}

}  // namespace
}  // namespace onnxpool_runner
